package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// More of JWildfire's plugin variations (see variations_jwf.go for the
// conventions).
//
// Random draws (u = Float64):
//
//	spirograph u1 u2: the curve parameter t from u1, the offset y from u2
//	cannabiscurve_wf, cloverleaf_wf
//	           u1 u2: the radius is scaled by u2 when u1 < filled (JWildfire
//	                  draws u2 only then, and u1 only where filled > 0)
//	epispiral  u1   : the thickness spread (drawn only where thickness is
//	                  not 0 in JWildfire)
//	yin_yang   u1   : the other half when u1 > 0.5 (drawn only inside the
//	                  unit circle with dual_t 1 in JWildfire)
//	juliaq     u1   : root k = trunc(u1·(2³¹−1)), turned by k·2π/power

// jwf3DefaultParams sets JWildfire's defaults for these variations.
func jwf3DefaultParams(p *Params) {
	p[PWaves4WfScalex], p[PWaves4WfScaley] = 0.25, 0.5
	p[PWaves4WfFreqx], p[PWaves4WfFreqy] = math.Pi/2, math.Pi/4
	p[PWaves4WfUseCosX] = 1
	p[PSpirographA], p[PSpirographB] = 3, 2
	p[PSpirographTmin], p[PSpirographTmax] = -1, 1
	p[PSpirographYmin], p[PSpirographYmax] = -1, 1
	p[PCannabiscurveWfFilled], p[PCloverleafWfFilled] = 0.85, 0.85
	p[PEpispiralN], p[PEpispiralHoles] = 6, 1
	p[PYinYangRadius], p[PYinYangDualT] = 0.5, 1
	// juliaq's power is random in JWildfire when unset (every file it
	// writes sets it): 3 here.
	p[PJuliaqPower], p[PJuliaqDivisor] = 3, 2
	p[PWaves23Scalex], p[PWaves23Scaley], p[PWaves23Freqx], p[PWaves23Freqy] = 0.05, 0.05, 7, 13
	p[PLinearTPowX], p[PLinearTPowY] = 1.2, 0.9
	p[PBlurZoomLength], p[PBlurZoomX], p[PBlurZoomY] = 0.24, 0.2, -0.1
	p[PBlurLinearLength], p[PBlurLinearAngle] = 1, 0.5
	p[PWaves2RadialScalex], p[PWaves2RadialScaley], p[PWaves2RadialFreqx], p[PWaves2RadialFreqy] = 0.1, 0.1, 7, 13
	p[PWaves2RadialNull], p[PWaves2RadialDistance] = 2, 10
	p[PWaves2WfScalex], p[PWaves2WfScaley] = 0.25, 0.5
	p[PWaves2WfFreqx], p[PWaves2WfFreqy] = math.Pi/2, math.Pi/4
	p[PWaves2WfUseCosX] = 1
	p[PTileLogSpread] = 1
	p[PStarblurPower], p[PStarblurRange] = 5, 0.40162283177245455973959534526548
	p[PBubble2X], p[PBubble2Y] = 1, 1
	p[PWaffleSlices], p[PWaffleXthickness], p[PWaffleYthickness] = 6, 0.5, 0.5
	jwf5DefaultParams(p)
}

// jwf3Precalc derives what JWildfire's init computes.
func jwf3Precalc(p *Params) {
	damp := func(v float64) float64 { // a damping of (nearly) 0 is none
		if math.Abs(v) < 1e-8 {
			return 1
		}
		return math.Exp(v)
	}
	p[PWaves4WfDampingX] = damp(p[PWaves4WfDampx])
	p[PWaves4WfDampingY] = damp(p[PWaves4WfDampy])
	p[PWaves2WfDampingX] = damp(p[PWaves2WfDampx])
	p[PWaves2WfDampingY] = damp(p[PWaves2WfDampy])
	// starblur's star: the angle of a point's half-spike and its length.
	alpha := math.Pi / ftoi(p[PStarblurPower])
	rg := p[PStarblurRange]
	ln := math.Sqrt(1 + rg*rg - 2*rg*math.Cos(alpha))
	p[PStarblurAlpha] = math.Asin(math.Sin(alpha) * rg / ln)
	p[PStarblurLength] = ln
	// poincare3D's centre from its radius and two angles (quarter turns).
	r := p[PPoincare3DR]
	sa, ca := math.Sincos(p[PPoincare3DA] * math.Pi / 2)
	sb, cb := math.Sincos(p[PPoincare3DB] * math.Pi / 2)
	cx, cy, cz := -r*ca*cb, r*sa*cb, -r*sb
	p[PPoincare3DCx], p[PPoincare3DCy], p[PPoincare3DCz] = cx, cy, cz
	p[PPoincare3DC2] = cx*cx + cy*cy + cz*cz
	p[PPoincare3DS2x] = cx*cx - cy*cy - cz*cz + 1
	p[PPoincare3DS2y] = cy*cy - cx*cx - cz*cz + 1
	p[PPoincare3DS2z] = cz*cz - cy*cy - cx*cx + 1
	pw, dv := ftoi(p[PJuliaqPower]), ftoi(p[PJuliaqDivisor])
	p[PJuliaqHalfInvPower] = 0.5 * dv / pw
	p[PJuliaqInvPower] = dv / pw
	p[PJuliaqInvPower2pi] = 2 * math.Pi / pw
}

// applyJWF3 adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF3(id VarID, w float64, r *rng.Stream) {
	switch id {
	case VarWaves4Wf:
		s.waves4Wf(w)
	case VarPoincare3D:
		s.poincare3D(w)
	case VarSpirograph:
		s.spirograph(w, r)
	case VarCannabiscurveWf:
		a := s.atanXY()
		rr := (1 + 0.9*math.Cos(8*a)) * (1 + 0.1*math.Cos(24*a)) * (0.9 + 0.1*math.Cos(200*a)) * (1 + math.Sin(a))
		s.filledCurve(w, a+math.Pi/2, rr, s.p[PCannabiscurveWfFilled], r)
	case VarCloverleafWf:
		a := s.atanXY()
		s.filledCurve(w, a, math.Sin(2*a)+0.25*math.Sin(6*a), s.p[PCloverleafWfFilled], r)
	case VarEpispiral:
		s.epispiral(w, r)
	case VarYinYang:
		s.yinYang(w, r)
	case VarJuliaq:
		p := s.p
		a := math.Atan2(s.ty, s.tx)*p[PJuliaqInvPower] + math.Trunc(r.Float64()*jwfMaxInt)*p[PJuliaqInvPower2pi]
		sa, ca := math.Sincos(a)
		rr := w * math.Pow(s.sumsq, p[PJuliaqHalfInvPower])
		s.px += rr * ca
		s.py += rr * sa
	case VarWaves23:
		s.waves23(w)
	}
}

// waves4_wf: waves2 with sin·cos·sin (or cos·sin·cos) ripples, damped.
func (s *varState) waves4Wf(w float64) {
	p := s.p
	dx, dy := p[PWaves4WfDampingX], p[PWaves4WfDampingY]
	sx, cx := math.Sincos(s.ty * p[PWaves4WfFreqx])
	sy, cy := math.Sincos(s.tx * p[PWaves4WfFreqy])
	rx := sx * cx * sx
	if ftoi(p[PWaves4WfUseCosX]) == 1 {
		rx = cx * sx * cx
	}
	ry := sy * cy * sy
	if ftoi(p[PWaves4WfUseCosY]) == 1 {
		ry = cy * sy * cy
	}
	s.px += w * (s.tx + dx*p[PWaves4WfScalex]*rx) * dx
	s.py += w * (s.ty + dy*p[PWaves4WfScaley]*ry) * dy
}

// poincare3D: Zueuk's 3D inversion of the Poincaré ball about its centre.
func (s *varState) poincare3D(w float64) {
	p := s.p
	x, y, z := s.tx, s.ty, s.tz
	cx, cy, cz := p[PPoincare3DCx], p[PPoincare3DCy], p[PPoincare3DCz]
	r2 := x*x + y*y + z*z
	x2, y2, z2 := 2*cx*x, 2*cy*y, 2*cz*z
	d := w / (p[PPoincare3DC2]*r2 - x2 - y2 - z2 + 1)
	s.px += d * (x*p[PPoincare3DS2x] + cx*(y2+z2-r2-1))
	s.py += d * (y*p[PPoincare3DS2y] + cy*(x2+z2-r2-1))
	s.pz += d * (z*p[PPoincare3DS2z] + cz*(y2+x2-r2-1))
}

// spirograph: points on an epitrochoid-like curve, t and an offset drawn
// uniformly from their ranges; the input point is not read.
func (s *varState) spirograph(w float64, r *rng.Stream) {
	p := s.p
	t := (p[PSpirographTmax]-p[PSpirographTmin])*r.Float64() + p[PSpirographTmin]
	y := (p[PSpirographYmax]-p[PSpirographYmin])*r.Float64() + p[PSpirographYmin]
	a, b := p[PSpirographA], p[PSpirographB]
	st, ct := math.Sincos(t)
	k := (a + b) / b * t
	x1 := (a+b)*ct - p[PSpirographC1]*math.Cos(k)
	y1 := (a+b)*st - p[PSpirographC2]*math.Sin(k)
	d := p[PSpirographD]
	s.px += w * (x1 + d*ct + y)
	s.py += w * (y1 + d*st + y)
}

// filledCurve adds the polar curve point at angle a (JWildfire's
// atan2(x, y) convention) and radius rr, pulled towards the centre by a
// uniform factor for the share filled of the points.
func (s *varState) filledCurve(w, a, rr, filled float64, r *rng.Stream) {
	u1, u2 := r.Float64(), r.Float64()
	if filled > 0 && filled > u1 {
		rr *= u2
	}
	sa, ca := math.Sincos(a)
	s.px += w * sa * rr
	s.py += w * ca * rr
}

// epispiral: cyberxaos's epispiral r = 1/cos(nθ) − holes, spread by a
// random thickness; nothing where the cosine is exactly 0.
func (s *varState) epispiral(w float64, r *rng.Stream) {
	p := s.p
	u := r.Float64()
	theta := math.Atan2(s.ty, s.tx)
	d := math.Cos(p[PEpispiralN] * theta)
	if d == 0 {
		return
	}
	t := -p[PEpispiralHoles]
	if th := p[PEpispiralThickness]; math.Abs(th) > 1e-8 {
		t += u * th * (1 / d)
	} else {
		t += 1 / d
	}
	st, ct := math.Sincos(theta)
	s.px += w * t * ct
	s.py += w * t * st
}

// yinYang: dark-beam's yin-yang: the unit disc folded into the two
// interlocked halves (turned by ang1, ang2 half turns), the second half
// drawn for half the points when dual_t is 1; outside the disc nothing,
// or linear when outside is 1.
func (s *varState) yinYang(w float64, r *rng.Stream) {
	p := s.p
	u := r.Float64()
	radius := min(max(p[PYinYangRadius], 0), 1) // JWildfire holds it to [0, 1]
	dual := min(max(ftoi(p[PYinYangDualT]), 0), 1)
	outside := min(max(ftoi(p[PYinYangOutside]), 0), 1)
	xx, yy := s.tx, s.ty
	if xx*xx+yy*yy >= 1 {
		if outside == 1 {
			s.px += w * xx
			s.py += w * yy
		}
		return
	}
	inv, rr := 1.0, radius
	sa, ca := math.Sincos(math.Pi * p[PYinYangAng1])
	if dual == 1 && u > 0.5 {
		inv, rr = -1, 1-radius
		sa, ca = math.Sincos(math.Pi * p[PYinYangAng2])
	}
	xx, yy = xx*ca-yy*sa, xx*sa+yy*ca
	if yy <= 0 {
		s.px += w * (xx*(1-rr) + rr) * inv
		s.py += w * (yy * (1 - rr)) * inv
		return
	}
	t := math.Sqrt(1 - yy*yy)
	t1 := (t - 0.5) * 2
	alfa := (1 - xx/t) * 0.5
	k1 := alfa*rr + (1 - alfa)
	s.px += w * (t1*k1 + alfa*(rr-1)) * inv
	s.py += w * math.Sqrt(1-t1*t1) * k1 * inv
}

// waves23: Tatyana Zabanova's waves with a folded sawtooth in place of the
// sine.
func (s *varState) waves23(w float64) {
	p := s.p
	const inv2pi = 1 / math.Pi / 2 // JWildfire's M_1_2PI
	mx := s.ty * p[PWaves23Freqx] * inv2pi
	fx := mx - math.Floor(mx)
	if fx > 0.5 {
		fx = 0.5 - fx
	}
	my := s.tx * p[PWaves23Freqy] * inv2pi
	fy := my - math.Floor(my)
	if fy > 0.5 {
		fy = 0.5 - fy
	}
	s.px += w * (s.tx + fx*p[PWaves23Scalex])
	s.py += w * (s.ty + fy*p[PWaves23Scaley])
}
