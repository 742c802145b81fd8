//go:build cuda

package gpu

/*
#include "driver_cuda.h"
*/
import "C"

import "fmt"

// CopyPeer copies all of src, on another device, into the start of b: over
// NVLink or PCIe peer-to-peer where the devices have it, through the host
// where not (the driver decides). It waits for queued work on both devices.
// A multi-GPU render sums its parts this way: ~100x faster than a pageable
// round trip through host memory.
func (b *Buffer[T]) CopyPeer(src *Buffer[T]) error {
	if src.n > b.n {
		return fmt.Errorf("gpu: peer copy of %d values into a buffer of %d", src.n, b.n)
	}
	if src.n == 0 {
		return nil
	}
	if src.dev == b.dev {
		return b.CopyFrom(src)
	}
	sctx := src.dev.ctx
	return b.dev.do(func() error {
		return check("cuMemcpyPeer", C.pg_memcpy_peer(b.ptr, b.dev.ctx, src.ptr, sctx, C.size_t(src.Bytes())))
	})
}
