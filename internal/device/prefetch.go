package device

import (
	"math"
	"runtime"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// openResult is what a prefetched gpu.Open returned.
type openResult struct {
	dev *gpu.Device
	err error
}

// Prefetch starts opening the GPU on its own goroutine as a job
// command starts, so that the driver's start-up (cuInit, the context: a
// good part of the GPU path's fixed cost) overlaps reading and parsing the
// input. It does so only for --device cuda: under auto, a run the model
// sends to the CPU would pay for it anyway (on the H100 host a process whose
// driver start-up is under way takes ~70 ms longer to exit, more than small
// CPU runs take); a job whose input takes long to prepare calls
// PrefetchFor once it can guess its work. Open takes the result. The
// kernels of families (gpu.Device.Preload) are loaded in the same go, after
// the open: a job names those it launches first.
func (p *Policy) Prefetch(families ...string) {
	if p.s.Device == "cuda" {
		p.startOpen(families)
	}
}

// PrefetchFor is Prefetch under auto for a job whose work an early,
// cheap estimate puts on the GPU (the model says the GPU at that work,
// as OpenFor will when the run's own estimate agrees): the driver's
// start-up then overlaps the rest of the input's preparation, as it does
// under cuda. Where the run's estimate then picks the CPU, the open is
// let go (ReleasePrefetched) and costs what Prefetch's comment says.
// It reports whether it started one. families are Prefetch's.
func (p *Policy) PrefetchFor(job string, work float64, families ...string) bool {
	if p.Weighs() && p.gpuLikely(job, work) {
		return p.startOpen(families)
	}
	return false
}

// MayOpenFor says, before OpenFor(job, work) is called, whether it may
// open a GPU: never under cpu or in a build without CUDA, always under
// cuda, and under auto where the model picks the GPU at that work (or has
// no model for job). A job starts work that only the device needs (pga's
// compile for it) while the device opens, where this says it may.
func (p *Policy) MayOpenFor(job string, work float64) bool {
	return gpu.BuiltWithCUDA && p.mayOpen(job, work)
}

func (p *Policy) mayOpen(job string, work float64) bool {
	switch p.s.Device {
	case "cpu":
		return false
	case "auto":
		if _, _, ok := p.model(job); ok {
			return p.gpuLikely(job, work)
		}
	}
	return true
}

// gpuLikely says whether the model of job picks the GPU at work on this
// many cores.
func (p *Policy) gpuLikely(job string, work float64) bool {
	m, _, ok := p.model(job)
	if !ok {
		return false
	}
	cpuT, gpuT := m.predict(work, runtime.GOMAXPROCS(0), math.Inf(1))
	return gpuT < cpuT
}

// startOpen opens the first GPU on its own goroutine (once) and loads the
// kernels of families there; false when it did not start one now. A
// family that fails to load is left to the job, whose own load reports it.
func (p *Policy) startOpen(families []string) bool {
	if p.devOpen != nil || !gpu.BuiltWithCUDA {
		return false
	}
	ch := make(chan openResult, 1)
	p.devOpen = ch
	first := p.Ordinals()[0]
	go func() {
		dev, err := gpu.Open(first)
		if err == nil {
			for _, f := range families {
				dev.Preload(f)
			}
		}
		ch <- openResult{dev, err}
	}()
	return true
}

// takePrefetched returns the prefetched open's result, waiting for it, and
// whether there was one.
func (p *Policy) takePrefetched() (*gpu.Device, error, bool) {
	if p.devOpen == nil {
		return nil, nil, false
	}
	r := <-p.devOpen
	p.devOpen = nil
	return r.dev, r.err, true
}

// ReleasePrefetched closes a device opened ahead but never used, without
// making the run wait for the open to finish.
func (p *Policy) ReleasePrefetched() {
	if ch := p.devOpen; ch != nil {
		p.devOpen = nil
		go func() {
			if r := <-ch; r.dev != nil {
				r.dev.Close()
			}
		}()
	}
}
