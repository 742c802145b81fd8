package mesh

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Options are what both writers take besides the mesh.
type Options struct {
	// Progress, when not nil, is told how many elements of all parts are
	// built, of their total; calls are serialized.
	Progress func(done, total int64)
	// Workers build and format chunks in parallel; 0 means GOMAXPROCS.
	// The output does not depend on it.
	Workers int
	// Growth, when not nil, makes a GLB show the parts step by step (see
	// Growth); the other writers ignore it.
	Growth *Growth
	// ReferenceImages makes a GLB refer to its textures by uri (each
	// Material's TextureRef, else Texture) rather than embed them.
	ReferenceImages bool
}

func (o *Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// each calls fn(i) for i in [0, n) on up to workers goroutines. It stops
// handing out work once ctx is done or a call fails, and returns the first
// failure or ctx's error.
func each(ctx context.Context, workers, n int, fn func(i int) error) error {
	workers = max(1, min(workers, n))
	var next atomic.Int64
	var once sync.Once
	var first error
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil && !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					once.Do(func() { first = err })
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// eachOrdered is each with a sequential tail: then(i) runs on the calling
// goroutine in order of i, each as soon as fn(i) has returned, so that the
// tail (writing the formatted chunks) overlaps the parallel work instead of
// waiting for all of it. The first failure of fn or then is returned.
func eachOrdered(ctx context.Context, workers, n int, fn, then func(i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make([]chan error, n)
	for i := range done {
		done[i] = make(chan error, 1)
	}
	finished := make(chan error, 1)
	go func() {
		finished <- each(ctx, workers, n, func(i int) error {
			err := fn(i)
			done[i] <- err
			return err
		})
	}()
	var err error
	for i := 0; i < n && err == nil; i++ {
		select {
		case err = <-done[i]:
		case werr := <-finished: // the workers stopped: fn(i) ran or never will
			finished <- werr
			select {
			case err = <-done[i]:
			default:
				err = werr
				if err == nil {
					err = ctx.Err()
				}
			}
		}
		if err == nil {
			err = then(i)
		}
	}
	if err != nil {
		cancel() // stop handing out work; the workers finish what they hold
	}
	if werr := <-finished; err == nil {
		err = werr
	}
	return err
}

// ticker tells Options.Progress about finished elements, serialized.
type ticker struct {
	mu    sync.Mutex
	done  int64
	total int64
	fn    func(done, total int64)
}

func newTicker(m *Mesh, fn func(done, total int64)) *ticker {
	t := &ticker{fn: fn}
	for _, p := range m.Parts {
		t.total += int64(p.Count)
	}
	return t
}

func (t *ticker) add(n int) {
	if t.fn == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.done += int64(n)
	t.fn(t.done, t.total)
}
