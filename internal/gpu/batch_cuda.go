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

// A Batch queues kernel launches, clears and small reads to run together:
// Run makes one trip to the device's goroutine for all of them, where each
// Func.Launch, Buffer.ZeroPrefix and Buffer.ReadAt makes its own (a
// channel hand-off to a locked OS thread and back, several microseconds
// each). Operations run in the order queued, on the default stream, so a
// read sees every launch before it; Run stops at the first error. A Batch is
// reusable: Run empties it.
type Batch struct {
	dev *Device
	ops []func() error
}

// NewBatch returns an empty batch for d.
func (d *Device) NewBatch() *Batch { return &Batch{dev: d} }

// launch queues f as Function.launchOn would run it on the default stream
// (Func.Queue).
func (b *Batch) launch(f *Function, grid, block Dim3, sharedBytes int, args ...arg) {
	run, err := f.launcher(nil, grid, block, sharedBytes, args)
	switch {
	case err != nil:
		b.ops = append(b.ops, func() error { return err })
	case run != nil:
		b.ops = append(b.ops, run)
	}
}

// BatchZero queues clearing the first n values of buf (Buffer.ZeroPrefix).
func BatchZero[T Elem](b *Batch, buf *Buffer[T], n int) {
	if n < 0 || n > buf.n {
		err := fmt.Errorf("gpu: zero %d values of a buffer of %d", n, buf.n)
		b.ops = append(b.ops, func() error { return err })
		return
	}
	if n == 0 {
		return
	}
	bytes := C.size_t(n) * C.size_t(elemSize[T]())
	b.ops = append(b.ops, func() error { return check("cuMemsetD8", C.pg_memset_d8(buf.ptr, 0, bytes)) })
}

// BatchRead queues copying len(dst) values of buf from value off on into
// dst (Buffer.ReadAt); dst holds them once Run returns without error.
func BatchRead[T Elem](b *Batch, buf *Buffer[T], dst []T, off int) {
	if off < 0 || len(dst) > buf.n-off {
		err := fmt.Errorf("gpu: read %d values at %d from a buffer of %d", len(dst), off, buf.n)
		b.ops = append(b.ops, func() error { return err })
		return
	}
	if len(dst) == 0 {
		return
	}
	bytes := C.size_t(len(dst)) * C.size_t(elemSize[T]())
	src := buf.ptr + C.pg_deviceptr(off*elemSize[T]())
	b.ops = append(b.ops, func() error {
		return check("cuMemcpyDtoH", C.pg_memcpy_dtoh(unsafe.Pointer(&dst[0]), src, bytes))
	})
}

// Len is the number of operations queued.
func (b *Batch) Len() int { return len(b.ops) }

// Run runs the queued operations in one trip to the device's goroutine and
// empties the batch, whatever the outcome.
func (b *Batch) Run() error {
	ops := b.ops
	b.ops = b.ops[:0]
	if len(ops) == 0 {
		return nil
	}
	return b.dev.do(func() error {
		for _, op := range ops {
			if err := op(); err != nil {
				return err
			}
		}
		return nil
	})
}
