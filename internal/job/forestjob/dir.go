package forestjob

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/output/outdir"
)

// settleOutDir settles forest's output directory before any work: "-" is
// refused (the output is a directory of files), a symlink is followed, an
// existing non-empty directory is replaced only with --force, only when
// procgen wrote everything in it (outdir.Inspect), and never when it holds
// one of the run's inputs; the parent must accept a new directory. Every
// error is a usage error.
func settleOutDir(outDir string, force bool, inputs ...string) (*outdir.Dir, error) {
	if outDir == output.Stdout {
		return nil, job.Usagef("-o -: forest writes a directory of files (CSV, ASCII grids, PNG, summary.json); name a directory")
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
				return job.Usagef("output %s holds the input %s: choose another output directory", outDir, in)
			}
		}
		return nil
	}
	dir, exists, err := job.SettleOutDir("output", outDir, force,
		"--force replaces it as a whole, if it holds only what procgen wrote there", holdsInput)
	if err != nil {
		return nil, err
	}
	if exists {
		if err := output.ProbeCreatableDir(filepath.Dir(dir)); err != nil {
			return nil, job.UsageError{Err: err}
		}
	}
	d, err := outdir.Inspect(dir)
	var refused *outdir.RefusedError
	switch {
	case errors.As(err, &refused):
		return nil, job.Usagef("output %v", err)
	case err != nil:
		return nil, job.Usagef("output %s: %v", outDir, output.DescribeFSError(err))
	}
	return d, nil
}
