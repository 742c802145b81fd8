package fit

import (
	"fmt"
	"math"
	"strings"

	"github.com/procgen-dev/procgen/internal/forest"
)

// family is how a kernel family's two parameters are searched: its
// species-file keys, the box of the search coordinates z (two per family,
// chosen so that the likelihood's ridge is not too curved) and the box of
// the natural parameters' logarithms u for the profiles.
type family struct {
	kind  forest.KernelKind
	names [2]string
	zlo   [2]float64
	zhi   [2]float64
	ulo   [2]float64
	uhi   [2]float64
	// zOf and uOf convert between u (ln of the natural parameters) and z.
	zOf func(u [2]float64) [2]float64
	uOf func(z [2]float64) [2]float64
	set func(s *forest.Species, nat [2]float64)
}

// families are the kernels the fit knows. Weibull is searched by its scale
// lambda = D^(-1/theta) (m) and theta, along which D and theta trade off
// much less than D and theta do; lognormal by ln X0 and ln Xb.
func families() []family {
	ln := math.Log
	ident := func(v [2]float64) [2]float64 { return v }
	return []family{{
		kind: forest.Weibull, names: [2]string{"d", "theta"},
		zlo: [2]float64{ln(0.1), ln(0.2)}, zhi: [2]float64{ln(2000), ln(8)},
		ulo: [2]float64{-80, ln(0.2)}, uhi: [2]float64{10, ln(8)},
		zOf: func(u [2]float64) [2]float64 { return [2]float64{-u[0] / math.Exp(u[1]), u[1]} },
		uOf: func(z [2]float64) [2]float64 { return [2]float64{-z[0] * math.Exp(z[1]), z[1]} },
		set: func(s *forest.Species, nat [2]float64) { s.D, s.Theta = nat[0], nat[1] },
	}, {
		kind: forest.Lognormal, names: [2]string{"x0", "xb"},
		zlo: [2]float64{ln(0.05), ln(0.05)}, zhi: [2]float64{ln(2000), ln(4)},
		ulo: [2]float64{ln(0.05), ln(0.05)}, uhi: [2]float64{ln(2000), ln(4)},
		zOf: ident, uOf: ident,
		set: func(s *forest.Species, nat [2]float64) { s.X0, s.Xb = nat[0], nat[1] },
	}}
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

// Boxes of the other parameters: beta, and ln k of the negative binomial
// (k 0.01: extremely clumped; k 1e4: indistinguishable from Poisson at any
// realistic count).
const (
	betaLo, betaHi = -4.0, 8.0
	lnKLo, lnKHi   = -4.605170185988091, 9.210340371976184 // ln 0.01, ln 1e4
)
