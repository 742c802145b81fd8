package forest

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAtLogMatchesAt: AtLog, given ln(d2), is At for every kernel family
// (the Weibull's special shapes, its generic power, the lognormal, 2Dt,
// exponential power and a mixture) from the centre to where K underflows,
// to a few parts in 1e15 of the exponent.
func TestAtLogMatchesAt(t *testing.T) {
	species := []Species{
		{Kernel: Weibull, D: 0.02, Theta: 2}, {Kernel: Weibull, D: 1e-3, Theta: 2.7},
		{Kernel: Weibull, D: 0.3, Theta: 0.45}, {Kernel: Weibull, D: 1e-4, Theta: 3},
		{Kernel: Lognormal, X0: 4, Xb: 0.8}, {Kernel: Lognormal, X0: 30, Xb: 0.1},
		{Kernel: TwoDt, P: 1.5, U: 40}, {Kernel: ExpPower, A: 6, B: 1.5}, {Kernel: ExpPower, A: 6, B: 7.3},
		{Kernel: Exponential, A: 4}, {Kernel: Gaussian, A: 6},
		{Kernel: Mixture, Mix: &MixtureParams{W: 0.9, First: Species{Kernel: Gaussian, A: 5},
			Second: Species{Kernel: TwoDt, P: 1, U: 900}}},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range species {
		k, err := NewKernel(s)
		if err != nil {
			t.Fatalf("%+v: %v", s, err)
		}
		d2s := []float64{0, 1e-12, 1, 4}
		for range 2000 {
			d2s = append(d2s, math.Exp(-5+20*rng.Float64()))
		}
		for _, d2 := range d2s {
			want, got := k.At(d2), k.AtLog(d2, math.Log(d2))
			// Relative to K, a relative error in the exponent e grows
			// with e: 1e-14 (1 + e).
			tol := 1e-300
			if want > 0 {
				tol += 1e-14 * (1 - math.Log(want)) * want
			}
			if !(math.Abs(got-want) <= tol) {
				t.Fatalf("%s %+v at d2 %g: AtLog %g, At %g", s.Kernel, s, d2, got, want)
			}
		}
	}
}
