package output

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Stdout is the output path that means standard output.
const Stdout = "-"

// Kind is how an output reaches its destination.
type Kind int

const (
	// KindFile is a regular file (or a path where none exists yet): written
	// to a temporary file beside it and renamed into place.
	KindFile Kind = iota
	// KindStdout is "-": the command's standard output, streamed.
	KindStdout
	// KindStream is a character device, FIFO or socket: opened and written
	// through, never renamed over.
	KindStream
	// KindDescriptor is one of the process's own open descriptors named by
	// path (/dev/stdout, /dev/fd/3, /proc/self/fd/1): written through a
	// duplicate, at the descriptor's offset, never renamed over (renaming
	// over /proc/self/fd/1's file would drop what the shell wrote around it).
	KindDescriptor
)

// Target is an output path resolved before the work: where the bytes will go
// and how.
type Target struct {
	Path string // as the user wrote it
	Kind Kind
	// File is the physical path (absolute, no symlinks) where a KindFile
	// output is renamed into place, so a link to a file stays a link and its
	// target is replaced. For KindStream it is the device or FIFO to open;
	// for KindDescriptor /proc/PID/fd/N.
	File string
	// FD is the descriptor of a KindDescriptor.
	FD int
	// sink: the null device, which any number of outputs may share.
	sink bool
}

// ErrTarget marks an output path that cannot be written: a directory, a
// missing or read-only parent directory, a dangling chain of links. Commands
// report it as a usage error, before any work.
var ErrTarget = errors.New("unusable output path")

// targetError is an ErrTarget with its reason.
type targetError struct {
	path, reason string
}

func (e *targetError) Error() string        { return fmt.Sprintf("output: write %s: %s", e.path, e.reason) }
func (e *targetError) Is(target error) bool { return target == ErrTarget }

func badTarget(path, format string, args ...any) error {
	return &targetError{path: path, reason: fmt.Sprintf(format, args...)}
}

// maxLinks bounds a chain of symlinks, as the kernel does (ELOOP).
const maxLinks = 40

// Resolve classifies path and checks that it can be written, without writing
// anything that stays: for a file, its directory must exist and accept a new
// file (a probe file is created and removed at once). On error, Kind is still
// KindDescriptor for a path into a process's descriptors.
func Resolve(path string) (Target, error) {
	t := Target{Path: path, FD: -1}
	if path == Stdout {
		t.Kind = KindStdout
		return t, nil
	}
	if path == "" {
		return t, badTarget(`""`, "empty path")
	}
	ph, err := walkPath(path)
	if ph.descriptor {
		// Also on error: a refused descriptor is still not a directory.
		t.Kind = KindDescriptor
	}
	if err != nil {
		return t, err
	}
	t.File = ph.path
	if ph.fd >= 0 {
		t.Kind, t.FD = KindDescriptor, ph.fd
		_, err := checkDescriptor(path, ph.fd)
		return t, err
	}
	fi := ph.fi
	switch {
	case fi != nil && fi.IsDir():
		return t, badTarget(path, "is a directory, not a file")
	case strings.HasSuffix(path, "/"):
		return t, badTarget(path, "ends with / but is not a directory")
	case fi == nil || fi.Mode().IsRegular():
		t.Kind = KindFile
		if err := kernelAgrees(path, ph); err != nil {
			return t, err
		}
		dir := filepath.Dir(ph.path)
		if !ph.linked {
			dir = filepath.Dir(path) // the user's words in messages
		}
		return t, probeDir(path, dir)
	case fi.Mode()&(fs.ModeCharDevice|fs.ModeDevice|fs.ModeNamedPipe|fs.ModeSocket) != 0:
		t.Kind = KindStream
		t.sink = isNullDevice(fi)
		return t, nil
	}
	return t, badTarget(path, "not a regular file, device or FIFO (%v)", fi.Mode().Type())
}

// kernelAgrees asks the kernel whether path opens the file the walk found:
// the walk is our reading of the links; a rename at ph.path must replace
// what the user's path names, or nothing at all.
func kernelAgrees(path string, ph physical) error {
	fi, err := os.Stat(path)
	switch {
	case ph.fi == nil && errors.Is(err, fs.ErrNotExist):
		return nil
	case ph.fi == nil && err == nil:
		return badTarget(path, "resolves to the new file %s, but names an existing file; refusing to guess", ph.path)
	case err != nil:
		return badTarget(path, "%v", unwrapPathError(err))
	case !os.SameFile(fi, ph.fi):
		return badTarget(path, "resolves to %s, but names another file; refusing to guess", ph.path)
	}
	return nil
}

// isNullDevice says whether fi is the system's null device.
func isNullDevice(fi fs.FileInfo) bool {
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(fi, null)
}

func stdName(fd int) string {
	switch fd {
	case 0:
		return "standard input"
	case 1:
		return "standard output"
	case 2:
		return "standard error"
	}
	return fmt.Sprintf("descriptor %d", fd)
}

// CheckWriter is the check of "-" against the writer it goes to: when that
// is a file of this process (os.Stdout), its descriptor must be open for
// writing, not the stand-in for one closed at start.
// A writer that wraps another (the command layer's broken-pipe watch) says
// so with Unwrap() io.Writer.
func CheckWriter(path string, w io.Writer) error {
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fd, ok := fileDescriptor(f)
	if !ok {
		return badTarget(path, "%s is closed", f.Name())
	}
	_, err := checkDescriptor(path, fd)
	return err
}

// probeDir checks that dir exists and accepts a new file.
func probeDir(path, dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return badTarget(path, "directory %s does not exist", dir)
	case err != nil:
		return badTarget(path, "%v", unwrapPathError(err))
	case !fi.IsDir():
		return badTarget(path, "%s is not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".procgen-probe-*")
	if err != nil {
		return badTarget(path, "directory %s is not writable (%v)", dir, unwrapPathError(err))
	}
	name := f.Name()
	_ = f.Close()
	_ = os.Remove(name)
	return nil
}

// ProbeCreatableDir checks that dir exists and is writable, or can be created:
// its nearest existing ancestor is a writable directory. Nothing is created.
func ProbeCreatableDir(dir string) error {
	cur := filepath.Clean(dir)
	for {
		fi, err := os.Stat(cur)
		if err == nil {
			if !fi.IsDir() {
				return badTarget(dir, "%s is not a directory", cur)
			}
			return probeDir(dir, cur)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return badTarget(dir, "%v", unwrapPathError(err))
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return badTarget(dir, "no existing parent directory")
		}
		cur = parent
	}
}

// SameFile reports whether the output t would write over the existing file
// at input (after resolving links on both). Missing files are never the same.
func SameFile(t Target, input string) bool {
	if t.Kind == KindStdout || input == "" || input == Stdout {
		return false
	}
	out, err := os.Stat(t.File)
	if err != nil {
		return false
	}
	in, err := os.Stat(input)
	return err == nil && os.SameFile(in, out)
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
