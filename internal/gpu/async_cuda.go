//go:build cuda

package gpu

/*
#include "driver_cuda.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Copies between page-locked memory and the device that are queued on a
// stream (nil: the default stream) and return at once, and events to wait
// for them: what a pipeline needs to prepare its next piece of work while the device runs
// the last (Buffer.Write and Read wait for every queued launch first). The
// host must leave the page-locked bytes alone until an Event recorded after
// the copy has been waited for.

// PinnedView is n values of T at byte offset off of h: the host side of
// WriteFromPinned and ReadToPinned. It panics when the range is outside h
// or off is not aligned for T.
func PinnedView[T Elem](h *Pinned, off, n int) []T {
	size := elemSize[T]()
	if off < 0 || n < 0 || off%size != 0 || off+n*size > h.n {
		panic(fmt.Sprintf("gpu: pinned view of %d values of %d bytes at %d in %d bytes", n, size, off, h.n))
	}
	return unsafe.Slice((*T)(unsafe.Add(h.p, off)), n)
}

// WriteFromPinned queues a copy of n values from h at byte offset hoff into
// the start of the buffer on stream s, after the work queued there before it.
func (b *Buffer[T]) WriteFromPinned(s *Stream, h *Pinned, hoff, n int) error {
	size := elemSize[T]()
	if n < 0 || n > b.n || hoff < 0 || hoff+n*size > h.n {
		return fmt.Errorf("gpu: queue a write of %d values from byte %d of %d pinned bytes into a buffer of %d", n, hoff, h.n, b.n)
	}
	if n == 0 {
		return nil
	}
	src, dst, bytes := unsafe.Add(h.p, hoff), b.ptr, C.size_t(n*size)
	return b.dev.do(func() error { return check("cuMemcpyHtoDAsync", C.pg_memcpy_htod_async(dst, src, bytes, s.handle())) })
}

// ReadToPinned queues a copy of the buffer's first n values into h at byte
// offset hoff on stream s, after the work queued there before it.
func (b *Buffer[T]) ReadToPinned(s *Stream, h *Pinned, hoff, n int) error {
	size := elemSize[T]()
	if n < 0 || n > b.n || hoff < 0 || hoff+n*size > h.n {
		return fmt.Errorf("gpu: queue a read of %d values from a buffer of %d into byte %d of %d pinned bytes", n, b.n, hoff, h.n)
	}
	if n == 0 {
		return nil
	}
	dst, src, bytes := unsafe.Add(h.p, hoff), b.ptr, C.size_t(n*size)
	return b.dev.do(func() error { return check("cuMemcpyDtoHAsync", C.pg_memcpy_dtoh_async(dst, src, bytes, s.handle())) })
}

// Event marks a point in a stream.
type Event struct {
	d *Device
	e C.pg_event
}

// RecordEvent marks the point after everything queued so far on the
// default stream (which, streams being blocking, is everything queued).
func (d *Device) RecordEvent() (*Event, error) { return d.RecordEventOn(nil) }

// RecordEventOn marks the point after everything queued so far on stream s.
func (d *Device) RecordEventOn(s *Stream) (*Event, error) {
	ev := &Event{d: d}
	err := d.do(func() (err error) {
		ev.e, err = newRecordedEvent(s.handle())
		return err
	})
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// newRecordedEvent creates an event and records it after everything queued
// so far on stream s; on the device's goroutine.
func newRecordedEvent(s C.pg_stream) (C.pg_event, error) {
	var e C.pg_event
	if err := check("cuEventCreate", C.pg_event_create(&e)); err != nil {
		return nil, err
	}
	if err := check("cuEventRecord", C.pg_event_record(e, s)); err != nil {
		C.pg_event_destroy(e)
		return nil, err
	}
	return e, nil
}

// Wait blocks until the device has passed the event, then frees it; a
// second Wait returns at once. A kernel's failure before that point is
// returned here.
func (e *Event) Wait() error {
	if e == nil || e.e == nil {
		return nil
	}
	ev := e.e
	e.e = nil
	return e.d.do(func() error {
		defer C.pg_event_destroy(ev)
		return check("cuEventSynchronize", C.pg_event_synchronize(ev))
	})
}

// Free releases the event without waiting for it (the driver lets it
// complete first); a Freed or waited-for event is left alone.
func (e *Event) Free() {
	if e == nil || e.e == nil {
		return
	}
	ev := e.e
	e.e = nil
	e.d.do(func() error { return check("cuEventDestroy", C.pg_event_destroy(ev)) })
}
