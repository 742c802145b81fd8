package lsys

import "math"

// Deterministic math for expressions. The GPU backend must derive bit for bit
// the same parameters as the CPU (conditions compare them, so one ulp can
// change the string), and neither Go's math package nor CUDA's libdevice
// promise that. So every transcendental function here is built only from
// IEEE-exact operations (+ - * / and sqrt, correctly rounded; floor;
// comparisons; exponent and bit manipulation), and cuda/lsys_math.cuh repeats
// the same algorithms operation for operation with __dadd_rn/__dmul_rn.
//
// Go may fuse x*y+z into one FMA (the spec allows it, arm64 and ppc64 do it);
// an explicit float64() conversion forces the rounding, so every product that
// feeds an addition or subtraction is written float64(x*y).
//
// The algorithms are fdlibm's (Sun Microsystems, 1993/2004: "Permission to
// use, copy, modify, and distribute this software is freely granted, provided
// that this notice is preserved"): __kernel_sin, __kernel_cos, atan, exp,
// log, pow; angle reduction in degrees is exact, then converted to radians in
// double-double. Accuracy (measured in mathfn_test.go against 200-bit
// references): about 1 ulp for sin/cos/exp/log/pow and 2 ulp for tan and the
// inverse functions.

const (
	// pi/180 and 180/pi as double-double (hi + lo).
	degToRadHi = 0.017453292519943295    // 0x3f91df46a2529d39
	degToRadLo = 2.9486522708701687e-19  // 0x3c15c1d8becdd291
	radToDegHi = 57.29577951308232       // 0x404ca5dc1a63c1f8
	radToDegLo = -1.9878495670576283e-15 // 0xbce1e7ab456405f9
	splitter   = 134217729.0             // 2^27 + 1, Dekker's splitter
	bigDegrees = 0x1p40                  // above this, reduce modulo 360 first
)

func hiWord(x float64) int32  { return int32(math.Float64bits(x) >> 32) }
func loWord(x float64) uint32 { return uint32(math.Float64bits(x)) }
func fromWords(hi int32, lo uint32) float64 {
	return math.Float64frombits(uint64(uint32(hi))<<32 | uint64(lo))
}
func withLo(x float64, lo uint32) float64 { return fromWords(hiWord(x), lo) }
func withHi(x float64, hi int32) float64  { return fromWords(hi, loWord(x)) }
func isFinite(x float64) bool             { return math.Float64bits(x)&(0x7ff<<52) != 0x7ff<<52 }

// pow2 is 2^k for -1022 <= k <= 1023.
func pow2(k int) float64 { return math.Float64frombits(uint64(k+1023) << 52) }

// scale2 is x*2^k, correctly rounded, for finite normal x (Go's Ldexp, made
// explicit so the CUDA twin is the same algorithm).
func scale2(x float64, k int) float64 {
	b := math.Float64bits(x)
	e := int(b>>52&0x7ff) - 1023 + k
	if e > 1023 {
		return math.Copysign(math.Inf(1), x)
	}
	if e < -1075 {
		return math.Copysign(0, x)
	}
	b &^= 0x7ff << 52
	if e < -1022 { // subnormal result: one rounding, in the multiplication
		return math.Float64frombits(b|uint64(e+53+1023)<<52) * 0x1p-53
	}
	return math.Float64frombits(b | uint64(e+1023)<<52)
}

// twoProd returns p = fl(a*b) and e with p + e = a*b exactly (Dekker).
func twoProd(a, b float64) (p, e float64) {
	p = float64(a * b)
	c := float64(splitter * a)
	ah := c - (c - a)
	al := a - ah
	c = float64(splitter * b)
	bh := c - (c - b)
	bl := b - bh
	e = float64(float64(float64(ah*bh)-p)+float64(ah*bl)) + float64(al*bh)
	e = e + float64(al*bl)
	return p, e
}

// twoSum returns s = fl(a+b) and e with s + e = a+b exactly (Knuth).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return s, e
}

// mod360 is x modulo 360 (sign of x), exactly, for |x| >= 360: it subtracts
// 360*2^k, each subtraction exact by Sterbenz's lemma.
func mod360(x float64) float64 {
	a := math.Abs(x)
	for a >= 360 {
		e := int(math.Float64bits(a)>>52&0x7ff) - 1023
		m := float64(pow2(e-8) * 360) // 360 = 1.40625 * 2^8
		if m > a {
			m = float64(m * 0.5)
		}
		a = a - m
	}
	if x < 0 {
		return -a
	}
	return a
}

// reduceDeg writes x degrees as q*90 + r with |r| <= 45 (exactly: x - 90*q
// is representable) and returns r in radians as hi + lo, and q mod 4.
func reduceDeg(x float64) (hi, lo float64, q int) {
	if !(math.Abs(x) < bigDegrees) {
		x = mod360(x)
	}
	k := math.Floor(x/90 + 0.5)
	r := x - float64(k*90)
	p, e := twoProd(r, degToRadHi)
	e = e + float64(r*degToRadLo)
	hi = p + e
	lo = e - (hi - p)
	return hi, lo, int(int64(k) & 3)
}

// ksin is fdlibm's __kernel_sin(x, y, 1): sin(x+y) for |x+y| <= ~pi/4.
func ksin(x, y float64) float64 {
	const (
		S1 = -1.66666666666666324348e-01
		S2 = 8.33333333332248946124e-03
		S3 = -1.98412698298579493134e-04
		S4 = 2.75573137070700676789e-06
		S5 = -2.50507602534068634195e-08
		S6 = 1.58969099521155010221e-10
	)
	z := float64(x * x)
	w := float64(z * z)
	r := (S2 + float64(z*(S3+float64(z*S4)))) + float64(float64(z*w)*(S5+float64(z*S6)))
	v := float64(z * x)
	return x - ((float64(z*(float64(0.5*y)-float64(v*r))) - y) - float64(v*S1))
}

// kcos is fdlibm's __kernel_cos(x, y): cos(x+y) for |x+y| <= ~pi/4.
func kcos(x, y float64) float64 {
	const (
		C1 = 4.16666666666666019037e-02
		C2 = -1.38888888888741095749e-03
		C3 = 2.48015872894767294178e-05
		C4 = -2.75573143513906633035e-07
		C5 = 2.08757232129817482790e-09
		C6 = -1.13596475577881948265e-11
	)
	z := float64(x * x)
	w := float64(z * z)
	r := float64(z*(C1+float64(z*(C2+float64(z*C3))))) + float64(float64(w*w)*(C4+float64(z*(C5+float64(z*C6)))))
	hz := float64(0.5 * z)
	w = 1 - hz
	return w + (((1 - w) - hz) + (float64(z*r) - float64(x*y)))
}

// SinDeg is sin(x) for x in degrees; exact at multiples of 90.
func SinDeg(x float64) float64 {
	if !isFinite(x) {
		return math.NaN()
	}
	hi, lo, q := reduceDeg(x)
	switch q {
	case 0:
		return ksin(hi, lo)
	case 1:
		return kcos(hi, lo)
	case 2:
		return -ksin(hi, lo)
	}
	return -kcos(hi, lo)
}

// CosDeg is cos(x) for x in degrees; exact at multiples of 90.
func CosDeg(x float64) float64 {
	if !isFinite(x) {
		return math.NaN()
	}
	hi, lo, q := reduceDeg(x)
	switch q {
	case 0:
		return kcos(hi, lo)
	case 1:
		return -ksin(hi, lo)
	case 2:
		return -kcos(hi, lo)
	}
	return ksin(hi, lo)
}

// TanDeg is tan(x) for x in degrees; infinite at odd multiples of 90.
func TanDeg(x float64) float64 {
	if !isFinite(x) {
		return math.NaN()
	}
	hi, lo, q := reduceDeg(x)
	if q&1 == 0 {
		return ksin(hi, lo) / kcos(hi, lo)
	}
	return -kcos(hi, lo) / ksin(hi, lo)
}

// atanDD is fdlibm's atan for x >= 0, returning its last addition unrounded:
// atan(x) ~ hi + lo in radians.
func atanDD(x float64) (hi, lo float64) {
	const (
		aT0  = 3.33333333333329318027e-01
		aT1  = -1.99999999998764832476e-01
		aT2  = 1.42857142725034663711e-01
		aT3  = -1.11111104054623557880e-01
		aT4  = 9.09088713343650656196e-02
		aT5  = -7.69187620504482999495e-02
		aT6  = 6.66107313738753120669e-02
		aT7  = -5.83357013379057348645e-02
		aT8  = 4.97687799461593236017e-02
		aT9  = -3.65315727442169155270e-02
		aT10 = 1.62858201153657823623e-02
	)
	atanhi := [4]float64{4.63647609000806093515e-01, 7.85398163397448278999e-01,
		9.82793723247329054082e-01, 1.57079632679489655800e+00}
	atanlo := [4]float64{2.26987774529616870924e-17, 3.06161699786838301793e-17,
		1.39033110312309984516e-17, 6.12323399573676603587e-17}
	ix := hiWord(x) & 0x7fffffff
	if ix >= 0x44100000 { // x >= 2^66 (or +Inf)
		return atanhi[3], atanlo[3]
	}
	id := -1
	switch {
	case ix < 0x3fdc0000: // x < 0.4375
		if ix < 0x3e200000 { // x < 2^-29
			return x, 0
		}
	case ix < 0x3fe60000: // x < 11/16
		id, x = 0, (float64(2*x)-1)/(2+x)
	case ix < 0x3ff30000: // x < 19/16
		id, x = 1, (x-1)/(x+1)
	case ix < 0x40038000: // x < 2.4375
		id, x = 2, (x-1.5)/(1+float64(1.5*x))
	default:
		id, x = 3, -1/x
	}
	z := float64(x * x)
	w := float64(z * z)
	s1 := float64(z * (aT0 + float64(w*(aT2+float64(w*(aT4+float64(w*(aT6+float64(w*(aT8+float64(w*aT10)))))))))))
	s2 := float64(w * (aT1 + float64(w*(aT3+float64(w*(aT5+float64(w*(aT7+float64(w*aT9)))))))))
	if id < 0 {
		return x, -float64(x * (s1 + s2))
	}
	return atanhi[id], -((float64(x*(s1+s2)) - atanlo[id]) - x)
}

// toDeg converts hi + lo radians to degrees as s + t (double-double).
func toDeg(hi, lo float64) (s, t float64) {
	p, e := twoProd(hi, radToDegHi)
	q := float64(lo * radToDegHi)
	s, err := twoSum(p, q)
	t = (e + err) + float64(hi*radToDegLo)
	return s, t
}

// AtanDeg is atan(x) in degrees.
func AtanDeg(x float64) float64 {
	if x != x {
		return x
	}
	s, t := toDeg(atanDD(math.Abs(x)))
	z := s + t
	if x < 0 {
		return -z
	}
	return z
}

// Atan2Deg is atan2(y, x) in degrees, in [-180, 180], with C's conventions
// for zeros (the sign of a zero y is kept; x = -0 counts as negative).
func Atan2Deg(y, x float64) float64 {
	if x != x || y != y {
		return math.NaN()
	}
	neg := math.Signbit(y)
	var z float64
	switch {
	case y == 0:
		if math.Signbit(x) {
			z = 180
		} else {
			z = 0
		}
	case x == 0:
		z = 90
	case math.IsInf(x, 0) && math.IsInf(y, 0):
		z = 45
		if x < 0 {
			z = 135
		}
	default:
		s, t := toDeg(atanDD(math.Abs(y) / math.Abs(x)))
		if x < 0 {
			var e float64
			s, e = twoSum(180, -s)
			t = e - t
		}
		z = s + t
	}
	if neg {
		return -z
	}
	return z
}

// AsinDeg is asin(x) in degrees (NaN outside [-1, 1]).
func AsinDeg(x float64) float64 {
	if !(math.Abs(x) <= 1) {
		return math.NaN()
	}
	return Atan2Deg(x, math.Sqrt(float64((1-x)*(1+x))))
}

// AcosDeg is acos(x) in degrees (NaN outside [-1, 1]).
func AcosDeg(x float64) float64 {
	if !(math.Abs(x) <= 1) {
		return math.NaN()
	}
	return Atan2Deg(math.Sqrt(float64((1-x)*(1+x))), x)
}

// Exp is e^x (fdlibm's exp as Go's math package writes it).
func Exp(x float64) float64 {
	const (
		ln2Hi     = 6.93147180369123816490e-01
		ln2Lo     = 1.90821492927058770002e-10
		log2e     = 1.44269504088896338700e+00
		overflow  = 7.09782712893383973096e+02
		underflow = -7.45133219101941108420e+02
		nearZero  = 0x1p-28
	)
	switch {
	case x != x:
		return x
	case x > overflow:
		return math.Inf(1)
	case x < underflow:
		return 0
	case -nearZero < x && x < nearZero:
		return 1 + x
	}
	var k int
	if x < 0 {
		k = int(float64(log2e*x) - 0.5)
	} else {
		k = int(float64(log2e*x) + 0.5)
	}
	fk := float64(k)
	hi := x - float64(fk*ln2Hi)
	lo := float64(fk * ln2Lo)
	return expMulti(hi, lo, k)
}

// expMulti is e^(hi-lo) * 2^k for |hi-lo| <= ln(2)/2.
func expMulti(hi, lo float64, k int) float64 {
	const (
		P1 = 1.66666666666666657415e-01
		P2 = -2.77777777770155933842e-03
		P3 = 6.61375632143793436117e-05
		P4 = -1.65339022054652515390e-06
		P5 = 4.13813679705723846039e-08
	)
	r := hi - lo
	t := float64(r * r)
	c := r - float64(t*(P1+float64(t*(P2+float64(t*(P3+float64(t*(P4+float64(t*P5)))))))))
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	return scale2(y, k)
}

// Log is the natural logarithm (fdlibm's log as Go's math package writes it).
func Log(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		L1    = 6.666666666666735130e-01
		L2    = 3.999999999940941908e-01
		L3    = 2.857142874366239149e-01
		L4    = 2.222219843214978396e-01
		L5    = 1.818357216161805012e-01
		L6    = 1.531383769920937332e-01
		L7    = 1.479819860511658591e-01
		sqrt2 = 1.41421356237309504880168872420969808
	)
	switch {
	case x != x || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	// frexp: x = f1 * 2^ki with f1 in [0.5, 1).
	ki := 0
	if math.Float64bits(x)>>52 == 0 { // subnormal
		x = float64(x * 0x1p52)
		ki = -52
	}
	b := math.Float64bits(x)
	ki += int(b>>52) - 1022
	f1 := math.Float64frombits(b&^(0x7ff<<52) | 1022<<52)
	if f1 < sqrt2/2 {
		f1 = float64(f1 * 2)
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * (L1 + float64(s4*(L3+float64(s4*(L5+float64(s4*L7)))))))
	t2 := float64(s4 * (L2 + float64(s4*(L4+float64(s4*L6)))))
	R := t1 + t2
	hfsq := float64(float64(0.5*f) * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+R)) + float64(k*ln2Lo))) - f)
}
