package forestjob

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/shard"
)

// stemExts are the files a directory given to forest disperse contributes:
// stem maps of plots.
var stemExts = []string{".csv", ".tsv", ".txt"}

// Request is one forest disperse call: the stem maps (files or
// directories), -o, --force and the --shard the command resolved.
type Request struct {
	Stems []string
	Out   string
	Force bool
	Shard shard.Shard
}

// Run computes one plot's seed rain, or several plots' (stem maps given as
// files, or a directory of them) one after another with the same species
// and options, each into its own directory: OUTDIR/NAME with -o OUTDIR,
// else NAME-seedrain, NAME being the stem map's file name without
// extension.
func Run(ctx context.Context, env *job.Env, o Options, p *Plan, req Request) error {
	own, batch, err := job.Own("forest", req.Stems, req.Shard, env.Log, stemExts...)
	if err != nil {
		return job.AsUsage(err)
	}
	outDir, force := req.Out, req.Force
	if !batch {
		if len(own) == 0 {
			return nil
		}
		return disperse(ctx, env, own[0].Path, outDir, force, o, p)
	}
	if outDir != "" {
		if fi, err := os.Stat(outDir); err == nil && !fi.IsDir() {
			return job.Usagef("output %s exists and is not a directory: with several stem maps -o names the directory of their output directories", outDir)
		}
	}
	dirOf := func(it job.Item) string {
		if outDir == "" {
			return it.Name + "-seedrain"
		}
		return filepath.Join(outDir, it.Name)
	}
	// Every plot's directory is checked before the first plot runs, so
	// that the batch never stops half-way on an output it could refuse now.
	if outDir != "" && !job.IsDir(outDir) {
		if err := output.ProbeCreatableDir(outDir); err != nil {
			return job.UsageError{Err: err}
		}
	} else {
		for _, it := range own {
			if _, err := settleOutDir(dirOf(it), force, it.Path, o.Species); err != nil {
				return err
			}
		}
	}
	defer env.Dev.KeepOpen()()
	return job.Run(ctx, "forest", own, len(own), func(it job.Item) error {
		if outDir != "" {
			if err := os.MkdirAll(outDir, 0o755); err != nil {
				return fmt.Errorf("%s: %w", outDir, output.DescribeFSError(err))
			}
		}
		return disperse(ctx, env, it.Path, dirOf(it), force, o, p)
	}, env.Log)
}
