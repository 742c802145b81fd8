// Package shard splits a batch over N runs (a Slurm job array, a
// Kubernetes indexed Job, or N shells): --shard I/N, or the schedulers'
// index variables, and which items of the batch each run owns.
package shard

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is this run's part of a batch split over Count runs: run Index of
// Count renders the items k of the batch with k mod Count == Index, so the
// runs together write exactly the files of one run, and no file twice.
// Count 0 or 1 is the whole batch.
type Shard struct {
	Index, Count int
	// From says where the shard came from (--shard, SLURM_ARRAY_TASK_ID,
	// JOB_COMPLETION_INDEX), for messages.
	From string
}

// FromFlag is Shard.From for a shard given by --shard.
const FromFlag = "--shard"

// Active says the batch is split.
func (s Shard) Active() bool { return s.Count > 1 }

// FromEnv says the batch is split by a job array's variables, not --shard.
// Where a command's output cannot be split (a video, a JSON summary, one
// flame), such a shard is ignored with a note: each task of an array may be
// a run of its own.
func (s Shard) FromEnv() bool { return s.Active() && s.From != FromFlag }

// Owns says whether item k of the batch is this run's.
func (s Shard) Owns(k int) bool { return !s.Active() || k%s.Count == s.Index }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// CountEnv gives the number of completions of a Kubernetes indexed Job,
// which sets JOB_COMPLETION_INDEX but not the count.
const CountEnv = "PROCGEN_SHARD_COUNT"

// Help is the --shard flag's help text.
const Help = "run only part `I/N` of the batch (0-based; see above), so N runs write one run's files; " +
	"default from SLURM_ARRAY_TASK_ID/COUNT/MIN, else JOB_COMPLETION_INDEX with " + CountEnv + "; 0/1: all"

// Max bounds N: far past any array a scheduler runs (Slurm's MaxArraySize
// defaults to 1001).
const Max = 1 << 20

// Resolve settles this run's shard from --shard's value spec and the
// environment getenv reads. Precedence: --shard (even 0/1, which turns
// sharding off inside an array job), then Slurm's job-array variables, then
// Kubernetes' JOB_COMPLETION_INDEX with PROCGEN_SHARD_COUNT. Every error is
// a mistake in how the run was called.
func Resolve(spec string, getenv func(string) string) (Shard, error) {
	if spec != "" {
		s, err := Parse(spec)
		if err != nil {
			return Shard{}, fmt.Errorf("invalid --shard %q: %v", spec, err)
		}
		s.From = FromFlag
		return s, nil
	}
	if id := getenv("SLURM_ARRAY_TASK_ID"); id != "" {
		s, err := slurm(id, getenv)
		if err != nil {
			return Shard{}, fmt.Errorf("slurm job array: %v; or give --shard I/N", err)
		}
		return s, nil
	}
	if idx := getenv("JOB_COMPLETION_INDEX"); idx != "" {
		return kubernetes(idx, getenv)
	}
	return Shard{Count: 1}, nil
}

// kubernetes is the shard of an indexed Job's completion idx.
func kubernetes(idx string, getenv func(string) string) (Shard, error) {
	i, err := strconv.Atoi(idx)
	if err != nil || i < 0 {
		return Shard{}, fmt.Errorf("JOB_COMPLETION_INDEX=%q: want a number from 0", idx)
	}
	cs := getenv(CountEnv)
	if cs == "" {
		return Shard{}, fmt.Errorf("JOB_COMPLETION_INDEX=%d without %s: set it to the Job's completions, or give --shard I/N", i, CountEnv)
	}
	n, err := strconv.Atoi(cs)
	if err != nil || n < 1 || n > Max {
		return Shard{}, fmt.Errorf("%s=%q: want 1..%d", CountEnv, cs, Max)
	}
	if i >= n {
		return Shard{}, fmt.Errorf("JOB_COMPLETION_INDEX=%d is not below %s=%d", i, CountEnv, n)
	}
	return Shard{Index: i, Count: n, From: "JOB_COMPLETION_INDEX"}, nil
}

// Parse parses I/N.
func Parse(spec string) (Shard, error) {
	is, ns, ok := strings.Cut(spec, "/")
	if !ok {
		return Shard{}, fmt.Errorf("want I/N, e.g. 0/4")
	}
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	switch {
	case err1 != nil || err2 != nil:
		return Shard{}, fmt.Errorf("want two integers I/N, e.g. 0/4")
	case n < 1 || n > Max:
		//lint:ignore ST1005 N is the N of I/N, as the user wrote it
		return Shard{}, fmt.Errorf("N must be 1..%d", Max)
	case i < 0 || i >= n:
		//lint:ignore ST1005 I is the I of I/N, as the user wrote it
		return Shard{}, fmt.Errorf("I must be 0..N-1 (0-based)")
	}
	return Shard{Index: i, Count: n}, nil
}

// slurm maps a job-array task to a shard: index (ID-MIN)/STEP of COUNT.
// Arrays given as lists (--array=1,5,7) have no such mapping unless their
// ids happen to be a range, and are refused.
func slurm(id string, getenv func(string) string) (Shard, error) {
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
		return Shard{}, err
	}
	count, err := num("SLURM_ARRAY_TASK_COUNT", -1)
	if err != nil {
		return Shard{}, err
	}
	lo, err := num("SLURM_ARRAY_TASK_MIN", 0)
	if err != nil {
		return Shard{}, err
	}
	step, err := num("SLURM_ARRAY_TASK_STEP", 1)
	if err != nil {
		return Shard{}, err
	}
	step = max(step, 1)
	switch {
	case count < 1 || count > Max:
		return Shard{}, fmt.Errorf("SLURM_ARRAY_TASK_COUNT=%d: want 1..%d", count, Max)
	case tid < lo || (tid-lo)%step != 0 || (tid-lo)/step >= count:
		return Shard{}, fmt.Errorf("task %d is not one of %d ids from %d in steps of %d (use --array=A-B or A-B:S)", tid, count, lo, step)
	}
	return Shard{Index: (tid - lo) / step, Count: count, From: "SLURM_ARRAY_TASK_ID"}, nil
}
