package fit

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/procgen-dev/procgen/internal/forest"
)

// TestProfileIntervalIsMaximised checks STR's profile interval against a
// brute-force profile: at each end of the interval no kernel parameters on
// a fine grid reach a log-likelihood above the cut-off (an interval too
// narrow, from a profile not re-maximised over the kernel, would show one),
// and just inside each end some do. The data are a repetition of the
// coverage study whose interval missed the true STR (300) from above: the
// miss is the data's, not the profile's.
func TestProfileIntervalIsMaximised(t *testing.T) {
	truth := forest.Species{Kernel: forest.Weibull, STR: 300, Beta: 2, D: 0.02, Theta: 2}
	rng := rand.New(rand.NewPCG(12, 77))
	trees, traps := layout(rng, 50, 60, 8)
	p, err := NewProblem("x", simulate(t, rng, trees, traps, truth, 0), trees)
	if err != nil {
		t.Fatal(err)
	}
	ev := NewCPU(p, 0)
	e, err := Fit(context.Background(), ev, Options{Kernel: forest.Weibull, Counts: Poisson,
		Base: forest.Species{Beta: 2}, Candidates: 512, Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	str := e.Params[len(e.Params)-1]
	if str.Name != "str" {
		t.Fatalf("last parameter %s, want str", str.Name)
	}
	// gridMax is the largest log-likelihood at STR s over a grid of the
	// Weibull scale lambda (2..40 m) and theta (0.4..6), which hold the
	// profile's maxima here.
	gridMax := func(s float64) float64 {
		const n = 70
		cands := make([]Cand, 0, n*n)
		for i := range n {
			for j := range n {
				lam := math.Exp(math.Log(2) + math.Log(20)*float64(i)/(n-1))
				th := math.Exp(math.Log(0.4) + math.Log(15)*float64(j)/(n-1))
				cands = append(cands, Cand{Species: forest.Species{Kernel: forest.Weibull, Beta: 2,
					D: math.Pow(lam, -th), Theta: th}, STR: s})
			}
		}
		pts := make([]Point, len(cands))
		if err := ev.Eval(context.Background(), cands, pts); err != nil {
			t.Fatal(err)
		}
		best := math.Inf(-1)
		for _, pt := range pts {
			best = math.Max(best, pt.LL)
		}
		return best
	}
	// Half the chi-squared(1) 95% quantile, written out so that a wrong
	// halfChi2 shows too.
	cut := e.LL - 3.841458820694124/2
	for _, end := range []struct {
		name       string
		at, inside float64
	}{{"lower", str.Lo, str.Lo * 1.02}, {"upper", str.Hi, str.Hi / 1.02}} {
		if g := gridMax(end.at); g > cut+1e-3 {
			t.Errorf("%s end %g: the grid reaches %g, above the cut-off %g: the interval is too narrow", end.name, end.at, g, cut)
		}
		if g := gridMax(end.inside); g < cut {
			t.Errorf("%s end: 2%% inside (%g) the grid's best %g is below the cut-off %g: the interval is too wide",
				end.name, end.inside, g, cut)
		}
	}
	if str.Lo <= truth.STR {
		t.Logf("the interval [%g, %g] holds the truth: the test no longer exercises a miss", str.Lo, str.Hi)
	}
}
