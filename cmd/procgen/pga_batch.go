package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/procgen-dev/procgen/internal/job"
)

// pgaCityBatch builds one grammar's city, or several grammars' (files, or
// the .pga files of a directory) one after another on the same lots, with
// outputs named by each grammar's file: -o cities/%s.glb.
func (a *app) pgaCityBatch(ctx context.Context, args, outs []string, sh shard, o pgaOptions) error {
	own, batch, err := a.ownBatch("pga", args, sh, ".pga")
	if err != nil {
		return err
	}
	if !batch {
		if len(own) == 0 {
			return nil
		}
		return a.pgaCity(ctx, own[0].Path, outs, o)
	}
	var lots []string
	if o.Lots != "" {
		lots = append(lots, o.Lots)
	}
	outsOf, err := a.batchOutputs(own, outs, lots...)
	if err != nil {
		return err
	}
	// pgaCity prints the statistics to stdout without -o, and with
	// --stats-only unless a .json takes them.
	printsStats := len(outs) == 0 || o.StatsOnly && !slices.ContainsFunc(outs, func(out string) bool {
		return strings.EqualFold(filepath.Ext(out), ".json")
	})
	defer a.dev.KeepOpen()()
	return a.runBatch(ctx, "pga", own, len(own), func(it batchItem) error {
		if printsStats {
			fmt.Fprintf(a.stdout, "== %s\n", it.Path) // the statistics of each grammar under its name
		}
		if err := job.MakeDirs(outsOf[it.Slot]); err != nil {
			return err
		}
		return a.pgaCity(ctx, it.Path, outsOf[it.Slot], o)
	})
}
