package flame

import (
	"context"

	"github.com/procgen-dev/procgen/internal/phase"
)

// privateHistogramBudget bounds the memory of per-worker histograms; above
// it the workers share one and add atomically (integer adds commute, so the
// result is the same either way).
const privateHistogramBudget = 2 << 30

// CPU renders on all cores. The image depends on the seed only, not on the
// number of workers: the samples are cut into sub-batches whose random
// streams are keyed by (seed, sub-batch), and the histogram sums integers.
type CPU struct {
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
}

// Render renders g with options o.
func (c CPU) Render(ctx context.Context, g *Genome, o Options) (*Frame, Stats, error) {
	p, err := newPlan(g, o)
	if err != nil {
		return nil, Stats{}, err
	}
	phase.Enter(ctx, "flame.iterate")
	h, st, err := p.iterateCPU(ctx, c.Workers, o)
	if err != nil {
		return nil, st, err
	}
	f, err := p.finish(ctx, h)
	return f, st, err
}

func (p *plan) iterateCPU(ctx context.Context, workers int, o Options) (*histogram, Stats, error) {
	cg := p.chaosGame(o.Seed)
	batches := (p.samples + subBatch - 1) / subBatch
	return accumulateCPU(ctx, workers, p.bw, p.bh, cg.alphaHits(), batches, p.samples, o.Progress,
		func(k int64, h *histogram) (int64, int64) {
			n := min(subBatch, p.samples-k*subBatch)
			return n, cg.runBatch(k, int(n), h)
		})
}
