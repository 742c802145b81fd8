package anim

import (
	"fmt"
	"time"

	"github.com/procgen-dev/procgen/internal/flame"
)

// queued is a frame submitted to a device and not yet waited for. -v shows
// how long the host took to queue a frame and how long it then waited for
// it: a wait near zero means the device was idle before the host asked,
// and the host is what limits.
type queued struct {
	sp              spec
	start           time.Time
	starved, submit time.Duration // waiting for the frame's inputs, queueing it
	pf              flame.PendingFrame
}

// inFlight is one device's queued frames, oldest first.
type inFlight struct {
	r       *run
	sub     FrameSubmitter
	pending []*queued
}

// renderQueued keeps framesInFlight frames in flight on a device that
// queues them: frame N+2 is queued before frame N is waited for, so the
// device goes on to N+1 and N+2 while the host reads N back and builds
// N+3's inputs ("render" in -v's per-frame line then spans them). With
// two, a host that took 45-55 ms to queue a frame the device iterated in
// 65 ms left the device idle now and then.
func (r *run) renderQueued(fr flame.FrameRenderer, sub FrameSubmitter, specs <-chan spec) {
	// Ready the device for the frames it will have in flight while the
	// first frame's genomes are interpolated; should it fail, the first
	// SubmitFrame meets the same error and reports it.
	if w, ok := fr.(FrameWarmer); ok {
		n := min(framesInFlight, len(r.todo))
		if err := w.Warm(n); err != nil {
			debugf(r.p.Debug, "ready the device for %d frames: %v", n, err)
		}
	}
	q := &inFlight{r: r, sub: sub}
	for {
		idle := time.Now()
		sp, ok := <-specs
		if !ok {
			break
		}
		if !q.submit(sp, idle) {
			return
		}
	}
	for len(q.pending) > 0 {
		if !q.collectOldest() {
			q.abandon()
			return
		}
	}
}

// submit queues a frame, and waits for the oldest once framesInFlight are
// queued; false: the run is over.
func (q *inFlight) submit(sp spec, idle time.Time) bool {
	r := q.r
	start := time.Now()
	pf, err := q.sub.SubmitFrame(r.ctx, sp.fs, r.progress.options(sp.i))
	if err != nil && len(q.pending) > 0 && r.ctx.Err() == nil {
		// Frames too big for the device to hold so many at once: finish
		// the oldest and try again.
		if !q.collectOldest() {
			q.abandon()
			return false
		}
		start = time.Now()
		pf, err = q.sub.SubmitFrame(r.ctx, sp.fs, r.progress.options(sp.i))
	}
	if err != nil {
		q.abandon()
		r.deliver(sp, start, nil, flame.Stats{}, err, "")
		return false
	}
	q.pending = append(q.pending, &queued{sp, start, start.Sub(idle), time.Since(start), pf})
	if len(q.pending) == framesInFlight && !q.collectOldest() {
		q.abandon()
		return false
	}
	return true
}

// collectOldest waits for the oldest frame queued and delivers it.
func (q *inFlight) collectOldest() bool {
	f := q.pending[0]
	q.pending = q.pending[1:]
	w := time.Now()
	fr, st, err := f.pf.Wait()
	return q.r.deliver(f.sp, f.start, fr, st, err,
		fmt.Sprintf("; host waited %.3f s for its genomes, queued it in %.3f s, waited %.3f s for it",
			f.starved.Seconds(), f.submit.Seconds(), time.Since(w).Seconds()))
}

// abandon waits for the device to be done with the frames still queued.
func (q *inFlight) abandon() {
	for _, f := range q.pending {
		f.pf.Wait()
	}
}
