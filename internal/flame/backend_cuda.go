//go:build cuda

package flame

import (
	"context"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// NewRenderer returns the CUDA backend on dev, or the CPU backend when dev is nil.
func NewRenderer(dev *gpu.Device) Renderer {
	if dev != nil {
		return CUDA{Dev: dev}
	}
	return CPU{}
}

// NewMultiRenderer returns a renderer that splits each still's samples over
// devs (MultiCUDA), the one-device CUDA backend for one device, or the CPU
// backend for none.
func NewMultiRenderer(devs []*gpu.Device) Renderer {
	switch len(devs) {
	case 0:
		return CPU{}
	case 1:
		return CUDA{Dev: devs[0]}
	}
	return MultiCUDA{Devs: devs}
}

// AccumulateOn renders shard of shards of g's samples into a raw
// accumulation on dev (CUDA.AccumulatePart), or on the CPU when dev is nil.
func AccumulateOn(ctx context.Context, dev *gpu.Device, g *Genome, o Options, shard, shards int) (*Accum, Stats, error) {
	if dev != nil {
		return CUDA{Dev: dev}.AccumulatePart(ctx, g, o, shard, shards)
	}
	return CPU{}.Accumulate(ctx, g, o, shard, shards)
}

// NewFrameRenderer returns the CUDA frame renderer on dev, which keeps its
// device buffers from frame to frame (Close frees them), or the CPU one when
// dev is nil. A renderer renders one frame at a time.
func NewFrameRenderer(dev *gpu.Device) FrameRenderer {
	if dev != nil {
		return CUDA{Dev: dev, cache: newFrameCache(dev)}
	}
	return CPU{}
}
