package fit

import (
	"context"
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/forest"
)

// halfChi2 is half the 95% quantile of chi-squared with one degree of
// freedom: a profile-likelihood interval holds the values whose profile
// log-likelihood is within it of the maximum (Venzon and Moolgavkar 1988).
const halfChi2 = 1.920729410347062

// strRange is how far (in ln STR) a profile of STR searches either side.
const strRange = 20.0

// profile is the log-likelihood maximised over every parameter but
// coordinate m of full (u, then ln STR), held at v; warm is the other
// coordinates' starting point, updated to where they ended.
func (sp *space) profile(ctx context.Context, m int, v float64, warm []float64) (float64, error) {
	free := len(warm)
	// With both kernel coordinates free they are searched in the family's
	// z coordinates, as in the main fit: Nelder-Mead in ln D and ln theta
	// creeps along their ridge and can stop short of the profile's maximum,
	// which would make intervals too narrow.
	both := m >= sp.fam.n()
	start := warm
	if both {
		start = sp.zOfU(warm)
	}
	build := func(x []float64) ([]float64, float64) {
		if both {
			x = sp.uOfZ(x)
		}
		if m == sp.dim { // STR fixed, every kernel coordinate free
			return x, math.Exp(v)
		}
		u := make([]float64, 0, sp.dim)
		u = append(append(append(u, x[:m]...), v), x[m:]...)
		return u, 0
	}
	f := func(xs [][]float64) ([]float64, error) {
		out := make([]float64, len(xs))
		for i, x := range xs {
			u, str := build(x)
			y, _, err := sp.eval(ctx, [][]float64{u}, false, ident, str)
			if err != nil {
				return nil, err
			}
			out[i] = y[0]
		}
		return out, nil
	}
	if free == 0 {
		// A one-parameter kernel with Poisson counts and beta fixed: STR,
		// profiled in closed form, is the only other parameter.
		y, err := f([][]float64{nil})
		if err != nil {
			return 0, err
		}
		return -y[0], nil
	}
	step := make([]float64, free)
	for d := range step {
		step[d] = 0.05
	}
	r, err := nelderMead(ctx, f, start, step, 1e-7, 1e-5, sp.o.MaxEvals)
	if err != nil {
		return 0, err
	}
	if !r.converged {
		return 0, fmt.Errorf("%w: the profile likelihood of %s at %g did not settle in %d evaluations",
			ErrNotConverged, sp.names()[m], sp.natural(m, v), r.evals)
	}
	if !math.IsInf(r.f, 1) {
		if both {
			copy(warm, sp.uOfZ(r.x))
		} else {
			copy(warm, r.x)
		}
	}
	return -r.f, nil
}

// profileBound walks coordinate m of full away from the estimate in
// direction dir (doubling steps) until the profile falls half (half the
// cut-off) below ll, then closes in on the crossing by regula falsi (Illinois). open says
// the walk reached the box first.
func (sp *space) profileBound(ctx context.Context, full []float64, ll, half float64, m int, dir float64) (float64, bool, error) {
	lo, hi := full[m]-strRange, full[m]+strRange
	if m < sp.dim {
		lo, hi = sp.box(m, false)
	}
	warm := make([]float64, 0, sp.dim)
	if m == sp.dim {
		warm = append(warm, full[:sp.dim]...)
	} else {
		warm = append(append(warm, full[:m]...), full[m+1:sp.dim]...)
	}
	g := func(v float64) (float64, error) {
		p, err := sp.profile(ctx, m, v, warm)
		return p - (ll - half), err
	}
	a, ga := full[m], half
	h := 0.05
	var b, gb float64
	for {
		b = a + dir*h
		if b <= lo || b >= hi {
			b = math.Max(lo, math.Min(hi, b))
			gb0, err := g(b)
			if err != nil {
				return 0, false, err
			}
			if gb0 > 0 {
				return b, true, nil
			}
			gb = gb0
			break
		}
		var err error
		if gb, err = g(b); err != nil {
			return 0, false, err
		}
		if gb <= 0 {
			break
		}
		a, ga, h = b, gb, 2*h
	}
	// Illinois: a stays inside (g > 0), b outside.
	side := 0
	for it := 0; it < 60 && math.Abs(b-a) > 1e-4; it++ {
		c := b - gb*(b-a)/(gb-ga)
		if !(c > math.Min(a, b) && c < math.Max(a, b)) {
			c = (a + b) / 2
		}
		gc, err := g(c)
		if err != nil {
			return 0, false, err
		}
		if gc > 0 {
			a, ga = c, gc
			if side == 1 {
				gb /= 2
			}
			side = 1
		} else {
			b, gb = c, gc
			if side == -1 {
				ga /= 2
			}
			side = -1
		}
	}
	return (a + b) / 2, false, nil
}

// bound is one end of a profile interval: where the walk stopped, and
// whether it reached the box first.
type bound struct {
	v    float64
	open bool
}

// bounds walks every coordinate of full both ways (profileBound): bound
// 2m is coordinate m's lower end, 2m+1 its upper. The walks run in copies
// of sp, side by side on the CPU (inCopies); each depends only on full, so
// the order changes no result.
func (sp *space) bounds(ctx context.Context, full []float64, ll float64, half []float64) ([]bound, error) {
	out := make([]bound, 2*len(full))
	err := sp.inCopies(ctx, sp, len(out), func(ctx context.Context, sub *space, i int) error {
		m, dir := i/2, float64(2*(i%2)-1)
		v, open, err := sub.profileBound(ctx, full, ll, half[m], m, dir)
		out[i] = bound{v, open}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// coordName names search coordinate d of the main fit.
func (sp *space) coordName(d int) string {
	switch {
	case d < sp.fam.n():
		return sp.fam.znames[d]
	case d == sp.iBeta:
		return "beta"
	}
	return "the clumping k"
}

// boundText says where coordinate d is against its box, in natural units.
func (sp *space) boundText(d int, v, lo, hi float64) string {
	nat := math.Exp
	if d == sp.iBeta {
		nat = func(x float64) float64 { return x }
	}
	return fmt.Sprintf("%.4g, searched %.4g..%.4g", nat(v), nat(lo), nat(hi))
}

// hint says what search coordinate d on its bound (upper: the upper one)
// usually means.
func (sp *space) hint(d int, upper bool) string {
	kind := sp.fam.kind
	switch {
	case d == sp.iK && upper:
		return "; a clumping k at its upper bound means the counts show no overdispersion: fit --counts poisson"
	case d == sp.iK:
		return "; a clumping k at its lower bound means a few traps hold nearly all the seed: the kernel explains " +
			"little of where it falls"
	case d == sp.iBeta:
		return "; beta needs parents of many sizes: fix it (leave out --fit-beta)"
	case d == 0 && kind == forest.TwoDt && upper:
		// (1 + r^2/u)^-(p+1) tends to a Gaussian as p grows.
		return "; a 2Dt p at its upper bound means the counts show no fat tail: the gaussian kernel fits them as well"
	case d == 1 && upper && (kind == forest.Weibull || kind == forest.ExpPower):
		// exp(-(r/lambda)^theta) tends to a flat disc of radius lambda.
		return "; a shape at its upper bound means a flat disc of seeds fits the counts as well as any slope " +
			"(overdispersed counts often do): the traps do not resolve the kernel's shape; more traps may, " +
			"or fit a kernel of one parameter (gaussian, exponential)"
	case d == 0 && upper && kind != forest.TwoDt:
		// The kernel's length scale (the lognormal's median distance, the
		// Weibull's scale, a) far beyond the plot: even seed rain.
		return "; a length scale at its upper bound means the seeds fall evenly over the traps, as if from no " +
			"parent in particular: the counts do not show how seed falls off with distance"
	case d == 0 && kind == forest.TwoDt:
		// (1 + r^2/u)^-(p+1) hardly falls off as p nears 0.
		return "; a 2Dt p at its lower bound is a tail that hardly falls off with distance: the counts look like " +
			"seed from parents beyond the stem map (map a wider area than the traps cover, or leave out the " +
			"traps near its edges)"
	case d == 0 && (kind == forest.Weibull || kind == forest.ExpPower):
		// exp(-(r/lambda)^theta) with lambda near 0 and a small theta: a
		// spike at each stem and a fat tail (Clark et al. 1999 add a
		// background for the seed of parents off the map).
		return "; a length scale at its lower bound puts the kernel's seed at the stems, and with a small shape " +
			"spreads the rest as a tail that hardly falls off: the counts may hold seed from parents beyond the " +
			"stem map (map a wider area than the traps cover, or leave out the traps near its edges)"
	}
	return "; the traps may be too few, too close to the parents or too far from them to measure this kernel"
}
