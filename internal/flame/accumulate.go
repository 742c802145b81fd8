package flame

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// accumulateCPU plays batches sub-batches on all cores into one histogram of
// bw x bh buckets: each worker its own (merged at the end), or one shared by
// all (atomic adds) where private ones would pass privateHistogramBudget.
// play(j, h) plays the j-th sub-batch into h and returns its samples and bad
// points; total is the samples of all of them, for progress. Stills,
// animation frames and accumulation shards differ only in play. Integer
// sums make the result independent of the number of workers.
func accumulateCPU(ctx context.Context, workers, bw, bh int, alphaHits bool, batches, total int64,
	progress func(done, total int64), play func(j int64, h *histogram) (n, bad int64)) (*histogram, Stats, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = int(min(int64(workers), max(batches, 1)))
	nb := int64(bw) * int64(bh)
	shared := nb*36*int64(workers) > privateHistogramBudget
	st := Stats{Samples: total, Buckets: nb}
	start := time.Now()
	var next, done, bad atomic.Int64
	hists := make([]*histogram, workers)
	var wg sync.WaitGroup
	for w := range hists {
		if w == 0 || !shared {
			hists[w] = newHistogram(bw, bh, shared, alphaHits)
		} else {
			hists[w] = hists[0]
		}
		wg.Add(1)
		go func(h *histogram) {
			defer wg.Done()
			for ctx.Err() == nil {
				j := next.Add(1) - 1
				if j >= batches {
					return
				}
				n, b := play(j, h)
				bad.Add(b)
				d := done.Add(n)
				if progress != nil && (j%64 == 0 || d == total) {
					progress(d, total)
				}
			}
		}(hists[w])
	}
	wg.Wait()
	st.BadValues = bad.Load()
	st.IterateSeconds = time.Since(start).Seconds()
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}
	h := hists[0]
	if !shared {
		for _, o := range hists[1:] {
			h.merge(o)
		}
	}
	h.shared = false // the workers are done: later adds (a merge of parts) are plain
	return h, st, nil
}
