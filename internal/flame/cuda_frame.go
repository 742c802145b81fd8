//go:build cuda

package flame

import (
	"context"
	"unsafe"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/parallel"
)

// frameInput is one temporal sample as the iterate kernel reads it.
type frameInput struct {
	gg      gpuGenome
	xs      []gpuXform
	samples int64
}

// RenderFrame renders fs on the device: the temporal samples' genomes are
// iterated into the one histogram in batched launches (chains numbered
// across the samples, so every chain has its own random stream), then the
// frame is density-estimated, filtered and tone-mapped once, as a still is.
// The sample log (AccumDeferred) is not used: it looks colours up in one
// genome's palette. It is SubmitFrame, then Wait.
func (c CUDA) RenderFrame(ctx context.Context, fs *FrameSpec, o Options) (*Frame, Stats, error) {
	if o.Linear {
		return nil, Stats{}, errLinearGPU
	}
	pf, err := c.SubmitFrame(ctx, fs, o)
	if err != nil {
		return nil, Stats{}, err
	}
	return pf.Wait()
}

// frameInputs builds what the iterate kernel reads for each temporal
// sample, and whether every sample's hits come from its alpha.
func (c CUDA) frameInputs(fp *framePlan) ([]frameInput, bool, error) {
	ins := make([]frameInput, len(fp.games))
	errs := make([]error, len(fp.games))
	parallel.For(len(fp.games), 16, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			cg := fp.games[i]
			gg, xs, err := fp.plans[i].gpuInputs(cg)
			if err == nil && gg.Z3 == 0 && warpUniform(c.Schedule, cg.table.xaos, xs, int(gg.NXforms)) { // flame3d runs per thread
				gg.WarpUniform = 1
			}
			ins[i], errs[i] = frameInput{gg: gg, xs: xs, samples: fp.samples[i]}, err
		}
	})
	alphaHits := true
	for i := range ins {
		if errs[i] != nil {
			return nil, false, errs[i]
		}
		alphaHits = alphaHits && ins[i].gg.AlphaHits != 0
	}
	// Hits come from alpha only if every sample plots full, unweighted
	// alpha; otherwise every launch counts them.
	for i := range ins {
		if !alphaHits {
			ins[i].gg.AlphaHits = 0
		}
	}
	return ins, alphaHits, nil
}

// maxBatchGenomes bounds the genomes of one batched launch (each is ~21 KB
// on the device), and batchSamplesPerLaunch its samples: a cuburn frame at
// 1080p (1024 temporal samples, 5.2 G samples) is one launch of 5.2 waves
// of blocks on an H100. Launches of 1 G samples (a still's) were 1.05 waves
// each, which take as long as two, and the frame iterated at 27 G samples/s
// against the still's 37.
const (
	maxBatchGenomes       = 1024
	batchSamplesPerLaunch = 1 << 33
)

// startOverlapped makes the frame's stream wait for the last frame's
// handoff and starts the frame's iterate timer where the device is done
// with both the last frame's launches and this frame's wait: from the
// handoff on the two frames share the device, and a timer started there
// would count the last frame's tail twice (the still rate that `make
// bench-anim` compares against is summed from these times). The
// start is marked on the renderer's timing stream, which only waits.
func (r *cudaRun) startOverlapped() (*gpu.Timer, error) {
	c, d := r.cache, r.dev
	if err := r.stream.WaitEvent(c.handoff); err != nil {
		return nil, err
	}
	if c.timing == nil {
		s, err := d.NewStream()
		if err != nil {
			return nil, err
		}
		c.timing = s
	}
	here, err := d.RecordEventOn(r.stream)
	if err != nil {
		return nil, err
	}
	err = c.timing.WaitEvent(here)
	here.Free()
	if err != nil {
		return nil, err
	}
	if err := c.timing.WaitEvent(c.iterEnd); err != nil {
		return nil, err
	}
	return d.StartTimerOn(c.timing)
}

// endLaunches marks the end of a queued frame's launches with one event.
// The rest of the frame (hits, finish, read-back) goes after it on the
// arena's urgent stream: queued behind the next frame's launch on an
// ordinary stream it would wait for SMs until that launch had started all
// its blocks, and the host, waiting for this frame, would queue the frame
// after too late to keep the device busy. With overlap the cache keeps the
// event, where the next frame's iterate timer starts (startOverlapped), and
// handoff, where its launches may start; it owns handoff either way.
func (r *cudaRun) endLaunches(overlap bool, handoff *gpu.Event) error {
	end, err := r.dev.RecordEventOn(r.stream)
	if err == nil {
		err = r.arena.finish.WaitEvent(end)
	}
	if err == nil {
		r.stream = r.arena.finish
	}
	if err != nil || !overlap {
		end.Free()
		handoff.Free()
		return err
	}
	c := r.cache
	c.handoff.Free()
	c.iterEnd.Free()
	c.handoff, c.iterEnd = handoff, end
	return nil
}

// wholeWaveRows is how many rows of grid (genomes of a batched launch) make
// up the launch's whole waves of wave blocks; 0 when it is less than a wave.
func wholeWaveRows(grid gpu.Dim3, wave int64) uint32 {
	if wave <= 0 || grid.X == 0 {
		return 0
	}
	total := int64(grid.X) * int64(grid.Y)
	return uint32(total / wave * wave / int64(grid.X))
}

// queueFrame queues the frame's launches and its read-back, and returns the
// frame that settle fills (at once when r has no arena).
func (r *cudaRun) queueFrame(ctx context.Context, fp *framePlan, ins []frameInput, alphaHits bool, o Options) (*Frame, error) {
	nb := fp.bw * fp.bh
	maxX := 0
	for _, in := range ins {
		maxX = max(maxX, len(in.xs))
	}
	nbatch := min(len(ins), maxBatchGenomes)
	genomes, err := alloc[uint32](r, nbatch*int(unsafe.Sizeof(gpuGenome{}))/4)
	if err != nil {
		return nil, err
	}
	xforms, err := alloc[uint32](r, nbatch*maxX*int(unsafe.Sizeof(gpuXform{}))/4)
	if err != nil {
		return nil, err
	}
	hist, hits, bad, err := r.allocAccumulator(nb)
	if err != nil {
		return nil, err
	}
	// A frame runs the kernel compiled for its genomes' shape once it is
	// ready; until then the built-in one, while it compiles in the
	// background.
	sets, nx := make([][]gpuXform, len(ins)), make([]int, len(ins))
	plugins, z3 := false, false
	for i := range ins {
		sets[i], nx[i] = ins[i].xs, int(ins[i].gg.NXforms)
		plugins = plugins || gpuUsesPlugins(ins[i].xs)
		z3 = z3 || ins[i].gg.Z3 != 0
	}
	fam := iterFamilyOf(z3, plugins)
	iterate, err := r.iterateKernel(ctx, fitShapes(sets, nx), ins[0].xs, nx[0], fam, false, false)
	if err != nil {
		return nil, err
	}
	shared := fam.sharedBytes(maxX)
	if err := iterate.SetMaxDynamicShared(shared); err != nil {
		return nil, err
	}
	fl := &frameLauncher{r: r, ctx: ctx, fp: fp, o: o, iterate: iterate, shared: shared, maxX: maxX,
		genomes: genomes, xforms: xforms, hist: hist, hits: hits, bad: bad, spc: int64(subBatch)}
	defer fl.release()
	// A launch of whole chains of several genomes is cut into whole waves
	// of blocks and the rest; the frame queued next waits for the event
	// before this frame's rest (see bufferCache.handoff), so its blocks take
	// the SMs the rest leaves idle but do not mix with this frame's waves.
	if r.cache != nil && r.stream != nil {
		if n, err := iterate.ResidentBlocks(iterThreads, shared); err == nil {
			fl.wave = int64(n)
		}
	}
	// Temporal samples go to the device in batches: one launch runs every
	// chain of up to maxBatchGenomes genomes (blockIdx.y picks the genome),
	// so even a frame of 1000 small temporal samples fills the GPU. Each
	// genome's samples are spread evenly over its chains (at most one more
	// sample per chain than it asked for). A temporal sample too big for one
	// launch runs alone, in launches of whole chains and a short one.
	for _, in := range ins {
		if in.samples <= 0 {
			continue
		}
		if in.samples > samplesPerLaunch {
			if err := fl.flush(); err != nil {
				return nil, err
			}
			perLaunch := wholeWaves(iterate, shared, samplesPerLaunch/fl.spc)
			if err := r.iterateAlone(in, genomes, xforms, fl.spc, perLaunch, fl.launch, fl.progress); err != nil {
				return nil, err
			}
			continue
		}
		if len(fl.batch) == maxBatchGenomes || fl.batchSamples+in.samples > batchSamplesPerLaunch {
			if err := fl.flush(); err != nil {
				return nil, err
			}
		}
		fl.batch = append(fl.batch, in)
		fl.batchSamples += in.samples
	}
	if err := fl.flush(); err != nil {
		return nil, err
	}
	if err := fl.end(); err != nil {
		return nil, err
	}
	if alphaHits {
		f, err := flameHitsFromAlpha.Load(r.dev)
		if err != nil {
			return nil, err
		}
		if err := f.LaunchOn(r.stream, gpu.Dim((nb+255)/256), gpu.Dim(256), 0, hitsFromAlphaArgs{hist.Ptr(), hits.Ptr(), uint64(nb)}); err != nil {
			return nil, err
		}
	}
	return r.queueFinish(fp.plan, hist, hits, bad)
}

// iterateAlone runs one big temporal sample as a still is run: launches of
// perLaunch whole chains (whole waves, see wholeWaves), then one short
// chain for the remainder.
func (r *cudaRun) iterateAlone(in frameInput, genomes, xforms *gpu.Buffer[uint32], spc, perLaunch int64,
	launch func(gpu.Dim3, int64, int64) error, progress func(int64)) error {
	if err := write(r, genomes, gpu.Words(in.gg)); err != nil {
		return err
	}
	if err := write(r, xforms, gpu.WordsOf(in.xs)); err != nil {
		return err
	}
	chains := in.samples / spc
	rest := in.samples - chains*spc
	for left := chains; left > 0 || rest > 0; {
		n, s := min(left, perLaunch), spc
		if left == 0 {
			n, s, rest = 1, rest, 0
		}
		if err := launch(gpu.Dim(int((n+iterThreads-1)/iterThreads)), n, s); err != nil {
			return err
		}
		left -= min(left, n)
		progress(n * s)
	}
	return nil
}
