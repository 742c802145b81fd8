//go:build cuda

package flame

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// MultiCUDA renders one still on several GPUs of a host: each device plays
// its contiguous share of the render's chains into its own histogram (chains
// are numbered across the whole render, so together they play exactly the
// chains of a one-device render), the other devices' histograms are summed
// into the first device's through the host, and the first device finishes
// the image. The result differs from a one-device render only by the order
// of float additions.
type MultiCUDA struct {
	Devs []*gpu.Device
}

// partProgress adds up the progress of the parts of a render for one callback.
type partProgress struct {
	mu    sync.Mutex
	done  []int64
	total int64
	fn    func(done, total int64)
}

func (pp *partProgress) part(i int) func(done, total int64) {
	if pp.fn == nil {
		return nil
	}
	return func(done, _ int64) {
		pp.mu.Lock()
		defer pp.mu.Unlock()
		pp.done[i] = done
		sum := int64(0)
		for _, d := range pp.done {
			sum += d
		}
		pp.fn(sum, pp.total)
	}
}

// Render renders g with options o over every device of m.
func (m MultiCUDA) Render(ctx context.Context, g *Genome, o Options) (*Frame, Stats, error) {
	if o.Linear {
		return nil, Stats{}, errLinearGPU
	}
	if len(m.Devs) == 0 {
		return nil, Stats{}, fmt.Errorf("flame: no devices")
	}
	if len(m.Devs) == 1 {
		return CUDA{Dev: m.Devs[0]}.Render(ctx, g, o)
	}
	p, gg, xs, err := stillInputs(g, o, ScheduleAuto)
	if err != nil {
		return nil, Stats{}, err
	}
	n := len(m.Devs)
	runs := make([]*cudaRun, n)
	for i, d := range m.Devs {
		runs[i] = &cudaRun{dev: d}
		defer runs[i].free()
	}
	type part struct {
		hist *gpu.Buffer[float32]
		hits *gpu.Buffer[uint32]
		bad  *gpu.Buffer[uint64]
	}
	parts := make([]part, n)
	errs := make([]error, n)
	pp := &partProgress{done: make([]int64, n), total: p.samples, fn: o.Progress}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	start := time.Now()
	for i := range runs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var pt part
			pt.hist, pt.hits, pt.bad, errs[i] = runs[i].accumulate(ctx, p, gg, xs, i, n, o.Seed, pp.part(i))
			if errs[i] != nil {
				cancel()
			}
			parts[i] = pt
		}(i)
	}
	wg.Wait()
	st := Stats{Samples: p.samples, Buckets: int64(p.bw) * int64(p.bh), PartsWallSeconds: time.Since(start).Seconds()}
	merge := time.Now()
	for i, err := range errs {
		if err != nil {
			return nil, st, fmt.Errorf("flame: device %d: %w", m.Devs[i].Info().Ordinal, err)
		}
		st.IterateSeconds = max(st.IterateSeconds, runs[i].iterate.Seconds())
	}
	r0, p0 := runs[0], parts[0]
	if err := r0.addParts(p.bw*p.bh, p0.hist, p0.hits, func(yield func(*gpu.Buffer[float32], *gpu.Buffer[uint32]) error) error {
		for _, pt := range parts[1:] {
			if err := yield(pt.hist, pt.hits); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return nil, st, err
	}
	st.MergeSeconds = time.Since(merge).Seconds()
	var bad int64
	for _, pt := range parts[1:] {
		var nbad [1]uint64
		if err := pt.bad.Read(nbad[:]); err != nil {
			return nil, st, err
		}
		bad += int64(nbad[0])
	}
	if gg.AlphaHits != 0 {
		if err := r0.hitsFromAlpha(p0.hist, p0.hits, p.bw*p.bh); err != nil {
			return nil, st, err
		}
	}
	f, err := r0.finishOnDevice(p, p0.hist, p0.hits, p0.bad, o)
	st.BadValues = r0.bad + bad
	for _, r := range runs {
		st.DeviceBytes += r.bytes
	}
	return f, st, err
}

// addParts sums other devices' histograms into hist and hits on r's device:
// each is copied peer to peer (NVLink on the H100 host: a 4K histogram in
// milliseconds, where a pageable round trip through the host took ~2 s),
// or through the host when the driver cannot, then added by a kernel.
func (r *cudaRun) addParts(nb int, hist *gpu.Buffer[float32], hits *gpu.Buffer[uint32],
	each func(yield func(*gpu.Buffer[float32], *gpu.Buffer[uint32]) error) error) error {
	add, err := flameAddHist.Load(r.dev)
	if err != nil {
		return err
	}
	tmpHist, err := alloc[float32](r, 4*nb)
	if err != nil {
		return err
	}
	tmpHits, err := alloc[uint32](r, nb)
	if err != nil {
		return err
	}
	var hostHist []float32
	var hostHits []uint32
	viaHost := func(h *gpu.Buffer[float32], c *gpu.Buffer[uint32]) error {
		if hostHist == nil {
			hostHist, hostHits = make([]float32, 4*nb), make([]uint32, nb)
		}
		for _, f := range []func() error{
			func() error { return h.Read(hostHist) }, func() error { return c.Read(hostHits) },
			func() error { return tmpHist.Write(hostHist) }, func() error { return tmpHits.Write(hostHits) },
		} {
			if err := f(); err != nil {
				return err
			}
		}
		return nil
	}
	return each(func(h *gpu.Buffer[float32], c *gpu.Buffer[uint32]) error {
		if tmpHist.CopyPeer(h) != nil || tmpHits.CopyPeer(c) != nil {
			if err := viaHost(h, c); err != nil {
				return err
			}
		}
		return add.Launch(gpu.Dim((nb+255)/256), gpu.Dim(256), 0, addHistArgs{hist.Ptr(), tmpHist.Ptr(), hits.Ptr(),
			tmpHits.Ptr(), uint64(nb)})
	})
}
