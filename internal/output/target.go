package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	// through, never renamed over (renaming over /dev/stdout as root replaces
	// the system's symlink).
	KindStream
)

// Target is an output path resolved before the work: where the bytes will go
// and how.
type Target struct {
	Path string // as the user wrote it
	Kind Kind
	// File is where a KindFile output is renamed into place: Path with any
	// symlinks resolved, so a link to a file stays a link and its target
	// is replaced. For KindStream it is the device or FIFO to open.
	File string
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
// file (a probe file is created and removed at once).
func Resolve(path string) (Target, error) {
	t := Target{Path: path}
	if path == Stdout {
		t.Kind = KindStdout
		return t, nil
	}
	if path == "" {
		return t, badTarget(`""`, "empty path")
	}
	dest, fi, err := followLinks(path)
	if err != nil {
		return t, err
	}
	t.File = dest
	switch {
	case fi == nil || fi.Mode().IsRegular():
		t.Kind = KindFile
		return t, probeDir(path, filepath.Dir(dest))
	case fi.IsDir():
		return t, badTarget(path, "is a directory, not a file")
	case fi.Mode()&(fs.ModeCharDevice|fs.ModeDevice|fs.ModeNamedPipe|fs.ModeSocket) != 0:
		t.Kind = KindStream
		return t, nil
	}
	return t, badTarget(path, "not a regular file, device or FIFO (%v)", fi.Mode().Type())
}

// followLinks resolves a chain of symlinks ending at path, even when the
// last one dangles (the file it names is then created). fi is nil when the
// final path does not exist.
func followLinks(path string) (string, fs.FileInfo, error) {
	cur := path
	for range maxLinks {
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return cur, nil, nil
		}
		if err != nil {
			return "", nil, badTarget(path, "%v", unwrapPathError(err))
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return cur, fi, nil
		}
		link, err := os.Readlink(cur)
		if err != nil {
			return "", nil, badTarget(path, "%v", unwrapPathError(err))
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(cur), link)
		}
		cur = link
	}
	return "", nil, badTarget(path, "too many levels of symbolic links")
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
