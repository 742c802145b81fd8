package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// More of the ninth set: JWildfire's glynnSim2, d_spherical, minkowskope,
// circlesplit, eJulia, circlize2, cpow3_wf, spirograph3D (writes z) and
// chunk (adds the point unweighted inside or outside a conic, nothing
// elsewhere, as JWildfire's).
//
// Random draws (u = Float64), each unconditional:
//
//	glynnSim2    u1 u2: inside the radius the ring's radius and angle;
//	             outside u1 against the contrast (JWildfire draws one then)
//	d_spherical  u1: spherical where u1 < d_spher_weight, else linear
//	eJulia       u1: branch k = floor(u1·power)
//	cpow3_wf     u1 u2 u3: spread branch, the spread test, the angle factor
//	spirograph3D u1..u13: t from u1, then the widths' draws as the mode
//	             takes them (mode 0, 1, 4: one; 2: three; 3: twelve;
//	             JWildfire draws only those)

// jwf9cDefaultParams sets JWildfire's defaults for these variations.
func jwf9cDefaultParams(p *Params) {
	p[PGlynnSim2Radius], p[PGlynnSim2Thickness], p[PGlynnSim2Contrast] = 1, 0.1, 0.5
	p[PGlynnSim2Pow], p[PGlynnSim2Phi1], p[PGlynnSim2Phi2] = 1.5, 110, 150
	p[PDSphericalDSpherWeight] = 0.5
	p[PMinkowskopeSeparation], p[PMinkowskopeFrequencyx], p[PMinkowskopeFrequencyy] = 0.5, -2, 2
	p[PMinkowskopeAmplitude], p[PMinkowskopePerturbation] = 0.5, 1
	p[PCirclesplitCsRadius], p[PCirclesplitCsSplit] = 1, 0.5
	p[PEJuliaPower] = 2
	p[PCpow3WfR], p[PCpow3WfA], p[PCpow3WfDivisor], p[PCpow3WfSpread] = 1, 0.1, 1, 1
	p[PCpow3WfDiscreteSpread], p[PCpow3WfOffset2] = 1, 1
	p[PSpirograph3DA], p[PSpirograph3DB], p[PSpirograph3DC], p[PSpirograph3DTmax] = 1, -0.3, 0.4, 1000
	p[PChunkA], p[PChunkC], p[PChunkF] = 1, 1, -1
	jwf9dDefaultParams(p)
}

// applyJWF9c adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF9c(id VarID, w float64, r *rng.Stream) {
	p := s.p
	x, y := s.tx, s.ty
	switch id {
	case VarGlynnSim2:
		s.glynnSim2(w, r)
	case VarDSpherical:
		k := w
		if r.Float64() < p[PDSphericalDSpherWeight] {
			k = w / (x*x + y*y)
		}
		s.px += x * k
		s.py += y * k
	case VarMinkowskope:
		s.minkowskope(w)
	case VarCirclesplit:
		if rr := s.sqrt; rr >= p[PCirclesplitCsRadius]-p[PCirclesplitCsSplit] {
			sn, cs := math.Sincos(math.Atan2(y, x))
			x, y = cs*(rr+p[PCirclesplitCsSplit]), sn*(rr+p[PCirclesplitCsSplit])
		}
		s.px += w * x
		s.py += w * y
	case VarEJulia:
		s.eJulia(w, r)
	case VarCirclize2:
		s.circlize2(w)
	case VarCpow3Wf:
		s.cpow3Wf(w, r)
	case VarSpirograph3D:
		s.spirograph3D(w, r)
	case VarChunk:
		v := w*p[PChunkA]*x*x + w*p[PChunkB]*x*y + w*p[PChunkC]*y*y + w*p[PChunkD]*x + w*p[PChunkE]*y + w*p[PChunkF]
		if (v <= 0) == (min(max(ftoi(p[PChunkMode]), 0), 1) == 0) {
			s.px += x
			s.py += y
		}
	}
}

// glynnSim2: eralex61's GlynnSim2, a partial circle inversion with a ring
// sector (between phi1 and phi2 degrees) for the points inside the radius.
func (s *varState) glynnSim2(w float64, r *rng.Stream) {
	p := s.p
	radius := p[PGlynnSim2Radius]
	thick := min(max(p[PGlynnSim2Thickness], 0), 1)
	contrast := min(max(p[PGlynnSim2Contrast], 0), 1)
	u1, u2 := r.Float64(), r.Float64()
	rr := s.sqrt
	if rr < radius {
		gamma := thick * (2*radius + thick) / (radius + thick)
		phi10 := math.Pi * p[PGlynnSim2Phi1] / 180
		phi := phi10 + (math.Pi*p[PGlynnSim2Phi2]/180-phi10)*u2
		rc := radius + thick - gamma*u1
		sn, cs := math.Sincos(phi)
		s.px += w * rc * cs
		s.py += w * rc * sn
		return
	}
	alpha := radius / rr
	k := w
	if u1 <= contrast*math.Pow(alpha, math.Abs(p[PGlynnSim2Pow])) {
		k = w * alpha * alpha
	}
	s.px += k * s.tx
	s.py += k * s.ty
}

// minkowskope: DarkBeam's oscilloscope on Minkowski's question-mark
// function made periodic; a frequencyx ≤ 0 uses the question mark minus
// the sawtooth.
func (s *varState) minkowskope(w float64) {
	p := s.p
	x, y := s.tx, s.ty
	alt := p[PMinkowskopeFrequencyx] <= 0
	pt := p[PMinkowskopePerturbation] * minkosine(0.5*p[PMinkowskopeFrequencyy]*y, alt)
	t := p[PMinkowskopeAmplitude] * minkosine(0.5*p[PMinkowskopeFrequencyx]*x+pt-1, alt)
	if d := p[PMinkowskopeDamping]; math.Abs(d) > 1e-8 {
		t = p[PMinkowskopeAmplitude] * math.Exp(-math.Abs(x)*d) * minkosine(0.5*p[PMinkowskopeFrequencyx]*x+pt-1, alt)
	}
	t += p[PMinkowskopeSeparation]
	if math.Abs(y) <= t {
		w = -w
	}
	s.px += w * x
	s.py += w * y
}

// minkosine is minkowskope's wave: the question mark over a sawtooth of
// period 2, its sign flipping every 2 (and for negative x).
func minkosine(x float64, alt bool) float64 {
	lp := math.Mod(math.Abs(x), 4)
	ph := math.Mod(math.Abs(x), 2)
	if ph > 1 {
		ph = 2 - ph
	}
	m := minkowskiQ(ph)
	if alt {
		m -= ph
	}
	if (lp < 2) != (x > 0) {
		return m
	}
	return -m
}

// minkowskiQ is Minkowski's question mark on [0, 1] by 20 steps of the
// Stern–Brocot search, as JWildfire's.
func minkowskiQ(x float64) float64 {
	p, q, r, s := 0.0, 1.0, 1.0, 1.0
	d, y := 1.0, 0.0
	for range 20 {
		d *= 0.5
		m, n := p+r, q+s
		if x < m/n {
			r, s = m, n
		} else {
			y += d
			p, q = m, n
		}
	}
	return y + d
}

// eJulia: Michael Faber's eJulia, julia's root in elliptic coordinates;
// the power is rounded as JWildfire's FTOI; a negative one inverts first.
func (s *varState) eJulia(w float64, r *rng.Stream) {
	power := ftoi(s.p[PEJuliaPower])
	r2 := s.ty*s.ty + s.tx*s.tx
	x := s.tx
	if power < 0 {
		r2 = 1 / r2
		x *= r2
	}
	mu, nu := elliptic(x, r2+1, s.ty < 0)
	nu = nu/power + 2*math.Pi/power*math.Floor(r.Float64()*power)
	mu /= power
	sn, cs := math.Sincos(nu)
	s.px += w * math.Cosh(mu) * cs
	s.py += w * math.Sinh(mu) * sn
}

// circlize2: the square rings about the origin wrapped onto circles (plus
// hole).
func (s *varState) circlize2(w float64) {
	side, perim := squareRing(s.tx, s.ty)
	rr := w * (side + s.p[PCirclize2Hole])
	sn, cs := math.Sincos(math.Pi/4*perim/side - math.Pi/4)
	s.px += rr * cs
	s.py += rr * sn
}

// cpow3Wf: Cozyg's cpow3_wf, a complex power with a spread of branches;
// its angle is the product of the factors as JWildfire writes it.
func (s *varState) cpow3Wf(w float64, r *rng.Stream) {
	p := s.p
	div, spread := p[PCpow3WfDivisor], p[PCpow3WfSpread]
	ang := 2 * math.Pi / div
	c := p[PCpow3WfR] * math.Cos(math.Pi/2*p[PCpow3WfA]) / div
	d := p[PCpow3WfR] * math.Sin(math.Pi/2*p[PCpow3WfA]) / div
	ai := math.Atan2(s.ty, s.tx)
	n := r.Float64() * spread
	if p[PCpow3WfDiscreteSpread] >= 1 {
		n = math.Trunc(n) // Java's (int)
	}
	if ai < 0 {
		n++
	}
	ai += 2 * math.Pi * n
	if math.Cos(ai*(0.5/spread)) < r.Float64()*2-1 {
		ai -= 2 * math.Pi * spread
	}
	lnr2 := math.Log(s.sumsq)
	ri := w * math.Exp(c/2*lnr2-d*ai)
	a2 := c * ai * (d / 2) * lnr2 * ang * (r.Float64()*p[PCpow3WfSpread2] + p[PCpow3WfOffset2])
	s.px += ri * math.Cos(a2)
	s.py += ri * math.Sin(a2)
}

// spirograph3D: a spirograph curve lifted into z, thickened by the mode's
// widths; direct_color (colour from t) is reported as not honoured.
func (s *varState) spirograph3D(w float64, r *rng.Stream) {
	p := s.p
	var u [13]float64
	for k := range u {
		u[k] = r.Float64()
	}
	t := (p[PSpirograph3DTmax]-p[PSpirograph3DTmin])*u[0] + p[PSpirograph3DTmin]
	width := p[PSpirograph3DWidth]
	var w1, w2, w3 float64
	switch min(max(ftoi(p[PSpirograph3DMode]), 0), 4) {
	case 0:
		w1 = width*u[1] - width/2
		w2, w3 = w1, w1
	case 1:
		w1 = width*u[1] - width/2
		w2 = w1 * math.Sin(36*t+2*math.Pi/3)
		w3 = w1 * math.Sin(36*t+2*2*math.Pi/3)
		w1 *= math.Sin(36 * t)
	case 2:
		w1, w2, w3 = width*u[1]-width/2, width*u[2]-width/2, width*u[3]-width/2
	case 3:
		g := func(k int) float64 { return width * (u[k] + u[k+1] + u[k+2] + u[k+3] - 2) / 2 }
		w1, w2, w3 = g(1), g(5), g(9)
	case 4:
		w1 = -width
		if u[1] < 0.5 {
			w1 = width
		}
	}
	a, b, c := p[PSpirograph3DA], p[PSpirograph3DB], p[PSpirograph3DC]
	k := (a + b) / b * t
	s.px += w * ((a+b)*math.Cos(t) - c*math.Cos(k) + w1)
	s.py += w * ((a+b)*math.Sin(t) - c*math.Sin(k) + w2)
	s.pz += w * (c*math.Sin(k) + w3)
}

// elliptic is Michael Faber's elliptic coordinates (mu, nu) of a point at
// x whose x^2 + y^2 + 1 is t (apart, so that eJulia can invert the point
// first), nu negative where y is: the conversion eJulia, eScale and
// eMotion share, with JWildfire's clamps and its acosh.
func elliptic(x, t float64, yNeg bool) (mu, nu float64) {
	safe := func(v float64) float64 {
		if v <= 0 {
			return 0
		}
		return math.Sqrt(v)
	}
	xmax := max((safe(t+2*x)+safe(t-2*x))*0.5, 1)
	mu = math.Log(math.Sqrt(math.Pow(xmax, 2)-1) + xmax) // JWildfire's acosh
	nu = math.Acos(min(max(x/xmax, -1), 1))
	if yNeg {
		nu = -nu
	}
	return mu, nu
}
