package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/procgen-dev/procgen/internal/output"
)

// forestStemExts are the files a directory given to forest disperse
// contributes: stem maps of plots.
var forestStemExts = []string{".csv", ".tsv", ".txt"}

// forestDisperseBatch computes one plot's seed rain, or several plots' (stem
// maps given as files, or a directory of them) one after another with the
// same species and options, each into its own directory: OUTDIR/NAME with
// -o OUTDIR, else NAME-seedrain, NAME being the stem map's file name
// without extension.
func (a *app) forestDisperseBatch(ctx context.Context, args []string, outDir string, force bool, sh shard,
	o forestOptions, p *forestPlan) error {
	own, batch, err := a.ownBatch("forest", args, sh, forestStemExts...)
	if err != nil {
		return err
	}
	if !batch {
		if len(own) == 0 {
			return nil
		}
		return a.forestDisperse(ctx, own[0].Path, outDir, force, o, p)
	}
	if outDir != "" {
		if fi, err := os.Stat(outDir); err == nil && !fi.IsDir() {
			return usageErrorf("output %s exists and is not a directory: with several stem maps -o names the directory of their output directories", outDir)
		}
	}
	dirOf := func(it batchItem) string {
		if outDir == "" {
			return it.Name + "-seedrain"
		}
		return filepath.Join(outDir, it.Name)
	}
	// Every plot's directory is checked before the first plot runs, so
	// that the batch never stops half-way on an output it could refuse now.
	if outDir != "" && !isDir(outDir) {
		if err := output.ProbeCreatableDir(outDir); err != nil {
			return usageError{Err: err}
		}
	} else {
		for _, it := range own {
			if _, err := forestOutDir(dirOf(it), force, it.Path, o.Species); err != nil {
				return err
			}
		}
	}
	defer a.dev.KeepOpen()()
	return a.runBatch(ctx, "forest", own, len(own), func(it batchItem) error {
		if outDir != "" {
			if err := os.MkdirAll(outDir, 0o755); err != nil {
				return fmt.Errorf("%s: %w", outDir, describeFSError(err))
			}
		}
		return a.forestDisperse(ctx, it.Path, dirOf(it), force, o, p)
	})
}
