package flame

import (
	"context"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// FrameRenderer renders frames of animations (and stills, as Still frames).
type FrameRenderer interface {
	RenderFrame(ctx context.Context, fs *FrameSpec, o Options) (*Frame, Stats, error)
}

// RenderFrame renders fs on all cores: every temporal sample's chaos game
// plots into one histogram, then the frame is finished once. Sub-batches
// are numbered across the temporal samples, so each has its own random
// stream and the image depends on the seed only. Sizes come from the
// frame's genomes (see Animation.Override); o's size fields are ignored.
func (c CPU) RenderFrame(ctx context.Context, fs *FrameSpec, o Options) (*Frame, Stats, error) {
	fp, err := newFramePlan(fs, o)
	if err != nil {
		return nil, Stats{}, err
	}
	h, st, err := fp.iterate(ctx, c.Workers, o.Progress)
	if err != nil {
		return nil, st, err
	}
	f, err := fp.finish(ctx, h)
	return f, st, err
}

// iterate runs every temporal sample's sub-batches on the workers.
func (fp *framePlan) iterate(ctx context.Context, workers int, progress func(done, total int64)) (*histogram, Stats, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// first[i] is the global number of sample i's first sub-batch.
	first := make([]int64, len(fp.games)+1)
	alphaHits := true
	for i, cg := range fp.games {
		first[i+1] = first[i] + (fp.samples[i]+subBatch-1)/subBatch
		alphaHits = alphaHits && cg.alphaHits()
	}
	batches := first[len(fp.games)]
	workers = int(min(int64(workers), max(batches, 1)))
	nb := int64(fp.bw) * int64(fp.bh)
	shared := nb*36*int64(workers) > privateHistogramBudget
	st := Stats{Samples: fp.total, Buckets: nb}

	start := time.Now()
	var next, done, bad atomic.Int64
	hists := make([]*histogram, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		if w == 0 || !shared {
			hists[w] = newHistogram(fp.bw, fp.bh, shared, alphaHits)
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
				i := sort.Search(len(fp.games), func(i int) bool { return first[i+1] > k }) // sample of batch k
				n := int(min(subBatch, fp.samples[i]-(k-first[i])*subBatch))
				bad.Add(fp.games[i].runBatch(k, n, h))
				d := done.Add(int64(n))
				if progress != nil && (k%64 == 0 || d == fp.total) {
					progress(d, fp.total)
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
	return h, st, nil
}
