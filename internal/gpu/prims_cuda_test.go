//go:build cuda

package gpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// primSizes are awkward on purpose: empty, one, the block size ±1, the tile
// size ±1, several tiles, primes, and 2^28 (skipped with -short).
var primSizes = []int{0, 1, 2, 255, 256, 257, 4095, 4096, 4097, 3*4096 + 5, 65537, 1_000_003, 10_000_019, 1 << 28}

func sizesFor(t *testing.T) []int {
	if testing.Short() {
		return primSizes[:len(primSizes)-1]
	}
	return primSizes
}

func TestExclusiveScanMatchesCPU(t *testing.T) {
	d := device(t)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range sizesFor(t) {
		for _, wide := range []bool{false, true} {
			t.Run(fmt.Sprintf("n=%d/wide=%v", n, wide), func(t *testing.T) {
				src := make([]uint32, n)
				for i := range src {
					if wide {
						src[i] = rng.Uint32() // sums wrap: both sides must wrap alike
					} else {
						src[i] = uint32(rng.IntN(16))
					}
				}
				want := make([]uint32, n)
				wantTotal := parallel.ExclusiveScan(want, src)
				in, err := Upload(d, src)
				if err != nil {
					t.Fatal(err)
				}
				defer in.Free()
				out, err := Alloc[uint32](d, n)
				if err != nil {
					t.Fatal(err)
				}
				defer out.Free()
				total, err := d.ExclusiveScan(in, out)
				if err != nil {
					t.Fatal(err)
				}
				got, err := out.Download()
				if err != nil {
					t.Fatal(err)
				}
				if total != wantTotal {
					t.Fatalf("total %d, CPU %d", total, wantTotal)
				}
				if i := firstDiff(got, want); i >= 0 {
					t.Fatalf("out[%d] = %d, CPU %d", i, got[i], want[i])
				}
				// In place: the kernel reads a whole tile before writing it.
				if _, err := d.ExclusiveScan(in, in); err != nil {
					t.Fatal(err)
				}
				got, _ = in.Download()
				if i := firstDiff(got, want); i >= 0 {
					t.Fatalf("in place: out[%d] = %d, CPU %d", i, got[i], want[i])
				}
			})
		}
	}
}

func TestCompactMatchesCPU(t *testing.T) {
	d := device(t)
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range sizesFor(t) {
		for _, density := range []int{0, 1, 50, 100} { // percent of kept elements
			t.Run(fmt.Sprintf("n=%d/keep=%d%%", n, density), func(t *testing.T) {
				flags := make([]uint32, n)
				values := make([]uint32, n)
				for i := range flags {
					values[i] = rng.Uint32()
					if rng.IntN(100) < density {
						flags[i] = 1 + uint32(rng.IntN(1000)) // any non-zero flag keeps
					}
				}
				wantVals := parallel.Compact(flags, values)
				wantIdx := parallel.Compact(flags, nil)
				fb, err := Upload(d, flags)
				if err != nil {
					t.Fatal(err)
				}
				defer fb.Free()
				vb, err := Upload(d, values)
				if err != nil {
					t.Fatal(err)
				}
				defer vb.Free()
				out, err := Alloc[uint32](d, n)
				if err != nil {
					t.Fatal(err)
				}
				defer out.Free()
				for _, tc := range []struct {
					name   string
					values *Buffer[uint32]
					want   []uint32
				}{{"values", vb, wantVals}, {"indices", nil, wantIdx}} {
					count, err := d.Compact(fb, tc.values, out)
					if err != nil {
						t.Fatal(err)
					}
					if count != len(tc.want) {
						t.Fatalf("%s: kept %d, CPU %d", tc.name, count, len(tc.want))
					}
					got := make([]uint32, count)
					if err := out.Read(got); err != nil {
						t.Fatal(err)
					}
					if i := firstDiff(got, tc.want); i >= 0 {
						t.Fatalf("%s: out[%d] = %d, CPU %d", tc.name, i, got[i], tc.want[i])
					}
				}
			})
		}
	}
}

func TestReductionsMatchCPU(t *testing.T) {
	d := device(t)
	rng := rand.New(rand.NewPCG(15, 16))
	for _, n := range sizesFor(t) {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			ints := make([]int32, n)
			floats := make([]float32, n)
			var absSum float64
			for i := range ints {
				ints[i] = int32(rng.Uint32())
				floats[i] = float32(rng.NormFloat64() * 1000)
				absSum += math.Abs(float64(floats[i]))
			}
			if n > 3 {
				floats[n/3] = float32(math.NaN()) // max ignores NaN on both sides
			}
			ib, err := Upload(d, ints)
			if err != nil {
				t.Fatal(err)
			}
			defer ib.Free()
			fb, err := Upload(d, floats)
			if err != nil {
				t.Fatal(err)
			}
			defer fb.Free()

			if got, err := d.SumInt32(ib); err != nil || got != parallel.SumInt32(ints) {
				t.Fatalf("SumInt32 = %d (%v), CPU %d", got, err, parallel.SumInt32(ints))
			}
			wantMax, wantOK := parallel.MaxInt32(ints)
			if got, ok, err := d.MaxInt32(ib); err != nil || ok != wantOK || got != wantMax {
				t.Fatalf("MaxInt32 = %d,%v (%v), CPU %d,%v", got, ok, err, wantMax, wantOK)
			}
			wantFMax, wantFOK := parallel.MaxFloat32(floats)
			if got, ok, err := d.MaxFloat32(fb); err != nil || ok != wantFOK || got != wantFMax {
				t.Fatalf("MaxFloat32 = %g,%v (%v), CPU %g,%v", got, ok, err, wantFMax, wantFOK)
			}
			if n > 3 {
				floats[n/3] = 0 // a NaN poisons any sum: compare sums without it
				if err := fb.Write(floats); err != nil {
					t.Fatal(err)
				}
			}
			// Float sums differ only by summation order: bound by n·ε·Σ|x|.
			got, err := d.SumFloat32(fb)
			want := parallel.SumFloat32(floats)
			if tol := 1e-15*float64(n)*absSum + 1e-12; err != nil || math.Abs(got-want) > tol {
				t.Fatalf("SumFloat32 = %.17g (%v), CPU %.17g, tolerance %g", got, err, want, tol)
			}
			again, _ := d.SumFloat32(fb)
			if again != got {
				t.Fatalf("SumFloat32 not reproducible: %.17g then %.17g", got, again)
			}
		})
	}
}

func TestPrimitivesConcurrent(t *testing.T) {
	d := device(t)
	const n = 100_003
	src := make([]uint32, n)
	for i := range src {
		src[i] = uint32(i % 7)
	}
	want := make([]uint32, n)
	parallel.ExclusiveScan(want, src)
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		go func() {
			in, err := Upload(d, src)
			if err != nil {
				errs <- err
				return
			}
			defer in.Free()
			for k := 0; k < 5; k++ {
				if err := in.Write(src); err != nil {
					errs <- err
					return
				}
				if _, err := d.ExclusiveScan(in, in); err != nil {
					errs <- err
					return
				}
				got, err := in.Download()
				if err != nil {
					errs <- err
					return
				}
				if !reflect.DeepEqual(got, want) {
					errs <- fmt.Errorf("concurrent scan differs")
					return
				}
			}
			errs <- nil
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

func firstDiff(a, b []uint32) int {
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}
