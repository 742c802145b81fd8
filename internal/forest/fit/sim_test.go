package fit

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/procgen-dev/procgen/internal/forest"
)

// layout is a plot of side m metres with parents random in it and a grid
// of nt x nt traps of 0.5 m^2 inside it.
func layout(rng *rand.Rand, side float64, parents, nt int) ([]forest.Tree, []Trap) {
	var trees []forest.Tree
	for range parents {
		trees = append(trees, forest.Tree{X: side * rng.Float64(), Y: side * rng.Float64(), DBH: 10 + 50*rng.Float64()})
	}
	var traps []Trap
	for i := range nt {
		for j := range nt {
			traps = append(traps, Trap{X: side * (float64(i) + 0.5) / float64(nt), Y: side * (float64(j) + 0.5) / float64(nt), Area: 0.5})
		}
	}
	return trees, traps
}

// simulate draws counts at the traps from the model at truth (k 0:
// Poisson; else NB as a gamma-Poisson mixture).
func simulate(t testing.TB, rng *rand.Rand, trees []forest.Tree, traps []Trap, truth forest.Species, k float64) []Trap {
	t.Helper()
	kern, err := forest.NewKernel(truth)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]Trap(nil), traps...)
	for j := range out {
		mu := 0.0
		for _, tr := range trees {
			dx, dy := out[j].X-tr.X, out[j].Y-tr.Y
			mu += forest.Fecundity(truth, tr.DBH) * kern.Density(dx*dx+dy*dy)
		}
		mu *= out[j].Area
		if k > 0 {
			mu = gammaDraw(rng, k) * mu / k
		}
		out[j].Count = poissonDraw(rng, mu)
	}
	return out
}

// TestFitReachesTruth checks, for every kernel family, that the search
// finds a likelihood at least as high as the parameters the counts were
// drawn from, and that the estimate lies inside its own intervals.
func TestFitReachesTruth(t *testing.T) {
	truths := []forest.Species{
		{Kernel: forest.Weibull, STR: 400, Beta: 2, D: 1e-2, Theta: 2},
		{Kernel: forest.Lognormal, STR: 400, Beta: 2, X0: 4, Xb: 0.8},
		{Kernel: forest.TwoDt, STR: 400, Beta: 2, P: 1.5, U: 40},
		{Kernel: forest.ExpPower, STR: 400, Beta: 2, A: 8, B: 1.5},
		{Kernel: forest.Exponential, STR: 400, Beta: 2, A: 5},
		{Kernel: forest.Gaussian, STR: 400, Beta: 2, A: 8},
	}
	if len(truths) != len(Families()) {
		t.Fatalf("%d truths for %d families", len(truths), len(Families()))
	}
	for _, truth := range truths {
		t.Run(string(truth.Kernel), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			trees, traps := layout(rng, 60, 120, 6)
			data := simulate(t, rng, trees, traps, truth, 0)
			p, err := NewProblem("x", data, trees)
			if err != nil {
				t.Fatal(err)
			}
			ev := NewCPU(p, 0)
			pts := make([]Point, 1)
			if err := ev.Eval(context.Background(), []Cand{{Species: truth, STR: truth.STR}}, pts); err != nil {
				t.Fatal(err)
			}
			e, err := Fit(context.Background(), ev, Options{Kernel: truth.Kernel, Counts: Poisson,
				Base: forest.Species{Beta: 2}, Candidates: 1024})
			if err != nil {
				t.Fatal(err)
			}
			if e.LL < pts[0].LL {
				t.Errorf("fit log-likelihood %g below the truth's %g", e.LL, pts[0].LL)
			}
			fam, _ := familyOf(truth.Kernel)
			if want := fam.n() + 1; len(e.Params) != want || e.NParam != want {
				t.Errorf("%d parameters reported, NParam %d, want %d", len(e.Params), e.NParam, want)
			}
			for _, pr := range e.Params {
				if !(pr.Lo <= pr.Value && pr.Value <= pr.Hi) {
					t.Errorf("%s = %g outside its interval %s", pr.Name, pr.Value, pr.Interval())
				}
			}
		})
	}
}
