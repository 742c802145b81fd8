//go:build !cuda

package flame

import (
	"context"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// NewRenderer returns the CPU backend: this build has no CUDA backend, and
// gpu.Open never yields a device in it.
func NewRenderer(*gpu.Device) Renderer { return CPU{} }

// NewMultiRenderer returns the CPU backend: this build has no CUDA backend.
func NewMultiRenderer([]*gpu.Device) Renderer { return CPU{} }

// AccumulateOn renders shard of shards of g's samples into a raw
// accumulation on the CPU: this build has no CUDA backend.
func AccumulateOn(ctx context.Context, _ *gpu.Device, g *Genome, o Options, shard, shards int) (*Accum, Stats, error) {
	return CPU{}.Accumulate(ctx, g, o, shard, shards)
}

// NewFrameRenderer returns the CPU frame renderer: this build has no CUDA
// backend, and gpu.Open never yields a device in it.
func NewFrameRenderer(*gpu.Device) FrameRenderer { return CPU{} }
