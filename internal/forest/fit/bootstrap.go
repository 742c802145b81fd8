package fit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// Summer is an Evaluator that also gives the expected counts per unit STR
// (CPU.Sums, CUDA.Sums): the bootstrap needs them to score counts it
// simulated, with the same sums on either backend.
type Summer interface {
	Evaluator
	Sums(ctx context.Context, cands []Cand, s []float64) error
	// Traps is the length of one candidate's sums.
	Traps() int
}

// replica is an Evaluator of other counts at the same traps: a bootstrap
// sample's likelihood from base's sums and logLik.
type replica struct {
	base    Summer
	y, lgy1 []float64
	total   float64
	traps   int
}

func (r *replica) Name() string { return r.base.Name() }

func (r *replica) Eval(ctx context.Context, cands []Cand, out []Point) error {
	s := make([]float64, len(cands)*r.traps)
	if err := r.base.Sums(ctx, cands, s); err != nil {
		return err
	}
	for ci, cd := range cands {
		row := s[ci*r.traps : (ci+1)*r.traps]
		if len(row) > 0 && math.IsNaN(row[0]) {
			out[ci] = Point{LL: math.Inf(-1)}
			continue
		}
		out[ci] = logLik(r.y, r.lgy1, row, r.total, cd.STR, cd.K)
	}
	return nil
}

// calibrate returns, per coordinate of full (u, then ln STR), half the
// cut-off of its profile interval, from a parametric bootstrap: counts are
// simulated from the fitted model B times, each sample is fitted, and its
// likelihood-ratio statistic W = 2 (max ll - profile ll at the fitted
// value) recorded. The 95% quantile of W replaces chi-squared(1)'s 3.84,
// which at a seed or two per trap is too small: the profile at the truth
// was measured beyond 3.84 in 1 of 5 simulations (Hall 1987 calibrates
// likelihood-ratio regions the same way). It is never taken below 3.84,
// since with a few hundred samples its own error is a few percent. A
// sample that cannot be fitted counts as an infinite W: data like it would
// get no interval at all.
func (sp *space) calibrate(ctx context.Context, full []float64, ll float64) ([]float64, error) {
	summer, ok := sp.ev.(Summer)
	if !ok {
		return nil, fmt.Errorf("forest fit: the %s evaluator gives no sums to bootstrap with", sp.ev.Name())
	}
	nt := summer.Traps()
	fitted := sp.cand(full[:sp.dim], math.Exp(full[sp.dim]))
	mu := make([]float64, nt)
	if err := summer.Sums(ctx, []Cand{fitted}, mu); err != nil {
		return nil, err
	}
	for j := range mu {
		mu[j] *= fitted.STR
	}
	rng := rand.New(rand.NewPCG(sp.o.Seed, 0x626f6f747374))
	sub := *sp
	sub.o.Progress, sub.o.Bootstrap = nil, 0
	// A sample's maximum is usually near the model it was drawn from, which
	// the search starts from; the random candidates are there for the
	// distant maxima (the lognormal's thin rings), and fewer do.
	sub.o.Candidates = max(64, sp.o.Candidates/8)
	sub.starts = [][]float64{sp.zOfU(full[:sp.dim])}
	// Every sample is drawn first, in order, so that the cut-off does not
	// depend on how many workers fit them.
	samples := make([]*replica, sp.o.Bootstrap)
	for b := range samples {
		r := &replica{base: summer, y: make([]float64, nt), lgy1: make([]float64, nt), traps: nt}
		for j, m := range mu {
			if fitted.K > 0 {
				m = gammaDraw(rng, fitted.K) * m / fitted.K
			}
			r.y[j] = float64(poissonDraw(rng, m))
			r.lgy1[j], _ = math.Lgamma(r.y[j] + 1)
			r.total += r.y[j]
		}
		samples[b] = r
	}
	wb, err := sp.replicateAll(ctx, &sub, samples, full)
	if err != nil {
		return nil, err
	}
	w := make([][]float64, len(full))
	for _, ws := range wb {
		for m := range w {
			w[m] = append(w[m], ws[m])
		}
	}
	half := make([]float64, len(full))
	for m, ws := range w {
		sort.Float64s(ws)
		// The (B+1) 0.95-th smallest of B: the usual bootstrap quantile.
		i := min(len(ws)-1, int(math.Ceil(0.95*float64(len(ws)+1)))-1)
		half[m] = math.Max(halfChi2, ws[i]/2)
	}
	return half, nil
}

// replicateAll fits the samples, each in its own copy of base (side by
// side on the CPU: inCopies), and returns W per sample.
func (sp *space) replicateAll(ctx context.Context, base *space, samples []*replica, full []float64) ([][]float64, error) {
	out := make([][]float64, len(samples))
	err := sp.inCopies(ctx, base, len(samples), func(ctx context.Context, sub *space, b int) error {
		ws, err := sub.replicate(ctx, samples[b], full)
		out[b] = ws
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// replicate fits one bootstrap sample r in sp, a copy of the fit's space,
// and returns W per coordinate of full (+Inf where the sample cannot be
// fitted or profiled).
func (sp *space) replicate(ctx context.Context, r *replica, full []float64) ([]float64, error) {
	ws := make([]float64, len(full))
	for m := range ws {
		ws[m] = math.Inf(1)
	}
	if r.total == 0 {
		return ws, nil
	}
	sp.ev, sp.evals = r, 0
	_, llb, err := sp.search(ctx)
	if errors.Is(err, ErrNotConverged) {
		return ws, nil
	}
	if err != nil {
		return nil, err
	}
	for m := range full {
		warm := make([]float64, 0, sp.dim)
		if m == sp.dim {
			warm = append(warm, full[:sp.dim]...)
		} else {
			warm = append(append(warm, full[:m]...), full[m+1:sp.dim]...)
		}
		pl, err := sp.profile(ctx, m, full[m], warm)
		if errors.Is(err, ErrNotConverged) {
			continue
		}
		if err != nil {
			return nil, err
		}
		ws[m] = 2 * (math.Max(llb, pl) - pl)
	}
	return ws, nil
}

// poissonDraw draws a Poisson count of mean mu by multiplying uniforms,
// in pieces of mean at most 30 (the sum of Poissons is Poisson), so that
// exp(-mu) never underflows.
func poissonDraw(rng *rand.Rand, mu float64) int64 {
	if !(mu > 0) {
		return 0
	}
	n := math.Ceil(mu / 30)
	piece, total := mu/n, int64(0)
	l := math.Exp(-piece)
	for range int(n) {
		p := 1.0
		for {
			p *= rng.Float64()
			if p <= l {
				break
			}
			total++
		}
	}
	return total
}

// gammaDraw is Marsaglia and Tsang's method (shape a, scale 1).
func gammaDraw(rng *rand.Rand, a float64) float64 {
	if a < 1 {
		return gammaDraw(rng, a+1) * math.Pow(rng.Float64(), 1/a)
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		if u := rng.Float64(); math.Log(u) < 0.5*x*x+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}
