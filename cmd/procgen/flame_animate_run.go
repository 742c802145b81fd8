package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/procgen-dev/procgen/internal/flame"
)

// framesInFlight is how many frames a device may have queued at once
// (flame.FrameSubmitter): the host queues the newest while the device works
// through the others.
const framesInFlight = 3

// renderedFrame is a frame on its way to the writer.
type renderedFrame struct {
	i     int
	frame *flame.Frame
}

// run renders the frames (skipping those skip says) in a goroutine and
// hands each to emit in order on the calling goroutine, so encoding and
// writing frame N overlap the rendering of frame N+1.
func (r *animRun) run(ctx context.Context, skip func(i int) bool, emit func(i int, f *flame.Frame) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	const unit = 1000 // progress units per frame
	n := int64(len(r.times))
	var mu sync.Mutex
	bar := r.app.newProgress(n*unit, "flame animate")
	frames := make(chan renderedFrame, 1)
	errc := make(chan error, 2)
	// Three stages overlap: the genomes of frame N+1 are interpolated while
	// frame N renders, and frame N-1 is encoded and written meanwhile.
	type spec struct {
		i      int
		fs     *flame.FrameSpec
		interp time.Duration
	}
	var todo []int // the frames to render, in order
	for i := range r.times {
		if !skip(i) {
			todo = append(todo, i)
		}
	}
	specs := make(chan spec, len(r.render))
	go func() {
		defer close(specs)
		for _, i := range todo {
			t := r.times[i]
			start := time.Now()
			fs, err := r.an.Frame(t)
			if err == nil { // the frame's plan, built while the device renders the last frame
				if err = fs.Prepare(flame.Options{Seed: r.app.opts.Seed, EarlyClip: r.o.EarlyClip, Transparent: r.o.Transparent}); err != nil {
					err = fmt.Errorf("%s: frame at time %g: %w", r.src, t, err)
				}
			}
			if err != nil {
				errc <- err
				return
			}
			select {
			case specs <- spec{i, fs, time.Since(start)}:
			case <-ctx.Done():
				return
			}
		}
	}()
	// One render worker per device takes the next frame's genomes; frames
	// are handed to emit in order, whichever device finishes first.
	rendered := make(chan renderedFrame, len(r.render))
	var wg sync.WaitGroup
	perFrame := map[int]int64{}
	doneFrames := int64(len(r.times)-len(todo)) * unit // skipped frames count as done
	opts := func(i int) flame.Options {
		return flame.Options{Seed: r.app.opts.Seed, EarlyClip: r.o.EarlyClip, Transparent: r.o.Transparent,
			Progress: func(done, total int64) {
				mu.Lock()
				defer mu.Unlock()
				perFrame[i] = done * unit / max(total, 1)
				sum := doneFrames
				for _, d := range perFrame {
					sum += d
				}
				bar(sum, n*unit)
			}}
	}
	// deliver hands a rendered frame on (or reports its error); false:
	// the run is over.
	deliver := func(sp spec, start time.Time, f *flame.Frame, st flame.Stats, err error, queueTimes string) bool {
		i, t := sp.i, r.times[sp.i]
		if err != nil {
			select {
			case errc <- fmt.Errorf("%s: frame at time %g: %w", r.src, t, err):
			default:
			}
			cancel()
			return false
		}
		mu.Lock()
		delete(perFrame, i)
		doneFrames += unit
		mu.Unlock()
		kernel := ""
		if st.Kernel != "" {
			kernel = ", kernel " + st.Kernel
		}
		r.app.log.Debugf("frame %d (time %g): interpolate and plan %.3f s, render %.3f s (iterate %.3f s%s), %d temporal samples, %d samples%s",
			r.numbers[i], t, sp.interp.Seconds(), time.Since(start).Seconds(), st.IterateSeconds, queueTimes,
			len(sp.fs.Samples), st.Samples, kernel)
		select {
		case rendered <- renderedFrame{i, f}:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for _, fr := range r.render {
		wg.Add(1)
		go func(fr flame.FrameRenderer) {
			defer wg.Done()
			sub, ok := fr.(flame.FrameSubmitter)
			if !ok {
				for sp := range specs {
					start := time.Now()
					f, st, err := fr.RenderFrame(ctx, sp.fs, opts(sp.i))
					if !deliver(sp, start, f, st, err, "") {
						return
					}
				}
				return
			}
			// framesInFlight frames in flight: frame N+2 is queued before
			// frame N is waited for, so the device goes on to N+1 and N+2
			// while the host reads N back and builds N+3's inputs ("render"
			// in -v's per-frame line then spans them). With two, a host that
			// took 45-55 ms to queue a frame the device iterated in 65 ms
			// left the device idle now and then.
			// -v shows how long the host took to queue a frame and how long
			// it then waited for it: a wait near zero means the device was
			// idle before the host asked, and the host is what limits.
			type queued struct {
				sp              spec
				start           time.Time
				starved, submit time.Duration // waiting for the frame's inputs, queueing it
				pf              flame.PendingFrame
			}
			collect := func(q *queued) bool {
				w := time.Now()
				f, st, err := q.pf.Wait()
				return deliver(q.sp, q.start, f, st, err,
					fmt.Sprintf("; host waited %.3f s for its genomes, queued it in %.3f s, waited %.3f s for it",
						q.starved.Seconds(), q.submit.Seconds(), time.Since(w).Seconds()))
			}
			// Ready the device for the frames it will have in flight while
			// the first frame's genomes are interpolated; should it fail,
			// the first SubmitFrame meets the same error and reports it.
			if w, ok := fr.(flame.FrameWarmer); ok {
				n := min(framesInFlight, len(todo))
				if err := w.Warm(n); err != nil {
					r.app.log.Debugf("ready the device for %d frames: %v", n, err)
				}
			}
			var pending []*queued // queued, oldest first
			abandon := func() {   // wait for the device to be done with them
				for _, q := range pending {
					q.pf.Wait()
				}
			}
			for {
				idle := time.Now()
				sp, ok := <-specs
				if !ok {
					break
				}
				start := time.Now()
				pf, err := sub.SubmitFrame(ctx, sp.fs, opts(sp.i))
				if err != nil && len(pending) > 0 && ctx.Err() == nil {
					// Frames too big for the device to hold so many at
					// once: finish the oldest and try again.
					q := pending[0]
					pending = pending[1:]
					if !collect(q) {
						abandon()
						return
					}
					start = time.Now()
					pf, err = sub.SubmitFrame(ctx, sp.fs, opts(sp.i))
				}
				if err != nil {
					abandon()
					deliver(sp, start, nil, flame.Stats{}, err, "")
					return
				}
				pending = append(pending, &queued{sp, start, start.Sub(idle), time.Since(start), pf})
				if len(pending) == framesInFlight {
					q := pending[0]
					pending = pending[1:]
					if !collect(q) {
						abandon()
						return
					}
				}
			}
			for i, q := range pending {
				if !collect(q) {
					pending = pending[i+1:]
					abandon()
					return
				}
			}
		}(fr)
	}
	go func() {
		wg.Wait()
		close(rendered)
	}()
	// Reorder: frames leave in the order of r.times.
	go func() {
		defer close(frames)
		waiting := map[int]*flame.Frame{}
		next := 0 // into todo
		for rf := range rendered {
			waiting[rf.i] = rf.frame
			for next < len(todo) {
				f, ok := waiting[todo[next]]
				if !ok {
					break
				}
				delete(waiting, todo[next])
				select {
				case frames <- renderedFrame{todo[next], f}:
				case <-ctx.Done():
					for range rendered {
					}
					return
				}
				next++
			}
		}
	}()
	for rf := range frames {
		start := time.Now()
		if err := emit(rf.i, rf.frame); err != nil {
			cancel()
			for range frames { // let the renderer stop
			}
			return err
		}
		r.app.log.Debugf("frame %d: write %.3f s", r.numbers[rf.i], time.Since(start).Seconds())
	}
	select {
	case err := <-errc:
		return err
	default:
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	bar(n*unit, n*unit)
	return nil
}
