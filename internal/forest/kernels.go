package forest

import (
	"math"
)

// The kernel families beside SORTIE-ND's Weibull and lognormal, with their
// parameters named as the seed-dispersal literature names them:
//
//	2Dt (Clark et al. 1999, Ecology 80:1475):
//	    f(r) = p / (pi u (1 + r^2/u)^(p+1)),           p > 0, u > 0 (m^2)
//	exponential power (Clark et al. 1998; Nathan et al. 2012's review):
//	    f(r) = b / (2 pi a^2 Gamma(2/b)) exp(-(r/a)^b), a > 0 (m), b > 0
//	    (b = 1 the exponential, b = 2 the Gaussian)
//	two-component mixture:
//	    f(r) = w f1(r) + (1 - w) f2(r),                 0 < w < 1
//
// Each f integrates to 1 over the plane. The exponential power kernel is the
// Weibull kernel exp(-D r^theta) under another parameterisation (D = a^-b,
// theta = b), and is evaluated as one: every method and backend that has
// the Weibull has it. kern holds the unnormalised K with its integral eta
// (f = K / eta); a mixture's K is c1 K1 + c2 K2 with c1 + c2 = 1 (so K <= 1
// and its exponent is never negative), c_i proportional to the component's
// weight over its eta.

// kernelNames lists the kernel keys for messages.
const kernelNames = "weibull, lognormal, 2dt, exppow, exponential, gaussian or mixture"

// expPowShape is b of an exponential power species (fixed for the
// exponential and Gaussian).
func expPowShape(s Species) float64 {
	switch s.Kernel {
	case Exponential:
		return 1
	case Gaussian:
		return 2
	}
	return s.B
}

// newFamilyKern prepares a kernel of the families in this file; s is valid.
func newFamilyKern(s Species) kern {
	switch s.Kernel {
	case TwoDt:
		return kern{kind: kTwoDt, p: s.P, u: s.U, invU: 1 / s.U, pp1: s.P + 1}
	case Mixture:
		// The components were validated with s.
		k1, _ := newKern(s.Mix.First)
		k2, _ := newKern(s.Mix.Second)
		w := s.Mix.W
		a, b := w/k1.eta, (1-w)/k2.eta
		return kern{kind: kMixture, mix: &mixKern{w: w, c1: a / (a + b), c2: b / (a + b), k1: k1, k2: k2}}
	}
	b := expPowShape(s)
	return kern{kind: kWeibull, d: math.Pow(s.A, -b), theta: b, halfTheta: b / 2}
}

// familyEta is the integral over the plane of the families' K, ok false
// for the Weibull and lognormal.
//
//	2Dt:               pi u / p
//	exponential power: 2 pi a^2 Gamma(2/b) / b
//	mixture:           1 / (w / eta1 + (1 - w) / eta2)
func familyEta(s Species) (float64, bool) {
	switch s.Kernel {
	case TwoDt:
		return math.Pi * s.U / s.P, true
	case ExpPower, Exponential, Gaussian:
		b := expPowShape(s)
		return 2 * math.Pi * s.A * s.A * math.Gamma(2/b) / b, true
	case Mixture:
		if s.Mix == nil {
			return math.NaN(), true
		}
		return 1 / (s.Mix.W/Eta(s.Mix.First) + (1-s.Mix.W)/Eta(s.Mix.Second)), true
	}
	return 0, false
}

// validateFamily checks the parameters of the families in this file.
func validateFamily(s Species, bad func(format string, args ...any) error) error {
	pos := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
	switch s.Kernel {
	case TwoDt:
		if !pos(s.P) || s.P > 1e6 {
			return bad("invalid p %g: want the 2Dt shape, above 0 (small p: a fat tail) and at most 1e6", s.P)
		}
		if !pos(s.U) {
			return bad("invalid u %g: want the 2Dt scale in m^2, above 0", s.U)
		}
	case ExpPower, Exponential, Gaussian:
		if !pos(s.A) {
			return bad("invalid a %g: want the %s kernel's scale in m, above 0", s.A, s.Kernel)
		}
		if b := expPowShape(s); !pos(b) || b < 0.1 || b > 20 {
			return bad("invalid b %g: want the exponential power shape in 0.1..20 (1 exponential, 2 Gaussian)", b)
		}
	case Mixture:
		m := s.Mix
		if m == nil {
			return bad("a mixture needs w, first and second")
		}
		if !(m.W > 0 && m.W < 1) {
			return bad("invalid w %g: want the first component's weight, strictly between 0 and 1", m.W)
		}
		for i, c := range []Species{m.First, m.Second} {
			which := [...]string{"first", "second"}[i]
			if c.Kernel == Mixture || c.Mix != nil {
				return bad("%s component: a mixture's components cannot be mixtures", which)
			}
			c.Name = s.Name + " (" + which + " component)"
			if err := c.Validate(); err != nil {
				return err
			}
		}
	}
	if eta := Eta(s); !pos(eta) {
		return bad("%s parameters give a kernel whose integral is %g", s.Kernel, eta)
	}
	return nil
}

// mixKern is a mixture's components: K = c1 K1 + c2 K2, c1 + c2 = 1; w is
// the first component's share of the seeds.
type mixKern struct {
	w, c1, c2 float64
	k1, k2    kern
}

// expo is -ln(c1 e^-e1 + c2 e^-e2), factored by the smaller exponent so
// that neither exponential underflows before the sum does.
func (m *mixKern) expo(d2 float64) float64 {
	e1, e2 := m.k1.expo(d2), m.k2.expo(d2)
	lo := math.Min(e1, e2)
	if math.IsInf(lo, 1) {
		return lo
	}
	return lo - math.Log(m.c1*math.Exp(lo-e1)+m.c2*math.Exp(lo-e2))
}

// radius is the farther of the components' radii: beyond it both are below
// e^-e, and so is their convex combination.
func (m *mixKern) radius(e float64) float64 {
	return math.Max(m.k1.radius(e), m.k2.radius(e))
}

// tailMass mixes the components' tails by their shares of the seeds.
func (m *mixKern) tailMass(r float64) float64 {
	return m.w*m.k1.tailMass(r) + (1-m.w)*m.k2.tailMass(r)
}
