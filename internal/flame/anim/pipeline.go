package anim

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/procgen-dev/procgen/internal/flame"
)

// framesInFlight is how many frames a device may have queued at once
// (FrameSubmitter): the host queues the newest while the device works
// through the others.
const framesInFlight = 3

// progressUnit is the progress units per frame.
const progressUnit = 1000

// Pipeline renders the frames of one animation.
type Pipeline struct {
	Source  Source
	Times   []float64 // the frames' times, in output order
	Numbers []int     // the number each frame's file gets
	// Render is one renderer per device; frames are dealt over them.
	Render []flame.FrameRenderer
	// Frame is every frame's options (seed, early clip, transparency);
	// the pipeline sets Progress.
	Frame    flame.Options
	Src      string                  // the input's path, for messages and never an output
	Progress func(done, total int64) // nil: none
	Log      io.Writer               // what was written; nil: nothing
	Debug    io.Writer               // per-frame timings (-v); nil: nothing
}

// renderedFrame is a frame on its way to the writer.
type renderedFrame struct {
	i     int
	frame *flame.Frame
}

// spec is a frame's genomes, interpolated and planned.
type spec struct {
	i      int
	fs     *flame.FrameSpec
	interp time.Duration
}

// run is the state the stages of one Run share.
type run struct {
	p        *Pipeline
	ctx      context.Context
	cancel   context.CancelFunc
	todo     []int // the frames to render, in order
	errc     chan error
	rendered chan renderedFrame
	progress *frameProgress
}

// Run renders the frames (skipping those skip says) in goroutines and
// hands each to emit in order on the calling goroutine, so encoding and
// writing frame N overlap the rendering of frame N+1.
func (p *Pipeline) Run(ctx context.Context, skip func(i int) bool, emit func(i int, f *flame.Frame) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &run{p: p, ctx: ctx, cancel: cancel, errc: make(chan error, 2),
		rendered: make(chan renderedFrame, len(p.Render))}
	for i := range p.Times {
		if !skip(i) {
			r.todo = append(r.todo, i)
		}
	}
	r.progress = newFrameProgress(p, len(p.Times)-len(r.todo))
	// Three stages overlap: the genomes of frame N+1 are interpolated while
	// frame N renders, and frame N-1 is encoded and written meanwhile.
	specs := make(chan spec, len(p.Render))
	go r.plan(specs)
	r.renderAll(specs)
	frames := make(chan renderedFrame, 1)
	go r.reorder(frames)
	return r.emitAll(frames, emit)
}

// plan interpolates and plans each frame to render, in order, while the
// devices render the frames before it.
func (r *run) plan(specs chan<- spec) {
	defer close(specs)
	o := r.p.Frame
	o.Progress = nil
	for _, i := range r.todo {
		t := r.p.Times[i]
		start := time.Now()
		fs, err := r.p.Source.Frame(t)
		if err == nil { // the frame's plan, built while the device renders the last frame
			if err = fs.Prepare(o); err != nil {
				err = fmt.Errorf("%s: frame at time %g: %w", r.p.Src, t, err)
			}
		}
		if err != nil {
			r.errc <- err
			return
		}
		select {
		case specs <- spec{i, fs, time.Since(start)}:
		case <-r.ctx.Done():
			return
		}
	}
}

// renderAll starts one render worker per device, each taking the next
// frame's genomes; rendered is closed once they are all done.
func (r *run) renderAll(specs <-chan spec) {
	var wg sync.WaitGroup
	for _, fr := range r.p.Render {
		wg.Add(1)
		go func(fr flame.FrameRenderer) {
			defer wg.Done()
			if sub, ok := fr.(FrameSubmitter); ok {
				r.renderQueued(fr, sub, specs)
				return
			}
			for sp := range specs {
				start := time.Now()
				f, st, err := fr.RenderFrame(r.ctx, sp.fs, r.progress.options(sp.i))
				if !r.deliver(sp, start, f, st, err, "") {
					return
				}
			}
		}(fr)
	}
	go func() {
		wg.Wait()
		close(r.rendered)
	}()
}

// deliver hands a rendered frame on (or reports its error); false: the run
// is over.
func (r *run) deliver(sp spec, start time.Time, f *flame.Frame, st flame.Stats, err error, queueTimes string) bool {
	i, t := sp.i, r.p.Times[sp.i]
	if err != nil {
		select {
		case r.errc <- fmt.Errorf("%s: frame at time %g: %w", r.p.Src, t, err):
		default:
		}
		r.cancel()
		return false
	}
	r.progress.frameDone(i)
	kernel := ""
	if st.Kernel != "" {
		kernel = ", kernel " + st.Kernel
	}
	debugf(r.p.Debug, "frame %d (time %g): interpolate and plan %.3f s, render %.3f s (iterate %.3f s%s), %d temporal samples, %d samples%s",
		r.p.Numbers[i], t, sp.interp.Seconds(), time.Since(start).Seconds(), st.IterateSeconds, queueTimes,
		len(sp.fs.Samples), st.Samples, kernel)
	select {
	case r.rendered <- renderedFrame{i, f}:
		return true
	case <-r.ctx.Done():
		return false
	}
}

// reorder passes frames on in the order of Times, whichever device
// finished them first.
func (r *run) reorder(frames chan<- renderedFrame) {
	defer close(frames)
	waiting := map[int]*flame.Frame{}
	next := 0 // into todo
	for rf := range r.rendered {
		waiting[rf.i] = rf.frame
		for next < len(r.todo) {
			f, ok := waiting[r.todo[next]]
			if !ok {
				break
			}
			delete(waiting, r.todo[next])
			select {
			case frames <- renderedFrame{r.todo[next], f}:
			case <-r.ctx.Done():
				for range r.rendered {
				}
				return
			}
			next++
		}
	}
}

// emitAll hands the frames to emit on the calling goroutine and returns
// the run's first error.
func (r *run) emitAll(frames <-chan renderedFrame, emit func(i int, f *flame.Frame) error) error {
	for rf := range frames {
		start := time.Now()
		if err := emit(rf.i, rf.frame); err != nil {
			r.cancel()
			for range frames { // let the renderer stop
			}
			return err
		}
		debugf(r.p.Debug, "frame %d: write %.3f s", r.p.Numbers[rf.i], time.Since(start).Seconds())
	}
	select {
	case err := <-r.errc:
		return err
	default:
	}
	if err := r.ctx.Err(); err != nil {
		return err
	}
	r.progress.finish()
	return nil
}

// frameProgress sums the progress of the frames being rendered and those
// done into one count, progressUnit a frame.
type frameProgress struct {
	mu       sync.Mutex
	base     flame.Options
	perFrame map[int]int64
	done     int64 // units of finished (and skipped) frames
	total    int64
	bar      func(done, total int64)
}

func newFrameProgress(p *Pipeline, skipped int) *frameProgress {
	bar := p.Progress
	if bar == nil {
		bar = func(int64, int64) {}
	}
	return &frameProgress{base: p.Frame, perFrame: map[int]int64{}, done: int64(skipped) * progressUnit,
		total: int64(len(p.Times)) * progressUnit, bar: bar}
}

// options are frame i's render options, reporting its progress.
func (fp *frameProgress) options(i int) flame.Options {
	o := fp.base
	o.Progress = func(done, total int64) {
		fp.mu.Lock()
		defer fp.mu.Unlock()
		fp.perFrame[i] = done * progressUnit / max(total, 1)
		sum := fp.done
		for _, d := range fp.perFrame {
			sum += d
		}
		fp.bar(sum, fp.total)
	}
	return o
}

func (fp *frameProgress) frameDone(i int) {
	fp.mu.Lock()
	delete(fp.perFrame, i)
	fp.done += progressUnit
	fp.mu.Unlock()
}

func (fp *frameProgress) finish() { fp.bar(fp.total, fp.total) }
