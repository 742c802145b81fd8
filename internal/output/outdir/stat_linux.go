package outdir

import (
	"io/fs"
	"os"
	"syscall"
)

// fileID is what identifies a file and its last change: a file replaced,
// rewritten, appended to, chmodded or chowned differs in one of these.
type fileID struct {
	dev, ino     uint64
	uid          int
	size         int64
	mtime, ctime int64 // ns
}

// idOf reads fi's identity; ok is false where the system does not report it.
func idOf(fi fs.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino), uid: int(st.Uid), size: st.Size,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
}

func euid() int { return os.Geteuid() }
