package lsys

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// chunkSize is how many input modules one task of a pass handles: large
// enough that scheduling costs nothing, small enough that a string of a few
// million modules gives every worker several tasks (the cost per module
// varies along a string, so equal static ranges would idle some workers).
const chunkSize = 1 << 16

// minChunksPerWorker: below this many chunks per worker a pass is not worth
// sharing out.
const minChunksPerWorker = 2

func numWorkers(w int) int {
	if w <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return w
}

func numChunks(n, size int) int { return (n + size - 1) / size }

// forChunks runs fn over the chunks [c*size, min((c+1)*size, n)) of [0, n)
// on up to workers goroutines, which take chunks in order from a shared
// counter. w is the worker's index (for per-worker scratch). Chunk
// boundaries depend only on n and size, never on workers, so anything
// computed per chunk is the same for every worker count.
//
// The error returned is that of the lowest-numbered failing chunk, so a
// failure is reported the same way however the chunks were scheduled; chunks
// after a failed one are skipped. The context is checked before each chunk.
func forChunks(ctx context.Context, n, size, workers int, fn func(w, c, lo, hi int) error) error {
	nc := numChunks(n, size)
	// Each worker gets at least minChunksPerWorker chunks: waking an idle
	// thread costs tens of microseconds on bare metal and up to a
	// millisecond on a virtual machine, more than a chunk's work.
	workers = min(numWorkers(workers), nc/minChunksPerWorker)
	if workers <= 1 {
		for c := 0; c < nc; c++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(0, c, c*size, min((c+1)*size, n)); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		next    atomic.Int64
		failed  atomic.Int64 // lowest failing chunk, nc if none
		mu      sync.Mutex
		errs    = map[int]error{}
		wg      sync.WaitGroup
		ctxDone = ctx.Done()
	)
	failed.Store(int64(nc))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for {
				c := int(next.Add(1) - 1)
				if c >= nc || int64(c) > failed.Load() {
					return
				}
				var err error
				select {
				case <-ctxDone:
					err = ctx.Err()
				default:
					err = fn(w, c, c*size, min((c+1)*size, n))
				}
				if err != nil {
					mu.Lock()
					errs[c] = err
					mu.Unlock()
					for {
						f := failed.Load()
						if int64(c) >= f || failed.CompareAndSwap(f, int64(c)) {
							break
						}
					}
				}
			}
		}(w)
	}
	wg.Wait()
	if f := int(failed.Load()); f < nc {
		return errs[f]
	}
	return nil
}
