package fit

import (
	"context"
	"math"
	"testing"
)

// TestNelderMeadDimensions minimises shifted, unevenly scaled quadratics in
// one to four dimensions: the one-parameter kernels (exponential,
// gaussian with Poisson counts and beta fixed) search in one.
func TestNelderMeadDimensions(t *testing.T) {
	for n := 1; n <= 4; n++ {
		f := func(xs [][]float64) ([]float64, error) {
			out := make([]float64, len(xs))
			for i, x := range xs {
				for d, v := range x {
					c := float64(d) + 3
					out[i] += (v - c) * (v - c) * float64(d+1)
				}
			}
			return out, nil
		}
		x0, step := make([]float64, n), make([]float64, n)
		for d := range step {
			step[d] = 0.1
		}
		r, err := nelderMead(context.Background(), f, x0, step, 1e-14, 1e-8, 5000)
		if err != nil {
			t.Fatal(err)
		}
		for d, v := range r.x {
			if !r.converged || math.Abs(v-float64(d)-3) > 1e-4 {
				t.Errorf("n %d: ended at %v (converged %v), want %g in coordinate %d", n, r.x, r.converged, float64(d)+3, d)
			}
		}
	}
}
