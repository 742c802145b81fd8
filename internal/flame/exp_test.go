package flame

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPowNonNeg: the variations' pow agrees with math.Pow on every special
// case of a non-negative base and to 1e-12 relative elsewhere.
func TestPowNonNeg(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	bases := []float64{0, math.Copysign(0, -1), 1e-300, 0.5, 1, 2, 1e300, inf, nan}
	exps := []float64{0, math.Copysign(0, -1), -inf, -3, -0.5, 0.5, 1, 3, inf, nan}
	for _, x := range bases {
		for _, y := range exps {
			got, want := powNonNeg(x, y), math.Pow(x, y)
			if !relClose(got, want, 1e-12) {
				t.Errorf("powNonNeg(%g, %g) = %g, math.Pow %g", x, y, got, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 100000; i++ {
		x := math.Exp(r.NormFloat64() * 5)
		y := r.NormFloat64() * 3
		if got, want := powNonNeg(x, y), math.Pow(x, y); !relClose(got, want, 1e-12) {
			t.Fatalf("powNonNeg(%v, %v) = %v, math.Pow %v", x, y, got, want)
		}
	}
}

// relClose: equal (NaN equals NaN, infinities by sign) or within rel relative.
func relClose(a, b, rel float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if a == b {
		return true
	}
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

// TestExp: the table exp is within 4e-16 relative of math.Exp over the
// range it computes, and math.Exp's own outside it.
func TestExp(t *testing.T) {
	for _, x := range []float64{math.Inf(-1), -1000, -708, -707.9, -1, -1e-300, 0, 1e-300, 1, 708.9, 709, 1000,
		math.Inf(1), math.NaN()} {
		if got, want := exp(x), math.Exp(x); !relClose(got, want, 4e-16) {
			t.Errorf("exp(%v) = %v, math.Exp %v", x, got, want)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 1_000_000; i++ {
		x := (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(6)-3)) * 708
		if got, want := exp(x), math.Exp(x); !relClose(got, want, 4e-16) {
			t.Fatalf("exp(%v) = %v, math.Exp %v (%.3g relative)", x, got, want, math.Abs(got-want)/want)
		}
	}
}

// TestLog: the table log is within 3e-16·|ln x| + 1e-18 of math.Log (an
// absolute bound: what x^y = e^(y·ln x) needs), and math.Log's own on
// zero, negative, subnormal, infinite and NaN arguments.
func TestLog(t *testing.T) {
	ok := func(x float64) bool {
		got, want := log(x), math.Log(x)
		if math.IsNaN(want) || math.IsInf(want, 0) {
			return math.Float64bits(got) == math.Float64bits(want) || math.IsNaN(got) && math.IsNaN(want)
		}
		return math.Abs(got-want) <= 3e-16*math.Abs(want)+1e-18
	}
	for _, x := range []float64{0, math.Copysign(0, -1), -1, 5e-324, 2.2e-308, 1e-300, 0.6875, 0.99999, 1,
		1.00001, 1.375, 2, 1e300, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()} {
		if !ok(x) {
			t.Errorf("log(%v) = %v, math.Log %v", x, log(x), math.Log(x))
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 1_000_000; i++ {
		x := math.Exp(r.NormFloat64() * math.Pow(10, float64(r.IntN(6)-3)) * 100)
		if !ok(x) {
			t.Fatalf("log(%v) = %v, math.Log %v", x, log(x), math.Log(x))
		}
	}
}
