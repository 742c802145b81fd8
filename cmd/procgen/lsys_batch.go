package main

import (
	"context"
	"fmt"

	"github.com/procgen-dev/procgen/internal/job"
)

// lsysSystemExts are the files a directory given to lsys derive contributes.
var lsysSystemExts = []string{".l", ".lsys"}

// lsysDeriveBatch derives one L-system, or several (files, or the .l files
// of a directory) one after another with outputs named by each system's
// file: -o out/%s.obj.
func (a *app) lsysDeriveBatch(ctx context.Context, args, outs []string, sh shard, o lsysOptions) error {
	own, batch, err := a.ownBatch("lsys", args, sh, lsysSystemExts...)
	if err != nil {
		return err
	}
	if !batch {
		if len(own) == 0 {
			return nil
		}
		return a.lsysDerive(ctx, own[0].Path, outs, o)
	}
	outsOf, err := a.batchOutputs(own, outs)
	if err != nil {
		return err
	}
	defer a.dev.KeepOpen()()
	return a.runBatch(ctx, "lsys", own, len(own), func(it batchItem) error {
		if len(outs) == 0 {
			fmt.Fprintf(a.stdout, "== %s\n", it.Path) // the statistics of each system under its name
		} else if o.Stats {
			fmt.Fprintf(a.stderr, "== %s\n", it.Path)
		}
		if err := job.MakeDirs(outsOf[it.Slot]); err != nil {
			return err
		}
		return a.lsysDerive(ctx, it.Path, outsOf[it.Slot], o)
	})
}
