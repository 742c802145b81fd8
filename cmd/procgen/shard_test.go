package main

import (
	"strings"
	"testing"
)

func TestResolveShard(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec string
		env  map[string]string
		want shard  // when err is ""
		err  string // substring of the error
	}{
		{name: "none", want: shard{Count: 1}},
		{name: "flag", spec: "2/5", want: shard{2, 5, "--shard"}},
		{name: "flag wins over slurm", spec: "0/1", env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, want: shard{0, 1, "--shard"}},
		{name: "slurm from 0", env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"}, want: shard{3, 4, "SLURM_ARRAY_TASK_ID"}},
		{name: "slurm from 1", env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"}, want: shard{0, 4, "SLURM_ARRAY_TASK_ID"}},
		{name: "slurm step", env: map[string]string{"SLURM_ARRAY_TASK_ID": "14", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_STEP": "2"}, want: shard{2, 3, "SLURM_ARRAY_TASK_ID"}},
		{name: "slurm wins over k8s", env: map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2", "JOB_COMPLETION_INDEX": "1", shardCountEnv: "2"}, want: shard{0, 2, "SLURM_ARRAY_TASK_ID"}},
		{name: "k8s", env: map[string]string{"JOB_COMPLETION_INDEX": "1", shardCountEnv: "2"}, want: shard{1, 2, "JOB_COMPLETION_INDEX"}},
		{name: "slurm without count", env: map[string]string{"SLURM_ARRAY_TASK_ID": "0"}, err: "SLURM_ARRAY_TASK_COUNT is not"},
		{name: "slurm list", env: map[string]string{"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1"}, err: "task 7 is not one of 3"},
		{name: "slurm off step", env: map[string]string{"SLURM_ARRAY_TASK_ID": "11", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_STEP": "2"}, err: "in steps of 2"},
		{name: "k8s without count", env: map[string]string{"JOB_COMPLETION_INDEX": "1"}, err: "without " + shardCountEnv},
		{name: "k8s index too big", env: map[string]string{"JOB_COMPLETION_INDEX": "2", shardCountEnv: "2"}, err: "not below"},
		{name: "k8s bad count", env: map[string]string{"JOB_COMPLETION_INDEX": "0", shardCountEnv: "x"}, err: "want 1.."},
		{name: "bad flag", spec: "1/1", err: "I must be"},
		{name: "negative", spec: "-1/3", err: "I must be"},
		{name: "huge", spec: "0/99999999", err: "N must be"},
		{name: "no slash", spec: "3", err: "want I/N"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := resolveShard(tc.spec, func(k string) string { return tc.env[k] })
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				if exitCode(err) != 2 {
					t.Fatalf("%v: exit %d, want 2", err, exitCode(err))
				}
			case err != nil:
				t.Fatal(err)
			case got != tc.want:
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// Every item belongs to exactly one of the N shards.
func TestShardPartition(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7} {
		for k := 0; k < 50; k++ {
			owners := 0
			for i := 0; i < n; i++ {
				if (shard{Index: i, Count: n}).owns(k) {
					owners++
				}
			}
			if owners != 1 {
				t.Fatalf("item %d of %d shards: %d owners", k, n, owners)
			}
		}
	}
	times, numbers := shardFrames([]float64{0, 0.5, 1, 1.5, 2}, []int{0, 1, 2, 3, 4}, shard{Index: 1, Count: 2})
	if len(times) != 2 || times[1] != 1.5 || numbers[0] != 1 || numbers[1] != 3 {
		t.Fatalf("frames of shard 1/2: %v %v", times, numbers)
	}
}

// The states' ranges tile 0..n in shard order, and differ in size by at most one.
func TestShardRange(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5, 11, 1000} {
		for _, c := range []int{1, 2, 3, 4, 7, 64} {
			next := 0
			for i := 0; i < c; i++ {
				lo, hi := shardRange(n, shard{Index: i, Count: c})
				if lo != next || hi < lo || hi-lo > n/c+1 {
					t.Fatalf("%d states, shard %d/%d: [%d, %d) after %d", n, i, c, lo, hi, next)
				}
				next = hi
			}
			if next != n {
				t.Fatalf("%d states over %d shards end at %d", n, c, next)
			}
		}
	}
}
