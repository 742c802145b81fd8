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
