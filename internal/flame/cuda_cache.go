//go:build cuda

package flame

import (
	"reflect"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// bufferCache keeps the device buffers of one frame for the next, so an
// animation allocates its histogram, accumulator and image once rather than
// per frame (cuMemAlloc and cuMemFree of ~100 MB at 1080p synchronize the
// device each time). Buffers are matched by element type and length: frames
// of one animation have the same size, so every frame after the first finds
// all its big buffers here. A buffer that a frame did not take back is
// stale; stale buffers are freed, oldest first, only while the idle buffers
// hold more than limit bytes. Freeing at once (the old rule) cost a flock
// edge 0.1-0.2 s: its frames' bucket grid shrinks by a few rows a dozen
// frames in, and each of the three frames in flight freed its old buffers,
// every cuMemFree waiting for the device to drain the frames queued behind.
// Not safe for concurrent use: one cache per device goroutine.
type bufferCache struct {
	idle  map[bufferKey][]cachedBuffer
	frame int // frames begun
	bytes int64
	limit int64 // idle bytes beyond which stale buffers are freed
	// arenas are the idle page-locked staging areas of queued frames
	// (SubmitFrame): one per frame in flight.
	arenas []*pinnedArena
	// handoff is where the last queued frame let the next one start: the
	// point before its last launch, the partial wave at the end of its
	// iterate. A frame queued on another stream waits for it before its
	// first launch, so the two frames' iterate overlap only in that tail:
	// run side by side throughout, their two histograms would contend for
	// the L2 cache that the atomic adds depend on.
	handoff *gpu.Event
	// iterEnd marks the end of the last queued frame's launches; timing
	// is the stream a queued frame's iterate timer starts on (see
	// startOverlapped).
	iterEnd *gpu.Event
	timing  *gpu.Stream
}

type bufferKey struct {
	elem reflect.Type
	n    int
}

type cachedBuffer struct {
	buf   any // *gpu.Buffer[T]
	free  func() error
	bytes int64
	frame int // the frame that gave it back
}

// staleBytes is the default limit: a few 1080p frames' buffers (~110 MB
// each), and at most an eighth of the device (newFrameCache). An allocation
// that fails frees every idle buffer and tries again (alloc).
const staleBytes = 1 << 30

func newBufferCache() *bufferCache {
	return &bufferCache{idle: map[bufferKey][]cachedBuffer{}, limit: staleBytes}
}

// newFrameCache is the cache of a frame renderer on d.
func newFrameCache(d *gpu.Device) *bufferCache {
	c := newBufferCache()
	c.limit = min(c.limit, int64(d.Info().MemoryBytes/8))
	return c
}

func keyOf[T gpu.Elem](n int) bufferKey {
	return bufferKey{reflect.TypeFor[T](), n}
}

// take returns an idle buffer of n values of T, or nil.
func take[T gpu.Elem](c *bufferCache, n int) *gpu.Buffer[T] {
	k := keyOf[T](n)
	list := c.idle[k]
	if len(list) == 0 {
		return nil
	}
	e := list[len(list)-1]
	c.idle[k] = list[:len(list)-1]
	c.bytes -= e.bytes
	return e.buf.(*gpu.Buffer[T])
}

// giveBack makes b idle for a later frame.
func giveBack[T gpu.Elem](c *bufferCache, b *gpu.Buffer[T]) {
	k := keyOf[T](b.Len())
	c.idle[k] = append(c.idle[k], cachedBuffer{buf: b, free: b.Free, bytes: b.Bytes(), frame: c.frame})
	c.bytes += b.Bytes()
}

// endFrame frees stale buffers (idle through a whole frame: a frame of
// another size or batch shape left them behind), oldest first, while the
// idle buffers hold more than c.limit bytes.
func (c *bufferCache) endFrame() {
	defer func() { c.frame++ }()
	for c.bytes > c.limit {
		var key bufferKey
		at, found := 0, false
		for k, list := range c.idle {
			for i, e := range list {
				if e.frame < c.frame && (!found || e.frame < c.idle[key][at].frame) {
					key, at, found = k, i, true
				}
			}
		}
		if !found {
			return
		}
		list := c.idle[key]
		list[at].free()
		c.bytes -= list[at].bytes
		if list = append(list[:at], list[at+1:]...); len(list) == 0 {
			delete(c.idle, key)
		} else {
			c.idle[key] = list
		}
	}
}

// close frees every idle buffer.
func (c *bufferCache) close() error {
	var first error
	for k, list := range c.idle {
		for _, e := range list {
			if err := e.free(); err != nil && first == nil {
				first = err
			}
		}
		delete(c.idle, k)
	}
	c.bytes = 0
	for _, a := range c.arenas {
		if err := a.free(); err != nil && first == nil {
			first = err
		}
	}
	c.arenas = nil
	c.handoff.Free()
	c.iterEnd.Free()
	c.handoff, c.iterEnd = nil, nil
	if err := c.timing.Free(); err != nil && first == nil {
		first = err
	}
	c.timing = nil
	return first
}
