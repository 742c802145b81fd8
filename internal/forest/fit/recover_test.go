package fit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

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
	// ran is false for a repetition the study's budget left out; dur is
	// the fit's wall time (its cores shared with the other fits running).
	ran  bool
	dur  time.Duration
	seed int
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
	st := study{reps: 50, side: 50, parents: 60, nt: 8, boot: 19, cands: 512}
	c := coverageCases()[7]
	res := coverageReps(t, c, st, make(chan struct{}, runtime.GOMAXPROCS(0)), time.Time{})
	checkCoverage(t, c, res)
}

// TestRecoveryCoverage simulates counts from known parameters on a trap
// grid among random parents, fits them back with bootstrap-calibrated
// intervals, and checks that each parameter's 95% interval holds the
// truth in at least minHits of the repetitions. It is opt-in
// (PROCGEN_FIT_COVERAGE=1); the settings are read by studyFromEnv. The
// repetitions of every model chosen share one pool: GOMAXPROCS fits at a
// time (a fit's bootstrap spreads over idle cores), so the models run
// side by side and the cores stay busy to the end; the last lines are a
// table per model with the hits, refusals and the settings, and the
// seconds a fit took, to plan a longer run.
func TestRecoveryCoverage(t *testing.T) {
	if os.Getenv("PROCGEN_FIT_COVERAGE") == "" {
		t.Skip("coverage study (minutes): set PROCGEN_FIT_COVERAGE=1 (and PROCGEN_FIT_LONG=1 for the issue's layout)")
	}
	st := studyFromEnv()
	var deadline time.Time
	if st.budget > 0 {
		deadline = time.Now().Add(st.budget)
	}
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var mu sync.Mutex
	var rows []tableRow
	t.Run("models", func(t *testing.T) {
		for _, c := range coverageCases() {
			if st.only != "" && !slices.Contains(strings.Split(st.only, ","), c.name) {
				continue
			}
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				start := time.Now()
				res := coverageReps(t, c, st, sem, deadline)
				row := checkCoverage(t, c, res)
				row.wall = time.Since(start)
				mu.Lock()
				rows = append(rows, row)
				mu.Unlock()
			})
		}
	})
	sort.Slice(rows, func(a, b int) bool { return rows[a].name < rows[b].name })
	t.Log(coverageTable(st, rows))
}

// study is the coverage study's settings.
type study struct {
	reps, parents, nt, boot, cands int
	side                           float64
	// first is the first repetition's seed: a long study can be split
	// into runs of seeds first..first+reps-1 whose hits add up.
	first int
	// budget stops starting repetitions after that long (0: none); only
	// names the models to run (comma-separated; "": all).
	budget time.Duration
	only   string
}

// studyFromEnv reads the study's settings: 20 repetitions at 64 traps
// among 60 parents on 50 m x 50 m; PROCGEN_FIT_LONG=1 for the issue's
// layout (100 traps of 0.5 m^2 on a 10 m grid among 300 parents on a
// hectare, 50 repetitions), PROCGEN_FIT_REPS=n for another count,
// PROCGEN_FIT_BOOT=n for another bootstrap size (99; -1 or 0: chi-squared's
// cut-off), PROCGEN_FIT_CASE=name[,name] for some models, and
// PROCGEN_FIT_BUDGET=seconds to start no repetition after that long (the
// table then says how many ran, and each parameter is judged on those),
// PROCGEN_FIT_FIRST=n to start at seed n (a study split into runs),
// PROCGEN_FIT_TRAPS=n for a grid of n x n traps on the same plot (14: 196
// traps of 0.5 m^2 on a 7.1 m grid) and PROCGEN_FIT_PARENTS=n for another
// number of parents.
// The global search tries 4096 candidates, forest fit's default
// (PROCGEN_FIT_CANDIDATES=n for another): with the 512 of earlier studies
// it missed narrow lognormal maxima (at 100 traps among 300 parents, one
// search of 50 ended 4.98 log-likelihood units below the maximum that
// 4096 found, and below the truth's).
func studyFromEnv() study {
	st := study{reps: 20, side: 50, parents: 60, nt: 8, boot: 99, cands: 4096}
	if os.Getenv("PROCGEN_FIT_LONG") != "" {
		st.reps, st.side, st.parents, st.nt = 50, 100, 300, 10
	}
	if n, err := strconv.Atoi(os.Getenv("PROCGEN_FIT_REPS")); err == nil && n > 0 {
		st.reps = n
	}
	if n, err := strconv.Atoi(os.Getenv("PROCGEN_FIT_BOOT")); err == nil {
		st.boot = max(n, 0)
	}
	if n, err := strconv.ParseFloat(os.Getenv("PROCGEN_FIT_BUDGET"), 64); err == nil && n > 0 {
		st.budget = time.Duration(n * float64(time.Second))
	}
	if n, err := strconv.Atoi(os.Getenv("PROCGEN_FIT_FIRST")); err == nil && n > 0 {
		st.first = n
	}
	if n, err := strconv.Atoi(os.Getenv("PROCGEN_FIT_TRAPS")); err == nil && n > 0 {
		st.nt = n
	}
	if n, err := strconv.Atoi(os.Getenv("PROCGEN_FIT_PARENTS")); err == nil && n > 0 {
		st.parents = n
	}
	if n, err := strconv.Atoi(os.Getenv("PROCGEN_FIT_CANDIDATES")); err == nil && n > 0 {
		st.cands = n
	}
	st.only = os.Getenv("PROCGEN_FIT_CASE")
	return st
}

// tableRow is one model's outcome in the study.
type tableRow struct {
	name                string
	run, refused, reps  int
	params              []string
	hits                map[string]int
	coreSec, maxCoreSec float64
	wall                time.Duration
}

// coverageTable is the study's summary: its settings, then a line per
// model with each parameter's hits of the repetitions run.
func coverageTable(st study, rows []tableRow) string {
	var b strings.Builder
	cut := "chi-squared(1) 3.84"
	if st.boot > 0 {
		cut = fmt.Sprintf("parametric bootstrap, %d samples", st.boot)
	}
	fmt.Fprintf(&b, "\ncoverage of 95%% intervals: %d traps of 0.5 m^2 on a %g m grid among %d random parents on %g m x %g m; "+
		"%d repetitions (seeds %d..%d); cut-off %s; %d candidates; %d workers; budget %v\n",
		st.nt*st.nt, st.side/float64(st.nt), st.parents, st.side, st.side, st.reps, st.first, st.first+st.reps-1, cut, st.cands,
		runtime.GOMAXPROCS(0), budgetText(st.budget))
	fmt.Fprintf(&b, "%-20s %4s %7s  %-44s %8s %8s %8s\n", "model", "run", "refused", "truth inside the interval (of run)",
		"fit s", "max s", "wall s")
	for _, r := range rows {
		var h []string
		for _, p := range r.params {
			h = append(h, fmt.Sprintf("%s %d", p, r.hits[p]))
		}
		fmt.Fprintf(&b, "%-20s %4d %7d  %-44s %8.1f %8.1f %8.0f\n", r.name, r.run, r.refused, strings.Join(h, ", "),
			r.coreSec/float64(max(r.run, 1)), r.maxCoreSec, r.wall.Seconds())
	}
	return b.String()
}

// checkCoverage counts, per parameter, the repetitions whose interval
// holds the truth, and fails below minHits of those that ran. A fit that
// refused counts as a miss for every parameter.
func checkCoverage(t *testing.T, c coverageCase, res []repResult) tableRow {
	truth := truthParams(c)
	row := tableRow{name: c.name, reps: len(res), hits: map[string]int{}}
	lo, hi, bias := map[string]int{}, map[string]int{}, map[string]float64{}
	for _, r := range res {
		if !r.ran {
			continue
		}
		row.run++
		sec := r.dur.Seconds()
		row.coreSec += sec
		row.maxCoreSec = math.Max(row.maxCoreSec, sec)
		if r.err != nil {
			// A fit that says it failed prints no estimate; it
			// counts as a miss for every parameter.
			row.refused++
			t.Logf("rep %d: %v", r.seed, r.err)
			continue
		}
		if r.belowTruth {
			t.Errorf("rep %d: the search ended below the truth's log-likelihood", r.seed)
		}
		for _, pr := range r.params {
			v, ok := truth[pr.Name]
			if !ok {
				t.Fatalf("no true value for %s", pr.Name)
			}
			bias[pr.Name] += math.Log(pr.Value / v)
			switch {
			case v < pr.Lo*(1-1e-9):
				lo[pr.Name]++
				t.Logf("rep %d: %s = %g below [%g, %g] (estimate %g, cut-off %.3g)", r.seed, pr.Name, v, pr.Lo, pr.Hi, pr.Value, pr.Cut)
			case v > pr.Hi*(1+1e-9):
				hi[pr.Name]++
				t.Logf("rep %d: %s = %g above [%g, %g] (estimate %g, cut-off %.3g)", r.seed, pr.Name, v, pr.Lo, pr.Hi, pr.Value, pr.Cut)
			default:
				row.hits[pr.Name]++
			}
		}
	}
	for n := range truth {
		row.params = append(row.params, n)
	}
	sort.Strings(row.params)
	if row.run < row.reps {
		t.Logf("the budget let %d of %d repetitions run (seeds %d..%d); each parameter is judged on those",
			row.run, row.reps, res[0].seed, res[0].seed+row.run-1)
	}
	fitted := row.run - row.refused
	for _, name := range row.params {
		h := row.hits[name]
		t.Logf("%s: truth inside the interval in %d of %d (%d refused, %d below it, %d above; mean ln(estimate/truth) %+.3f over %d fits)",
			name, h, row.run, row.refused, lo[name], hi[name], bias[name]/float64(max(fitted, 1)), fitted)
		if row.run > 0 && h < minHits(row.run) {
			t.Errorf("%s: coverage %d/%d, want at least %d", name, h, row.run, minHits(row.run))
		}
	}
	return row
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

// coverageReps runs the repetitions of c, at most one per worker of sem's
// pool at a time, in seed order, and starts none after deadline (zero: no
// deadline). The data are drawn in order from each repetition's own
// seed, so a repetition's outcome does not depend on the pool or the
// budget.
func coverageReps(t *testing.T, c coverageCase, st study, sem chan struct{}, deadline time.Time) []repResult {
	res := make([]repResult, st.reps)
	var wg sync.WaitGroup
	for i := range st.reps {
		rep := st.first + i
		res[i].seed = rep
		rng := rand.New(rand.NewPCG(uint64(rep), 77))
		trees, traps := layout(rng, st.side, st.parents, st.nt)
		data := simulate(t, rng, trees, traps, c.truth, c.k)
		p, err := NewProblem("x", data, trees)
		if err != nil {
			res[i].err, res[i].ran = err, true
			continue
		}
		// The repetitions start in seed order, so that a budget leaves
		// out the last seeds, not some chosen by the scheduler: the
		// seeds run are then first..first+run-1, a study another run
		// can repeat or continue.
		sem <- struct{}{}
		if !deadline.IsZero() && time.Now().After(deadline) {
			<-sem
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			start := time.Now()
			defer func() { res[i].ran, res[i].dur = true, time.Since(start) }()
			// Every core for the fit too: its bootstrap's samples then
			// fill the cores the last repetitions leave idle.
			e, err := Fit(context.Background(), NewCPU(p, 0), Options{Kernel: c.truth.Kernel, Counts: c.count,
				Base: forest.Species{Beta: 2}, Candidates: st.cands, Seed: uint64(rep), Bootstrap: st.boot})
			if err != nil {
				res[i].err = fmt.Errorf("fit: %w", err)
				return
			}
			res[i].params = e.Params
			pts := make([]Point, 1)
			if err := NewCPU(p, 1).Eval(context.Background(), []Cand{{Species: c.truth, STR: c.truth.STR, K: c.k}}, pts); err == nil {
				res[i].belowTruth = pts[0].LL > e.LL+1e-6
			}
		})
	}
	wg.Wait()
	return res
}

func budgetText(d time.Duration) string {
	if d == 0 {
		return "none"
	}
	return d.String()
}
