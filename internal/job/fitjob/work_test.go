package fitjob

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/forest"
	"github.com/procgen-dev/procgen/internal/forest/fit"
)

// TestFitWork: the work is every species' trap-parent terms times the
// evaluations each of its fits plans, and items the terms of one
// evaluation, weighted by the evaluations.
func TestFitWork(t *testing.T) {
	var problems []*fit.Problem
	for _, n := range []int{3, 7} { // 2 traps x 3 parents, 2 traps x 7
		var trees []forest.Tree
		for i := range n {
			trees = append(trees, forest.Tree{X: float64(i), Y: 0, DBH: 30})
		}
		p, err := fit.NewProblem("x", []fit.Trap{{X: 0, Y: 1, Area: 1, Count: 1}, {X: 1, Y: 1, Area: 1}}, trees)
		if err != nil {
			t.Fatal(err)
		}
		problems = append(problems, p)
	}
	r := Request{Kernels: []string{"gaussian", "weibull"}, Counts: []string{"poisson", "nb"}, Candidates: 100}
	var perProblem float64
	for _, k := range r.Kernels {
		for _, c := range r.Counts {
			n, err := fit.PlannedEvals(fit.Options{Kernel: forest.KernelKind(k), Counts: fit.Counts(c), Candidates: 100})
			if err != nil {
				t.Fatal(err)
			}
			perProblem += float64(n)
		}
	}
	work, items := fitWork(r, problems)
	if want := perProblem * (6 + 14); work != want {
		t.Errorf("work %g, want %g", work, want)
	}
	if items != 10 {
		t.Errorf("items %g, want 10 (the mean of 6 and 14 terms, every species planning the same evaluations)", items)
	}
	if n, _ := fit.PlannedEvals(fit.Options{Kernel: forest.Gaussian, Counts: fit.Poisson}); n != 4096+2*40*6 {
		t.Errorf("a Gaussian/Poisson fit with the default candidates plans %d evaluations, want %d", n, 4096+2*40*6)
	}
}
