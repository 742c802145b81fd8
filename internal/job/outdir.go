package job

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/procgen-dev/procgen/internal/output"
)

// SettleOutDir checks an output directory before any work: a symlink is
// followed; a missing one needs a parent that accepts a new directory; an
// existing one must be a directory, and empty unless force (forceHint says
// what --force does with it). It returns the resolved path and whether it
// exists. label names the flag in messages ("output", "--frames"); first,
// when not nil, checks an existing directory before its emptiness. Every
// error is a UsageError.
func SettleOutDir(label, dir string, force bool, forceHint string, first func(dir string) error) (string, bool, error) {
	clean := filepath.Clean(dir)
	if resolved, err := filepath.EvalSymlinks(clean); err == nil {
		clean = resolved
	}
	fi, err := os.Stat(clean)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := output.ProbeCreatableDir(filepath.Dir(clean)); err != nil {
			return "", false, UsageError{Err: err}
		}
		return clean, false, nil
	case err != nil:
		return "", false, Usagef("%s %s: %v", label, dir, output.DescribeFSError(err))
	case !fi.IsDir():
		return "", false, Usagef("%s %s exists and is not a directory", label, dir)
	}
	if first != nil {
		if err := first(clean); err != nil {
			return "", false, err
		}
	}
	empty, err := isEmptyDir(clean)
	if err != nil {
		return "", false, Usagef("%s %s: %v", label, dir, output.DescribeFSError(err))
	}
	if !empty && !force {
		return "", false, Usagef("%s %s exists and is not empty: %s", label, dir, forceHint)
	}
	return clean, true, nil
}

func isEmptyDir(dir string) (bool, error) {
	f, err := os.Open(dir)
	if err != nil {
		return false, err
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	if errors.Is(err, io.EOF) {
		return true, nil
	}
	return false, err
}
