// Package output writes procgen's results: PNG images, OBJ/MTL meshes, CSV
// tables and JSON documents, and owns the rules for where they may go.
//
// A result for a regular file is written to a temporary file in the
// destination's directory and renamed into place only after everything was
// written (and synced, as FsyncPolicy says), so an interrupted or failed run never leaves a
// truncated result and an earlier result stays intact until the new one is
// complete. The rename only ever replaces a regular file: a symlink is
// followed and its target replaced, and a character device, FIFO or socket
// is written through (see Resolve). A Plan writes several outputs all or
// nothing. The Encode* functions write the same formats to any io.Writer.
package output

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// fileMode is the mode of every new result file. os.CreateTemp makes 0600 files;
// results are meant to be shared like any file a user writes, so they get the
// usual 0644 regardless of the temp file's mode and of the umask.
const fileMode os.FileMode = 0o644

// bufferSize amortises syscalls for encoders that write small pieces (OBJ
// lines, CSV records); 64 KiB is past the point where bigger buffers help.
const bufferSize = 64 << 10

// WriteFile writes what write produces to path: atomically for a file (the
// target of a symlink), streamed for a device or FIFO, to the process's
// standard output for "-", through the descriptor for /dev/stdout and the
// like. write gets a buffered writer; WriteFile flushes
// it. On any failure, including an error or a panic from write, the
// temporary file is removed and an existing file at path is left untouched;
// a panic is propagated after the clean-up.
func WriteFile(path string, write func(w io.Writer) error) error {
	return WriteFileContext(context.Background(), path, write)
}

// WriteFileContext is WriteFile under ctx: Ctrl-C stops the write, and the
// file is synced as ctx's FsyncPolicy says.
func WriteFileContext(ctx context.Context, path string, write func(w io.Writer) error) error {
	t, err := Resolve(path)
	if err != nil {
		return err
	}
	if t.Kind == KindStdout {
		if err := CheckWriter(path, os.Stdout); err != nil {
			return err
		}
	}
	return writeTarget(ctx, t, os.Stdout, write)
}

// writeTarget writes one resolved output; stdout is where KindStdout goes.
func writeTarget(ctx context.Context, t Target, stdout io.Writer, write func(w io.Writer) error) error {
	switch t.Kind {
	case KindStdout:
		return wrapWrite(t.Path, writeStream(ctx, stdout, write))
	case KindStream:
		f, err := openStream(ctx, t.File)
		if err != nil {
			return wrapWrite(t.Path, err)
		}
		// A FIFO whose reader stopped reading blocks a write: the
		// deadline ends it when ctx does (devices ignore deadlines).
		stop := context.AfterFunc(ctx, func() { _ = f.SetWriteDeadline(time.Now()) })
		err = writeStream(ctx, f, write)
		stop()
		if err != nil && ctx.Err() != nil {
			err = ctx.Err() // the deadline was ctx's doing
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return wrapWrite(t.Path, err)
	case KindDescriptor:
		// Standard output and error through os.Stdout and os.Stderr, as
		// for "-": a closed pipe then ends the run by SIGPIPE, quietly, as
		// it does any command in a pipeline; on a duplicate it would be an
		// EPIPE error.
		switch t.FD {
		case 1:
			return wrapWrite(t.Path, writeStream(ctx, os.Stdout, write))
		case 2:
			return wrapWrite(t.Path, writeStream(ctx, os.Stderr, write))
		}
		f, err := openDescriptor(t.Path, t.FD)
		if err != nil {
			return wrapWrite(t.Path, err)
		}
		err = writeStream(ctx, f, write)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return wrapWrite(t.Path, err)
	}
	s, err := stage(ctx, t, write)
	if err != nil {
		return wrapWrite(t.Path, err)
	}
	return wrapWrite(t.Path, s.commit())
}

func wrapWrite(path string, err error) error {
	if err != nil {
		return fmt.Errorf("output: write %s: %w", path, err)
	}
	return nil
}

func writeStream(ctx context.Context, w io.Writer, write func(w io.Writer) error) error {
	bw := bufio.NewWriterSize(ctxWriter{ctx, w}, bufferSize)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// staged is a complete temporary file waiting to be renamed over its
// destination; synced when durable, and then so is the rename.
type staged struct {
	tmp, dest string
	durable   bool
}

// ctxWriter fails writes once ctx is done.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(b)
}

// stage writes a temporary file in dest's directory. On any failure or panic
// the temporary file is gone when stage returns.
func stage(ctx context.Context, t Target, write func(w io.Writer) error) (s staged, err error) {
	dir, base := filepath.Split(t.File)
	if base == "" {
		return s, fmt.Errorf("no file name")
	}
	if dir == "" {
		dir = "."
	}
	// Same directory, so the rename cannot cross file systems and is atomic.
	// The leading dot keeps half-written files out of casual listings.
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return s, err
	}
	tmp := f.Name()
	done := false
	// A deferred clean-up rather than recover: it runs on errors and panics
	// alike, and a panic keeps its original stack trace as it propagates.
	defer func() {
		if !done {
			_ = f.Close() // may already be closed; the file is discarded anyway
			_ = os.Remove(tmp)
		}
	}()
	// The context is checked under the buffer, once a flush: Ctrl-C stops
	// a large file within 64 KiB, at no cost per small write.
	durable := Durable(ctx)
	var to io.Writer = f
	if durable {
		to = newWriteback(f)
	}
	bw := bufio.NewWriterSize(ctxWriter{ctx, to}, bufferSize)
	if err := write(bw); err != nil {
		return s, err
	}
	if err := bw.Flush(); err != nil {
		return s, err
	}
	// Without the sync, a power cut shortly after the rename can leave an
	// empty or partial file under the final name on some file systems.
	if durable {
		if err := f.Sync(); err != nil {
			return s, err
		}
	}
	if err := f.Chmod(replacedMode(t.File)); err != nil {
		return s, err
	}
	if err := f.Close(); err != nil {
		return s, err
	}
	done = true
	return staged{tmp: tmp, dest: t.File, durable: durable}, nil
}

// replacedMode is the mode a result at dest gets: the permission bits of the
// regular file it replaces (a private 0600 result stays private, a script
// stays executable), else fileMode.
func replacedMode(dest string) os.FileMode {
	if fi, err := os.Stat(dest); err == nil && fi.Mode().IsRegular() {
		return fi.Mode().Perm()
	}
	return fileMode
}

func (s staged) commit() error {
	if err := os.Rename(s.tmp, s.dest); err != nil {
		_ = os.Remove(s.tmp)
		return err
	}
	if s.durable {
		SyncDir(filepath.Dir(s.dest))
	}
	return nil
}

func (s staged) discard() { _ = os.Remove(s.tmp) }

// SyncDir makes a rename in dir durable. It is best effort: the result is
// already complete and in place, and some platforms and file systems refuse
// to sync a directory, which must not turn a good write into a failure.
func SyncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}

// openStream opens a device, FIFO or socket for writing. Opening a FIFO
// waits for a reader, as long as it takes: ctx ends that wait (Ctrl-C), and
// the open goes on in the background, its file closed if it ever opens.
func openStream(ctx context.Context, path string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.f != nil {
				_ = o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}
