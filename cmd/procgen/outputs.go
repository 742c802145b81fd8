package main

import (
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
)

// env is the job contract's view of this run: the streams, logger, device
// policy and global settings, and nothing of cobra or viper.
func (a *app) env() *job.Env {
	return &job.Env{Stdin: a.stdin, Stdout: a.stdout, Stderr: a.stderr, Log: a.log, Dev: a.dev,
		Progress: a.newProgress, Seed: a.opts.Seed, Device: a.opts.Device, MaxMemory: a.memoryLimit(),
		Origin: a.origin}
}

// planOutputs is job.Env.PlanOutputs for the commands not yet moved into a job.
func (a *app) planOutputs(inputs []string, outs ...string) (*output.Plan, error) {
	return a.env().PlanOutputs(inputs, outs...)
}

func checkInputFile(what, path string) error { return job.CheckInput(what, path) }

func isStream(path string) bool { return job.IsStream(path) }

