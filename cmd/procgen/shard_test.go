package main

import (
	"strings"
	"testing"

	sharding "github.com/procgen-dev/procgen/internal/shard"
)

// TestResolveShard pins the shard every environment resolves to, and that
// every refusal exits 2 (internal/shard tests the ownership arithmetic).
func TestResolveShard(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec string
		env  map[string]string
		want shard  // when err is ""
		err  string // substring of the error
	}{
		{name: "none", want: shard{Count: 1}},
		{name: "flag", spec: "2/5", want: shard{Index: 2, Count: 5, From: "--shard"}},
		{name: "flag wins over slurm", spec: "0/1", env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, want: shard{Index: 0, Count: 1, From: "--shard"}},
		{name: "slurm from 0", env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"}, want: shard{Index: 3, Count: 4, From: "SLURM_ARRAY_TASK_ID"}},
		{name: "slurm from 1", env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"}, want: shard{Index: 0, Count: 4, From: "SLURM_ARRAY_TASK_ID"}},
		{name: "slurm step", env: map[string]string{"SLURM_ARRAY_TASK_ID": "14", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_STEP": "2"}, want: shard{Index: 2, Count: 3, From: "SLURM_ARRAY_TASK_ID"}},
		{name: "slurm wins over k8s", env: map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2", "JOB_COMPLETION_INDEX": "1", sharding.CountEnv: "2"}, want: shard{Index: 0, Count: 2, From: "SLURM_ARRAY_TASK_ID"}},
		{name: "k8s", env: map[string]string{"JOB_COMPLETION_INDEX": "1", sharding.CountEnv: "2"}, want: shard{Index: 1, Count: 2, From: "JOB_COMPLETION_INDEX"}},
		{name: "slurm without count", env: map[string]string{"SLURM_ARRAY_TASK_ID": "0"}, err: "SLURM_ARRAY_TASK_COUNT is not"},
		{name: "slurm list", env: map[string]string{"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1"}, err: "task 7 is not one of 3"},
		{name: "slurm off step", env: map[string]string{"SLURM_ARRAY_TASK_ID": "11", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_STEP": "2"}, err: "in steps of 2"},
		{name: "k8s without count", env: map[string]string{"JOB_COMPLETION_INDEX": "1"}, err: "without " + sharding.CountEnv},
		{name: "k8s index too big", env: map[string]string{"JOB_COMPLETION_INDEX": "2", sharding.CountEnv: "2"}, err: "not below"},
		{name: "k8s bad count", env: map[string]string{"JOB_COMPLETION_INDEX": "0", sharding.CountEnv: "x"}, err: "want 1.."},
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
