package fit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"testing"

	"github.com/procgen-dev/procgen/internal/forest"
)

// coverageCase is one model of the coverage study.
type coverageCase struct {
	name  string
	truth forest.Species
	k     float64
	count Counts
}

// repResult is one repetition's outcome: the estimate and interval per
// parameter, or the error of a fit that gave none.
type repResult struct {
	params []Param
	err    error
	// belowTruth: the search ended below the truth's log-likelihood (a
	// search failure, not the interval's).
	belowTruth bool
}

// coverageCases are the models of the coverage study: every family the
// fit supports, with Poisson and negative-binomial counts.
func coverageCases() []coverageCase {
	return []coverageCase{
		{"weibull-poisson", forest.Species{Kernel: forest.Weibull, STR: 300, Beta: 2, D: 0.02, Theta: 2}, 0, Poisson},
		{"lognormal-nb", forest.Species{Kernel: forest.Lognormal, STR: 300, Beta: 2, X0: 4, Xb: 0.8}, 2, NegBinom},
		{"2dt-poisson", forest.Species{Kernel: forest.TwoDt, STR: 300, Beta: 2, P: 1.5, U: 40}, 0, Poisson},
		{"exppow-nb", forest.Species{Kernel: forest.ExpPower, STR: 300, Beta: 2, A: 6, B: 1.5}, 2, NegBinom},
		{"weibull-nb", forest.Species{Kernel: forest.Weibull, STR: 300, Beta: 2, D: 0.02, Theta: 2}, 2, NegBinom},
		{"lognormal-poisson", forest.Species{Kernel: forest.Lognormal, STR: 300, Beta: 2, X0: 4, Xb: 0.8}, 0, Poisson},
		{"exponential-poisson", forest.Species{Kernel: forest.Exponential, STR: 300, Beta: 2, A: 4}, 0, Poisson},
		{"gaussian-nb", forest.Species{Kernel: forest.Gaussian, STR: 300, Beta: 2, A: 6}, 2, NegBinom},
	}
}

// minHits is the fewest of reps intervals that must hold the truth. A 95%
// interval that truly covers 95% of the time holds it X ~ Binomial(reps,
// 0.95) times; the bar is the least x with P(X <= x) > 1%, so that a
// correct interval fails a parameter's check at most once in a hundred
// runs. At 50 repetitions it is 43 (86%): P(X < 43) = 0.003 at p = 0.95,
// while an interval that covers 90% passes with P(X >= 43) = 0.88, one at
// 80% (the chi-squared cut-off's lognormal-NB) with 0.19 and one at 76%
// with 0.06. At 20 it is 16, which tells little: the study's long run
// (PROCGEN_FIT_REPS=50) is the one to read.
func minHits(reps int) int {
	cdf := 0.0
	for x := 0; x <= reps; x++ {
		lc := lchoose(reps, x)
		cdf += math.Exp(lc + float64(x)*math.Log(0.95) + float64(reps-x)*math.Log(0.05))
		if cdf > 0.01 {
			return x
		}
	}
	return reps
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// TestCoverageCI is the coverage study that CI runs: 50 simulations of
// the Gaussian kernel with NB counts (seeds 0..49 of coverageReps), each
// fitted with a 19-sample bootstrap, whose 95% quantile is then the
// largest W (the (B+1) 0.95-th of B: a Monte Carlo test's exact level);
// each parameter's interval must hold the truth minHits(50) = 43 times.
// The chi-squared intervals pass here too (a 45, k 48, STR 46 of 50): the
// models they fail, lognormal with NB counts above all, cost minutes of
// bootstrap and run in TestRecoveryCoverage (PROCGEN_FIT_COVERAGE=1).
func TestCoverageCI(t *testing.T) {
	if testing.Short() {
		t.Skip("50 bootstrapped fits (about 40 s on 2 cores)")
	}
	c := coverageCases()[7]
	checkCoverage(t, c, coverageReps(t, c, 50, 50, 60, 8, 19))
}

// TestRecoveryCoverage simulates counts from known parameters on a trap
// grid among random parents, fits them back with bootstrap-calibrated
// intervals, and checks that each parameter's 95% interval holds the
// truth in at least minHits of the repetitions. It is opt-in
// (PROCGEN_FIT_COVERAGE=1): about 17 s a fit on one core with 99 samples.
// 20 repetitions at 64 traps among 60 parents; PROCGEN_FIT_LONG=1 for
// the layout (100 traps of 0.5 m^2 among 300 parents on a
// hectare, 50 repetitions), PROCGEN_FIT_REPS=n for another count,
// PROCGEN_FIT_BOOT=n for another bootstrap size (-1: chi-squared's cut-off,
// to compare) and PROCGEN_FIT_CASE=name for one model.
func TestRecoveryCoverage(t *testing.T) {
	if os.Getenv("PROCGEN_FIT_COVERAGE") == "" {
		t.Skip("coverage study (minutes): set PROCGEN_FIT_COVERAGE=1 (and PROCGEN_FIT_LONG=1 for the issue's layout)")
	}
	reps, side, parents, nt := 20, 50.0, 60, 8
	if os.Getenv("PROCGEN_FIT_LONG") != "" {
		reps, side, parents, nt = 50, 100, 300, 10
	}
	if n, err := strconv.Atoi(os.Getenv("PROCGEN_FIT_REPS")); err == nil && n > 0 {
		reps = n
	}
	boot := 99
	if n, err := strconv.Atoi(os.Getenv("PROCGEN_FIT_BOOT")); err == nil {
		boot = max(n, 0)
	}
	for _, c := range coverageCases() {
		if f := os.Getenv("PROCGEN_FIT_CASE"); f != "" && f != c.name {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			checkCoverage(t, c, coverageReps(t, c, reps, side, parents, nt, boot))
		})
	}
}

// checkCoverage counts, per parameter, the repetitions whose interval
// holds the truth, and fails below minHits.
func checkCoverage(t *testing.T, c coverageCase, res []repResult) {
	reps := len(res)
	truth := truthParams(c)
	hits, lo, hi, bias := map[string]int{}, map[string]int{}, map[string]int{}, map[string]float64{}
	for rep, r := range res {
		if r.err != nil {
			// A fit that says it failed prints no estimate; it
			// counts as a miss for every parameter.
			t.Logf("rep %d: %v", rep, r.err)
			continue
		}
		if r.belowTruth {
			t.Errorf("rep %d: the search ended below the truth's log-likelihood", rep)
		}
		for _, pr := range r.params {
			v, ok := truth[pr.Name]
			if !ok {
				t.Fatalf("no true value for %s", pr.Name)
			}
			bias[pr.Name] += math.Log(pr.Value/v) / float64(reps)
			switch {
			case v < pr.Lo*(1-1e-9):
				lo[pr.Name]++
				t.Logf("rep %d: %s = %g below [%g, %g] (estimate %g, cut-off %.3g)", rep, pr.Name, v, pr.Lo, pr.Hi, pr.Value, pr.Cut)
			case v > pr.Hi*(1+1e-9):
				hi[pr.Name]++
				t.Logf("rep %d: %s = %g above [%g, %g] (estimate %g, cut-off %.3g)", rep, pr.Name, v, pr.Lo, pr.Hi, pr.Value, pr.Cut)
			default:
				hits[pr.Name]++
			}
		}
	}
	names := make([]string, 0, len(truth))
	for n := range truth {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		h := hits[name]
		t.Logf("%s: truth inside the interval in %d of %d (%d below it, %d above; mean ln(estimate/truth) %+.3f)",
			name, h, reps, lo[name], hi[name], bias[name])
		if h < minHits(reps) {
			t.Errorf("%s: coverage %d/%d, want at least %d", name, h, reps, minHits(reps))
		}
	}
}

// truthParams maps the parameter names a fit of c reports to their true
// values.
func truthParams(c coverageCase) map[string]float64 {
	s := c.truth
	m := map[string]float64{"str": s.STR}
	if c.count == NegBinom {
		m["k"] = c.k
	}
	switch s.Kernel {
	case forest.Weibull:
		m["d"], m["theta"] = s.D, s.Theta
	case forest.Lognormal:
		m["x0"], m["xb"] = s.X0, s.Xb
	case forest.TwoDt:
		m["p"], m["u"] = s.P, s.U
	case forest.ExpPower:
		m["a"], m["b"] = s.A, s.B
	default:
		m["a"] = s.A
	}
	return m
}

// coverageReps runs the repetitions of c on all cores (each fit's own
// evaluator is single-threaded at these sizes).
func coverageReps(t *testing.T, c coverageCase, reps int, side float64, parents, nt, boot int) []repResult {
	res := make([]repResult, reps)
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for rep := range reps {
		rng := rand.New(rand.NewPCG(uint64(rep), 77))
		trees, traps := layout(rng, side, parents, nt)
		data := simulate(t, rng, trees, traps, c.truth, c.k)
		p, err := NewProblem("x", data, trees)
		if err != nil {
			res[rep].err = err
			continue
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			e, err := Fit(context.Background(), NewCPU(p, 1), Options{Kernel: c.truth.Kernel, Counts: c.count,
				Base: forest.Species{Beta: 2}, Candidates: 512, Seed: uint64(rep), Bootstrap: boot})
			if err != nil {
				res[rep].err = fmt.Errorf("fit: %w", err)
				return
			}
			res[rep].params = e.Params
			pts := make([]Point, 1)
			if err := NewCPU(p, 1).Eval(context.Background(), []Cand{{Species: c.truth, STR: c.truth.STR, K: c.k}}, pts); err == nil {
				res[rep].belowTruth = pts[0].LL > e.LL+1e-6
			}
		})
	}
	wg.Wait()
	return res
}
