package fit

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/procgen-dev/procgen/internal/forest"
)

// TestReplicaMatchesEval checks that a bootstrap sample's likelihood, from
// the evaluator's sums and logLik, is the evaluator's own likelihood when
// the sample's counts are the data's: the bootstrap scores with the same
// model on either backend (TestCUDASumsMatchCPU checks the device's sums).
func TestReplicaMatchesEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 9))
	trees, traps := layout(rng, 60, 80, 6)
	p, err := NewProblem("x", simulate(t, rng, trees, traps,
		forest.Species{Kernel: forest.Lognormal, STR: 300, Beta: 2, X0: 4, Xb: 0.8}, 2), trees)
	if err != nil {
		t.Fatal(err)
	}
	ev := NewCPU(p, 0)
	r := &replica{base: ev, y: p.Count, lgy1: p.lgy1, total: p.total, traps: ev.Traps()}
	cands := randomCands(rng, 240)
	cands[0].Species.Theta = -1 // invalid: -Inf on both
	want, got := make([]Point, len(cands)), make([]Point, len(cands))
	if err := ev.Eval(context.Background(), cands, want); err != nil {
		t.Fatal(err)
	}
	if err := r.Eval(context.Background(), cands, got); err != nil {
		t.Fatal(err)
	}
	finite := 0
	for i := range cands {
		if want[i] != got[i] && !(math.IsNaN(want[i].STR) && math.IsNaN(got[i].STR) && want[i].LL == got[i].LL) {
			t.Errorf("candidate %d: evaluator %+v, replica %+v", i, want[i], got[i])
		}
		if !math.IsInf(want[i].LL, -1) {
			finite++
		}
	}
	if !math.IsInf(got[0].LL, -1) || finite < 100 {
		t.Errorf("invalid candidate %g (want -Inf); %d finite of %d", got[0].LL, finite, len(cands))
	}
}

// TestBootstrapWidensMiss fits a simulation whose chi-squared interval
// for the lognormal's x0 (true 4 m) ends above it (its profile at 4 m is
// 5.9 below the maximum, beyond 3.84): the bootstrap finds the statistic
// wider than chi-squared here, never takes a cut-off below 3.84, and its
// intervals contain chi-squared's. (With 99 samples its x0 interval holds
// the truth; 19, all CI can afford, give a noisier cut-off that here
// falls just short, so that is not asserted.)
func TestBootstrapWidensMiss(t *testing.T) {
	if testing.Short() {
		t.Skip("a bootstrapped fit (about 5 s of CPU)")
	}
	c := coverageCases()[1] // lognormal-nb
	rng := rand.New(rand.NewPCG(2, 77))
	trees, traps := layout(rng, 50, 60, 8)
	p, err := NewProblem("x", simulate(t, rng, trees, traps, c.truth, c.k), trees)
	if err != nil {
		t.Fatal(err)
	}
	fit := func(boot int) *Estimate {
		e, err := Fit(context.Background(), NewCPU(p, 0), Options{Kernel: c.truth.Kernel, Counts: c.count,
			Base: forest.Species{Beta: 2}, Candidates: 512, Seed: 2, Bootstrap: boot})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	chi, boot := fit(0), fit(19)
	if x0 := chi.Params[0]; x0.Name != "x0" || x0.Lo <= c.truth.X0 {
		t.Fatalf("chi-squared interval %s %s holds the truth %g: the test no longer exercises a miss", x0.Name, x0.Interval(), c.truth.X0)
	}
	wider := false
	for m, b := range boot.Params {
		x := chi.Params[m]
		if b.Cut < 3.84 || x.Cut != 2*halfChi2 {
			t.Errorf("%s: cut-offs %g (bootstrap), %g (chi-squared)", b.Name, b.Cut, x.Cut)
		}
		if b.Value != x.Value || b.Lo > x.Lo*(1+1e-6) || b.Hi < x.Hi*(1-1e-6) {
			t.Errorf("%s: bootstrap %g %s does not contain chi-squared's %g %s", b.Name, b.Value, b.Interval(), x.Value, x.Interval())
		}
		wider = wider || b.Cut > 3.84*1.05
	}
	if !wider {
		t.Errorf("no bootstrap cut-off above chi-squared's: %+v", boot.Params)
	}
	if boot.Bootstrap != 19 || chi.Bootstrap != 0 {
		t.Errorf("Bootstrap %d, %d; want 19, 0", boot.Bootstrap, chi.Bootstrap)
	}
}

// TestBootstrapWorkersAgree fits the same data with the bootstrap's
// samples shared among 1 and 4 CPU workers: the samples are drawn before
// they are shared out, so the cut-offs, the intervals and the count of
// evaluations must be the same.
func TestBootstrapWorkersAgree(t *testing.T) {
	truth := forest.Species{Kernel: forest.Gaussian, STR: 300, Beta: 2, A: 6}
	rng := rand.New(rand.NewPCG(8, 77))
	trees, traps := layout(rng, 40, 30, 6)
	p, err := NewProblem("x", simulate(t, rng, trees, traps, truth, 2), trees)
	if err != nil {
		t.Fatal(err)
	}
	var got []*Estimate
	for _, workers := range []int{1, 4} {
		var last int64
		e, err := Fit(context.Background(), NewCPU(p, workers), Options{Kernel: forest.Gaussian, Counts: NegBinom,
			Base: forest.Species{Beta: 2}, Candidates: 256, Seed: 3, Bootstrap: 9,
			Progress: func(done, total int64) { last = done }})
		if err != nil {
			t.Fatal(err)
		}
		if last == 0 {
			t.Errorf("%d workers: no progress reported", workers)
		}
		got = append(got, e)
	}
	a, b := got[0], got[1]
	if a.Evals != b.Evals || len(a.Params) != len(b.Params) {
		t.Fatalf("1 worker: %d evaluations, %d parameters; 4 workers: %d, %d", a.Evals, len(a.Params), b.Evals, len(b.Params))
	}
	for m := range a.Params {
		if a.Params[m] != b.Params[m] {
			t.Errorf("1 worker %+v, 4 workers %+v", a.Params[m], b.Params[m])
		}
	}
}
