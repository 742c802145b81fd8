package flame

import "math"

// JWildfire's Complex arithmetic (org.jwildfire.base.mathlib.Complex) as
// its hyperbolic variations use it, on (re, im) pairs: the same guards
// (a reciprocal of a magnitude² under 1e-100 divides by 1; the logarithm
// adds 1e-20 to the magnitude²) and the principal square root.

// jcMagInv is 1/|z|², or 1 where |z|² < 1e-100.
func jcMagInv(re, im float64) float64 {
	if m2 := re*re + im*im; m2 >= 1e-100 {
		return 1 / m2
	}
	return 1
}

// jcRecip is 1/z.
func jcRecip(re, im float64) (float64, float64) {
	mi := jcMagInv(re, im)
	return re * mi, -im * mi
}

// jcSqrt is the principal square root (real part ≥ 0).
func jcSqrt(re, im float64) (float64, float64) {
	rad := math.Hypot(re, im)
	sb := 1.0
	if im < 0 {
		sb = -1
	}
	return math.Sqrt(0.5 * (rad + re)), sb * math.Sqrt(0.5*(rad-re))
}

// jcLog is log z with |z|² + 1e-20.
func jcLog(re, im float64) (float64, float64) {
	return 0.5 * math.Log(re*re+im*im+1e-20), math.Atan2(im, re)
}

// jcAcosh is acosh z = log(z + √(z² − 1)).
func jcAcosh(re, im float64) (float64, float64) {
	dr, di := jcSqrt(re*re-im*im-1, 2*re*im)
	return jcLog(re+dr, im+di)
}

// jcAtanh is atanh z = ½·log((1 + z)/(1 − z)), the quotient as
// JWildfire's Div forms it.
func jcAtanh(re, im float64) (float64, float64) {
	dr, di := 1-re, -im
	nr, ni := re+1, im
	m := jcMagInv(dr, di)
	lr, li := jcLog((ni*di+nr*dr)*m, (ni*dr-nr*di)*m)
	return 0.5 * lr, 0.5 * li
}
