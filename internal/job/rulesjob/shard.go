package rulesjob

import (
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/shard"
)

// rules run --shard I/N: the states (read or generated: state s is drawn
// from --seed and s alone) are cut into N contiguous ranges, run I takes
// range I, and writes its states' CSV rows under the same header as one
// run. One run's CSV is the header and the parts' rows in shard order:
//
//	head -n 1 part.0.csv; for i in 0..N-1: tail -n +2 part.$i.csv
//
// Only CSV is sharded: the JSON document and --stats hold per-step counts
// and a step count of the whole run, and --trace numbers states of it.

// shardOutput checks that a sharded run writes CSV and names its own
// file: -o takes a printf verb for the shard index (final.%03d.csv), so the
// tasks of an array, which share one command line, write distinct files.
// A shard from a job array's variables where the output cannot be split
// is ignored with a note (each task may be a run of its own).
func shardOutput(env *job.Env, out string, o Options, p *plan, sh shard.Shard) (string, shard.Shard, error) {
	if !sh.Active() {
		return out, sh, nil
	}
	path, err := shardPath(out, o, p, sh)
	if err != nil && sh.FromEnv() {
		env.Log.Infof("%s ignored: this run's output cannot be split (%v)", sh.From, err)
		return out, shard.Shard{Count: 1}, nil
	}
	return path, sh, err
}

func shardPath(out string, o Options, p *plan, sh shard.Shard) (string, error) {
	switch {
	case o.Stats != "" || len(p.trace) > 0 || len(p.recordText) > 0 || o.Frames != "":
		return "", job.Usagef("--shard %s (from %s) with --stats, --trace, --record or --frames: they count steps and number states of the whole run; run them unsharded", sh, sh.From)
	case out == "" || out == output.Stdout:
		if p.format != "csv" {
			return "", job.Usagef("--shard %s (from %s): shards write CSV rows (--format csv, or -o PART.%%d.csv); the JSON document sums the whole run", sh, sh.From)
		}
		return out, nil
	case !strings.EqualFold(filepath.Ext(out), ".csv"):
		return "", job.Usagef("--shard %s (from %s) with -o %s: shards write CSV rows (-o final.%%03d.csv); the JSON document sums the whole run", sh, sh.From, out)
	}
	path, ok := shard.PartPath(out, sh)
	if !ok {
		return "", job.Usagef("--shard %s (from %s) with -o %s: give one printf verb for the shard index (-o final.%%03d.csv), so every shard writes its own file", sh, sh.From, out)
	}
	return path, nil
}
