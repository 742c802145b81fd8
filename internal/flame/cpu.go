package flame

import (
	"github.com/procgen-dev/procgen/internal/phase"

	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
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

func (p *plan) iterateCPU(ctx context.Context, workers int, o Options) (h *histogram, st Stats, err error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	cg := p.chaosGame(o.Seed)
	batches := (p.samples + subBatch - 1) / subBatch
	workers = int(min(int64(workers), max(batches, 1)))
	nb := int64(p.bw) * int64(p.bh)
	alphaHits := cg.alphaHits()
	shared := nb*36*int64(workers) > privateHistogramBudget
	st = Stats{Samples: p.samples, Buckets: nb}

	start := time.Now()
	defer func() { st.IterateSeconds = time.Since(start).Seconds() }()
	var next, done, bad atomic.Int64
	hists := make([]*histogram, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		if w == 0 || !shared {
			hists[w] = newHistogram(p.bw, p.bh, shared, alphaHits)
		} else {
			hists[w] = hists[0]
		}
		wg.Add(1)
		go func(h *histogram) {
			defer wg.Done()
			for ctx.Err() == nil {
				k := next.Add(1) - 1
				if k >= batches {
					return
				}
				n := int(min(subBatch, p.samples-k*subBatch))
				bad.Add(cg.runBatch(k, n, h))
				d := done.Add(int64(n))
				if o.Progress != nil && (k%64 == 0 || d == p.samples) {
					o.Progress(d, p.samples)
				}
			}
		}(hists[w])
	}
	wg.Wait()
	st.BadValues = bad.Load()
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}
	h = hists[0]
	if !shared {
		for _, o := range hists[1:] {
			h.merge(o)
		}
	}
	return h, st, nil
}
