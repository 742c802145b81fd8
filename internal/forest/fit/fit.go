package fit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/procgen-dev/procgen/internal/forest"
)

// Options control one fit.
type Options struct {
	Kernel forest.KernelKind
	Counts Counts
	// Base holds what is not fitted: Beta unless FitBeta, MinDBH, Name.
	Base    forest.Species
	FitBeta bool
	// Candidates is the number of random parameter sets of the global
	// search (0: 4096); Seed keys them.
	Candidates int
	Seed       uint64
	// MaxEvals bounds each Nelder-Mead search (0: 1000 per parameter).
	MaxEvals int
	// Bootstrap is the number of parametric bootstrap samples that
	// calibrate the profile intervals' cut-off (0: chi-squared(1)'s, which
	// covers too rarely at a seed or two per trap; see calibrate).
	Bootstrap int
	// Progress, when set, is called with the evaluations done and an
	// estimate of the total.
	Progress func(done, total int64)
}

// Param is one estimate with its 95% profile-likelihood interval; LoOpen
// or HiOpen say the interval reached the search box there (the bound is
// then the box's edge, and the interval may be wider).
type Param struct {
	Name           string
	Value, Lo, Hi  float64
	LoOpen, HiOpen bool
	// Cut is the interval's cut-off on twice the log-likelihood ratio:
	// 3.84 (chi-squared), or the bootstrap's quantile.
	Cut float64
}

// Estimate is a fitted species.
type Estimate struct {
	Kernel  forest.KernelKind
	Counts  Counts
	Species forest.Species
	// K is the negative binomial's clumping (0 for Poisson).
	K      float64
	LL     float64
	NParam int
	AIC    float64
	Params []Param
	Evals  int
	// Bootstrap is the number of samples that calibrated the intervals'
	// cut-off (0: chi-squared).
	Bootstrap int
}

// ErrNotConverged is wrapped by the errors of a fit that did not converge
// or whose estimate sits on the search box: no numbers are estimates then.
var ErrNotConverged = errors.New("the fit did not converge")

// space is the parameter vector of one fit: the family's one or two, beta when
// fitted, ln k for NB. x is in search coordinates z for the main fit and in
// u coordinates for the profiles.
type space struct {
	fam     family
	o       Options
	ev      Evaluator
	dim     int
	iBeta   int // -1 when beta is fixed
	iK      int // -1 for Poisson
	evals   int64
	estEval int64
	// starts are points (z coordinates) the global search tries beside
	// its random candidates: a bootstrap sample's fit starts from the
	// model it was drawn from.
	starts [][]float64
}

func (sp *space) cand(u []float64, str float64) Cand {
	s := sp.o.Base
	s.Kernel = sp.fam.kind
	nat := make([]float64, sp.fam.n())
	for d := range nat {
		nat[d] = math.Exp(u[d])
	}
	sp.fam.set(&s, nat)
	if sp.iBeta >= 0 {
		s.Beta = u[sp.iBeta]
	}
	c := Cand{Species: s, STR: str}
	if sp.iK >= 0 {
		c.K = math.Exp(u[sp.iK])
	}
	return c
}

func (sp *space) uOfZ(z []float64) []float64 {
	u := append([]float64(nil), z...)
	copy(u, sp.fam.uOf(z[:sp.fam.n()]))
	return u
}

func (sp *space) zOfU(u []float64) []float64 {
	z := append([]float64(nil), u...)
	copy(z, sp.fam.zOf(u[:sp.fam.n()]))
	return z
}

// box is coordinate d's search interval in z (zbox) or u coordinates.
func (sp *space) box(d int, zbox bool) (lo, hi float64) {
	switch {
	case d < sp.fam.n() && zbox:
		return sp.fam.zlo[d], sp.fam.zhi[d]
	case d < sp.fam.n():
		return sp.fam.ulo[d], sp.fam.uhi[d]
	case d == sp.iBeta:
		return betaLo, betaHi
	}
	return lnKLo, lnKHi
}

func (sp *space) inBox(x []float64, zbox bool) bool {
	for d, v := range x {
		lo, hi := sp.box(d, zbox)
		if !(v >= lo && v <= hi) {
			return false
		}
	}
	return true
}

// eval returns minus the log-likelihood of points (+Inf outside the box);
// toU converts a point to u coordinates and str fixes STR (0: profiled).
func (sp *space) eval(ctx context.Context, xs [][]float64, zbox bool, toU func([]float64) []float64, str float64) ([]float64, []Point, error) {
	cands := make([]Cand, 0, len(xs))
	where := make([]int, len(xs))
	for i, x := range xs {
		where[i] = -1
		if sp.inBox(x, zbox) {
			where[i] = len(cands)
			cands = append(cands, sp.cand(toU(x), str))
		}
	}
	pts := make([]Point, len(cands))
	if len(cands) > 0 {
		if err := sp.ev.Eval(ctx, cands, pts); err != nil {
			return nil, nil, err
		}
	}
	sp.evals += int64(len(cands))
	if sp.o.Progress != nil {
		sp.o.Progress(min(sp.evals, sp.estEval), sp.estEval)
	}
	f := make([]float64, len(xs))
	out := make([]Point, len(xs))
	for i, w := range where {
		f[i] = math.Inf(1)
		if w >= 0 && !math.IsNaN(pts[w].LL) {
			f[i], out[i] = -pts[w].LL, pts[w]
		}
	}
	return f, out, nil
}

// Fit estimates one species' parameters from p with ev.
func Fit(ctx context.Context, ev Evaluator, o Options) (*Estimate, error) {
	fam, err := familyOf(o.Kernel)
	if err != nil {
		return nil, err
	}
	sp := &space{fam: fam, o: o, ev: ev, dim: fam.n(), iBeta: -1, iK: -1}
	if o.FitBeta {
		sp.iBeta = sp.dim
		sp.dim++
	}
	if o.Counts == NegBinom {
		sp.iK = sp.dim
		sp.dim++
	}
	if sp.o.Candidates <= 0 {
		sp.o.Candidates = 4096
	}
	if sp.o.MaxEvals <= 0 {
		sp.o.MaxEvals = 1000 * sp.dim
	}
	sp.estEval = int64(sp.o.Candidates) + int64(sp.dim+1)*40*int64(sp.dim*sp.dim+5)
	// A bootstrap sample costs an eighth of the search's candidates, its
	// Nelder-Mead and one profile point per parameter.
	sp.estEval += int64(sp.o.Bootstrap) * (int64(max(64, sp.o.Candidates/8)) + sp.estEval/5)
	z, ll, err := sp.search(ctx)
	if err != nil {
		return nil, err
	}
	return sp.estimate(ctx, z, ll)
}

// search is the global stage (random candidates in the box, in batches)
// and Nelder-Mead from the best few, then once more from the best end.
func (sp *space) search(ctx context.Context) ([]float64, float64, error) {
	rng := rand.New(rand.NewPCG(sp.o.Seed, 0x666f7265737466))
	const batch = 4096
	type scored struct {
		z []float64
		f float64
	}
	var top []scored
	if len(sp.starts) > 0 {
		f, _, err := sp.eval(ctx, sp.starts, true, sp.uOfZ, 0)
		if err != nil {
			return nil, 0, err
		}
		for i, z := range sp.starts {
			if !math.IsInf(f[i], 1) {
				top = append(top, scored{z, f[i]})
			}
		}
	}
	for done := 0; done < sp.o.Candidates; done += batch {
		xs := make([][]float64, min(batch, sp.o.Candidates-done))
		for i := range xs {
			xs[i] = make([]float64, sp.dim)
			for d := range xs[i] {
				lo, hi := sp.box(d, true)
				xs[i][d] = lo + (hi-lo)*rng.Float64()
			}
		}
		f, _, err := sp.eval(ctx, xs, true, sp.uOfZ, 0)
		if err != nil {
			return nil, 0, err
		}
		for i := range xs {
			if !math.IsInf(f[i], 1) {
				top = append(top, scored{xs[i], f[i]})
			}
		}
		sort.Slice(top, func(a, b int) bool { return top[a].f < top[b].f })
		top = top[:min(len(top), 4)]
	}
	if len(top) == 0 {
		return nil, 0, fmt.Errorf("%w: no candidate in the search box predicts seeds where seeds were counted", ErrNotConverged)
	}
	f := func(xs [][]float64) ([]float64, error) {
		v, _, err := sp.eval(ctx, xs, true, sp.uOfZ, 0)
		return v, err
	}
	step := make([]float64, sp.dim)
	for d := range step {
		lo, hi := sp.box(d, true)
		step[d] = 0.1 * (hi - lo)
	}
	best := nmResult{f: math.Inf(1)}
	for _, t := range top {
		r, err := nelderMead(ctx, f, t.z, step, 1e-9, 1e-7, sp.o.MaxEvals)
		if err != nil {
			return nil, 0, err
		}
		if r.f < best.f || (r.f == best.f && r.converged) {
			best = r
		}
	}
	for d := range step {
		step[d] /= 5
	}
	r, err := nelderMead(ctx, f, best.x, step, 1e-9, 1e-7, sp.o.MaxEvals)
	if err != nil {
		return nil, 0, err
	}
	if !best.converged || !r.converged || best.f-r.f > 1e-4 {
		return nil, 0, fmt.Errorf("%w: Nelder-Mead stopped after %d evaluations without settling "+
			"(log-likelihood %.6g, then %.6g from a restart); more --max-evals, or a simpler model "+
			"(poisson counts, fixed beta) may help", ErrNotConverged, r.evals, -best.f, -r.f)
	}
	return r.x, -r.f, nil
}

// estimate checks the box, adds STR and the profile intervals.
func (sp *space) estimate(ctx context.Context, z []float64, ll float64) (*Estimate, error) {
	names := sp.names()
	u := sp.uOfZ(z)
	for d, v := range z {
		lo, hi := sp.box(d, true)
		if v-lo < 1e-3*(hi-lo) || hi-v < 1e-3*(hi-lo) {
			return nil, fmt.Errorf("%w: %s sits on the search bound (%s); the data do not pin it down "+
				"inside the range searched%s", ErrNotConverged, sp.coordName(d), sp.boundText(d, v, lo, hi), sp.hint(d, hi-v < v-lo))
		}
	}
	_, pts, err := sp.eval(ctx, [][]float64{u}, false, ident, 0)
	if err != nil {
		return nil, err
	}
	c := sp.cand(u, pts[0].STR)
	c.Species.STR = pts[0].STR
	e := &Estimate{Kernel: sp.fam.kind, Counts: sp.o.Counts, Species: c.Species, K: c.K, LL: ll,
		NParam: sp.dim + 1}
	e.AIC = 2*float64(e.NParam) - 2*ll
	full := append(append([]float64(nil), u...), math.Log(pts[0].STR))
	half := make([]float64, len(full))
	for m := range half {
		half[m] = halfChi2
	}
	if sp.o.Bootstrap > 0 {
		if half, err = sp.calibrate(ctx, full, ll); err != nil {
			return nil, err
		}
		e.Bootstrap = sp.o.Bootstrap
	}
	b, err := sp.bounds(ctx, full, ll, half)
	if err != nil {
		return nil, err
	}
	for m := range full {
		lo, hi := b[2*m], b[2*m+1]
		e.Params = append(e.Params, Param{Name: names[m], Value: sp.natural(m, full[m]), Lo: sp.natural(m, lo.v),
			Hi: sp.natural(m, hi.v), LoOpen: lo.open, HiOpen: hi.open, Cut: 2 * half[m]})
	}
	e.Evals = int(sp.evals)
	return e, nil
}

func ident(x []float64) []float64 { return x }

// names are the parameters in u order, STR last.
func (sp *space) names() []string {
	n := append([]string(nil), sp.fam.names...)
	if sp.iBeta >= 0 {
		n = append(n, "beta")
	}
	if sp.iK >= 0 {
		n = append(n, "k")
	}
	return append(n, "str")
}

// natural turns coordinate m of u back into the parameter (beta is not a
// logarithm).
func (sp *space) natural(m int, v float64) float64 {
	if m == sp.iBeta {
		return v
	}
	return math.Exp(v)
}
