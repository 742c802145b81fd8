package main

import "github.com/procgen-dev/procgen/internal/job"

// env is the job contract's view of this run: the streams, logger, device
// policy and global settings, and nothing of cobra or viper.
func (a *app) env() *job.Env {
	return &job.Env{Stdin: a.stdin, Stdout: a.stdout, Stderr: a.stderr, Log: a.log, Dev: a.dev,
		Progress: a.newProgress, Seed: a.opts.Seed, Device: a.opts.Device, MaxMemory: a.memoryLimit(),
		Origin: a.origin}
}
