package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/output/outdir"
)

// forestOutDir settles forest's output directory before any work: "-" is
// refused (the output is a directory of files), a symlink is followed, an
// existing non-empty directory is replaced only with --force, only when
// procgen wrote everything in it (outdir.Inspect), and never when it holds
// one of the run's inputs; the parent must accept a new directory.
func forestOutDir(outDir string, force bool, inputs ...string) (*outdir.Dir, error) {
	if outDir == output.Stdout {
		return nil, usageErrorf("-o -: forest writes a directory of files (CSV, ASCII grids, PNG, summary.json); name a directory")
	}
	holdsInput := func(dir string) error {
		absDir, _ := filepath.Abs(dir)
		for _, in := range inputs {
			if in == "" {
				continue
			}
			p := in
			if r, err := filepath.EvalSymlinks(in); err == nil {
				p = r
			}
			if abs, err := filepath.Abs(p); err == nil && strings.HasPrefix(abs, absDir+string(filepath.Separator)) {
				return usageErrorf("output %s holds the input %s: choose another output directory", outDir, in)
			}
		}
		return nil
	}
	dir, exists, err := settleOutDir("output", outDir, force,
		"--force replaces it as a whole, if it holds only what procgen wrote there", holdsInput)
	if err != nil {
		return nil, err
	}
	if exists {
		if err := output.ProbeCreatableDir(filepath.Dir(dir)); err != nil {
			return nil, usageError{Err: err}
		}
	}
	d, err := outdir.Inspect(dir)
	var refused *outdir.RefusedError
	switch {
	case errors.As(err, &refused):
		return nil, usageErrorf("output %v", err)
	case err != nil:
		return nil, usageErrorf("output %s: %v", outDir, describeFSError(err))
	}
	return d, nil
}

// settleOutDir checks an output directory before any work: a symlink is
// followed; a missing one needs a parent that accepts a new directory; an
// existing one must be a directory, and empty unless force (forceHint says
// what --force does with it). It returns the resolved path and whether it
// exists. label names the flag in messages ("output", "--frames"); first,
// when not nil, checks an existing directory before its emptiness.
func settleOutDir(label, dir string, force bool, forceHint string, first func(dir string) error) (string, bool, error) {
	clean := filepath.Clean(dir)
	if resolved, err := filepath.EvalSymlinks(clean); err == nil {
		clean = resolved
	}
	fi, err := os.Stat(clean)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := output.ProbeCreatableDir(filepath.Dir(clean)); err != nil {
			return "", false, usageError{Err: err}
		}
		return clean, false, nil
	case err != nil:
		return "", false, usageErrorf("%s %s: %v", label, dir, describeFSError(err))
	case !fi.IsDir():
		return "", false, usageErrorf("%s %s exists and is not a directory", label, dir)
	}
	if first != nil {
		if err := first(clean); err != nil {
			return "", false, err
		}
	}
	empty, err := isEmptyDir(clean)
	if err != nil {
		return "", false, usageErrorf("%s %s: %v", label, dir, describeFSError(err))
	}
	if !empty && !force {
		return "", false, usageErrorf("%s %s exists and is not empty: %s", label, dir, forceHint)
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
