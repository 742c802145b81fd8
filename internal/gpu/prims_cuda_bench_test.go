//go:build cuda

package gpu

import (
	"testing"
	"time"
)

const benchN = 1 << 28

// benchDevice times fn with device events, b.N times, and reports GB/s over
// bytesMoved (bytes read plus bytes written), the figure a memory-bound
// kernel is judged by.
func benchDevice(b *testing.B, d *Device, bytesMoved int64, fn func() error) {
	b.Helper()
	if err := fn(); err != nil { // warm up: module load, scratch allocation
		b.Fatal(err)
	}
	var total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dt, err := d.Time(fn)
		if err != nil {
			b.Fatal(err)
		}
		total += dt
	}
	sec := total.Seconds() / float64(b.N)
	b.ReportMetric(float64(bytesMoved)/sec/1e9, "GB/s")
	b.ReportMetric(sec*1e3, "ms/op")
}

func benchBuffers(b *testing.B, d *Device) (in, out *Buffer[uint32]) {
	in, err := Alloc[uint32](d, benchN)
	if err != nil {
		b.Fatal(err)
	}
	out, err = Alloc[uint32](d, benchN)
	if err != nil {
		b.Fatal(err)
	}
	// All ones: the scan's values are then checkable at a glance.
	ones := make([]uint32, benchN)
	for i := range ones {
		ones[i] = 1
	}
	if err := in.Write(ones); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { in.Free(); out.Free() })
	return in, out
}

// BenchmarkCopy2e28 is the ceiling: a device-to-device copy of 2^28 uint32.
func BenchmarkCopy2e28(b *testing.B) {
	d := device(b)
	in, out := benchBuffers(b, d)
	benchDevice(b, d, 2*in.Bytes(), func() error { return out.CopyFrom(in) })
}

// BenchmarkScan2e28 is the exclusive scan of 2^28 uint32, including the
// status reset and the read-back of the total, as callers see it.
func BenchmarkScan2e28(b *testing.B) {
	d := device(b)
	in, out := benchBuffers(b, d)
	benchDevice(b, d, 2*in.Bytes(), func() error {
		total, err := d.ExclusiveScan(in, out)
		if err == nil && total != benchN {
			b.Fatalf("scan of ones: total %d, want %d", total, benchN)
		}
		return err
	})
}

// BenchmarkCompact2e28 keeps every other element (indices), reading 4 bytes
// and writing 2 per element on average.
func BenchmarkCompact2e28(b *testing.B) {
	d := device(b)
	in, out := benchBuffers(b, d)
	half := make([]uint32, benchN)
	for i := range half {
		half[i] = uint32(i & 1)
	}
	if err := in.Write(half); err != nil {
		b.Fatal(err)
	}
	benchDevice(b, d, in.Bytes()+in.Bytes()/2, func() error {
		_, err := d.Compact(in, nil, out)
		return err
	})
}

// BenchmarkSumInt32_2e28 reads 2^28 int32 once.
func BenchmarkSumInt32_2e28(b *testing.B) {
	d := device(b)
	ib, err := Alloc[int32](d, benchN)
	if err != nil {
		b.Fatal(err)
	}
	defer ib.Free()
	if err := ib.Zero(); err != nil {
		b.Fatal(err)
	}
	benchDevice(b, d, ib.Bytes(), func() error {
		_, err := d.SumInt32(ib)
		return err
	})
}
