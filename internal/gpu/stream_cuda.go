//go:build cuda

package gpu

/*
#include "driver_cuda.h"
*/
import "C"

// Stream is a queue of device work of its own: launches, queued copies,
// zeroing and events put on it run in order among themselves, but may run
// beside the work of other streams. Two frames of an animation on two
// streams let the next frame's blocks fill the SMs that the last frame's
// final, partly filled wave of blocks leaves idle.
//
// Every method that takes a *Stream treats nil as the device's legacy
// default stream, the one Launch, Write and Read use. Streams are blocking
// streams, so anything queued on the default stream still waits for the
// work on every stream before it, and is waited for by work after it: code
// that knows nothing of streams stays correct beside code that uses them.
type Stream struct {
	d *Device
	s C.pg_stream
}

// NewStream creates a stream on the device.
func (d *Device) NewStream() (*Stream, error) {
	return d.newStream(func(s *C.pg_stream) error { return check("cuStreamCreate", C.pg_stream_create(s)) })
}

// NewUrgentStream creates a stream of the device's greatest priority: when
// its blocks and those of ordinary streams wait for the same SMs, the
// urgent blocks go first (a launch already running is not interrupted; its
// blocks are, in the order they free their SMs). A short step that others
// wait for (the finish of a frame the host waits to read back) goes here,
// so a long launch on another stream does not hold it up.
func (d *Device) NewUrgentStream() (*Stream, error) {
	return d.newStream(func(s *C.pg_stream) error {
		var least, greatest C.int
		if err := check("cuCtxGetStreamPriorityRange", C.pg_stream_priority_range(&least, &greatest)); err != nil {
			return err
		}
		return check("cuStreamCreateWithPriority", C.pg_stream_create_priority(s, greatest))
	})
}

// newStream runs create on the device's goroutine to make a stream. The
// handle is created in a variable of its own: cgo refuses a pointer into a
// Stream, which holds Go pointers, once it is passed on as a plain pointer.
func (d *Device) newStream(create func(*C.pg_stream) error) (*Stream, error) {
	var h C.pg_stream
	if err := d.do(func() error { return create(&h) }); err != nil {
		return nil, err
	}
	return &Stream{d: d, s: h}, nil
}

// Free destroys the stream once its queued work is done (the driver lets it
// finish); nil and freed streams are left alone.
func (s *Stream) Free() error {
	if s == nil || s.s == nil {
		return nil
	}
	h := s.s
	s.s = nil
	return s.d.do(func() error { return check("cuStreamDestroy", C.pg_stream_destroy(h)) })
}

// WaitEvent makes the work queued on s from now on wait until the device
// has passed e (recorded on any stream); e may then be freed at once. A nil
// or spent event adds no wait.
func (s *Stream) WaitEvent(e *Event) error {
	if e == nil || e.e == nil {
		return nil
	}
	h, ev := s.handle(), e.e
	return e.d.do(func() error { return check("cuStreamWaitEvent", C.pg_stream_wait_event(h, ev)) })
}

// handle is the driver's name for s: NULL, the default stream, for nil.
func (s *Stream) handle() C.pg_stream {
	if s == nil {
		return nil
	}
	return s.s
}

// ZeroOn queues the zeroing of the whole buffer on stream s.
func (b *Buffer[T]) ZeroOn(s *Stream) error {
	if b.n == 0 {
		return nil
	}
	bytes := C.size_t(b.n) * C.size_t(elemSize[T]())
	return b.dev.do(func() error {
		return check("cuMemsetD8Async", C.pg_memset_d8_async(b.ptr, 0, bytes, s.handle()))
	})
}
