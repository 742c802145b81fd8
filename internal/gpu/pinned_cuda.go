//go:build cuda

package gpu

/*
#include "driver_cuda.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Pinned is page-locked host memory (cuMemAllocHost) of the device's
// context. The driver copies between it and the device by DMA at the bus's
// speed; from pageable memory (any Go slice) it goes through a bounce
// buffer of its own at a fraction of that. It is C memory: Free it, and
// never keep Bytes past Free or past the device's Close.
type Pinned struct {
	dev *Device
	p   unsafe.Pointer
	n   int
}

// AllocPinned reserves n bytes of page-locked host memory.
func (d *Device) AllocPinned(n int) (*Pinned, error) {
	if n <= 0 {
		return nil, fmt.Errorf("gpu: pinned alloc: length %d, want > 0", n)
	}
	var p unsafe.Pointer
	err := d.do(func() error { return check("cuMemAllocHost", C.pg_mem_alloc_host(&p, C.size_t(n))) })
	if err != nil {
		return nil, fmt.Errorf("gpu: pinned alloc %d bytes: %w", n, err)
	}
	return &Pinned{dev: d, p: p, n: n}, nil
}

// Bytes is the memory, valid until Free.
func (h *Pinned) Bytes() []byte { return unsafe.Slice((*byte)(h.p), h.n) }

// Free releases the memory. Freeing twice is harmless.
func (h *Pinned) Free() error {
	if h == nil || h.p == nil {
		return nil
	}
	p := h.p
	h.p, h.n = nil, 0
	return h.dev.do(func() error { return check("cuMemFreeHost", C.pg_mem_free_host(p)) })
}

// Downloads through pinned staging: below pinnedMin bytes a plain copy is
// as quick as setting up the staging; above it the copy goes in chunks of
// pinnedChunk through two pinned buffers, the device filling one while the
// host copies the other out (on several cores: the destination's pages are
// faulted in by those copies too).
const (
	pinnedMin   = 32 << 20
	pinnedChunk = 16 << 20
	copyPart    = 2 << 20 // least bytes a host copy goroutine takes
)

// ReadLarge is ReadAt for large downloads: the same result, through pinned
// staging buffers when len(dst) is large (it falls back to ReadAt where
// pinned memory cannot be had).
func (b *Buffer[T]) ReadLarge(dst []T, off int) error {
	if off < 0 || len(dst) > b.n-off {
		return fmt.Errorf("gpu: read %d values at %d from a buffer of %d", len(dst), off, b.n)
	}
	size := elemSize[T]()
	total := len(dst) * size
	if total < pinnedMin {
		return b.ReadAt(dst, off)
	}
	out := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), total)
	return b.dev.readStaged(out, b.ptr+C.pg_deviceptr(off*size))
}

// ReadStructsLarge is ReadStructs through ReadLarge.
func ReadStructsLarge[T any](b *Buffer[uint32], dst []T) error {
	if len(dst) == 0 {
		return nil
	}
	size := int(unsafe.Sizeof(dst[0]))
	if size%4 != 0 {
		return fmt.Errorf("gpu: ReadStructsLarge: element of %d bytes is not a whole number of words", size)
	}
	words := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)*size/4)
	return b.ReadLarge(words, 0)
}

// readStaged copies len(out) bytes from device address src into out.
func (d *Device) readStaged(out []byte, src C.pg_deviceptr) error {
	err := d.stageOut(src, len(out), func(lo int, b []byte) error {
		parallelCopy(out[lo:lo+len(b)], b)
		return nil
	})
	if err == errNoPinned {
		return d.readPageable(out, src) // no pinned memory: the plain copy
	}
	return err
}

// errNoPinned: stageOut could not have its staging buffers.
var errNoPinned = errors.New("gpu: no pinned memory for staging")

// stageOut copies total bytes from device address src through two pinned
// buffers of up to pinnedChunk bytes, handing each piece to sink (its
// offset and bytes, valid until sink returns) on a goroutine of its own
// while the device fills the other buffer. It stops at sink's first error.
func (d *Device) stageOut(src C.pg_deviceptr, total int, sink func(lo int, b []byte) error) error {
	chunk := min(pinnedChunk, total)
	if chunk <= 0 {
		return nil
	}
	var stage [2]*Pinned
	for i := range stage {
		var err error
		if stage[i], err = d.AllocPinned(chunk); err != nil {
			for _, s := range stage[:i] {
				s.Free()
			}
			return errNoPinned
		}
		defer stage[i].Free()
	}
	type job struct{ buf, lo, n int }
	jobs := make(chan job, 1)
	free := make(chan int, 2)
	free <- 0
	free <- 1
	var sinkErr error
	var failed atomic.Bool // the sink failed: copy no more
	done := make(chan struct{})
	go func() {
		defer close(done)
		for j := range jobs {
			if sinkErr == nil {
				if sinkErr = sink(j.lo, stage[j.buf].Bytes()[:j.n]); sinkErr != nil {
					failed.Store(true)
				}
			}
			free <- j.buf
		}
	}()
	var err error
	for lo := 0; lo < total && err == nil && !failed.Load(); lo += chunk {
		i := <-free
		n := min(chunk, total-lo)
		p, from := stage[i].p, src+C.pg_deviceptr(lo)
		err = d.do(func() error { return check("cuMemcpyDtoH", C.pg_memcpy_dtoh(p, from, C.size_t(n))) })
		if err == nil {
			jobs <- job{i, lo, n}
		}
	}
	close(jobs)
	<-done // the sink is done with the stages before they are freed
	if err != nil {
		return err
	}
	return sinkErr
}

// WriteTo writes n values from off to w as little-endian bytes, streamed
// through pinned staging buffers: the device copies one piece while w
// takes the one before (a file gets a GPU-built output without a copy of
// it all in host memory first). It stops between pieces when ctx is done.
func (b *Buffer[T]) WriteTo(ctx context.Context, w io.Writer, off, n int) error {
	if off < 0 || n < 0 || n > b.n-off {
		return fmt.Errorf("gpu: write %d values at %d from a buffer of %d", n, off, b.n)
	}
	size := elemSize[T]()
	src := b.ptr + C.pg_deviceptr(off*size)
	err := errNoPinned
	if n*size >= pinnedMin {
		err = b.dev.stageOut(src, n*size, func(_ int, p []byte) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			_, err := w.Write(p)
			return err
		})
	}
	if err == errNoPinned {
		// Small, or no pinned memory: pieces through pageable memory, one
		// at a time.
		buf := make([]byte, min(pinnedChunk, n*size))
		for lo := 0; lo < n*size; lo += len(buf) {
			if err := ctx.Err(); err != nil {
				return err
			}
			piece := buf[:min(len(buf), n*size-lo)]
			if err := b.dev.readPageable(piece, src+C.pg_deviceptr(lo)); err != nil {
				return err
			}
			if _, err := w.Write(piece); err != nil {
				return err
			}
		}
		return nil
	}
	return err
}

func (d *Device) readPageable(out []byte, src C.pg_deviceptr) error {
	return d.do(func() error {
		return check("cuMemcpyDtoH", C.pg_memcpy_dtoh(unsafe.Pointer(unsafe.SliceData(out)), src, C.size_t(len(out))))
	})
}

// parallelCopy copies src into dst on up to GOMAXPROCS goroutines.
func parallelCopy(dst, src []byte) {
	parts := min(runtime.GOMAXPROCS(0), 8, max(len(src)/copyPart, 1))
	if parts == 1 {
		copy(dst, src)
		return
	}
	var wg sync.WaitGroup
	step := (len(src) + parts - 1) / parts
	for lo := 0; lo < len(src); lo += step {
		hi := min(lo+step, len(src))
		wg.Add(1)
		go func() {
			defer wg.Done()
			copy(dst[lo:hi], src[lo:hi])
		}()
	}
	wg.Wait()
}
