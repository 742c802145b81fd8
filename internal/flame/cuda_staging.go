//go:build cuda

package flame

import (
	"unsafe"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/parallel"
)

// pinnedArena is the page-locked host memory a queued frame stages its
// uploads and downloads in. A copy from pageable memory makes the driver
// wait for every launch queued before it, so a frame whose genomes went up
// that way could not be queued while the last frame still iterates; from
// page-locked memory the copy is queued like a launch. The arena belongs to
// one frame until the device has passed that frame's last copy; then reset
// makes it reusable (the frame renderer keeps one per frame in flight).
//
// Each arena comes with a stream, which the frame that holds the arena
// queues all its work on. Frames on two streams overlap on the device: a
// frame's launch of a few thousand equal blocks ends on a partial wave (at
// 1080p, 2048 blocks are 3.1 waves of 660 of a compiled kernel on an H100,
// 5.2 of 396 of the built-in one), and the next frame's
// blocks take the SMs that wave leaves idle; its zeroing and uploads run
// beside the last frame's launches too.
type pinnedArena struct {
	dev    *gpu.Device
	stream *gpu.Stream
	finish *gpu.Stream // urgent: the frame's work after its iterate
	chunks []*gpu.Pinned
	used   []int // bytes taken from each chunk
}

// arenaChunk is the least page-locked memory an arena allocates at once:
// enough for a 1080p frame's 1024 genomes and its image.
const arenaChunk = 64 << 20

// place reserves n bytes, 16-aligned, and says where they are.
func (a *pinnedArena) place(n int) (*gpu.Pinned, int, error) {
	n = (n + 15) &^ 15
	for i, c := range a.chunks {
		if a.used[i]+n <= len(c.Bytes()) {
			off := a.used[i]
			a.used[i] += n
			return c, off, nil
		}
	}
	c, err := a.dev.AllocPinned(max(arenaChunk, n))
	if err != nil {
		return nil, 0, err
	}
	a.chunks = append(a.chunks, c)
	a.used = append(a.used, n)
	return c, 0, nil
}

// reset makes the whole arena free again; the device must be done with it.
func (a *pinnedArena) reset() { clear(a.used) }

func (a *pinnedArena) free() error {
	var first error
	for _, c := range a.chunks {
		if err := c.Free(); err != nil && first == nil {
			first = err
		}
	}
	a.chunks, a.used = nil, nil
	for _, s := range []*gpu.Stream{a.stream, a.finish} {
		if err := s.Free(); err != nil && first == nil {
			first = err
		}
	}
	a.stream, a.finish = nil, nil
	return first
}

// write copies v into the start of b. A run with an arena queues the copy
// from page-locked memory and returns at once; one without copies now.
func write[T gpu.Elem](r *cudaRun, b *gpu.Buffer[T], v []T) error {
	if r.arena == nil {
		return b.Write(v)
	}
	h, off, err := r.arena.place(len(v) * int(unsafe.Sizeof(*new(T))))
	if err != nil {
		return err
	}
	copy(gpu.PinnedView[T](h, off, len(v)), v)
	return b.WriteFromPinned(r.stream, h, off, len(v))
}

// read fills dst from the start of b. A run with an arena queues the copy
// into page-locked memory, and dst is filled by settle, once the device
// has passed it; one without copies now.
func read[T gpu.Elem](r *cudaRun, b *gpu.Buffer[T], dst []T) error {
	if r.arena == nil {
		return b.Read(dst)
	}
	h, off, err := r.arena.place(len(dst) * int(unsafe.Sizeof(*new(T))))
	if err != nil {
		return err
	}
	if err := b.ReadToPinned(r.stream, h, off, len(dst)); err != nil {
		return err
	}
	r.reads = append(r.reads, func() {
		src := gpu.PinnedView[T](h, off, len(dst))
		parallel.For(len(dst), 1<<18, func(_, lo, hi int) { copy(dst[lo:hi], src[lo:hi]) })
	})
	return nil
}

// settle waits for the work a run queued (the event recorded after its
// last copy), then finishes its queued reads and reads its iterate timer.
// A run without an arena has nothing queued.
func (r *cudaRun) settle() error {
	if r.done != nil {
		if err := r.done.Wait(); err != nil {
			return err
		}
		r.done = nil
	}
	for _, f := range r.reads {
		f()
	}
	r.reads = nil
	if r.timer != nil {
		dt, err := r.timer.Stop()
		r.timer = nil
		if err != nil {
			return err
		}
		r.iterate += dt
	}
	return nil
}
