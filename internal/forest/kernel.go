package forest

import (
	"fmt"
	"math"
)

// underflowExponent is where exp(-x) leaves the normal float64 range: a
// parent farther than the distance where the kernel's exponent reaches it
// adds nothing a float64 sum could hold, so skipping it changes no result
// (the exact method's only "cut-off").
const underflowExponent = 700.0

// supportExponent bounds the kernel for the FFT: beyond the distance where
// K < e^-40 (4e-18 of its peak) a parent's share is below float64 resolution
// of any cell that parent could matter to.
const supportExponent = 40.0

// kern is one species' kernel, prepared for evaluation: K(d) without the
// STR/eta factor, which the per-tree weights carry.
type kern struct {
	kind kernelID
	// Weibull: K = exp(-d * r^theta).
	d, theta, halfTheta float64
	// Lognormal: K = exp(-(ln r - lnX0)^2 * inv2xb2).
	x0, xb, lnX0, inv2xb2 float64
	// 2Dt: K = (1 + r^2/u)^-(p+1) = exp(-pp1 * log1p(r^2 invU)).
	p, u, invU, pp1 float64
	// mix is a mixture's components (kernels.go).
	mix *mixKern
	// eta is the kernel's integral over the plane.
	eta float64
}

// kernelID is a KernelKind resolved to a small integer for the
// hot loops.
type kernelID uint8

const (
	kWeibull kernelID = iota
	kLognormal
	kTwoDt
	kMixture
)

func newKern(s Species) (kern, error) {
	if err := s.Validate(); err != nil {
		return kern{}, err
	}
	var k kern
	switch s.Kernel {
	case Weibull, "":
		k = kern{kind: kWeibull, d: s.D, theta: s.Theta, halfTheta: s.Theta / 2}
	case Lognormal:
		k = kern{kind: kLognormal, x0: s.X0, xb: s.Xb, lnX0: math.Log(s.X0), inv2xb2: 1 / (2 * s.Xb * s.Xb)}
	default:
		k = newFamilyKern(s)
	}
	k.eta = Eta(s)
	return k, nil
}

// Eta is the integral of the species' kernel over the plane (m^2): the
// normalisation that makes a 30 cm parent put STR seeds on the plane.
//
//	Weibull:   2 pi Gamma(2/theta) / (theta D^(2/theta))
//	Lognormal: (2 pi)^(3/2) X0^2 Xb exp(2 Xb^2)
func Eta(s Species) float64 {
	if e, ok := familyEta(s); ok {
		return e
	}
	if s.Kernel == Lognormal {
		return math.Pow(2*math.Pi, 1.5) * s.X0 * s.X0 * s.Xb * math.Exp(2*s.Xb*s.Xb)
	}
	return 2 * math.Pi * math.Gamma(2/s.Theta) / (s.Theta * math.Pow(s.D, 2/s.Theta))
}

// Fecundity is a parent's seed production per year, STR (DBH/30)^beta; its
// density at distance r is Fecundity * K(r) / eta.
func Fecundity(s Species, dbh float64) float64 {
	if s.Beta == 2 {
		q := dbh / 30
		return s.STR * q * q
	}
	return s.STR * math.Pow(dbh/30, s.Beta)
}

// expo is -ln K at squared distance d2 (+Inf where K is 0).
func (k kern) expo(d2 float64) float64 {
	switch k.kind {
	case kTwoDt:
		return k.pp1 * math.Log1p(d2*k.invU)
	case kMixture:
		return k.mix.expo(d2)
	}
	if k.kind == kLognormal {
		if d2 <= 0 {
			return math.Inf(1)
		}
		u := 0.5*math.Log(d2) - k.lnX0
		return u * u * k.inv2xb2
	}
	switch k.theta {
	case 2:
		return k.d * d2
	case 3:
		return k.d * d2 * math.Sqrt(d2)
	case 1:
		return k.d * math.Sqrt(d2)
	case 4:
		return k.d * d2 * d2
	}
	if d2 <= 0 {
		return 0
	}
	return k.d * math.Pow(d2, k.halfTheta)
}

// expoLog is expo(d2) given lnd2 = ln(d2): the generic Weibull's power and
// the lognormal's logarithm from lnd2.
func (k kern) expoLog(d2, lnd2 float64) float64 {
	switch {
	case k.kind == kLognormal:
		if d2 <= 0 {
			return math.Inf(1)
		}
		u := 0.5*lnd2 - k.lnX0
		return u * u * k.inv2xb2
	case k.kind != kWeibull:
		return k.expo(d2)
	}
	switch k.theta {
	case 1, 2, 3, 4:
		return k.expo(d2)
	}
	if d2 <= 0 {
		return 0
	}
	x := k.halfTheta * lnd2
	if math.Abs(x) <= 700 {
		return k.d * fastExp(x)
	}
	return k.d * math.Exp(x)
}

// at is K at squared distance d2, with math.Exp (the reference).
func (k kern) at(d2 float64) float64 { return math.Exp(-k.expo(d2)) }

// maxRadius caps radius: flat kernels (theta 0.1, D 1e-30) reach farther
// than any plot, and the callers turn radii into cell counts.
const maxRadius = 1e9

// radius is the distance beyond which the kernel's exponent exceeds e (on
// the far side of the lognormal's peak), at most maxRadius.
func (k kern) radius(e float64) float64 {
	var r float64
	switch k.kind {
	case kTwoDt:
		r = math.Sqrt(k.u * math.Expm1(e/k.pp1))
	case kMixture:
		r = k.mix.radius(e)
	case kLognormal:
		r = k.x0 * math.Exp(k.xb*math.Sqrt(2*e))
	default:
		r = math.Pow(e/k.d, 1/k.theta)
	}
	if !(r < maxRadius) {
		return maxRadius
	}
	return r
}

// tailMass is the fraction of a parent's seeds that land farther than r.
func (k kern) tailMass(r float64) float64 {
	if r <= 0 {
		return 1
	}
	switch k.kind {
	case kTwoDt:
		return math.Exp(-k.p * math.Log1p(r*r*k.invU))
	case kMixture:
		return k.mix.tailMass(r)
	}
	if k.kind == kLognormal {
		// With u = ln r, the mass density in u is Gaussian with mean
		// ln X0 + 2 Xb^2 and standard deviation Xb.
		z := (math.Log(r) - k.lnX0 - 2*k.xb*k.xb) / (k.xb * math.Sqrt2)
		return 0.5 * math.Erfc(z)
	}
	// The mass beyond r is the regularised upper incomplete gamma
	// Q(2/theta, D r^theta).
	return gammaQ(2/k.theta, k.d*math.Pow(r, k.theta))
}

// clusterDistance is the paper's clustering threshold for a species: the
// distance where D d^theta reaches 8.3 (40 m for subalpine fir, 60 m for
// trembling aspen), or for the lognormal where its far side falls as low.
func (k kern) clusterDistance() float64 { return k.radius(8.3) }

// gammaQ is the regularised upper incomplete gamma function Q(a, x) for
// a > 0, x >= 0 (series below a+1, continued fraction above).
func gammaQ(a, x float64) float64 {
	switch {
	case x <= 0:
		return 1
	case math.IsInf(x, 1):
		return 0
	}
	lg, _ := math.Lgamma(a)
	front := math.Exp(-x + a*math.Log(x) - lg)
	if x < a+1 {
		sum, term := 1/a, 1/a
		for n := 1; n < 1000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if math.Abs(term) < math.Abs(sum)*1e-17 {
				break
			}
		}
		return math.Max(0, 1-sum*front)
	}
	// Lentz's continued fraction.
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 1000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return front * h
}

// Validate checks a species' parameters.
func (s Species) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("species %q: "+format, append([]any{s.Name}, args...)...)
	}
	pos := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
	switch {
	case !(s.STR >= 0) || math.IsInf(s.STR, 0):
		return bad("invalid str %g: want recruits per year from a 30 cm parent, 0 or more", s.STR)
	case math.IsNaN(s.Beta) || math.IsInf(s.Beta, 0) || math.Abs(s.Beta) > 20:
		return bad("invalid beta %g: want a fecundity exponent in -20..20", s.Beta)
	case !(s.MinDBH >= 0) || math.IsInf(s.MinDBH, 0):
		return bad("invalid min_dbh %g: want cm, 0 or more", s.MinDBH)
	case !(s.Clumping >= 0) || math.IsInf(s.Clumping, 0):
		return bad("invalid clumping %g: want the negative binomial's k, above 0 (0: Poisson counts)", s.Clumping)
	}
	switch s.Kernel {
	case Weibull, "":
		if !pos(s.D) {
			return bad("invalid d %g: want a positive Weibull dispersal parameter (D, called U in the paper)", s.D)
		}
		if !pos(s.Theta) || s.Theta < 0.1 || s.Theta > 20 {
			return bad("invalid theta %g: want a Weibull shape in 0.1..20", s.Theta)
		}
		if eta := Eta(s); !pos(eta) {
			return bad("d %g and theta %g give a kernel whose integral is %g", s.D, s.Theta, eta)
		}
	case Lognormal:
		if !pos(s.X0) {
			return bad("invalid x0 %g: want the lognormal's median distance in m, above 0", s.X0)
		}
		if !pos(s.Xb) || s.Xb > 10 {
			return bad("invalid xb %g: want the lognormal's spread in 0..10", s.Xb)
		}
		if eta := Eta(s); !pos(eta) {
			return bad("x0 %g and xb %g give a kernel whose integral is %g", s.X0, s.Xb, eta)
		}
	case TwoDt, ExpPower, Exponential, Gaussian, Mixture:
		return validateFamily(s, bad)
	default:
		return bad("unknown kernel %q: want %s", s.Kernel, kernelNames)
	}
	return nil
}
