//go:build cuda

package gpu

import (
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// A batch runs its operations in order: a clear, two launches over parts of
// a buffer and reads between and after them see exactly what ran before.
func TestBatchOrder(t *testing.T) {
	d := device(t)
	f, err := selftestHash.Load(d)
	if err != nil {
		t.Fatal(err)
	}
	const n = 1000
	out, err := Alloc[uint64](d, n)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	if err := out.Write(make([]uint64, n)); err != nil {
		t.Fatal(err)
	}
	b := d.NewBatch()
	before, mid, after := make([]uint64, n), make([]uint64, n), make([]uint64, n)
	for i := range before {
		before[i] = 7 // overwritten by the read
	}
	BatchRead(b, out, before, 0)
	f.Queue(b, Dim((n+255)/256), Dim(256), 0, hashArgs{1, out.Ptr(), n}) // seed 1 everywhere
	BatchRead(b, out, mid, 0)
	BatchZero(b, out, n/2)
	f.Queue(b, Dim(1), Dim(256), 0, hashArgs{2, out.Ptr(), 100}) // seed 2 below 100
	BatchRead(b, out, after[:n-10], 10)
	if b.Len() != 6 {
		t.Fatalf("%d operations queued, want 6", b.Len())
	}
	if err := b.Run(); err != nil {
		t.Fatal(err)
	}
	if b.Len() != 0 {
		t.Fatalf("Run left %d operations", b.Len())
	}
	for i := range n {
		if before[i] != 0 || mid[i] != rng.Hash64(1, uint64(i)) {
			t.Fatalf("value %d: before %#x, after the first launch %#x", i, before[i], mid[i])
		}
	}
	for i := 10; i < n; i++ {
		want := rng.Hash64(1, uint64(i))
		switch {
		case i < 100:
			want = rng.Hash64(2, uint64(i))
		case i < n/2:
			want = 0
		}
		if after[i-10] != want {
			t.Fatalf("value %d: %#x, want %#x", i, after[i-10], want)
		}
	}
	// The batch is reusable, and an empty one runs nothing.
	if err := b.Run(); err != nil {
		t.Fatal(err)
	}
}

// Operations out of range fail at Run, naming what was wrong, and stop the
// batch there.
func TestBatchErrors(t *testing.T) {
	d := device(t)
	out, err := Alloc[uint32](d, 16)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	if err := out.Write(make([]uint32, 16)); err != nil {
		t.Fatal(err)
	}
	b := d.NewBatch()
	BatchZero(b, out, 17)
	if err := b.Run(); err == nil || !strings.Contains(err.Error(), "zero 17 values") {
		t.Fatalf("zero past the end: %v", err)
	}
	dst := []uint32{5}
	BatchRead(b, out, make([]uint32, 4), 13)
	BatchRead(b, out, dst, 0)
	if err := b.Run(); err == nil || !strings.Contains(err.Error(), "read 4 values at 13") {
		t.Fatalf("read past the end: %v", err)
	}
	if dst[0] != 5 {
		t.Fatal("an operation after the failing one ran")
	}
}
