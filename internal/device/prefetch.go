package device

import "github.com/procgen-dev/procgen/internal/gpu"

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
// CPU runs take), and the runs it sends to the GPU parse in milliseconds.
// Open takes the result.
func (p *Policy) Prefetch() {
	if p.devOpen != nil || !gpu.BuiltWithCUDA || p.s.Device != "cuda" {
		return
	}
	ch := make(chan openResult, 1)
	p.devOpen = ch
	first := p.Ordinals()[0]
	go func() {
		dev, err := gpu.Open(first)
		ch <- openResult{dev, err}
	}()
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
