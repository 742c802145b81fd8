package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// shard is this run's part of a batch split over n runs (a Slurm job array,
// a Kubernetes indexed Job, or n shells): run Index of Count renders the
// items k of the batch with k mod Count == Index, so the n runs together
// write exactly the files of one run, and no file twice. Count 0 or 1 is the
// whole batch.
type shard struct {
	Index, Count int
	// From says where the shard came from (--shard, SLURM_ARRAY_TASK_ID,
	// JOB_COMPLETION_INDEX), for messages.
	From string
}

// active: the batch is split.
func (s shard) active() bool { return s.Count > 1 }

// fromEnv: the batch is split by a job array's variables, not --shard. Where
// a command's output cannot be split (a video, a JSON summary, one flame),
// such a shard is ignored with a note: each task of an array may be a run
// of its own.
func (s shard) fromEnv() bool { return s.active() && s.From != "--shard" }

// owns says whether item k of the batch is this run's.
func (s shard) owns(k int) bool { return !s.active() || k%s.Count == s.Index }

func (s shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// shardCountEnv gives the number of completions of a Kubernetes indexed Job,
// which sets JOB_COMPLETION_INDEX but not the count.
const shardCountEnv = "PROCGEN_SHARD_COUNT"

const shardHelp = "run only part `I/N` of the batch (0-based; see above), so N runs write one run's files; " +
	"default from SLURM_ARRAY_TASK_ID/COUNT/MIN, else JOB_COMPLETION_INDEX with " + shardCountEnv + "; 0/1: all"

// addShardFlag defines --shard on a batch command.
func addShardFlag(f *pflag.FlagSet, spec *string) {
	f.StringVar(spec, "shard", "", shardHelp)
}

// resolveShard settles this run's shard. Precedence: --shard (even 0/1,
// which turns sharding off inside an array job), then Slurm's job-array
// variables, then Kubernetes' JOB_COMPLETION_INDEX with PROCGEN_SHARD_COUNT.
func resolveShard(spec string, getenv func(string) string) (shard, error) {
	if spec != "" {
		s, err := parseShard(spec)
		if err != nil {
			return shard{}, usageErrorf("invalid --shard %q: %v", spec, err)
		}
		s.From = "--shard"
		return s, nil
	}
	if id := getenv("SLURM_ARRAY_TASK_ID"); id != "" {
		s, err := slurmShard(id, getenv)
		if err != nil {
			return shard{}, usageErrorf("slurm job array: %v; or give --shard I/N", err)
		}
		return s, nil
	}
	if idx := getenv("JOB_COMPLETION_INDEX"); idx != "" {
		i, err := strconv.Atoi(idx)
		if err != nil || i < 0 {
			return shard{}, usageErrorf("JOB_COMPLETION_INDEX=%q: want a number from 0", idx)
		}
		cs := getenv(shardCountEnv)
		if cs == "" {
			return shard{}, usageErrorf("JOB_COMPLETION_INDEX=%d without %s: set it to the Job's completions, or give --shard I/N", i, shardCountEnv)
		}
		n, err := strconv.Atoi(cs)
		if err != nil || n < 1 || n > maxShards {
			return shard{}, usageErrorf("%s=%q: want 1..%d", shardCountEnv, cs, maxShards)
		}
		if i >= n {
			return shard{}, usageErrorf("JOB_COMPLETION_INDEX=%d is not below %s=%d", i, shardCountEnv, n)
		}
		return shard{Index: i, Count: n, From: "JOB_COMPLETION_INDEX"}, nil
	}
	return shard{Count: 1}, nil
}

// maxShards bounds N: far past any array a scheduler runs (Slurm's
// MaxArraySize defaults to 1001).
const maxShards = 1 << 20

func parseShard(spec string) (shard, error) {
	is, ns, ok := strings.Cut(spec, "/")
	if !ok {
		return shard{}, fmt.Errorf("want I/N, e.g. 0/4")
	}
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	switch {
	case err1 != nil || err2 != nil:
		return shard{}, fmt.Errorf("want two integers I/N, e.g. 0/4")
	case n < 1 || n > maxShards:
		return shard{}, fmt.Errorf("N must be 1..%d", maxShards)
	case i < 0 || i >= n:
		return shard{}, fmt.Errorf("I must be 0..N-1 (0-based)")
	}
	return shard{Index: i, Count: n}, nil
}

// slurmShard maps a job-array task to a shard: index (ID-MIN)/STEP of
// COUNT. Arrays given as lists (--array=1,5,7) have no such mapping unless
// their ids happen to be a range, and are refused.
func slurmShard(id string, getenv func(string) string) (shard, error) {
	num := func(name string, def int) (int, error) {
		v := getenv(name)
		if v == "" {
			if def < 0 {
				return 0, fmt.Errorf("SLURM_ARRAY_TASK_ID is set but %s is not", name)
			}
			return def, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%s=%q: want a number from 0", name, v)
		}
		return n, nil
	}
	tid, err := num("SLURM_ARRAY_TASK_ID", -1)
	if err != nil {
		return shard{}, err
	}
	count, err := num("SLURM_ARRAY_TASK_COUNT", -1)
	if err != nil {
		return shard{}, err
	}
	lo, err := num("SLURM_ARRAY_TASK_MIN", 0)
	if err != nil {
		return shard{}, err
	}
	step, err := num("SLURM_ARRAY_TASK_STEP", 1)
	if err != nil {
		return shard{}, err
	}
	step = max(step, 1)
	switch {
	case count < 1 || count > maxShards:
		return shard{}, fmt.Errorf("SLURM_ARRAY_TASK_COUNT=%d: want 1..%d", count, maxShards)
	case tid < lo || (tid-lo)%step != 0 || (tid-lo)/step >= count:
		return shard{}, fmt.Errorf("task %d is not one of %d ids from %d in steps of %d (use --array=A-B or A-B:S)", tid, count, lo, step)
	}
	return shard{Index: (tid - lo) / step, Count: count, From: "SLURM_ARRAY_TASK_ID"}, nil
}

// shardOf resolves the shard of a command from its --shard value and the
// process environment, and logs it when the batch is split.
func (a *app) shardOf(spec string) (shard, error) {
	s, err := resolveShard(spec, os.Getenv)
	if err == nil && s.active() {
		a.log.Infof("shard %s (from %s)", s, s.From)
	}
	return s, err
}

// shardFlameJobs keeps the flames of the batch (items items, bad files
// included) that are this shard's. A batch of one flame with the shard from
// the environment is rendered whole: an array whose tasks each name their own
// genome (genome_$SLURM_ARRAY_TASK_ID.flam3) is not a split batch.
func (a *app) shardFlameJobs(jobs []flameJob, items int, sh shard) []flameJob {
	if !sh.active() {
		return jobs
	}
	if items == 1 && sh.fromEnv() {
		a.log.Debugf("%s ignored: one flame (-o PART.accum splits one still's samples)", sh.From)
		return jobs
	}
	own := ownedBy(sh, jobs, func(j flameJob) int { return j.slot })
	if len(own) == 0 {
		hint := "--shard 0/1 renders them all"
		if items == 1 {
			hint = "-o PART.accum splits one still's samples; --shard 0/1 renders it whole"
		}
		a.log.Warnf("shard %s (from %s) owns none of the %d flames: nothing rendered; %s", sh, sh.From, items, hint)
	}
	return own
}

// ownedBy keeps the items of a batch that shard sh owns, slot giving each
// item's position in the batch.
func ownedBy[T any](sh shard, items []T, slot func(T) int) []T {
	var own []T
	for _, it := range items {
		if sh.owns(slot(it)) {
			own = append(own, it)
		}
	}
	return own
}

// shardFrames keeps the frames of an animation that are this shard's: frame
// i of the run (whatever its time or file number) is item i of the batch.
// Each frame's image depends on its genome and the seed only, so a frame
// rendered by any shard is the frame one run writes.
func shardFrames(times []float64, numbers []int, sh shard) ([]float64, []int) {
	if !sh.active() {
		return times, numbers
	}
	var t []float64
	var n []int
	for i := range times {
		if sh.owns(i) {
			t, n = append(t, times[i]), append(n, numbers[i])
		}
	}
	return t, n
}

// animShard resolves flame animate's shard: only frame files can be split,
// a y4m stream or a video is one file that one run writes.
func (a *app) animShard(af animateFlags, out animOutput) (shard, error) {
	sh, err := a.shardOf(af.shardSpec)
	if err != nil || !sh.active() || out.kind == "pattern" {
		return sh, err
	}
	if sh.fromEnv() {
		a.log.Infof("%s ignored: -o %s is one file; frame patterns are split", sh.From, af.out)
		return shard{Count: 1}, nil
	}
	return shard{}, usageErrorf("--shard %s (from %s) with -o %s: shards write frame files; give a pattern such as frames/f%%05d.png and encode the frames after the array",
		sh, sh.From, af.out)
}
