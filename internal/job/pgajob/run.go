package pgajob

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/shard"
)

// Run builds one grammar's city, or several grammars' (files, or the .pga
// files of a directory) one after another on the same lots, with outputs
// named by each grammar's file: -o cities/%s.glb. format is the --format of
// -o - (standard output); o must have been validated (Options.Validate).
func Run(ctx context.Context, env *job.Env, o Options, args, outs []string, format string, sh shard.Shard) error {
	if err := o.checkOutputs(outs, format); err != nil {
		return err
	}
	own, batch, err := job.Own("pga", args, sh, env.Log, ".pga")
	if err != nil {
		return job.AsUsage(err)
	}
	if !batch {
		if len(own) == 0 {
			return nil
		}
		return runCity(ctx, env, o, own[0].Path, outs)
	}
	var lots []string
	if o.Lots != "" {
		lots = append(lots, o.Lots)
	}
	outsOf, err := job.Outputs(own, outs, lots...)
	if err != nil {
		return job.AsUsage(err)
	}
	// A city prints the statistics to stdout without -o, and with
	// --stats-only unless a .json takes them.
	printsStats := len(outs) == 0 || o.StatsOnly && !slices.ContainsFunc(outs, func(out string) bool {
		return strings.EqualFold(filepath.Ext(out), ".json")
	})
	defer env.Dev.KeepOpen()()
	return job.Run(ctx, "pga", own, len(own), func(it job.Item) error {
		if printsStats {
			fmt.Fprintf(env.Stdout, "== %s\n", it.Path) // the statistics of each grammar under its name
		}
		if err := job.MakeDirs(outsOf[it.Slot]); err != nil {
			return err
		}
		return runCity(ctx, env, o, it.Path, outsOf[it.Slot])
	}, env.Log)
}
