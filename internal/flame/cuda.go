//go:build cuda

package flame

import (
	"context"
	"fmt"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// CUDA renders on a GPU: iteration, accumulation, density estimation,
// filtering and tone mapping all run on the device; only the image returns.
type CUDA struct {
	Dev *gpu.Device
	// Schedule picks how threads choose xforms: ScheduleAuto (warp-uniform
	// unless the genome uses xaos or all its xforms run the same code; see
	// warpUniform), ScheduleThread or ScheduleWarp.
	Schedule Schedule
	// Accumulate picks global atomics (AccumAuto, AccumAtomic) or deferred
	// writeback (AccumDeferred, where the genome allows it).
	Accumulate Accumulation
	// Stages, when set, receives the device time of each stage of the
	// render, by name (for benchmarks; timing synchronizes every stage).
	Stages map[string]time.Duration
	// cache, when set (NewFrameRenderer), keeps device buffers from one
	// frame to the next; Close frees them.
	cache *bufferCache
}

// Close frees the device buffers a frame renderer kept between frames.
func (c CUDA) Close() error {
	if c.cache == nil {
		return nil
	}
	return c.cache.close()
}

// Schedule is the GPU iteration schedule (see pg_flame_iterate).
type Schedule int

const (
	ScheduleAuto Schedule = iota
	// ScheduleThread: every thread chooses its own xform; warps diverge.
	ScheduleThread
	// ScheduleWarp: one xform per warp per step, points shuffled across
	// the block after each step. Not possible with xaos.
	ScheduleWarp
)

// Launch shapes; they match cuda/flame.cu.
const (
	iterThreads = 256
	// samplesPerLaunch bounds one iterate launch so progress and Ctrl-C
	// are seen a few times a second even on big renders.
	samplesPerLaunch = 1 << 30
)

// Each GPU chain plots subBatch samples from its random start, as a CPU
// sub-batch and a flam3 sub-batch do. The length matters for fidelity, not
// just speed: after a restart the colour coordinate takes ~1/color_speed
// steps to settle, so shorter chains plot more transient colours than flam3
// does, which shows in genomes with slow colour speeds.
// Render renders g with options o on the device.
func (c CUDA) Render(ctx context.Context, g *Genome, o Options) (*Frame, Stats, error) {
	if genomeUsesPluginVars(g) { // the kernels have flam3's 99 only (variations_jwf.go)
		return CPU{}.Render(ctx, g, o)
	}
	if o.Linear {
		return nil, Stats{}, errLinearGPU
	}
	p, gg, xs, err := stillInputs(g, o, c.Schedule)
	if err != nil {
		return nil, Stats{}, err
	}
	r := &cudaRun{dev: c.Dev, stages: c.Stages, deferred: c.Accumulate == AccumDeferred && deferredOK(&gg, p.bw*p.bh)}
	defer r.free()
	f, err := r.render(ctx, p, gg, xs, o)
	return f, Stats{Samples: p.samples, Buckets: int64(p.bw) * int64(p.bh), BadValues: r.bad, DeviceBytes: r.bytes,
		IterateSeconds: r.iterate.Seconds(), Kernel: r.kernel}, err
}

// stillInputs plans a still and builds what the iterate kernel reads: the
// genome (warp-uniform unless the genome has xaos or sched asks for threads)
// and its xforms.
func stillInputs(g *Genome, o Options, sched Schedule) (*plan, gpuGenome, []gpuXform, error) {
	p, err := newPlan(g, o)
	if err != nil {
		return nil, gpuGenome{}, nil, err
	}
	cg := p.chaosGame(o.Seed)
	gg, xs, err := p.gpuInputs(cg)
	if err != nil {
		return nil, gpuGenome{}, nil, err
	}
	if gg.Z3 == 0 && warpUniform(sched, cg.table.xaos, xs, int(gg.NXforms)) { // flame3d runs per thread
		gg.WarpUniform = 1
	}
	return p, gg, xs, nil
}

// cudaRun owns the device buffers of one render.
type cudaRun struct {
	dev      *gpu.Device
	frees    []func() error
	bytes    int64
	bad      int64
	iterate  time.Duration // device time of the iterate (and accumulate) launches
	deferred bool          // accumulate through the sample log
	stages   map[string]time.Duration
	cache    *bufferCache // where buffers come from and go back to; nil: allocate and free
	// A queued run (a pipelined animation frame) stages its copies in arena
	// and returns before the device is done; settle waits for done, then
	// runs reads and stops timer. Without an arena every copy waits.
	arena *pinnedArena
	// stream is where the run queues its work: its arena's stream, so
	// that two queued frames overlap on the device; nil (the default
	// stream) for stills, and when stages are timed.
	stream *gpu.Stream
	reads  []func()
	done   *gpu.Event
	timer  *gpu.Timer
	nbad   [1]uint64 // the bad-value counter, read back
	kernel string    // which iterate kernel ran (Stats.Kernel)
}

// stage runs fn, adding its device time to r.stages[name] when profiling.
func (r *cudaRun) stage(name string, fn func() error) error {
	if r.stages == nil {
		return fn()
	}
	dt, err := r.dev.Time(fn)
	r.stages[name] += dt
	return err
}

func (r *cudaRun) free() {
	for _, f := range r.frees {
		f()
	}
	r.frees = nil
	if r.cache != nil {
		r.cache.endFrame()
	}
}

// alloc returns an uninitialised buffer of n values, from the run's cache
// when it has one of that shape; free gives it back (or frees it).
func alloc[T gpu.Elem](r *cudaRun, n int) (*gpu.Buffer[T], error) {
	var b *gpu.Buffer[T]
	if r.cache != nil {
		b = take[T](r.cache, n)
	}
	if b == nil {
		var err error
		b, err = gpu.Alloc[T](r.dev, n)
		if err != nil && r.cache != nil && r.cache.bytes > 0 {
			// Idle buffers of other shapes may be what fills the device.
			r.cache.close()
			b, err = gpu.Alloc[T](r.dev, n)
		}
		if err != nil {
			return nil, err
		}
	}
	if r.cache != nil {
		c := r.cache
		r.frees = append(r.frees, func() error { giveBack(c, b); return nil })
	} else {
		r.frees = append(r.frees, b.Free)
	}
	r.bytes += b.Bytes()
	return b, nil
}

func upload[T gpu.Elem](r *cudaRun, v []T) (*gpu.Buffer[T], error) {
	b, err := alloc[T](r, len(v))
	if err != nil {
		return nil, err
	}
	return b, write(r, b, v)
}

// allocAccumulator allocates and zeroes the accumulation buffers of nb
// buckets: colour sums, hit counts and the bad-value counter (stills and
// animation frames alike).
func (r *cudaRun) allocAccumulator(nb int) (hist *gpu.Buffer[float32], hits *gpu.Buffer[uint32], bad *gpu.Buffer[uint64], err error) {
	if hist, err = alloc[float32](r, 4*nb); err != nil {
		return nil, nil, nil, fmt.Errorf("flame: histogram of %d buckets: %w", nb, err)
	}
	if hits, err = alloc[uint32](r, nb); err != nil {
		return nil, nil, nil, err
	}
	if bad, err = alloc[uint64](r, 1); err != nil {
		return nil, nil, nil, err
	}
	for _, z := range []func(*gpu.Stream) error{hist.ZeroOn, hits.ZeroOn, bad.ZeroOn} {
		if err := z(r.stream); err != nil {
			return nil, nil, nil, err
		}
	}
	return hist, hits, bad, nil
}

func (r *cudaRun) render(ctx context.Context, p *plan, gg gpuGenome, xs []gpuXform, o Options) (*Frame, error) {
	hist, hits, bad, err := r.accumulate(ctx, p, gg, xs, 0, 1, o.Seed, o.Progress)
	if err != nil {
		return nil, err
	}
	if gg.AlphaHits != 0 {
		if err := r.hitsFromAlpha(hist, hits, p.bw*p.bh); err != nil {
			return nil, err
		}
	}
	return r.finishOnDevice(p, hist, hits, bad, o)
}

// hitsFromAlpha fills the hit counts from the alpha sums, for genomes whose
// samples all add exactly 255 to alpha (the kernel then counts no hits).
func (r *cudaRun) hitsFromAlpha(hist *gpu.Buffer[float32], hits *gpu.Buffer[uint32], nb int) error {
	f, err := flameHitsFromAlpha.Load(r.dev)
	if err != nil {
		return err
	}
	return f.LaunchOn(r.stream, gpu.Dim((nb+255)/256), gpu.Dim(256), 0, hitsFromAlphaArgs{hist.Ptr(), hits.Ptr(), uint64(nb)})
}

// accumulate plays part of parts of the render's chains (a contiguous range
// of them; the short remainder chain goes with the last part) into a new
// histogram on r's device. Chains are numbered across the whole render, so
// the parts of several devices add up to the one-device histogram.
func (r *cudaRun) accumulate(ctx context.Context, p *plan, gg gpuGenome, xs []gpuXform, part, parts int, seed uint64,
	progressFn func(done, total int64)) (hist *gpu.Buffer[float32], hits *gpu.Buffer[uint32], bad *gpu.Buffer[uint64], err error) {
	d := r.dev
	nb := p.bw * p.bh
	genome, err := upload(r, gpu.Words(gg))
	if err != nil {
		return nil, nil, nil, err
	}
	xforms, err := upload(r, gpu.Words(xs))
	if err != nil {
		return nil, nil, nil, err
	}
	hist, hits, bad, err = r.allocAccumulator(nb)
	if err != nil {
		return nil, nil, nil, err
	}

	// A still compiles its own kernel only when it is big enough to repay
	// the compile; otherwise it takes one already compiled or cached.
	fam := iterFamilyOf(gg.Z3 != 0, gpuUsesPlugins(xs))
	iterate, err := r.iterateKernel(ctx, appendShape(nil, xs, int(gg.NXforms)), xs, int(gg.NXforms), fam,
		float64(p.samples) >= specialStillSamples, float64(p.samples) < specialStillSamples)
	if err != nil {
		return nil, nil, nil, err
	}
	shared := fam.sharedBytes(len(xs))
	if err := iterate.SetMaxDynamicShared(shared); err != nil {
		return nil, nil, nil, err
	}
	spc := int64(subBatch)
	all := p.samples / spc
	rest := p.samples - all*spc
	// In the warp-uniform schedule the chains of a block swap points, so a
	// chain's path depends on which chains share its block: launches and
	// parts start at multiples of the block size, so that every block holds
	// the same chains however the render is cut (into launches here, into
	// parts over devices).
	cut := func(k int) int64 { return all * int64(k) / int64(parts) / iterThreads * iterThreads }
	first, end := cut(part), cut(part+1)
	if part == parts-1 {
		end = all
	} else {
		rest = 0
	}
	chains := end - first
	total := chains*spc + rest
	perLaunch := wholeWaves(iterate, shared, samplesPerLaunch/spc)
	var slog *sampleLog
	if r.deferred {
		perLaunch = maxLogEntries / spc / iterThreads * iterThreads
		entries := min(perLaunch*spc, max(chains*spc, rest))
		if slog, err = r.newSampleLog(entries, nb); err != nil {
			// Not enough device memory for the log: fall back to atomics.
			r.deferred, slog, perLaunch = false, nil, wholeWaves(iterate, shared, samplesPerLaunch/spc)
		}
	}
	base, done := first, int64(0)
	launch := func(n, samples int64) error {
		blocks := int((n + iterThreads - 1) / iterThreads)
		var logArg gpu.Ptr
		if slog != nil {
			logArg = slog.log.Ptr()
		}
		err := r.stage("iterate", func() error {
			return iterate.LaunchOn(r.stream, gpu.Dim(blocks), gpu.Dim(iterThreads), shared, iterateArgs{genome.Ptr(), xforms.Ptr(), hist.Ptr(),
				hits.Ptr(), seed, uint64(base), uint32(n), uint32(samples),
				bad.Ptr(), logArg})
		})
		base += n
		if err != nil || slog == nil {
			return err
		}
		return slog.flush(r, n*samples, genome, hist, nb)
	}
	for left := chains; left > 0 || rest > 0; {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		n, s := min(left, perLaunch), spc
		if left == 0 { // the remainder: one short chain
			n, s, rest = 1, rest, 0
		}
		dt, err := d.Time(func() error { return launch(n, s) })
		if err != nil {
			return nil, nil, nil, err
		}
		r.iterate += dt
		left -= min(left, n)
		done += n * s
		if progressFn != nil {
			progressFn(done, total)
		}
	}
	return hist, hits, bad, nil
}

// finishOnDevice is the tail of a render after the histogram: density
// estimation, early clip, spatial filter and tone mapping on the device,
// then the image and the bad-point count are read back: the end of a still
// (cudaRun.render) and of an animation frame (renderFrame) alike.
func (r *cudaRun) finishOnDevice(p *plan, hist *gpu.Buffer[float32], hits *gpu.Buffer[uint32], bad *gpu.Buffer[uint64], o Options) (*Frame, error) {
	frame, err := r.queueFinish(p, hist, hits, bad)
	if err != nil {
		return nil, err
	}
	if err := r.settle(); err != nil {
		return nil, err
	}
	r.bad = int64(r.nbad[0])
	if o.Progress != nil {
		o.Progress(p.samples, p.samples)
	}
	return frame, nil
}

// queueFinish queues the finish of the histogram and the read-back of the
// image and the bad-value counter. A run without an arena has them when it
// returns; one with an arena, after settle.
func (r *cudaRun) queueFinish(p *plan, hist *gpu.Buffer[float32], hits *gpu.Buffer[uint32], bad *gpu.Buffer[uint64]) (*Frame, error) {
	d := r.dev
	nb := p.bw * p.bh
	acc, err := alloc[float32](r, 4*nb)
	if err != nil {
		return nil, err
	}
	if err := r.stage("density", func() error { return r.density(p, hist, hits, acc) }); err != nil {
		return nil, err
	}
	tone, err := upload(r, gpu.Words(p.gpuTone()))
	if err != nil {
		return nil, err
	}
	early := int32(0)
	if p.earlyClip {
		early = 1
		f, err := flameEarlyclip.Load(d)
		if err != nil {
			return nil, err
		}
		if err := f.LaunchOn(r.stream, gpu.Dim((nb+255)/256), gpu.Dim(256), 0, earlyclipArgs{acc.Ptr(), uint64(nb), tone.Ptr()}); err != nil {
			return nil, err
		}
	}
	filter := make([]float32, len(p.filter))
	for i, v := range p.filter {
		filter[i] = float32(v)
	}
	fb, err := upload(r, filter)
	if err != nil {
		return nil, err
	}
	out, err := alloc[float32](r, 4*p.width*p.height)
	if err != nil {
		return nil, err
	}
	finish, err := flameFinish.Load(d)
	if err != nil {
		return nil, err
	}
	err = r.stage("filter-tone", func() error {
		return finish.LaunchOn(r.stream, gpu.Dim3{X: uint32((p.width + 127) / 128), Y: uint32(p.height), Z: 1}, gpu.Dim(128), 0,
			finishArgs{acc.Ptr(), out.Ptr(), fb.Ptr(), int32(p.filterWidth), int32(p.width),
				int32(p.height), int32(p.bw), int32(p.ss), int32(p.deOffset),
				early, tone.Ptr()})
	})
	if err != nil {
		return nil, err
	}
	frame := newFrame(p.width, p.height)
	if err := read(r, out, frame.Pix); err != nil {
		return nil, err
	}
	if err := read(r, bad, r.nbad[:]); err != nil {
		return nil, err
	}
	return frame, nil
}

// density fills acc from the histogram: flam3's density estimation when the
// genome asks for it, plain log scaling otherwise.
func (r *cudaRun) density(p *plan, hist *gpu.Buffer[float32], hits *gpu.Buffer[uint32], acc *gpu.Buffer[float32]) error {
	d := r.dev
	nb := p.bw * p.bh
	if p.de == nil {
		f, err := flameLogscale.Load(d)
		if err != nil {
			return err
		}
		return f.LaunchOn(r.stream, gpu.Dim((nb+255)/256), gpu.Dim(256), 0, logscaleArgs{hist.Ptr(), acc.Ptr(), uint64(nb),
			float32(p.k1), float32(p.k2)})
	}
	if err := acc.ZeroOn(r.stream); err != nil {
		return err
	}
	coefs := make([]float32, len(p.de.coefs))
	for i, v := range p.de.coefs {
		coefs[i] = float32(v)
	}
	widths := make([]float32, len(p.de.widths))
	for i, v := range p.de.widths {
		widths[i] = float32(v)
	}
	cb, err := upload(r, coefs)
	if err != nil {
		return err
	}
	wb, err := upload(r, widths)
	if err != nil {
		return err
	}
	params, err := upload(r, gpu.Words(p.gpuDE()))
	if err != nil {
		return err
	}
	f, err := flameDensity.Load(d)
	if err != nil {
		return err
	}
	return f.LaunchOn(r.stream, gpu.Dim3{X: uint32((p.bw + 127) / 128), Y: uint32(p.bh), Z: 1}, gpu.Dim(128), 0,
		densityArgs{hist.Ptr(), hits.Ptr(), acc.Ptr(), cb.Ptr(), wb.Ptr(), params.Ptr()})
}

// wholeWaves is how many chains a launch of about want chains should run: a
// whole number of waves of iterThreads-chain blocks (what the device holds
// at once), so no launch ends on a few blocks while the rest of the GPU
// idles; a launch of 1 G samples was 1.06 waves on an H100. Without the
// occupancy figure, want rounded down to whole blocks.
func wholeWaves(f gpu.Func[iterateArgs], shared int, want int64) int64 {
	blocks := max(want/iterThreads, 1)
	if wave, err := f.ResidentBlocks(iterThreads, shared); err == nil && wave > 0 {
		blocks = max((blocks+int64(wave)/2)/int64(wave), 1) * int64(wave)
	}
	return blocks * iterThreads
}

// gpuDE and gpuTone are the density-estimation and tone-map parameters as
// the kernels read them (FlameDE, FlameTone).
func (p *plan) gpuDE() gpuDE {
	d := p.de
	return gpuDE{K1: float32(p.k1), K2: float32(p.k2), BW: int32(p.bw), BH: int32(p.bh), SS: int32(p.ss),
		KernelSize: int32(d.kernelSize), MaxIndex: int32(d.maxIndex), MaxFiltered: float32(d.maxFilteredCnt),
		Curve: float32(d.curve)}
}

func (p *plan) gpuTone() gpuTone {
	t := p.tone
	gt := gpuTone{Gamma: float32(t.gamma), Linrange: float32(t.linrange), Vibrancy: float32(t.vibrancy),
		Highpow: float32(t.highpow)}
	for i := range t.background {
		gt.BG[i] = float32(t.background[i])
	}
	if t.transp {
		gt.Transparent = 1
	}
	return gt
}
