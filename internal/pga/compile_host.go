package pga

import (
	"context"
	"sync"
	"sync/atomic"
)

// CUDAProgram is a grammar compiled for the CUDA backend: the tables the
// device runs, with the roofs and cuts of the lots' polygons, which the
// host makes first (on tens of thousands of polygon lots, seconds of every
// core's time). It needs no device, so a job makes it while one opens and
// then loads it (Load, in a CUDA build).
type CUDAProgram struct {
	g *Grammar
	p *program
}

// CompileCUDA compiles g for the CUDA backend on the host's cores. A
// grammar the device cannot run gives an *UnsupportedError: evaluate it
// with Grammar.Evaluate instead. ctx stops the work on the lots' polygons
// early with its error; progress, when set, hears how many of their roofs
// and cuts are made out of those known so far (calls serialized).
func CompileCUDA(ctx context.Context, g *Grammar, progress func(done, total int64)) (*CUDAProgram, error) {
	p, err := compileContext(ctx, g, progress)
	if err != nil {
		return nil, err
	}
	return &CUDAProgram{g: g, p: p}, nil
}

// hostWork is the host's share of a compile, the roofs and cuts of the
// lots' polygons: the context that stops it and the progress it reports.
// Counting is atomic and only the reports take the lock: thousands of
// steps a phase on every core would otherwise queue on it.
type hostWork struct {
	ctx         context.Context
	progress    func(done, total int64)
	mu          sync.Mutex // serializes the calls of progress
	shown       int64      // the last count reported, under mu
	done, total atomic.Int64
}

// more says that n more items of work are known.
func (w *hostWork) more(n int) { w.total.Add(int64(n)) }

// step counts one item done, and reports every 64th and the last.
func (w *hostWork) step() {
	done := w.done.Add(1)
	if w.progress == nil || (done%64 != 0 && done != w.total.Load()) {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	// A later step may have reported first: the bar never goes back.
	if done >= w.shown {
		w.shown = done
		w.progress(done, w.total.Load())
	}
}

// stopped is the context's error: the work is to stop.
func (w *hostWork) stopped() error { return w.ctx.Err() }
