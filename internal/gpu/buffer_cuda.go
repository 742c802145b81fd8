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

// Elem is what a device buffer may hold: fixed-size values without pointers.
type Elem interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// Buffer is n values of T in device memory. The zero value is unusable; make
// one with Alloc or Upload and Free it when done.
type Buffer[T Elem] struct {
	dev *Device
	ptr C.pg_deviceptr
	n   int
}

func elemSize[T Elem]() int { var v T; return int(unsafe.Sizeof(v)) }

// Alloc reserves n uninitialised values on d.
func Alloc[T Elem](d *Device, n int) (*Buffer[T], error) {
	if n < 0 {
		return nil, fmt.Errorf("gpu: alloc: negative length %d", n)
	}
	b := &Buffer[T]{dev: d, n: n}
	if n == 0 {
		return b, nil
	}
	bytes := C.size_t(n) * C.size_t(elemSize[T]())
	err := d.do(func() error { return check("cuMemAlloc", C.pg_mem_alloc(&b.ptr, bytes)) })
	if err != nil {
		return nil, fmt.Errorf("gpu: alloc %d bytes: %w", uint64(bytes), err)
	}
	return b, nil
}

// Upload allocates a buffer holding a copy of src.
func Upload[T Elem](d *Device, src []T) (*Buffer[T], error) {
	b, err := Alloc[T](d, len(src))
	if err != nil {
		return nil, err
	}
	if err := b.Write(src); err != nil {
		b.Free()
		return nil, err
	}
	return b, nil
}

// Len is the number of values the buffer holds.
func (b *Buffer[T]) Len() int { return b.n }

// Bytes is the buffer's size in bytes.
func (b *Buffer[T]) Bytes() int64 { return int64(b.n) * int64(elemSize[T]()) }

// Write copies src into the start of the buffer, waiting for queued work first.
func (b *Buffer[T]) Write(src []T) error { return b.WriteAt(src, 0) }

// WriteAt copies src into the buffer from value off on.
func (b *Buffer[T]) WriteAt(src []T, off int) error {
	if off < 0 || len(src) > b.n-off {
		return fmt.Errorf("gpu: write %d values at %d into a buffer of %d", len(src), off, b.n)
	}
	if len(src) == 0 {
		return nil
	}
	bytes := C.size_t(len(src)) * C.size_t(elemSize[T]())
	dst := b.ptr + C.pg_deviceptr(off*elemSize[T]())
	return b.dev.do(func() error {
		return check("cuMemcpyHtoD", C.pg_memcpy_htod(dst, unsafe.Pointer(&src[0]), bytes))
	})
}

// Read copies the start of the buffer into dst, waiting for queued work first.
func (b *Buffer[T]) Read(dst []T) error { return b.ReadAt(dst, 0) }

// ReadAt copies len(dst) values from value off on into dst.
func (b *Buffer[T]) ReadAt(dst []T, off int) error {
	if off < 0 || len(dst) > b.n-off {
		return fmt.Errorf("gpu: read %d values at %d from a buffer of %d", len(dst), off, b.n)
	}
	if len(dst) == 0 {
		return nil
	}
	bytes := C.size_t(len(dst)) * C.size_t(elemSize[T]())
	src := b.ptr + C.pg_deviceptr(off*elemSize[T]())
	return b.dev.do(func() error {
		return check("cuMemcpyDtoH", C.pg_memcpy_dtoh(unsafe.Pointer(&dst[0]), src, bytes))
	})
}

// Download returns a copy of the whole buffer.
func (b *Buffer[T]) Download() ([]T, error) {
	out := make([]T, b.n)
	return out, b.Read(out)
}

// Zero sets every byte of the buffer to zero.
func (b *Buffer[T]) Zero() error { return b.ZeroPrefix(b.n) }

// ZeroPrefix sets the first n values to zero.
func (b *Buffer[T]) ZeroPrefix(n int) error {
	if n < 0 || n > b.n {
		return fmt.Errorf("gpu: zero %d values of a buffer of %d", n, b.n)
	}
	if n == 0 {
		return nil
	}
	bytes := C.size_t(n) * C.size_t(elemSize[T]())
	return b.dev.do(func() error {
		return check("cuMemsetD8", C.pg_memset_d8(b.ptr, 0, bytes))
	})
}

// CopyFrom copies all of src into the start of b on the device.
func (b *Buffer[T]) CopyFrom(src *Buffer[T]) error {
	if src.n > b.n {
		return fmt.Errorf("gpu: copy %d values into a buffer of %d", src.n, b.n)
	}
	if src.n == 0 {
		return nil
	}
	return b.dev.do(func() error {
		return check("cuMemcpyDtoD", C.pg_memcpy_dtod(b.ptr, src.ptr, C.size_t(src.Bytes())))
	})
}

// Free releases the device memory. Freeing twice is harmless.
func (b *Buffer[T]) Free() error {
	if b == nil || b.ptr == 0 {
		return nil
	}
	p := b.ptr
	b.ptr, b.n = 0, 0
	return b.dev.do(func() error { return check("cuMemFree", C.pg_mem_free(p)) })
}

// ReadStructs copies the words of b into dst, whose elements must be plain
// fixed-size structs laid out exactly as the kernel wrote them (a layout test
// beside the caller checks that against the .cuh header) and a whole number
// of 32-bit words long. It reads straight into dst: for hundreds of millions
// of elements a decoding pass would cost more than the copy.
func ReadStructs[T any](b *Buffer[uint32], dst []T) error {
	if len(dst) == 0 {
		return nil
	}
	size := int(unsafe.Sizeof(dst[0]))
	if size%4 != 0 {
		return fmt.Errorf("gpu: ReadStructs: element of %d bytes is not a whole number of words", size)
	}
	words := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)*size/4)
	return b.Read(words)
}
