package lsys

import "math"

// Exp, Log and Pow, deterministic like the rest of mathfn.go (see there):
//   - Log: x = m 2^k with m in (sqrt(2)/2, sqrt(2)] (exponent bits), and
//     log x = k ln 2 + 2 atanh(s), s = (m-1)/(m+1), |s| <= 0.172, by the
//     atanh series to s^27 (truncation below 2^-75); s and the leading
//     terms in double-double, so log is a double-double good to ~2^-70.
//   - Exp: k = round(x / ln 2), r = x - k ln 2 in double-double (ln 2 split
//     so that k ln2A is exact), e^r = 1 + r + r^2/2 (double-double) +
//     r^3 (1/3! + ... + r^11/14!) (truncation below 2^-63 for |r| <= 0.35),
//     all but the terms from r^5 on in double-double,
//     then scaled by 2^k: exactly for a normal result; a subnormal one is
//     rounded once, from the double-double, to its integer multiple of
//     2^-1074 (scaleDD).
//   - Pow: the double-double log of |x| times y, then Exp's algorithm on the
//     double-double product, so e^(y log x) keeps ~2^-60 relative even
//     where |y log x| is near 745. Exact results (2^10, 3^5, 10^15) come out
//     exact since the error is far below half an ulp.
// Constants in mathconst.go (Taylor coefficients 1/n! and 1/n, ln 2).

const (
	// e^x overflows above expMax and is below half the smallest subnormal
	// under expMin (ln(2^1024) = 709.78..., ln(2^-1075) = -745.13...);
	// between these and the true thresholds scale2 settles it.
	expMax = 709.8
	expMin = -745.2
	sqrt2  = 1.4142135623730951
)

// logDD is log(x) as a double-double, for finite x > 0.
func logDD(x float64) (float64, float64) {
	ki := 0
	if math.Float64bits(x)>>52 == 0 { // subnormal
		x = float64(x * 0x1p52)
		ki = -52
	}
	b := math.Float64bits(x)
	ki += int(b>>52) - 1023
	m := math.Float64frombits(b&^(0x7ff<<52) | 1023<<52) // [1, 2)
	if m > sqrt2 {
		m = float64(m * 0.5)
		ki++
	}
	// s = (m-1)/(m+1) in double-double; m-1 is exact.
	n := m - 1
	dh, dl := twoSum(m, 1)
	sh := n / dh
	p, pe := twoProd(sh, dh)
	sl := (((n - p) - pe) - float64(sh*dl)) / dh
	// 2s (1 + z/3 + z^2/5 + z^3 T(z)), z = s^2, T = 1/7 + z/9 + ... + z^10/27.
	zh, zl := ddMul(sh, sl, sh, sl)
	t := kInv7 + float64(zh*(kInv9+float64(zh*(kInv11+float64(zh*(kInv13+float64(zh*(kInv15+float64(zh*(kInv17+float64(zh*(kInv19+float64(zh*(kInv21+float64(zh*(kInv23+float64(zh*(kInv25+float64(zh*kInv27)))))))))))))))))))
	ah, al := ddAdd(kInv5Hi, kInv5Lo, float64(zh*t), 0)
	ah, al = ddMul(zh, zl, ah, al)
	ah, al = ddAdd(kInv3Hi, kInv3Lo, ah, al)
	ah, al = ddMul(zh, zl, ah, al)
	ah, al = ddAdd(1, 0, ah, al)
	ah, al = ddMul(float64(2*sh), float64(2*sl), ah, al)
	k := float64(ki)
	kh, kl := twoProd(k, kLn2Hi)
	kl = kl + float64(k*kLn2Lo)
	return ddAdd(kh, kl, ah, al)
}

// expDD is e^(xh + xl) rounded, for expMin <= xh <= expMax and |xl| <=
// ulp(xh).
func expDD(xh, xl float64) float64 {
	k := math.Floor(float64(xh*kInvLn2) + 0.5)
	a := xh - float64(k*kLn2A) // exact: k*kLn2A has at most 53 bits, near xh
	p, pe := twoProd(k, kLn2B)
	rh, re := twoSum(a, -p)
	rh, rl := twoSum(rh, (re-pe)+xl)
	// e^rh = 1 + rh + rh^2/2 + rh^3 P(rh), P = 1/3! + rh/4! + ... +
	// rh^11/14!, all but P's tail in double-double.
	q, qe := twoProd(rh, rh)
	hh, hhe := float64(0.5*q), float64(0.5*qe)
	poly := kExp5 + float64(rh*(kExp6+float64(rh*(kExp7+float64(rh*(kExp8+float64(rh*(kExp9+float64(rh*(kExp10+float64(rh*(kExp11+float64(rh*(kExp12+float64(rh*(kExp13+float64(rh*kExp14)))))))))))))))))
	ph, pl := ddAdd(kExp4Hi, kExp4Lo, float64(rh*poly), 0)
	ph, pl = ddMul(rh, 0, ph, pl)
	ph, pl = ddAdd(kExp3Hi, kExp3Lo, ph, pl)
	c, ce := twoProd(rh, q)
	ph, pl = ddMul(c, ce+float64(rh*qe), ph, pl)
	s1, e1 := fastTwoSum(1, rh)
	s2, e2 := fastTwoSum(s1, hh)
	s3, e3 := fastTwoSum(s2, ph)
	// e^(rh+rl) ~ e^rh + rl (1 + rh + rh^2/2 + rh^3/6).
	rt := rl + float64(rl*((rh+hh)+float64(c*kExp3Hi)))
	tail := (((e1 + e2) + e3) + hhe) + (pl + rt)
	return scaleDD(s3, tail, int(k))
}

// scaleDD is (h + l) * 2^k rounded once, for h in [0.5, 2) and |l| a few
// ulps of h at most. A normal result is fl(h + l) scaled exactly; a
// subnormal one is n * 2^-1074 with n the integer nearest (h + l) *
// 2^(k+1074) (ties to even), found from the exact double-double sum.
func scaleDD(h, l float64, k int) float64 {
	e := int(math.Float64bits(h)>>52&0x7ff) - 1023 + k
	switch {
	case e >= -1022:
		return scale2(h+l, k)
	case e < -1076:
		return 0
	}
	p := pow2(k + 1074) // 2^-2 .. 2^51: both products are exact
	s, err := twoSum(float64(h*p), float64(l*p))
	n := (s + 0x1p52) - 0x1p52 // s to the nearest integer, ties to even
	if d := s - n; d == 0.5 && err > 0 {
		n = n + 1
	} else if d == -0.5 && err < 0 {
		n = n - 1
	}
	return float64(n * 0x1p-1074)
}

// Exp is e^x.
func Exp(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > expMax:
		return math.Inf(1)
	case x < expMin:
		return 0
	}
	return expDD(x, 0)
}

// Log is the natural logarithm.
func Log(x float64) float64 {
	switch {
	case x != x || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	h, l := logDD(x)
	return h + l
}

// Pow is x^y. Small integer powers are products, so x^2 == x*x, x^3 ==
// x*x*x and x^-2 == 1/(x*x) bit for bit, and x^0.5 == sqrt(x); every other
// case is powGeneral, correctly rounded but for rare near-halfway cases and
// exact for representable results.
func Pow(x, y float64) float64 {
	switch {
	case y == 0:
		return 1
	case y == 0.5 && x >= 0:
		return math.Sqrt(x)
	case y == math.Trunc(y) && math.Abs(y) <= 4:
		var p float64
		switch math.Abs(y) {
		case 1:
			p = x
		case 2:
			p = float64(x * x)
		case 3:
			p = float64(float64(x*x) * x)
		default:
			p = float64(float64(x*x) * float64(x*x))
		}
		if y < 0 {
			return 1 / p
		}
		return p
	}
	return powGeneral(x, y)
}

// intParity says whether finite y is an integer and whether an odd one.
func intParity(y float64) (isInt, odd bool) {
	if y != math.Floor(y) {
		return false, false
	}
	if math.Abs(y) >= 0x1p53 {
		return true, false
	}
	h := float64(y * 0.5)
	return true, h != math.Floor(h)
}

// powGeneral is x^y with C99's special cases (pow(x, +-0) = 1, pow(1, y) =
// 1, pow(-1, +-Inf) = 1, NaN otherwise propagating, signed zeros and
// infinities for x = +-0 and +-Inf, NaN for x < 0 and y not an integer).
func powGeneral(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case x != x || y != y:
		return math.NaN()
	}
	ax := math.Abs(x)
	if math.IsInf(y, 0) {
		switch {
		case ax == 1:
			return 1
		case (ax < 1) == (y > 0):
			return 0
		}
		return math.Inf(1)
	}
	isInt, odd := intParity(y)
	neg := math.Signbit(x) && odd
	var z float64
	switch {
	case x == 0 || math.IsInf(x, 0):
		if (x == 0) == (y < 0) {
			z = math.Inf(1)
		}
	case x < 0 && !isInt:
		return math.NaN()
	default:
		lh, ll := logDD(ax)
		switch ph := float64(y * lh); {
		case ph > expMax:
			z = math.Inf(1)
		case ph < expMin:
			z = 0
		default:
			ph, pl := twoProd(y, lh)
			z = expDD(fastTwoSum(ph, pl+float64(y*ll)))
		}
	}
	if neg {
		return -z
	}
	return z
}
