//go:build cuda

package flame

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// frameInput is one temporal sample as the iterate kernel reads it.
type frameInput struct {
	gg      gpuGenome
	xs      []gpuXform
	samples int64
}

// RenderFrame renders fs on the device: each temporal sample's genome is
// uploaded in turn and iterated into the one histogram (chains numbered
// across the samples, so every chain has its own random stream), then the
// frame is density-estimated, filtered and tone-mapped once, as a still is.
// The sample log (AccumDeferred) is not used: it looks colours up in one
// genome's palette.
func (c CUDA) RenderFrame(ctx context.Context, fs *FrameSpec, o Options) (*Frame, Stats, error) {
	fp, err := newFramePlan(fs, o)
	if err != nil {
		return nil, Stats{}, err
	}
	ins := make([]frameInput, len(fp.games))
	alphaHits := true
	for i, cg := range fp.games {
		gg, xs, err := fp.plans[i].gpuInputs(cg)
		if err != nil {
			return nil, Stats{}, err
		}
		if !cg.table.xaos && c.Schedule != ScheduleThread {
			gg.WarpUniform = 1
		}
		alphaHits = alphaHits && gg.AlphaHits != 0
		ins[i] = frameInput{gg: gg, xs: xs, samples: fp.samples[i]}
	}
	// Hits come from alpha only if every sample plots full, unweighted
	// alpha; otherwise every launch counts them.
	for i := range ins {
		if !alphaHits {
			ins[i].gg.AlphaHits = 0
		}
	}
	r := &cudaRun{dev: c.Dev, stages: c.Stages}
	defer r.free()
	f, err := r.renderFrame(ctx, fp, ins, alphaHits, o)
	return f, Stats{Samples: fp.total, Buckets: int64(fp.bw) * int64(fp.bh), BadValues: r.bad, DeviceBytes: r.bytes,
		IterateSeconds: r.iterate.Seconds()}, err
}

func (r *cudaRun) renderFrame(ctx context.Context, fp *framePlan, ins []frameInput, alphaHits bool, o Options) (*Frame, error) {
	d := r.dev
	nb := fp.bw * fp.bh
	maxX := 0
	for _, in := range ins {
		maxX = max(maxX, len(in.xs))
	}
	genome, err := alloc[uint32](r, len(gpu.Words(ins[0].gg)))
	if err != nil {
		return nil, err
	}
	xforms, err := alloc[uint32](r, len(gpu.Words(make([]gpuXform, maxX))))
	if err != nil {
		return nil, err
	}
	hist, err := alloc[float32](r, 4*nb)
	if err != nil {
		return nil, fmt.Errorf("flame: histogram of %d buckets: %w", nb, err)
	}
	hits, err := alloc[uint32](r, nb)
	if err != nil {
		return nil, err
	}
	bad, err := alloc[uint64](r, 1)
	if err != nil {
		return nil, err
	}
	for _, z := range []func() error{hist.Zero, hits.Zero, bad.Zero} {
		if err := z(); err != nil {
			return nil, err
		}
	}
	iterate, err := d.Function("flame", "pg_flame_iterate")
	if err != nil {
		return nil, err
	}
	shared := int(unsafe.Sizeof(gpuGenome{})) + maxX*int(unsafe.Sizeof(gpuXform{}))
	if shared > 48<<10 {
		if err := iterate.SetMaxDynamicShared(shared); err != nil {
			return nil, err
		}
	}
	spc := int64(subBatch)
	perLaunch := max(samplesPerLaunch/spc, 1)
	var base, done int64
	for _, in := range ins {
		if err := genome.Write(gpu.Words(in.gg)); err != nil {
			return nil, err
		}
		if err := xforms.Write(gpu.Words(in.xs)); err != nil {
			return nil, err
		}
		chains := in.samples / spc
		rest := in.samples - chains*spc
		for left := chains; left > 0 || rest > 0; {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			n, s := min(left, perLaunch), spc
			if left == 0 { // the remainder: one short chain
				n, s, rest = 1, rest, 0
			}
			blocks := int((n + iterThreads - 1) / iterThreads)
			dt, err := d.Time(func() error {
				return r.stage("iterate", func() error {
					return iterate.Launch(gpu.Dim(blocks), gpu.Dim(iterThreads), shared, genome.Arg(), xforms.Arg(),
						hist.Arg(), hits.Arg(), gpu.U64(o.Seed), gpu.U64(uint64(base)), gpu.U32(uint32(n)),
						gpu.U32(uint32(s)), bad.Arg(), gpu.Null)
				})
			})
			if err != nil {
				return nil, err
			}
			r.iterate += dt
			base += n
			left -= min(left, n)
			done += n * s
			if o.Progress != nil {
				o.Progress(done, fp.total)
			}
		}
	}
	if alphaHits {
		f, err := d.Function("flame", "pg_flame_hits_from_alpha")
		if err != nil {
			return nil, err
		}
		if err := f.Launch(gpu.Dim((nb+255)/256), gpu.Dim(256), 0, hist.Arg(), hits.Arg(), gpu.U64(uint64(nb))); err != nil {
			return nil, err
		}
	}
	return r.finishOnDevice(fp.plan, hist, hits, bad, o)
}

// finishOnDevice is the tail of a render after the histogram: density
// estimation, early clip, spatial filter and tone mapping on the device,
// then the image and the bad-point count are read back. (The same steps as
// the end of cudaRun.render, which could call it.)
func (r *cudaRun) finishOnDevice(p *plan, hist *gpu.Buffer[float32], hits *gpu.Buffer[uint32], bad *gpu.Buffer[uint64], o Options) (*Frame, error) {
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
		f, err := d.Function("flame", "pg_flame_earlyclip")
		if err != nil {
			return nil, err
		}
		if err := f.Launch(gpu.Dim((nb+255)/256), gpu.Dim(256), 0, acc.Arg(), gpu.U64(uint64(nb)), tone.Arg()); err != nil {
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
	finish, err := d.Function("flame", "pg_flame_finish")
	if err != nil {
		return nil, err
	}
	err = r.stage("filter-tone", func() error {
		return finish.Launch(gpu.Dim3{X: uint32((p.width + 127) / 128), Y: uint32(p.height), Z: 1}, gpu.Dim(128), 0,
			acc.Arg(), out.Arg(), fb.Arg(), gpu.I32(int32(p.filterWidth)), gpu.I32(int32(p.width)),
			gpu.I32(int32(p.height)), gpu.I32(int32(p.bw)), gpu.I32(int32(p.ss)), gpu.I32(int32(p.deOffset)),
			gpu.I32(early), tone.Arg())
	})
	if err != nil {
		return nil, err
	}
	frame := newFrame(p.width, p.height)
	if err := out.Read(frame.Pix); err != nil {
		return nil, err
	}
	var nbad [1]uint64
	if err := bad.Read(nbad[:]); err != nil {
		return nil, err
	}
	r.bad = int64(nbad[0])
	if o.Progress != nil {
		o.Progress(p.samples, p.samples)
	}
	return frame, nil
}
