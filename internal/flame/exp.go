package flame

import "math"

// expN is the number of steps per octave of exp2Table.
const expN = 128

// exp2Table[i] is 2^(i/expN).
var exp2Table = func() (t [expN]float64) {
	for i := range t {
		t[i] = math.Exp2(float64(i) / expN)
	}
	return t
}()

// exp is e^x to within a few ulp (math.Exp's own error is under one),
// about twice as fast as math.Exp, for powNonNeg: x = k·ln2/expN + r with
// |r| <= ln2/(2·expN), e^x = 2^(k/expN)·e^r, the power of two from the
// table and the exponent bits, e^r from its Taylor series to r^5 (the next
// term is below 1e-18 relative). Outside (-708, 709), where the result
// would be subnormal or overflow, and for NaN, math.Exp answers. The
// exponential variations (exponential, exp, the hyperbolic ones) use it too.
func exp(x float64) float64 {
	const (
		invLn2N = expN / math.Ln2
		// ln2/expN split so that k·ln2HiN is exact for |k| < 2^20.
		ln2HiN = 0x1.62e42ffp-8
		ln2LoN = math.Ln2/expN - ln2HiN
		shift  = 0x1.8p52 // adding and subtracting it rounds to an integer
	)
	if !(x > -708 && x < 709) {
		return math.Exp(x)
	}
	kf := x*invLn2N + shift
	kf -= shift
	k := int64(kf)
	r := (x - kf*ln2HiN) - kf*ln2LoN
	p := r + r*r*(0.5+r*(1.0/6+r*(1.0/24+r*(1.0/120))))
	t := exp2Table[k&(expN-1)]
	v := t + t*p
	return math.Float64frombits(math.Float64bits(v) + uint64(k>>7)<<52)
}

// logN is the number of subintervals of logTable.
const logN = 128

// logOff is 0.6875: log reduces x to z·2^k with z in [logOff, 2·logOff),
// so that log z never cancels against k·ln2 near x = 1.
const logOff = 0x3fe6000000000000

// logTable[i] is the centre c of the i-th of logN intervals of z, 1/c and
// log c.
var logTable = func() (t [logN]struct{ c, invc, logc float64 }) {
	for i := range t {
		lo := math.Float64frombits(logOff + uint64(i)<<(52-7))
		hi := math.Float64frombits(logOff + uint64(i+1)<<(52-7))
		c := (lo + hi) / 2
		t[i].c, t[i].invc, t[i].logc = c, 1/c, math.Log(c)
	}
	return t
}()

// log is ln x for powNonNeg, to within a few ulp of math.Log (absolute
// error below 1e-16·|ln x| + 1e-19: what x^y needs), about twice as fast:
// x = z·2^k, z near the centre c of one of logN intervals, ln x =
// k·ln2 + ln c + ln(1+r) with r = (z−c)/c (z−c is exact), |r| < 2^-8, and
// ln(1+r) from its series to r^7. Zero, negative, subnormal, infinite and
// NaN arguments go to math.Log.
func log(x float64) float64 {
	const (
		ln2Hi = 0x1.62e42fefa3800p-1 // ln 2 split so that k·ln2Hi is exact
		ln2Lo = math.Ln2 - ln2Hi
	)
	ix := math.Float64bits(x)
	if ix-0x0010000000000000 >= 0x7ff0000000000000-0x0010000000000000 {
		return math.Log(x)
	}
	tmp := ix - logOff
	e := &logTable[(tmp>>(52-7))&(logN-1)]
	k := int64(tmp) >> 52
	z := math.Float64frombits(ix - uint64(k)<<52)
	r := (z - e.c) * e.invc
	p := r * (1 + r*(-1.0/2+r*(1.0/3+r*(-1.0/4+r*(1.0/5+r*(-1.0/6+r*(1.0/7)))))))
	kf := float64(k)
	return (kf*ln2Hi + e.logc) + (kf*ln2Lo + p)
}
