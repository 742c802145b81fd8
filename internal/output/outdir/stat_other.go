//go:build !linux

package outdir

import (
	"io/fs"
	"os"
)

// fileID is a file's identity; this system does not report one, so
// Inspect refuses to replace any non-empty directory here.
type fileID struct {
	dev, ino     uint64
	uid          int
	size         int64
	mtime, ctime int64
}

func idOf(fs.FileInfo) (fileID, bool) { return fileID{}, false }

func euid() int { return os.Geteuid() }
