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
