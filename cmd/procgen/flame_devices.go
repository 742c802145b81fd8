package main

import (
	"sync"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/spf13/cobra"
)

// renderOnDevices renders a batch of genomes on several GPUs: one worker per
// device takes the next genome from a shared queue, renders it and writes its
// image, so a slow genome holds up only its own device. One progress bar
// counts finished genomes. It returns the errors of the genomes that failed;
// after a cancellation no new genome starts.
func (a *app) renderOnDevices(cmd *cobra.Command, devs []*gpu.Device, plan *output.Plan, jobs []flameJob,
	o flameOptions, depth output.BitDepth) []error {
	ctx := cmd.Context()
	queue := make(chan flameJob)
	go func() {
		defer close(queue)
		for _, j := range jobs {
			select {
			case queue <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	var mu sync.Mutex
	var errs []error
	done := int64(0)
	bar := a.newProgress(int64(len(jobs)), "flame render")
	var wg sync.WaitGroup
	for _, d := range devs {
		wg.Add(1)
		go func(r flame.Renderer) {
			defer wg.Done()
			for j := range queue {
				err := a.renderOne(cmd, r, plan, j, o, depth, func(int64, int64) {})
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
					if ctx.Err() == nil {
						a.log.Warnf("%v", err)
					}
				}
				done++
				bar(done, int64(len(jobs)))
				mu.Unlock()
			}
		}(flame.NewRenderer(d))
	}
	wg.Wait()
	a.hintJIT(devs[0], "flame")
	if err := ctx.Err(); err != nil && len(errs) == 0 {
		errs = append(errs, err)
	}
	return errs
}

// frameRenderers is one frame renderer per device (the CPU's when there is
// none); each keeps its device buffers between frames until closed.
func frameRenderers(devs []*gpu.Device) []flame.FrameRenderer {
	if len(devs) == 0 {
		return []flame.FrameRenderer{flame.NewFrameRenderer(nil)}
	}
	rs := make([]flame.FrameRenderer, len(devs))
	for i, d := range devs {
		rs[i] = flame.NewFrameRenderer(d)
	}
	return rs
}

// closeRenderers frees what the renderers kept (device buffers).
func closeRenderers(rs []flame.FrameRenderer) {
	for _, r := range rs {
		if c, ok := r.(interface{ Close() error }); ok {
			c.Close()
		}
	}
}
