// Package output writes procgen's results: PNG images, OBJ/MTL meshes, CSV
// tables and JSON documents.
//
// Every file goes through WriteFile, which writes a temporary file in the
// destination's directory and renames it into place only after everything
// was written and synced. An interrupted or failed run therefore never leaves
// a truncated result, and a result from an earlier run stays intact until the
// new one is complete. The Encode* functions write the same formats to any
// io.Writer, for stdout.
package output

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// fileMode is the mode of every result file. os.CreateTemp makes 0600 files;
// results are meant to be shared like any file a user writes, so they get the
// usual 0644 regardless of the temp file's mode and of the umask.
const fileMode os.FileMode = 0o644

// bufferSize amortises syscalls for encoders that write small pieces (OBJ
// lines, CSV records); 64 KiB is past the point where bigger buffers help.
const bufferSize = 64 << 10

// WriteFile atomically replaces path with what write produces. write gets a
// buffered writer; WriteFile flushes it. On any failure, including an error or
// a panic from write, the temporary file is removed and an existing file at
// path is left untouched; a panic is propagated after the clean-up.
func WriteFile(path string, write func(w io.Writer) error) error {
	if err := writeAtomic(path, write); err != nil {
		return fmt.Errorf("output: write %s: %w", path, err)
	}
	return nil
}

func writeAtomic(path string, write func(w io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if base == "" {
		return fmt.Errorf("no file name")
	}
	if dir == "" {
		dir = "."
	}
	// Same directory, so the rename cannot cross file systems and is atomic.
	// The leading dot keeps half-written files out of casual listings.
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	committed := false
	// A deferred clean-up rather than recover: it runs on errors and panics
	// alike, and a panic keeps its original stack trace as it propagates.
	defer func() {
		if !committed {
			_ = f.Close() // may already be closed; the file is discarded anyway
			_ = os.Remove(tmp)
		}
	}()

	bw := bufio.NewWriterSize(f, bufferSize)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	// Without the sync, a crash shortly after the rename can leave an empty
	// or partial file under the final name on some file systems.
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Chmod(fileMode); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	committed = true
	syncDir(dir)
	return nil
}

// syncDir makes the rename itself durable. It is best effort: the result is
// already complete and in place, and some platforms and file systems refuse
// to sync a directory, which must not turn a good write into a failure.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
