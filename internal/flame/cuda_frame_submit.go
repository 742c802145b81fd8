//go:build cuda

package flame

import (
	"context"
	"errors"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// SubmitFrame builds fs's inputs, queues its launches, the finish and the
// image's read-back, and returns without waiting for the device. A
// renderer from NewFrameRenderer stages its copies in page-locked memory,
// so nothing it queues waits for the frame before; a bare CUDA{Dev} renders
// the frame before returning.
func (c CUDA) SubmitFrame(ctx context.Context, fs *FrameSpec, o Options) (PendingFrame, error) {
	fp, err := fs.framePlan(o)
	if err != nil {
		return nil, err
	}
	ins, alphaHits, err := c.frameInputs(fp)
	if err != nil {
		return nil, err
	}
	r := &cudaRun{dev: c.Dev, stages: c.Stages, cache: c.cache}
	if c.cache != nil {
		if r.arena, err = c.cache.takeArena(c.Dev); err != nil {
			return nil, err
		}
		if c.Stages == nil {
			r.stream = r.arena.stream
		}
	}
	frame, err := r.queueFrame(ctx, fp, ins, alphaHits, o)
	if err == nil && r.arena != nil {
		r.done, err = c.Dev.RecordEventOn(r.stream)
	}
	if err != nil {
		// The device may still be reading what this frame staged.
		c.Dev.Synchronize()
		if r.timer != nil {
			r.timer.Stop()
		}
		r.release()
		return nil, err
	}
	return &cudaPendingFrame{r: r, frame: frame, fp: fp, o: o}, nil
}

var errWaitedTwice = errors.New("flame: a pending frame was waited for twice")

// cudaPendingFrame is a frame queued on the device.
type cudaPendingFrame struct {
	r     *cudaRun
	frame *Frame
	fp    *framePlan
	o     Options
}

func (p *cudaPendingFrame) Wait() (*Frame, Stats, error) {
	r := p.r
	if r == nil {
		return nil, Stats{}, errWaitedTwice
	}
	p.r = nil
	defer r.release()
	err := r.settle()
	r.bad = int64(r.nbad[0])
	st := Stats{Samples: p.fp.total, Buckets: int64(p.fp.bw) * int64(p.fp.bh), BadValues: r.bad, DeviceBytes: r.bytes,
		IterateSeconds: r.iterate.Seconds(), Kernel: r.kernel}
	if err != nil {
		return nil, st, err
	}
	if p.o.Progress != nil {
		p.o.Progress(p.fp.total, p.fp.total)
	}
	return p.frame, st, nil
}

// release gives the run's buffers and arena back to the renderer (the
// device must be done with them).
func (r *cudaRun) release() {
	r.free()
	if r.arena != nil {
		r.arena.reset()
		r.cache.arenas = append(r.cache.arenas, r.arena)
		r.arena = nil
	}
}

// Warm readies the renderer for n frames in flight before the first is
// submitted, on the goroutine that submits: it loads the built-in kernels'
// module (every frame's finish runs them) and gives n arenas their streams
// and a chunk of page-locked memory each. Left to the first frames'
// SubmitFrame, this work (pinning 64 MB takes tens of milliseconds) made
// them take 80-140 ms of host time more than the rest at 1080p, and the
// device sat idle for 90 ms before the second frame; warmed while the host
// interpolates the first frame's genomes, it is off that path.
func (c CUDA) Warm(n int) error {
	if c.cache == nil {
		return nil
	}
	if _, err := flameIterate.Load(c.Dev); err != nil {
		return err
	}
	for len(c.cache.arenas) < n {
		a, err := newArena(c.Dev)
		if err != nil {
			return err
		}
		if _, _, err := a.place(arenaChunk); err != nil {
			a.free()
			return err
		}
		a.reset()
		c.cache.arenas = append(c.cache.arenas, a)
	}
	return nil
}

// takeArena returns an idle arena, or a new, empty one with its streams.
func (c *bufferCache) takeArena(d *gpu.Device) (*pinnedArena, error) {
	if n := len(c.arenas); n > 0 {
		a := c.arenas[n-1]
		c.arenas = c.arenas[:n-1]
		return a, nil
	}
	return newArena(d)
}

// newArena is an empty arena with its streams.
func newArena(d *gpu.Device) (*pinnedArena, error) {
	s, err := d.NewStream()
	if err != nil {
		return nil, err
	}
	f, err := d.NewUrgentStream()
	if err != nil {
		s.Free()
		return nil, err
	}
	return &pinnedArena{dev: d, stream: s, finish: f}, nil
}
