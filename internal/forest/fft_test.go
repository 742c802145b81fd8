package forest

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

func naiveDFT(x []complex128, sign float64) []complex128 {
	n := len(x)
	out := make([]complex128, n)
	for k := range out {
		var s complex128
		for j, v := range x {
			s += v * expi(sign*2*math.Pi*float64((j*k)%n)/float64(n))
		}
		out[k] = s
	}
	return out
}

// Every length, including primes done by the generic butterfly and by
// Bluestein, matches the direct DFT in both directions.
func TestFFTPlanMatchesDFT(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var lengths []int
	for n := 1; n <= 130; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 178, 256, 360, 1000, 1021, 1024, 2*1021)
	for _, n := range lengths {
		for _, inverse := range []bool{false, true} {
			x := make([]complex128, n)
			for i := range x {
				x[i] = complex(rng.NormFloat64(), rng.NormFloat64())
			}
			sign := -1.0
			if inverse {
				sign = 1
			}
			want := naiveDFT(x, sign)
			p := newFFTPlan(n, inverse)
			got := append([]complex128(nil), x...)
			p.transform(got, make([]complex128, p.scratch()))
			var maxErr, norm float64
			for i := range got {
				maxErr = math.Max(maxErr, cmplx.Abs(got[i]-want[i]))
				norm = math.Max(norm, cmplx.Abs(want[i]))
			}
			if maxErr > 1e-12*norm*math.Log2(float64(n)+2) {
				t.Fatalf("n=%d inverse=%v: max error %g (norm %g)", n, inverse, maxErr, norm)
			}
		}
	}
}

func TestFastFFTLength(t *testing.T) {
	for n, want := range map[int]int{1: 1, 2: 2, 7: 8, 11: 12, 13: 15, 97: 100, 1001: 1024, 1181: 1200} {
		if got := fastFFTLength(n); got != want {
			t.Errorf("fastFFTLength(%d) = %d, want %d", n, got, want)
		}
	}
}

// The 2D real transform matches a direct 2D DFT, odd and even sizes, and the
// inverse returns px*py times the input.
func TestRFFT2(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sz := range [][2]int{{1, 1}, {2, 3}, {5, 4}, {8, 8}, {7, 9}, {12, 5}, {67, 3}, {40, 33}} {
		px, py := sz[0], sz[1]
		in := make([]float64, px*py)
		for i := range in {
			in[i] = rng.NormFloat64()
		}
		for _, workers := range []int{1, 3} {
			tr := newRFFT2(px, py, workers)
			spec := make([]complex128, tr.specLen())
			tr.forward(in, spec)
			for ky := 0; ky < py; ky++ {
				for kx := 0; kx < tr.h; kx++ {
					var want complex128
					for y := 0; y < py; y++ {
						for x := 0; x < px; x++ {
							a := -2 * math.Pi * (float64(kx*x)/float64(px) + float64(ky*y)/float64(py))
							want += complex(in[y*px+x], 0) * expi(a)
						}
					}
					if cmplx.Abs(spec[ky*tr.h+kx]-want) > 1e-10*float64(px*py) {
						t.Fatalf("%dx%d: spec[%d,%d] = %v, want %v", px, py, kx, ky, spec[ky*tr.h+kx], want)
					}
				}
			}
			out := make([]float64, px*py)
			tr.inverse(spec, out)
			for i := range out {
				if math.Abs(out[i]/float64(px*py)-in[i]) > 1e-12 {
					t.Fatalf("%dx%d: round trip [%d] = %g, want %g", px, py, i, out[i]/float64(px*py), in[i])
				}
			}
		}
	}
}

func TestFastExp(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	worst := 0.0
	for i := 0; i < 1_000_000; i++ {
		x := -708 * rng.Float64()
		if i < 1000 {
			x = -float64(i) / 1000
		}
		got, want := fastExp(x), math.Exp(x)
		if rel := math.Abs(got-want) / want; rel > worst {
			worst = rel
		}
	}
	if worst > 4.5e-16 {
		t.Fatalf("fastExp: max relative error %g", worst)
	}
	if fastExp(0) != 1 {
		t.Fatalf("fastExp(0) = %v", fastExp(0))
	}
	worst = 0
	for range 1_000_000 {
		x := 708 * (2*rng.Float64() - 1)
		got, want := fastExp(x), math.Exp(x)
		if rel := math.Abs(got-want) / want; rel > worst {
			worst = rel
		}
	}
	if worst > 5.5e-16 { // 2.5 ulp
		t.Fatalf("fastExp: max relative error %g", worst)
	}
}

func TestGammaQ(t *testing.T) {
	// Q(1, x) = exp(-x); Q(0.5, x) = erfc(sqrt x).
	for _, x := range []float64{0.01, 0.5, 1, 2, 5, 10, 30} {
		if got, want := gammaQ(1, x), math.Exp(-x); math.Abs(got-want) > 1e-13*math.Max(want, 1e-300)+1e-300 {
			t.Errorf("Q(1,%g) = %g, want %g", x, got, want)
		}
		if got, want := gammaQ(0.5, x), math.Erfc(math.Sqrt(x)); math.Abs(got-want) > 1e-12*want {
			t.Errorf("Q(0.5,%g) = %g, want %g", x, got, want)
		}
	}
}

func TestFastFFTPair(t *testing.T) {
	for _, n := range [][2]int{{1, 1}, {7, 3}, {1115, 615}, {100, 2000}} {
		px, py := fastFFTPair(n[0], n[1])
		if px < n[0] || py < n[1] || !onlySmallPrimes(px) || !onlySmallPrimes(py) {
			t.Errorf("fastFFTPair(%d, %d) = %d, %d", n[0], n[1], px, py)
		}
	}
	if px, py := fastFFTPair(1115, 615); px != 1152 || py != 640 {
		t.Errorf("fastFFTPair(1115, 615) = %d, %d: want 1152, 640 (powers of two beat 1125 x 625)", px, py)
	}
}
