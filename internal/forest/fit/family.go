package fit

import (
	"fmt"
	"math"
	"strings"

	"github.com/procgen-dev/procgen/internal/forest"
)

// family is how a kernel family's parameters (one or two) are searched:
// its species-file keys, the box of the search coordinates z (chosen so
// that the likelihood's ridge is not too curved) and the box of the
// natural parameters' logarithms u for the profiles.
type family struct {
	kind forest.KernelKind
	// names are the species-file keys, in u order; znames name the search
	// coordinates in messages.
	names, znames []string
	zlo, zhi      []float64
	ulo, uhi      []float64
	// zOf and uOf convert between u (ln of the natural parameters) and z.
	zOf, uOf func(v []float64) []float64
	set      func(s *forest.Species, nat []float64)
	get      func(s forest.Species) []float64
}

// n is the number of kernel parameters.
func (f family) n() int { return len(f.names) }

// families are the kernels the fit knows (mixtures are not among them:
// five kernel parameters whose components swap places make a likelihood
// this search does not handle).
//
// Weibull is searched by its scale lambda = D^(-1/theta) (m) and theta,
// along which D and theta trade off much less than D and theta do; the
// exponential power kernel is that Weibull in its own keys (a = lambda,
// b = theta), so it is searched in them directly. The 2Dt is searched by
// ln p and its length scale sqrt(u/p) (m): for large p it tends to a
// Gaussian of variance u/(2p), so u alone slides with p along a ridge.
// Lognormal is searched by the log of its median seed distance,
// ln X0 + 2 Xb^2, and ln Xb: a seed's ln distance is Gaussian with that
// mean and standard deviation Xb (the density of ln r is K(r) r^2 up to a
// constant), so these are a Gaussian's location and log-scale, which the
// likelihood separates. In ln X0 and ln Xb a wide kernel's X0 slides to 0
// as Xb grows (the median stays where the seeds are), and a box on X0
// refused such fits (x0 on its lower bound 0.05 in 4 of 50 simulations at
// 100 traps among 300 parents, median distances near 50 m).
func families() []family {
	ln := math.Log
	ident := func(v []float64) []float64 { return append([]float64(nil), v...) }
	expPow := func(kind forest.KernelKind) family {
		// exponential and gaussian: a alone (b is 1 or 2).
		return family{
			kind: kind, names: []string{"a"}, znames: []string{"a"},
			zlo: []float64{ln(0.05)}, zhi: []float64{ln(2000)},
			ulo: []float64{ln(0.05)}, uhi: []float64{ln(2000)},
			zOf: ident, uOf: ident,
			set: func(s *forest.Species, nat []float64) { s.A = nat[0] },
			get: func(s forest.Species) []float64 { return []float64{s.A} },
		}
	}
	return []family{{
		kind: forest.Weibull, names: []string{"d", "theta"},
		znames: []string{"the Weibull scale lambda = d^(-1/theta)", "theta"},
		zlo:    []float64{ln(0.1), ln(shapeLo)}, zhi: []float64{ln(2000), ln(shapeHi)},
		// ln d = -theta ln lambda over the z box: -20 ln 2000 .. 20 ln 10.
		ulo: []float64{-160, ln(shapeLo)}, uhi: []float64{50, ln(shapeHi)},
		zOf: func(u []float64) []float64 { return []float64{-u[0] / math.Exp(u[1]), u[1]} },
		uOf: func(z []float64) []float64 { return []float64{-z[0] * math.Exp(z[1]), z[1]} },
		set: func(s *forest.Species, nat []float64) { s.D, s.Theta = nat[0], nat[1] },
		get: func(s forest.Species) []float64 { return []float64{s.D, s.Theta} },
	}, {
		kind: forest.Lognormal, names: []string{"x0", "xb"},
		znames: []string{"the lognormal's median seed distance x0 exp(2 xb^2)", "xb"},
		zlo:    []float64{ln(0.05), ln(0.05)}, zhi: []float64{ln(2000), ln(4)},
		// ln x0 = z0 - 2 xb^2 reaches ln 0.05 - 32 at xb = 4.
		ulo: []float64{ln(0.05) - 32, ln(0.05)}, uhi: []float64{ln(2000), ln(4)},
		zOf: func(u []float64) []float64 { return []float64{u[0] + 2*math.Exp(2*u[1]), u[1]} },
		uOf: func(z []float64) []float64 { return []float64{z[0] - 2*math.Exp(2*z[1]), z[1]} },
		set: func(s *forest.Species, nat []float64) { s.X0, s.Xb = nat[0], nat[1] },
		get: func(s forest.Species) []float64 { return []float64{s.X0, s.Xb} },
	}, {
		kind: forest.TwoDt, names: []string{"p", "u"}, znames: []string{"p", "the 2Dt length scale sqrt(u/p)"},
		zlo: []float64{ln(0.05), ln(0.1)}, zhi: []float64{ln(50), ln(2000)},
		ulo: []float64{ln(0.05), ln(1e-4)}, uhi: []float64{ln(50), ln(1e9)},
		zOf: func(u []float64) []float64 { return []float64{u[0], (u[1] - u[0]) / 2} },
		uOf: func(z []float64) []float64 { return []float64{z[0], 2*z[1] + z[0]} },
		set: func(s *forest.Species, nat []float64) { s.P, s.U = nat[0], nat[1] },
		get: func(s forest.Species) []float64 { return []float64{s.P, s.U} },
	}, {
		kind: forest.ExpPower, names: []string{"a", "b"}, znames: []string{"a", "b"},
		zlo: []float64{ln(0.05), ln(shapeLo)}, zhi: []float64{ln(2000), ln(shapeHi)},
		ulo: []float64{ln(0.05), ln(shapeLo)}, uhi: []float64{ln(2000), ln(shapeHi)},
		zOf: ident, uOf: ident,
		set: func(s *forest.Species, nat []float64) { s.A, s.B = nat[0], nat[1] },
		get: func(s forest.Species) []float64 { return []float64{s.A, s.B} },
	}, expPow(forest.Exponential), expPow(forest.Gaussian)}
}

// Families lists the kernel families fit supports.
func Families() []string {
	var out []string
	for _, f := range families() {
		out = append(out, string(f.kind))
	}
	return out
}

func familyOf(kind forest.KernelKind) (family, error) {
	for _, f := range families() {
		if f.kind == kind {
			return f, nil
		}
	}
	return family{}, fmt.Errorf("kernel %q: fit supports %s", kind, strings.Join(Families(), ", "))
}

// shapeLo and shapeHi bound the Weibull's theta and the exponential
// power's b: the range forest disperse accepts (0.1..20), so that the box
// is the model's own. An upper bound of 8 refused fits whose profile still
// rose beyond it: at 100 traps among 300 parents, exponential-power counts
// drawn with b = 1.5 had their maximum at b = 12-18 in 3 of 50 simulations
// (a near-flat disc, the profile 2 log-likelihood units above b = 1.5 or
// less), which a box at 8 turned into refusals. 20 is as far as the model
// goes: a fit there still refuses.
const shapeLo, shapeHi = 0.1, 20.0

// Boxes of the other parameters: beta, and ln k of the negative binomial
// (k 0.01: extremely clumped; k 1e4: indistinguishable from Poisson at any
// realistic count).
const (
	betaLo, betaHi = -4.0, 8.0
	lnKLo, lnKHi   = -4.605170185988091, 9.210340371976184 // ln 0.01, ln 1e4
)
