//go:build cuda

package gpu

import (
	"fmt"
	"math"
)

// Launch shapes; they must match cuda/prims.cu.
const (
	scanThreads   = 256
	scanTile      = scanThreads * 16
	reduceThreads = 256
)

// withScratch runs fn with the device's scratch buffer grown to at least n
// values. Primitives share it, so they run one at a time per device.
func (d *Device) withScratch(n int, fn func(s *Buffer[uint64]) error) error {
	d.scratchMu.Lock()
	defer d.scratchMu.Unlock()
	if d.scratch == nil || d.scratch.Len() < n {
		if d.scratch != nil {
			d.scratch.Free()
			d.scratch = nil
		}
		s, err := Alloc[uint64](d, n+n/4) // headroom: sizes tend to grow
		if err != nil {
			return err
		}
		d.scratch = s
	}
	return fn(d.scratch)
}

// runScan launches the single-pass scan or compaction kernel over n inputs and
// returns the total (the sum, or the number of kept elements).
func runScan[P any](d *Device, k Kernel[P], n int, args func(state, total Ptr) P) (uint32, error) {
	f, err := k.Load(d)
	if err != nil {
		return 0, err
	}
	tiles := (n + scanTile - 1) / scanTile
	var total uint32
	// Layout: [0] tile counter, [1..tiles] tile status, [tiles+1] total.
	err = d.withScratch(tiles+2, func(s *Buffer[uint64]) error {
		if err := s.ZeroPrefix(tiles + 1); err != nil {
			return err
		}
		if err := f.Launch(Dim(tiles), Dim(scanThreads), 0, args(s.Ptr(), s.PtrAt(tiles+1))); err != nil {
			return err
		}
		var out [1]uint64
		if err := s.ReadAt(out[:], tiles+1); err != nil {
			return err
		}
		total = uint32(out[0])
		return nil
	})
	return total, err
}

// ExclusiveScan writes the exclusive prefix sums of in to out (which may be in
// itself) and returns the sum of all of in. Sums wrap modulo 2^32.
func (d *Device) ExclusiveScan(in, out *Buffer[uint32]) (uint32, error) {
	n := in.Len()
	if out.Len() < n {
		return 0, fmt.Errorf("gpu: scan: output holds %d values, input %d", out.Len(), n)
	}
	if n == 0 {
		return 0, nil
	}
	return runScan(d, scanExclusiveU32, n, func(state, total Ptr) scanArgs {
		return scanArgs{in.Ptr(), out.Ptr(), uint64(n), state, total}
	})
}

// Compact writes, in order, values[i] for every i whose flags[i] is non-zero
// into out and returns how many it wrote. With values nil it writes the
// indices i instead. out must hold len(flags) values (the worst case) and must
// not overlap the inputs.
func (d *Device) Compact(flags, values, out *Buffer[uint32]) (int, error) {
	n := flags.Len()
	if values != nil && values.Len() < n {
		return 0, fmt.Errorf("gpu: compact: %d values for %d flags", values.Len(), n)
	}
	if out.Len() < n {
		return 0, fmt.Errorf("gpu: compact: output holds %d values, need %d", out.Len(), n)
	}
	if n == 0 {
		return 0, nil
	}
	if uint64(n) > math.MaxUint32 {
		return 0, fmt.Errorf("gpu: compact: %d elements, at most 2^32-1", n)
	}
	var vals Ptr
	if values != nil {
		vals = values.Ptr()
	}
	count, err := runScan(d, compactU32, n, func(state, total Ptr) compactArgs {
		return compactArgs{flags.Ptr(), vals, out.Ptr(), uint64(n), state, total}
	})
	return int(count), err
}

// reduce runs the two-pass reduction kernel family `name` over n inputs and
// returns the 64-bit accumulator's bits.
func (d *Device) reduce(name string, in Ptr, n int) (uint64, error) {
	pk, fk := reduceKernels(name)
	partial, err := pk.Load(d)
	if err != nil {
		return 0, err
	}
	final, err := fk.Load(d)
	if err != nil {
		return 0, err
	}
	// A full wave of blocks; the grid depends only on n and the device, so
	// the summation order (and a float result) is reproducible.
	blocks := d.info.SMs * 2048 / reduceThreads
	if need := (n + 4*reduceThreads - 1) / (4 * reduceThreads); need < blocks {
		blocks = need
	}
	if blocks < 1 {
		blocks = 1
	}
	var bits uint64
	err = d.withScratch(blocks+1, func(s *Buffer[uint64]) error {
		if err := partial.Launch(Dim(blocks), Dim(reduceThreads), 0, reducePartialArgs{in, uint64(n), s.Ptr()}); err != nil {
			return err
		}
		if err := final.Launch(Dim(1), Dim(reduceThreads), 0, reduceFinalArgs{s.Ptr(), uint32(blocks), s.PtrAt(blocks)}); err != nil {
			return err
		}
		var out [1]uint64
		if err := s.ReadAt(out[:], blocks); err != nil {
			return err
		}
		bits = out[0]
		return nil
	})
	return bits, err
}

// SumInt32 returns the exact sum of in.
func (d *Device) SumInt32(in *Buffer[int32]) (int64, error) {
	if in.Len() == 0 {
		return 0, nil
	}
	bits, err := d.reduce("sum_i32", in.Ptr(), in.Len())
	return int64(bits), err
}

// MaxInt32 returns the largest value of in; ok is false when in is empty.
func (d *Device) MaxInt32(in *Buffer[int32]) (max int32, ok bool, err error) {
	if in.Len() == 0 {
		return 0, false, nil
	}
	bits, err := d.reduce("max_i32", in.Ptr(), in.Len())
	return int32(int64(bits)), err == nil, err
}

// SumFloat32 returns the sum of in, accumulated in float64.
func (d *Device) SumFloat32(in *Buffer[float32]) (float64, error) {
	if in.Len() == 0 {
		return 0, nil
	}
	bits, err := d.reduce("sum_f32", in.Ptr(), in.Len())
	return math.Float64frombits(bits), err
}

// MaxFloat32 returns the largest value of in, ignoring NaN; ok is false when
// in is empty. All-NaN input gives -Inf.
func (d *Device) MaxFloat32(in *Buffer[float32]) (max float32, ok bool, err error) {
	if in.Len() == 0 {
		return 0, false, nil
	}
	bits, err := d.reduce("max_f32", in.Ptr(), in.Len())
	return float32(math.Float64frombits(bits)), err == nil, err
}
