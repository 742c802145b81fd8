package pgajob

import (
	"context"
	"errors"
	"time"

	"github.com/procgen-dev/procgen/internal/pga"
)

// ahead is the grammar being compiled for the device (pga.CompileCUDA: the
// tables, with the roofs and cuts of the lots' polygons, seconds of the
// host's cores on tens of thousands of them) while the device opens, so
// the two overlap instead of following each other.
type ahead struct {
	cancel context.CancelFunc
	done   chan struct{}
	cp     *pga.CUDAProgram
	err    error
	took   time.Duration
}

// compileAhead starts compiling g for the device when OpenFor(job, work)
// may open one (device.Policy.MayOpenFor: not under cpu, not where auto
// takes the CPU); nil when not. Its progress bar appears once there is
// work on the lots' polygons to report.
func (c *city) compileAhead(ctx context.Context, g *pga.Grammar, job string, work float64) *ahead {
	if !c.env.Dev.MayOpenFor(job, work) {
		return nil
	}
	cctx, cancel := context.WithCancel(ctx)
	a := &ahead{cancel: cancel, done: make(chan struct{})}
	var bar func(done, total int64)
	progress := func(done, total int64) {
		if bar == nil {
			bar = c.env.Progress(total, "prepare polygons")
		}
		bar(done, total)
	}
	go func() {
		defer close(a.done)
		t := time.Now()
		a.cp, a.err = pga.CompileCUDA(cctx, g, progress)
		a.took = time.Since(t)
	}()
	return a
}

// stop cancels the compile and waits for it to end (within one lot's
// roof or cut): the CPU evaluates the grammar instead.
func (a *ahead) stop() {
	if a != nil {
		a.cancel()
		<-a.done
	}
}

// wait is the compiled grammar, once it is done.
func (a *ahead) wait() (*pga.CUDAProgram, error) {
	if a == nil { // compileAhead starts one wherever a device may open
		return nil, errors.New("pga: internal error: a device opened for a run that compiled nothing for it")
	}
	<-a.done
	a.cancel()
	return a.cp, a.err
}
