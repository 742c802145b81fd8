package parallel

import (
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
)

// sizes are awkward on purpose: empty, one, around the chunk size and the
// GPU's tile size, and primes.
var sizes = []int{0, 1, 2, 31, 4095, 4096, 4097, minChunk - 1, minChunk, minChunk + 1, 65537, 1_000_003}

func naiveScan(src []uint32) ([]uint32, uint32) {
	out := make([]uint32, len(src))
	var acc uint32
	for i, v := range src {
		out[i] = acc
		acc += v
	}
	return out, acc
}

func withProcs(t *testing.T, n int) {
	old := runtime.GOMAXPROCS(n)
	t.Cleanup(func() { runtime.GOMAXPROCS(old) })
}

func TestExclusiveScan(t *testing.T) {
	withProcs(t, 4) // exercise the chunked path even on a small machine
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range sizes {
		src := make([]uint32, n)
		for i := range src {
			src[i] = rng.Uint32() // wide values: sums must wrap like the GPU's
		}
		want, wantTotal := naiveScan(src)
		dst := make([]uint32, n)
		if total := ExclusiveScan(dst, src); total != wantTotal || !reflect.DeepEqual(dst, want) {
			t.Fatalf("n=%d: scan differs from the serial scan (total %d, want %d)", n, total, wantTotal)
		}
		if total := ExclusiveScan(src, src); total != wantTotal || !reflect.DeepEqual(src, want) {
			t.Fatalf("n=%d: in-place scan differs", n)
		}
	}
}

func TestCompact(t *testing.T) {
	withProcs(t, 3)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range sizes {
		flags := make([]uint32, n)
		values := make([]uint32, n)
		var wantVals, wantIdx []uint32
		for i := range flags {
			values[i] = rng.Uint32()
			if rng.IntN(3) == 0 {
				flags[i] = rng.Uint32() | 1 // any non-zero flag keeps
				wantVals = append(wantVals, values[i])
				wantIdx = append(wantIdx, uint32(i))
			}
		}
		if got := Compact(flags, values); len(got) != len(wantVals) || (len(got) > 0 && !reflect.DeepEqual(got, wantVals)) {
			t.Fatalf("n=%d: compacted values differ (%d kept, want %d)", n, len(got), len(wantVals))
		}
		if got := Compact(flags, nil); len(got) != len(wantIdx) || (len(got) > 0 && !reflect.DeepEqual(got, wantIdx)) {
			t.Fatalf("n=%d: compacted indices differ", n)
		}
	}
}

func TestReductions(t *testing.T) {
	withProcs(t, 4)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range sizes {
		ints := make([]int32, n)
		floats := make([]float32, n)
		var sum int64
		var fsum float64
		imax, fmax := int32(math.MinInt32), float32(math.Inf(-1))
		for i := range ints {
			ints[i] = int32(rng.Uint32())
			floats[i] = rng.Float32()*2 - 1
			sum += int64(ints[i])
			fsum += float64(floats[i])
			imax = max(imax, ints[i])
			fmax = max(fmax, floats[i])
		}
		if got := SumInt32(ints); got != sum {
			t.Fatalf("n=%d: SumInt32 = %d, want %d", n, got, sum)
		}
		if got, ok := MaxInt32(ints); ok != (n > 0) || (ok && got != imax) {
			t.Fatalf("n=%d: MaxInt32 = %d,%v, want %d", n, got, ok, imax)
		}
		if got := SumFloat32(floats); math.Abs(got-fsum) > 1e-9*float64(n+1) {
			t.Fatalf("n=%d: SumFloat32 = %g, want %g", n, got, fsum)
		}
		if got, ok := MaxFloat32(floats); ok != (n > 0) || (ok && got != fmax) {
			t.Fatalf("n=%d: MaxFloat32 = %g,%v, want %g", n, got, ok, fmax)
		}
	}
}

func TestMaxFloat32IgnoresNaN(t *testing.T) {
	nan := float32(math.NaN())
	if got, _ := MaxFloat32([]float32{nan, -3, nan, 2, nan}); got != 2 {
		t.Fatalf("MaxFloat32 with NaN = %g, want 2", got)
	}
	if got, _ := MaxFloat32([]float32{nan, nan}); !math.IsInf(float64(got), -1) {
		t.Fatalf("MaxFloat32 of all NaN = %g, want -Inf", got)
	}
}

func TestChunksCoverRange(t *testing.T) {
	withProcs(t, 7)
	for _, n := range []int{0, 1, 10, 100_000, 1 << 20} {
		b := Chunks(n, 1000)
		if b[0] != 0 || b[len(b)-1] != n {
			t.Fatalf("n=%d: chunks %v do not cover [0,%d)", n, b, n)
		}
		for i := 1; i < len(b); i++ {
			if b[i] < b[i-1] {
				t.Fatalf("n=%d: chunks %v not increasing", n, b)
			}
		}
	}
}

func BenchmarkExclusiveScan(b *testing.B) {
	src := make([]uint32, 1<<24)
	for i := range src {
		src[i] = uint32(i & 7)
	}
	dst := make([]uint32, len(src))
	b.SetBytes(int64(len(src)) * 8) // read + write, as for the GPU figure
	for b.Loop() {
		ExclusiveScan(dst, src)
	}
}

func BenchmarkCompact(b *testing.B) {
	flags := make([]uint32, 1<<24)
	for i := range flags {
		flags[i] = uint32(i % 3 & 1)
	}
	b.SetBytes(int64(len(flags)) * 4)
	for b.Loop() {
		Compact(flags, nil)
	}
}

func BenchmarkSumInt32(b *testing.B) {
	src := make([]int32, 1<<24)
	b.SetBytes(int64(len(src)) * 4)
	for b.Loop() {
		SumInt32(src)
	}
}
