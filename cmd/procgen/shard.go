package main

import (
	"os"

	"github.com/spf13/pflag"

	sharding "github.com/procgen-dev/procgen/internal/shard"
)

// shard is this run's part of a batch split over N runs (internal/shard).
type shard = sharding.Shard

// addShardFlag defines --shard on a batch command.
func addShardFlag(f *pflag.FlagSet, spec *string) {
	f.StringVar(spec, "shard", "", sharding.Help)
}

// resolveShard is sharding.Resolve, whose every error is a usage error.
func resolveShard(spec string, getenv func(string) string) (shard, error) {
	s, err := sharding.Resolve(spec, getenv)
	return s, asUsage(err)
}

// shardOf resolves the shard of a command from its --shard value and the
// process environment, and logs it when the batch is split.
func (a *app) shardOf(spec string) (shard, error) {
	s, err := resolveShard(spec, os.Getenv)
	if err == nil && s.Active() {
		a.log.Infof("shard %s (from %s)", s, s.From)
	}
	return s, err
}

// shardFlameJobs keeps the flames of the batch (items items, bad files
// included) that are this shard's. A batch of one flame with the shard from
// the environment is rendered whole: an array whose tasks each name their own
// genome (genome_$SLURM_ARRAY_TASK_ID.flam3) is not a split batch.
func (a *app) shardFlameJobs(jobs []flameJob, items int, sh shard) []flameJob {
	if !sh.Active() {
		return jobs
	}
	if items == 1 && sh.FromEnv() {
		a.log.Debugf("%s ignored: one flame (-o PART.accum splits one still's samples)", sh.From)
		return jobs
	}
	own := sharding.Owned(sh, jobs, func(j flameJob) int { return j.slot })
	if len(own) == 0 {
		hint := "--shard 0/1 renders them all"
		if items == 1 {
			hint = "-o PART.accum splits one still's samples; --shard 0/1 renders it whole"
		}
		a.log.Warnf("shard %s (from %s) owns none of the %d flames: nothing rendered; %s", sh, sh.From, items, hint)
	}
	return own
}

// animShard resolves flame animate's shard: only frame files can be split,
// a y4m stream or a video is one file that one run writes.
func (a *app) animShard(af animateFlags, out animOutput) (shard, error) {
	sh, err := a.shardOf(af.shardSpec)
	if err != nil || !sh.Active() || out.kind == "pattern" {
		return sh, err
	}
	if sh.FromEnv() {
		a.log.Infof("%s ignored: -o %s is one file; frame patterns are split", sh.From, af.out)
		return shard{Count: 1}, nil
	}
	return shard{}, usageErrorf("--shard %s (from %s) with -o %s: shards write frame files; give a pattern such as frames/f%%05d.png and encode the frames after the array",
		sh, sh.From, af.out)
}
