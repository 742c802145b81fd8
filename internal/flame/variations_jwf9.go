package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The ninth set of plugin variations, the most used ones the artists'
// corpus still lacked (issue 32): JWildfire's acosh, acosech and acoth
// (Whittaker Courtney's, on JWildfire's Complex arithmetic: jwfcomplex.go),
// foci_3D, bi_linear, linearT3D, murl, shredlin, target, butterfly3D,
// barycentroid, bTransform, glynnSim1, hypertile and truchet
// (variations_jwf9_truchet.go); and Fractorium's Mobius and bwraps, which
// Fractorium files use under those names (Mobius is the Möbius map of
// JWildfire's mobius with Fractorium's parameter names; bwraps is
// JWildfire's bwraps7). foci_3D, linearT3D and butterfly3D write z; the
// others are 2D, as in variations_jwf.go. shredlin replaces the sum, as
// JWildfire's assigns its output.
//
// Random draws (u = Float64), each unconditional:
//
//	acosh, acosech u1: u1 < ½ keeps the sign, else negates the point
//	bTransform     u1: branch k = floor(u1·power)
//	glynnSim1      u1 u2 u3: inside the radius the circle's radius and
//	               angle from u1, u2; outside, u1 against the contrast and
//	               u2, u3 for a point of the small circle where one is drawn
//	               (JWildfire draws only those it uses, in this order)

// jwf9DefaultParams sets JWildfire's (Fractorium's for Mobius, bwraps)
// defaults for these variations.
func jwf9DefaultParams(p *Params) {
	p[PMobiusFrReA], p[PMobiusFrReD] = 1, 1
	p[PBwrapsCellsize], p[PBwrapsGain] = 1, 1
	p[PLinearT3DPowX], p[PLinearT3DPowY], p[PLinearT3DPowZ] = 1.35, 0.85, 1.15
	p[PMurlC], p[PMurlPower] = 0.1, 1
	p[PShredlinXdistance], p[PShredlinXwidth], p[PShredlinYdistance], p[PShredlinYwidth] = 1, 0.5, 1, 0.5
	// target's defaults are random in JWildfire (even and odd in
	// [π, π+1), size in [0.5, 1.25)); the middles here. Its files set them.
	p[PTargetEven], p[PTargetOdd], p[PTargetSize] = math.Pi+0.5, math.Pi+0.5, 0.875
	p[PBarycentroidA], p[PBarycentroidD] = 1, 1
	p[PBTransformPower] = 1
	p[PGlynnSim1Radius], p[PGlynnSim1Radius1], p[PGlynnSim1Phi1] = 1, 0.1, 110
	p[PGlynnSim1Thickness], p[PGlynnSim1Pow], p[PGlynnSim1Contrast] = 0.1, 1.5, 0.5
	p[PHypertileP], p[PHypertileQ], p[PHypertileN] = 3, 7, 1
	p[PTruchetExponent], p[PTruchetArcWidth], p[PTruchetSize], p[PTruchetSeed] = 2, 0.5, 1, 50
	jwf9bDefaultParams(p)
}

// unhonouredParam9 is unhonouredParam for these variations.
func unhonouredParam9(id VarID, p *Params) string {
	if id == VarTruchet && ftoi(p[PTruchetDirectColor]) == 1 { // sets the colour from the arc
		return "truchet_direct_color"
	}
	if id == VarSpirograph3D && ftoi(p[PSpirograph3DDirectColor]) != 0 { // colour from t
		return "spirograph3D_direct_color"
	}
	return unhonouredParam9h(id, p)
}

// applyJWF9 adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF9(id VarID, w float64, r *rng.Stream) {
	p := s.p
	switch id {
	case VarAcosh:
		re, im := jcAcosh(s.tx, s.ty)
		s.addRandomSign(w*2/math.Pi, re, im, r)
	case VarAcosech:
		re, im := jcAcosh(jcRecip(s.tx, s.ty))
		s.addRandomSign(w*2/math.Pi, im, re, r) // flipped
	case VarAcoth:
		re, im := jcAtanh(jcRecip(s.tx, s.ty))
		s.px += w * 2 / math.Pi * im // flipped
		s.py += w * 2 / math.Pi * re
	case VarFoci3D:
		s.foci3D(w)
	case VarMobiusFr:
		s.mobiusFr(w)
	case VarBwraps:
		s.bwraps(w)
	case VarBiLinear:
		s.px += w * s.ty
		s.py += w * s.tx
	case VarLinearT3D:
		sg := func(v float64) float64 { // JWildfire's: 0 counts as negative
			if v > 0 {
				return 1
			}
			return -1
		}
		s.px += sg(s.tx) * math.Pow(math.Abs(s.tx), p[PLinearT3DPowX]) * w
		s.py += sg(s.ty) * math.Pow(math.Abs(s.ty), p[PLinearT3DPowY]) * w
		s.pz += sg(s.tz) * math.Pow(math.Abs(s.tz), p[PLinearT3DPowZ]) * w
	case VarMurl:
		s.murl(w)
	case VarShredlin:
		s.shredlin(w)
	case VarTarget:
		s.target(w)
	case VarButterfly3D: // w·4/√(3π)
		wx := w * 1.3029400317411197908970256609023
		y2 := s.ty * 2
		rr := wx * math.Sqrt(math.Abs(s.ty*s.tx)/(1e-300+s.tx*s.tx+y2*y2))
		s.px += rr * s.tx
		s.py += rr * y2
		s.pz += rr * math.Abs(y2) * s.sqrt / 4
	case VarBarycentroid:
		s.barycentroid(w)
	case VarBTransform:
		s.bTransform(w, r)
	case VarGlynnSim1:
		s.glynnSim1(w, r)
	case VarHypertile:
		s.hypertile(w)
	case VarTruchet:
		s.truchet(w)
	}
}

// addRandomSign adds k·(x, y) or its negation, as u < ½ or not.
func (s *varState) addRandomSign(k, x, y float64, r *rng.Stream) {
	if r.Float64() >= 0.5 {
		k = -k
	}
	s.px += k * x
	s.py += k * y
}

// foci3D: Larry Berlin's foci in 3D; a z of exactly 0 takes the point's
// angle instead, as JWildfire's.
func (s *varState) foci3D(w float64) {
	expx := math.Exp(s.tx) * 0.5
	expnx := 0.25 / expx
	boot := s.tz
	if boot == 0 {
		boot = math.Atan2(s.ty, s.tx)
	}
	sy, cy := math.Sincos(s.ty)
	sz, cz := math.Sincos(boot)
	k := w / (expx + expnx - cy*cz)
	s.px += (expx - expnx) * k
	s.py += sy * k
	s.pz += sz * k
}

// mobiusFr: Fractorium's Mobius, (a·z + b)/(c·z + d) with complex a..d; a
// zero denominator becomes the float64 epsilon, as Fractorium's Zeps.
func (s *varState) mobiusFr(w float64) {
	p := s.p
	x, y := s.tx, s.ty
	uRe := p[PMobiusFrReA]*x - p[PMobiusFrImA]*y + p[PMobiusFrReB]
	uIm := p[PMobiusFrReA]*y + p[PMobiusFrImA]*x + p[PMobiusFrImB]
	vRe := p[PMobiusFrReC]*x - p[PMobiusFrImC]*y + p[PMobiusFrReD]
	vIm := p[PMobiusFrReC]*y + p[PMobiusFrImC]*x + p[PMobiusFrImD]
	d := zeps(vRe*vRe + vIm*vIm)
	s.px += w * (uRe*vRe + uIm*vIm) / d
	s.py += w * (uIm*vRe - uRe*vIm) / d
}

// zeps is Fractorium's Zeps: 0 becomes the float64 epsilon.
func zeps(v float64) float64 {
	if v == 0 {
		return 0x1p-52
	}
	return v
}

// bwraps: Fractorium's bwraps, bwraps7's bubbles (variations_jwf2.go) with
// the bubble constants worked out per point from its own parameters.
func (s *varState) bwraps(w float64) {
	p := s.p
	cs := p[PBwrapsCellsize]
	vx, vy := s.tx, s.ty
	if cs == 0 {
		s.px += w * vx
		s.py += w * vy
		return
	}
	sp, g := p[PBwrapsSpace], p[PBwrapsGain]
	radius := 0.5 * (cs / (1 + sp*sp))
	g2 := g*g + 1e-6
	mb := g2 * radius
	if mb > 2 {
		mb = 1
	} else {
		mb *= 1 / (mb*mb/4 + 1)
	}
	r2 := zeps(radius * radius)
	cx := (math.Floor(vx/cs) + 0.5) * cs
	cy := (math.Floor(vy/cs) + 0.5) * cs
	lx, ly := vx-cx, vy-cy
	if lx*lx+ly*ly > r2 {
		s.px += w * vx
		s.py += w * vy
		return
	}
	lx *= g2
	ly *= g2
	k := radius / mb / zeps((lx*lx+ly*ly)/4+1)
	lx *= k
	ly *= k
	f := (lx*lx + ly*ly) / r2
	sn, c := math.Sincos(p[PBwrapsInnerTwist]*(1-f) + p[PBwrapsOuterTwist]*f)
	s.px += w * (cx + c*lx + sn*ly)
	s.py += w * (cy - sn*lx + c*ly)
}

// murl: Michael Faber's murl; the power is truncated to an integer, as
// JWildfire's setParameter does.
func (s *varState) murl(w float64) {
	p := s.p
	power := math.Trunc(p[PMurlPower])
	c := p[PMurlC]
	if power != 1 {
		c /= power - 1
	}
	vp := w * (c + 1)
	sa, ca := math.Sincos(math.Atan2(s.ty, s.tx) * power)
	rr := c * math.Pow(s.sumsq, power/2)
	re, im := rr*ca+1, rr*sa
	rl := vp / (re*re + im*im)
	s.px += rl * (s.tx*re + s.ty*im)
	s.py += rl * (s.ty*re - s.tx*im)
}

// shredlin: Zy0rg's shredlin, each unit strip (of the distances) narrowed
// to its width about its middle. It replaces the sum, as JWildfire's.
func (s *varState) shredlin(w float64) {
	p := s.p
	shred := func(v, dist, width float64) float64 {
		pos := 0.0
		if v < 0 {
			pos = 1
		}
		rr := v / dist
		return w * dist * ((rr-math.Trunc(rr))*width + math.Trunc(rr) + (0.5-pos)*(1-width))
	}
	s.px = shred(s.tx, p[PShredlinXdistance], p[PShredlinXwidth])
	s.py = shred(s.ty, p[PShredlinYdistance], p[PShredlinYwidth])
}

// target: Michael Faber's target, rings of log-radius width size turned
// alternately by even and odd. The weight is not applied, as in
// JWildfire's.
func (s *varState) target(w float64) {
	p := s.p
	_ = w
	a := math.Atan2(s.ty, s.tx)
	rr := s.sqrt
	t := math.Log(rr)
	half := 0.5 * p[PTargetSize]
	if t < 0 {
		t -= half
	}
	t = math.Mod(math.Abs(t), p[PTargetSize])
	if t < half {
		a += p[PTargetEven]
	} else {
		a += p[PTargetOdd]
	}
	sn, cs := math.Sincos(a)
	s.px += rr * cs
	s.py += rr * sn
}

// barycentroid: Xyrus02's barycentroid, the point's barycentric
// coordinates (u, v) on the vectors (a, b), (c, d), each lengthened by the
// matching input coordinate.
func (s *varState) barycentroid(w float64) {
	p := s.p
	a, b, c, d := p[PBarycentroidA], p[PBarycentroidB], p[PBarycentroidC], p[PBarycentroidD]
	dot00, dot01, dot11 := a*a+b*b, a*c+b*d, c*c+d*d
	dot02, dot12 := a*s.tx+b*s.ty, c*s.tx+d*s.ty
	inv := 1 / (dot00*dot11 - dot01*dot01)
	u := (dot11*dot02 - dot01*dot12) * inv
	v := (dot00*dot12 - dot01*dot02) * inv
	sgn := func(v float64) float64 {
		switch {
		case v < 0:
			return -1
		case v > 0:
			return 1
		}
		return 0
	}
	s.px += w * math.Sqrt(u*u+s.tx*s.tx) * sgn(u)
	s.py += w * math.Sqrt(v*v+s.ty*s.ty) * sgn(v)
}

// bTransform: Michael Faber's bTransform in bipolar coordinates; the power
// is rounded to an integer of at least 1, as JWildfire's setParameter does.
func (s *varState) bTransform(w float64, r *rng.Stream) {
	p := s.p
	power := max(ftoi(p[PBTransformPower]), 1)
	x, y := s.tx, s.ty
	tau := 0.5*(math.Log((x+1)*(x+1)+y*y)-math.Log((x-1)*(x-1)+y*y))/power + p[PBTransformMove]
	sigma := math.Pi - math.Atan2(y, x+1) - math.Atan2(y, 1-x) + p[PBTransformRotate]
	sigma = sigma/power + 2*math.Pi/power*math.Floor(r.Float64()*power)
	if x >= 0 {
		tau += p[PBTransformSplit]
	} else {
		tau -= p[PBTransformSplit]
	}
	sn, cs := math.Sincos(sigma)
	d := math.Cosh(tau) - cs
	s.px += w * math.Sinh(tau) / d
	s.py += w * sn / d
}

// glynnSim1: eralex61's GlynnSim1, a circle inversion (by a share that
// falls with the distance) with a small ring of points at angle phi1.
func (s *varState) glynnSim1(w float64, r *rng.Stream) {
	p := s.p
	radius, r1 := p[PGlynnSim1Radius], p[PGlynnSim1Radius1]
	thick := min(max(p[PGlynnSim1Thickness], 0), 1)
	contrast := min(max(p[PGlynnSim1Contrast], 0), 1)
	sp, cp := math.Sincos(math.Pi * p[PGlynnSim1Phi1] / 180)
	x1, y1 := radius*cp, radius*sp
	u1, u2, u3 := r.Float64(), r.Float64(), r.Float64()
	circle := func(ur, ua float64) {
		rr := r1 * (thick + (1-thick)*ur)
		sn, cs := math.Sincos(2 * math.Pi * ua)
		s.px += w * (rr*cs + x1)
		s.py += w * (rr*sn + y1)
	}
	rr := s.sqrt
	if rr < radius {
		circle(u1, u2)
		return
	}
	alpha := radius / rr
	x, y := s.tx, s.ty
	if u1 <= contrast*math.Pow(alpha, math.Abs(p[PGlynnSim1Pow])) {
		x, y = alpha*alpha*x, alpha*alpha*y
	}
	if (x-x1)*(x-x1)+(y-y1)*(y-y1) < r1*r1 {
		circle(u2, u3)
		return
	}
	s.px += w * x
	s.py += w * y
}

// hypertile: Zueuk's hypertile, one Möbius step of the hyperbolic {p, q}
// tiling turned n tiles; p, q (at least 3) and n (at least 0) rounded as
// JWildfire's setParameter does.
func (s *varState) hypertile(w float64) {
	p := s.p
	pa := 2 * math.Pi / max(ftoi(p[PHypertileP]), 3)
	qa := 2 * math.Pi / max(ftoi(p[PHypertileQ]), 3)
	rr := (1-math.Cos(pa))/(math.Cos(pa)+math.Cos(qa)) + 1
	if rr > 0 {
		rr = 1 / math.Sqrt(rr)
	} else {
		rr = 1
	}
	sn, cs := math.Sincos(max(ftoi(p[PHypertileN]), 0) * pa)
	re, im := rr*cs, rr*sn
	a, b := s.tx+re, s.ty-im
	c := re*s.tx - im*s.ty + 1
	d := re*s.ty + im*s.tx
	vr := w / (c*c + d*d)
	s.px += vr * (a*c + b*d)
	s.py += vr * (b*c - a*d)
}
