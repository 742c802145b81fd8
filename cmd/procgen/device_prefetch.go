package main

import "github.com/procgen-dev/procgen/internal/gpu"

// openResult is what a prefetched gpu.Open returned.
type openResult struct {
	dev *gpu.Device
	err error
}

// prefetchDevice starts opening the GPU on its own goroutine as a job
// command starts, so that the driver's start-up (cuInit, the context: a
// good part of the GPU path's fixed cost) overlaps reading and parsing the
// input. It does so only for --device cuda: under auto, a run the model
// sends to the CPU would pay for it anyway (on the H100 host a process whose
// driver start-up is under way takes ~70 ms longer to exit, more than small
// CPU runs take), and the runs it sends to the GPU parse in milliseconds.
// openDevice takes the result.
func (a *app) prefetchDevice() {
	if a.devOpen != nil || !gpu.BuiltWithCUDA || a.opts.Device != "cuda" {
		return
	}
	ch := make(chan openResult, 1)
	a.devOpen = ch
	first := a.deviceOrdinals()[0]
	go func() {
		dev, err := gpu.Open(first)
		ch <- openResult{dev, err}
	}()
}

// takePrefetched returns the prefetched open's result, waiting for it, and
// whether there was one.
func (a *app) takePrefetched() (*gpu.Device, error, bool) {
	if a.devOpen == nil {
		return nil, nil, false
	}
	r := <-a.devOpen
	a.devOpen = nil
	return r.dev, r.err, true
}

// releasePrefetched closes a device opened ahead but never used, without
// making the run wait for the open to finish.
func (a *app) releasePrefetched() {
	if ch := a.devOpen; ch != nil {
		a.devOpen = nil
		go func() {
			if r := <-ch; r.dev != nil {
				r.dev.Close()
			}
		}()
	}
}
