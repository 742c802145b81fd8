package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/procgen-dev/procgen/internal/output"
)

// planOutputs resolves every output path before any work: a path that cannot
// be written (missing or read-only directory, a directory named as a file),
// two outputs on one destination, or an output that is one of the inputs is
// a usage error now, not a failure after minutes of rendering.
func (a *app) planOutputs(inputs []string, outs ...string) (*output.Plan, error) {
	p := output.NewPlan(a.stdout)
	for _, out := range outs {
		if _, err := p.Add(out); err != nil {
			return nil, usageError{err}
		}
	}
	if err := p.RefuseInputs(inputs...); err != nil {
		return nil, usageError{err}
	}
	return p, nil
}

// checkInputFile is the usage check of an input argument: it must exist, be
// readable and not be a directory. Problems with its content come later, as
// failures (exit 1).
func checkInputFile(what, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return usageErrorf("%s: %s: %v", what, path, describeFSError(err))
	}
	if fi.IsDir() {
		return usageErrorf("%s: %s is a directory, want a file", what, path)
	}
	if !fi.Mode().IsRegular() {
		// A FIFO's open waits for its writer (and would hand it a reader
		// that then goes away): the read itself opens it, cancellably.
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return usageErrorf("%s: %s: %v", what, path, describeFSError(err))
	}
	_ = f.Close()
	return nil
}

func describeFSError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("no such file")
		case errors.Is(err, fs.ErrPermission):
			return fmt.Errorf("permission denied")
		}
		return pe.Err
	}
	return err
}

// isStream says whether path is (or links to) a character device, FIFO or
// socket, or names one of the process's descriptors (/dev/stdout, /dev/fd/3):
// such outputs have no extension to name their format, so they take the
// --format of standard output. An unusable descriptor counts too, so that its
// error comes from the output plan, not from treating it as a directory.
func isStream(path string) bool {
	t, err := output.Resolve(path)
	return t.Kind == output.KindDescriptor || (err == nil && t.Kind == output.KindStream)
}
