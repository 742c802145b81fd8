package lsysjob

import (
	"context"
	"fmt"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/shard"
)

// systemExts are the files a directory given to lsys derive contributes.
var systemExts = []string{".l", ".lsys"}

// Run derives one L-system, or several (files, or the .l files of a
// directory) one after another with outputs named by each system's file:
// -o out/%s.obj. o must have passed Validate; Run checks the outputs'
// formats, then plans, derives and writes each system the shard sh owns.
func Run(ctx context.Context, env *job.Env, args, outs []string, sh shard.Shard, o Options) error {
	if err := o.checkOutputs(outs); err != nil {
		return err
	}
	own, batch, err := job.Own("lsys", args, sh, env.Log, systemExts...)
	if err != nil {
		return job.AsUsage(err)
	}
	if !batch {
		if len(own) == 0 {
			return nil
		}
		return derive(ctx, env, own[0].Path, outs, &o)
	}
	outsOf, err := job.Outputs(own, outs)
	if err != nil {
		return job.AsUsage(err)
	}
	defer env.Dev.KeepOpen()()
	return job.Run(ctx, "lsys", own, len(own), func(it job.Item) error {
		if len(outs) == 0 {
			fmt.Fprintf(env.Stdout, "== %s\n", it.Path) // the statistics of each system under its name
		} else if o.Stats {
			fmt.Fprintf(env.Stderr, "== %s\n", it.Path)
		}
		if err := job.MakeDirs(outsOf[it.Slot]); err != nil {
			return err
		}
		return derive(ctx, env, it.Path, outsOf[it.Slot], &o)
	}, env.Log)
}
