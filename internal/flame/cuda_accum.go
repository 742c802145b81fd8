//go:build cuda

package flame

import (
	"context"
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/parallel"
	"github.com/procgen-dev/procgen/internal/phase"
)

// AccumulatePart plays shard of shards' share of g's chains on the device (the
// contiguous, block-aligned range a multi-GPU still gives each device) and
// returns the histogram unfinished, as CPU.Accumulate does. Its parts sum to
// the one-GPU render's histogram (to float rounding, then the fixed point of
// the file); they are marked "cuda" and never merge with CPU parts.
func (c CUDA) AccumulatePart(ctx context.Context, g *Genome, o Options, shard, shards int) (*Accum, Stats, error) {
	if shards < 1 || shard < 0 || shard >= shards {
		return nil, Stats{}, fmt.Errorf("flame: shard %d/%d: want 0 <= shard < shards", shard, shards)
	}
	p, gg, xs, err := stillInputs(g, o, c.Schedule)
	if err != nil {
		return nil, Stats{}, err
	}
	phase.Enter(ctx, "flame.iterate")
	r := &cudaRun{dev: c.Dev}
	defer r.free()
	var samples int64
	progress := func(done, total int64) {
		samples = done
		if o.Progress != nil {
			o.Progress(done, total)
		}
	}
	hist, hits, bad, err := r.accumulate(ctx, p, gg, xs, shard, shards, o.Seed, progress)
	if err != nil {
		return nil, Stats{}, err
	}
	nb := p.bw * p.bh
	fh := make([]float32, 4*nb)
	if err := hist.Read(fh); err != nil {
		return nil, Stats{}, err
	}
	alphaHits := gg.AlphaHits != 0
	h := newHistogram(p.bw, p.bh, false, alphaHits)
	if !alphaHits {
		if err := hits.Read(h.hits); err != nil {
			return nil, Stats{}, err
		}
	}
	var nbad [1]uint64
	if err := bad.Read(nbad[:]); err != nil {
		return nil, Stats{}, err
	}
	// The device sums floats; the file holds the CPU's fixed point.
	parallel.For(len(fh), 1<<16, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			h.rgba[i] = uint64(math.Round(float64(max(fh[i], 0)) * fixedOne))
		}
	})
	st := Stats{Samples: samples, Buckets: int64(nb), BadValues: int64(nbad[0]), DeviceBytes: r.bytes,
		IterateSeconds: r.iterate.Seconds(), Kernel: r.kernel}
	a, err := newAccum(g, p, h, o, shard, shards, st, "cuda")
	return a, st, err
}
