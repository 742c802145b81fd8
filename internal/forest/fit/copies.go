package fit

import (
	"context"
	"sync"
	"sync/atomic"
)

// inCopies runs job(ctx, sub, i) for i in 0..n-1, each sub a fresh copy of
// base whose evaluations are added to sp's count (and progress) when its
// job ends. On the CPU the jobs run side by side on the evaluator's
// workers: the bootstrap's samples and the profile walks evaluate one or a
// few candidates at a time, too few to spread over cores, so one after
// another they left all but one core idle. A device evaluator keeps its
// buffers between calls and takes them one after another. The first error
// cancels the jobs not yet started and is returned.
func (sp *space) inCopies(ctx context.Context, base *space, n int, job func(ctx context.Context, sub *space, i int) error) error {
	workers := 1
	if c, ok := sp.ev.(*CPU); ok {
		workers = min(c.workers, n)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		firstErr error
		next     atomic.Int64
		wg       sync.WaitGroup
	)
	for range max(workers, 1) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					return
				}
				sub := *base
				sub.evals = 0
				err := job(ctx, &sub, i)
				mu.Lock()
				sp.evals += sub.evals
				if sp.o.Progress != nil {
					sp.o.Progress(min(sp.evals, sp.estEval), sp.estEval)
				}
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}
