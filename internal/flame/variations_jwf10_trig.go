package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// Whittaker Courtney's post_trig (JWildfire's): a post variation (priority
// 1) that replaces the xform's sum with complex functions of it. procgen
// reads post_trig as the post_ stage of "trig" (variations_stage.go), which
// runs on the sum and replaces it, as post_axis_symmetry_wf is read; used
// without the prefix (a name JWildfire does not have) trig adds the same
// map of the affine output to the sum. Its parameters are the exponents:
// the reciprocal, log-divide, square root, exp and log, each weighted by
// its *pow, apply in that order to the point, one after another; if any of
// the inverse, circular or hyperbolic functions has a non-zero *pow, their
// weighted sum of the result replaces it. The complex arithmetic is
// JWildfire's (jwfcomplex.go): its guards, its branch of each inverse.
//
// Random draws (u = Float64): u1 u2, drawn whatever the exponents are: u1
// ≥ ½ negates the square root, u2 ≥ ½ the acosh (JWildfire draws each only
// where its exponent is not zero).

// trig adds post_trig's map of (tx, ty) with weight w (see above).
func (s *varState) trig(w float64, r *rng.Stream) {
	p := s.p
	u1, u2 := r.Float64(), r.Float64()
	xr, yr := s.tx, s.ty
	if k := p[PTrigReciprocal]; k != 0 {
		a, b := jcRecip(xr, yr)
		xr, yr = k*w*a, k*w*b
	}
	if k := p[PTrigLogDivide]; k != 0 {
		a, b := jcDiv(xr+1, yr, xr-1, yr)
		a, b = jcLog(a, b)
		xr, yr = k*w*2/math.Pi*a, k*w*2/math.Pi*b
	}
	if k := p[PTrigSqrt]; k != 0 {
		a, b := jcSqrt(xr, yr)
		if u1 >= 0.5 {
			a, b = -a, -b
		}
		xr, yr = k*w*a, k*w*b
	}
	if k := p[PTrigExp]; k != 0 {
		e := math.Exp(xr)
		xr, yr = k*w*e*math.Cos(yr), k*w*e*math.Sin(yr)
	}
	if k := p[PTrigLog]; k != 0 {
		a, b := jcLog(xr, yr)
		xr, yr = k*w*a, k*w*b
	}
	var xx, yy float64
	// add(k)(a, b) adds k·(a, b): the form takes a function's two results.
	add := func(k float64) func(a, b float64) {
		return func(a, b float64) {
			xx += k * a
			yy += k * b
		}
	}
	inv := w * 2 / math.Pi // the inverse functions' scale
	if k := p[PTrigAsinh]; k != 0 {
		add(k * inv)(jcAsinh(xr, yr))
	}
	if k := p[PTrigAcosh]; k != 0 {
		a, b := jcAcosh(xr, yr)
		if u2 >= 0.5 {
			a, b = -a, -b
		}
		add(k*inv)(a, b)
	}
	if k := p[PTrigAtanh]; k != 0 {
		add(k * inv)(jcAtanh(xr, yr))
	}
	if k := p[PTrigAsin]; k != 0 { // asin z = flip(asinh(flip z)), flip swapping re and im
		a, b := jcAsinh(yr, xr)
		add(k*inv)(b, a)
	}
	if k := p[PTrigAcos]; k != 0 { // π/2 − asin z
		a, b := jcAsinh(yr, xr)
		add(k*inv)(math.Pi/2-b, -a)
	}
	if k := p[PTrigAtan]; k != 0 {
		a, b := jcAtanh(yr, xr)
		add(k*inv)(b, a)
	}
	if k := p[PTrigSin]; k != 0 {
		a, b := jcSinh(yr, xr)
		add(k*w)(b, a)
	}
	if k := p[PTrigCos]; k != 0 {
		a, b := jcCosh(yr, xr)
		add(k*w)(b, a)
	}
	if k := p[PTrigTan]; k != 0 {
		sa, sb := jcSinh(yr, xr)
		ca, cb := jcCosh(yr, xr)
		add(k * w)(jcDiv(sb, sa, cb, ca))
	}
	if k := p[PTrigSinh]; k != 0 {
		add(k * w)(jcSinh(xr, yr))
	}
	if k := p[PTrigCosh]; k != 0 {
		add(k * w)(jcCosh(xr, yr))
	}
	if k := p[PTrigTanh]; k != 0 {
		sa, sb := jcSinh(xr, yr)
		ca, cb := jcCosh(xr, yr)
		add(k * w)(jcDiv(sa, sb, ca, cb))
	}
	// JWildfire tests the sum of the exponents, not each one.
	if p[PTrigAsinh]+p[PTrigAcosh]+p[PTrigAtanh]+p[PTrigSin]+p[PTrigCos]+p[PTrigTan]+p[PTrigSinh]+p[PTrigCosh]+
		p[PTrigTanh]+p[PTrigAsin]+p[PTrigAcos]+p[PTrigAtan] == 0 {
		xx, yy = xr, yr
	}
	s.px += xx
	s.py += yy
}

// jcDiv is JWildfire's (a+bi)/(c+di), by 1 where |c+di|² < 1e-100.
func jcDiv(a, b, c, d float64) (float64, float64) {
	m := jcMagInv(c, d)
	return (b*d + a*c) * m, (b*c - a*d) * m
}

// jcAsinh is asinh z = log(z + √(z² + 1)).
func jcAsinh(re, im float64) (float64, float64) {
	dr, di := jcSqrt(re*re-im*im+1, 2*re*im)
	return jcLog(re+dr, im+di)
}

// jcSinh is sinh z as JWildfire forms it from e^re and its reciprocal.
func jcSinh(re, im float64) (float64, float64) {
	e := math.Exp(re)
	sh := 0.5 * (e - 1/e)
	return math.Cos(im) * sh, math.Sin(im) * (sh + 1/e)
}

// jcCosh is cosh z as JWildfire forms it.
func jcCosh(re, im float64) (float64, float64) {
	e := math.Exp(re)
	sh := 0.5 * (e - 1/e)
	return math.Cos(im) * (sh + 1/e), math.Sin(im) * sh
}
