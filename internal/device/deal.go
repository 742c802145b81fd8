package device

import (
	"context"
	"sync"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/gpu"
)

// Deal runs jobs 0..n-1 over workers (one per device): each worker takes
// the next job from a shared queue and runs it with do, so a slow job holds
// up only its own device. finished hears each job's end, one at a time
// (a progress bar, a warning). Deal returns the errors of the jobs that
// failed; after a cancellation no new job starts, and a cancellation that
// failed no job is the error.
func Deal[W any](ctx context.Context, workers []W, n int, do func(w W, job int) error, finished func(job int, err error)) []error {
	queue := make(chan int)
	go func() {
		defer close(queue)
		for j := range n {
			select {
			case queue <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func(w W) {
			defer wg.Done()
			for j := range queue {
				err := do(w, j)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				}
				finished(j, err)
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil && len(errs) == 0 {
		errs = append(errs, err)
	}
	return errs
}

// FrameRenderers is one frame renderer per device (the CPU's when there is
// none); each keeps its device buffers between frames until closed.
func FrameRenderers(devs []*gpu.Device) []flame.FrameRenderer {
	if len(devs) == 0 {
		return []flame.FrameRenderer{flame.NewFrameRenderer(nil)}
	}
	rs := make([]flame.FrameRenderer, len(devs))
	for i, d := range devs {
		rs[i] = flame.NewFrameRenderer(d)
	}
	return rs
}

// CloseRenderers frees what the renderers kept (device buffers).
func CloseRenderers(rs []flame.FrameRenderer) {
	for _, r := range rs {
		if c, ok := r.(interface{ Close() error }); ok {
			c.Close()
		}
	}
}
