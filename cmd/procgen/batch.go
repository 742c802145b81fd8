package main

import (
	"context"

	"github.com/procgen-dev/procgen/internal/job"
)

// batchItem is one input of a batch (internal/job runs batches).
type batchItem = job.Item

// ownBatch is job.Own, whose every error is a usage error.
func (a *app) ownBatch(name string, args []string, sh shard, exts ...string) ([]batchItem, bool, error) {
	own, batch, err := job.Own(name, args, sh, a.log, exts...)
	return own, batch, asUsage(err)
}

// batchOutputs is job.Outputs, whose every error is a usage error.
func (a *app) batchOutputs(items []batchItem, outs []string, inputs ...string) (map[int][]string, error) {
	byItem, err := job.Outputs(items, outs, inputs...)
	return byItem, asUsage(err)
}

// runBatch runs a batch's items one after another (job.Run), warning of
// each failure on stderr.
func (a *app) runBatch(ctx context.Context, name string, items []batchItem, total int, run func(batchItem) error) error {
	return job.Run(ctx, name, items, total, run, a.log)
}
