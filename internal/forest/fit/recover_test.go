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

// TestRecoveryCoverage simulates counts from known parameters on a trap
// grid among random parents, fits them back, and checks that each
// parameter's 95% profile interval holds the truth in at least 90% of the
// repetitions. It is opt-in (PROCGEN_FIT_COVERAGE=1) and fails today: at
// the layout the lognormal with NB counts measured 76-80% (the
// README gives the numbers). 20 repetitions at 64
// traps among 60 parents; PROCGEN_FIT_LONG=1 for the layout (100
// traps of 0.5 m^2 among 300 parents on a hectare), PROCGEN_FIT_REPS=n for
// another count.
func TestRecoveryCoverage(t *testing.T) {
	if os.Getenv("PROCGEN_FIT_COVERAGE") == "" {
		t.Skip("coverage study (minutes): set PROCGEN_FIT_COVERAGE=1 (and PROCGEN_FIT_LONG=1 for the issue's layout)")
	}
	cases := []coverageCase{
		{"weibull-poisson", forest.Species{Kernel: forest.Weibull, STR: 300, Beta: 2, D: 0.02, Theta: 2}, 0, Poisson},
		{"lognormal-nb", forest.Species{Kernel: forest.Lognormal, STR: 300, Beta: 2, X0: 4, Xb: 0.8}, 2, NegBinom},
		{"2dt-poisson", forest.Species{Kernel: forest.TwoDt, STR: 300, Beta: 2, P: 1.5, U: 40}, 0, Poisson},
		{"exppow-nb", forest.Species{Kernel: forest.ExpPower, STR: 300, Beta: 2, A: 6, B: 1.5}, 2, NegBinom},
		{"weibull-nb", forest.Species{Kernel: forest.Weibull, STR: 300, Beta: 2, D: 0.02, Theta: 2}, 2, NegBinom},
		{"lognormal-poisson", forest.Species{Kernel: forest.Lognormal, STR: 300, Beta: 2, X0: 4, Xb: 0.8}, 0, Poisson},
		{"exponential-poisson", forest.Species{Kernel: forest.Exponential, STR: 300, Beta: 2, A: 4}, 0, Poisson},
		{"gaussian-nb", forest.Species{Kernel: forest.Gaussian, STR: 300, Beta: 2, A: 6}, 2, NegBinom},
	}
	reps, side, parents, nt := 20, 50.0, 60, 8
	if os.Getenv("PROCGEN_FIT_LONG") != "" {
		reps, side, parents, nt = 50, 100, 300, 10
	}
	if n, err := strconv.Atoi(os.Getenv("PROCGEN_FIT_REPS")); err == nil && n > 0 {
		reps = n
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := coverageReps(t, c, reps, side, parents, nt)
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
						t.Logf("rep %d: %s = %g below [%g, %g] (estimate %g)", rep, pr.Name, v, pr.Lo, pr.Hi, pr.Value)
					case v > pr.Hi*(1+1e-9):
						hi[pr.Name]++
						t.Logf("rep %d: %s = %g above [%g, %g] (estimate %g)", rep, pr.Name, v, pr.Lo, pr.Hi, pr.Value)
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
				if float64(h) < 0.9*float64(reps) {
					t.Errorf("%s: coverage %d/%d, want at least 90%%", name, h, reps)
				}
			}
		})
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
func coverageReps(t *testing.T, c coverageCase, reps int, side float64, parents, nt int) []repResult {
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
				Base: forest.Species{Beta: 2}, Candidates: 512, Seed: uint64(rep)})
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
