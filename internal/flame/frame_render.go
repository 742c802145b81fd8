package flame

import (
	"context"
	"sort"
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
	fp, err := fs.framePlan(o)
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
	// first[i] is the global number of sample i's first sub-batch.
	first := make([]int64, len(fp.games)+1)
	alphaHits := true
	for i, cg := range fp.games {
		first[i+1] = first[i] + (fp.samples[i]+subBatch-1)/subBatch
		alphaHits = alphaHits && cg.alphaHits()
	}
	return accumulateCPU(ctx, workers, fp.bw, fp.bh, alphaHits, first[len(fp.games)], fp.total, progress,
		func(k int64, h *histogram) (int64, int64) {
			i := sort.Search(len(fp.games), func(i int) bool { return first[i+1] > k }) // sample of batch k
			n := min(subBatch, fp.samples[i]-(k-first[i])*subBatch)
			return n, fp.games[i].runBatch(k, int(n), h)
		})
}

// PendingFrame is a frame queued by a renderer's SubmitFrame (CUDA.SubmitFrame;
// flame/anim's pipeline calls it through its FrameSubmitter interface).
type PendingFrame interface {
	// Wait blocks until the frame is done and returns what RenderFrame
	// would have. It must be called exactly once.
	Wait() (*Frame, Stats, error)
}
