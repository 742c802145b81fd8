package lsys

import (
	"math"
	"math/big"
)

// 256-bit references for mathfn.go's functions, by series, to measure errors
// in ulps of the correctly rounded result.

const refPrec = 256

const piDigits = "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651328230664709384460955058223172535940812848111745028410270193852110555964462294895493038196"

func bf(x float64) *big.Float { return new(big.Float).SetPrec(refPrec).SetFloat64(x) }
func newF() *big.Float        { return new(big.Float).SetPrec(refPrec) }

var refPi = func() *big.Float {
	p, _, err := big.ParseFloat(piDigits, 10, refPrec, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	return p
}()

// refDegToRad reduces x degrees modulo 360 exactly and converts to radians
// in (-pi, pi]; quarter >= 0 when x is an exact multiple of 90 degrees
// (quarter*90 mod 360), where the series would leave a tiny residue.
func refDegToRad(x float64) (t *big.Float, quarter int) {
	const wide = 2300 // holds any float64 and its multiples of 360 exactly
	X := new(big.Float).SetPrec(wide).SetFloat64(x)
	q := new(big.Float).SetPrec(wide).Quo(X, big.NewFloat(360))
	qi, _ := q.Int(nil) // truncated
	qf := new(big.Float).SetPrec(wide).SetInt(qi)
	r := new(big.Float).SetPrec(wide).Sub(X, qf.Mul(qf, big.NewFloat(360)))
	quarter = -1
	if f, _ := r.Float64(); f == math.Trunc(f/90)*90 {
		quarter = (int(f/90) + 4) % 4
	}
	t = newF().Mul(newF().Set(r), refPi)
	t.Quo(t, bf(180))
	if t.Cmp(refPi) > 0 {
		t.Sub(t, newF().Mul(refPi, bf(2)))
	} else if t.Cmp(newF().Neg(refPi)) <= 0 {
		t.Add(t, newF().Mul(refPi, bf(2)))
	}
	return t, quarter
}

// refSinCos is the Taylor series at t (|t| <= pi).
func refSinCos(t *big.Float) (s, c *big.Float) {
	eps := new(big.Float).SetMantExp(bf(1), -300)
	t2 := newF().Mul(t, t)
	s, c = newF(), bf(1)
	term := newF().Set(t) // t^(2k+1)/(2k+1)!
	s.Set(term)
	cterm := bf(1)
	for k := 1; k < 400; k++ {
		term.Mul(term, t2)
		term.Quo(term, bf(float64((2*k)*(2*k+1))))
		term.Neg(term)
		s.Add(s, term)
		cterm.Mul(cterm, t2)
		cterm.Quo(cterm, bf(float64((2*k-1)*(2*k))))
		cterm.Neg(cterm)
		c.Add(c, cterm)
		if newF().Abs(term).Cmp(eps) < 0 && newF().Abs(cterm).Cmp(eps) < 0 {
			break
		}
	}
	return s, c
}

func refSinCosDeg(x float64) (s, c *big.Float) {
	t, q := refDegToRad(x)
	if q >= 0 {
		return bf([]float64{0, 1, 0, -1}[q]), bf([]float64{1, 0, -1, 0}[q])
	}
	return refSinCos(t)
}

func refSinDeg(x float64) *big.Float { s, _ := refSinCosDeg(x); return s }
func refCosDeg(x float64) *big.Float { _, c := refSinCosDeg(x); return c }
func refTanDeg(x float64) *big.Float {
	s, c := refSinCosDeg(x)
	if c.Sign() == 0 {
		return bf(math.Inf(1))
	}
	return s.Quo(s, c)
}

// refAtan is atan(a) in radians: halve the angle with
// atan(a) = 2 atan(a / (1 + sqrt(1 + a^2))) until small, then the series.
func refAtan(a *big.Float) *big.Float {
	neg := a.Sign() < 0
	a = newF().Abs(a)
	m := 0
	small := bf(0.01)
	for a.Cmp(small) > 0 {
		d := newF().Mul(a, a)
		d.Add(d, bf(1))
		d.Sqrt(d)
		d.Add(d, bf(1))
		a = newF().Quo(a, d)
		m++
	}
	eps := new(big.Float).SetMantExp(bf(1), -300)
	a2 := newF().Mul(a, a)
	sum := newF().Set(a)
	pw := newF().Set(a)
	for k := 1; k < 400; k++ {
		pw.Mul(pw, a2)
		pw.Neg(pw)
		term := newF().Quo(pw, bf(float64(2*k+1)))
		sum.Add(sum, term)
		if newF().Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	sum.SetMantExp(sum, m)
	if neg {
		sum.Neg(sum)
	}
	return sum
}

func refRadToDeg(r *big.Float) *big.Float {
	r = newF().Mul(r, bf(180))
	return r.Quo(r, refPi)
}

func refAtan2Deg(y, x float64) *big.Float {
	a := refAtan(newF().Quo(bf(math.Abs(y)), bf(math.Abs(x))))
	if x < 0 {
		a = newF().Sub(refPi, a)
	}
	if y < 0 {
		a.Neg(a)
	}
	return refRadToDeg(a)
}

func refAsinDeg(x float64) *big.Float {
	c := newF().Sub(bf(1), newF().Mul(bf(x), bf(x)))
	if c.Sign() == 0 {
		return bf(math.Copysign(90, x))
	}
	c.Sqrt(c)
	return refRadToDeg(refAtan(newF().Quo(bf(x), c)))
}

func refAcosDeg(x float64) *big.Float {
	return newF().Sub(bf(90), refAsinDeg(x))
}

// refExp is e^x: scale down by 2^k, Taylor, square k times.
func refExp(x *big.Float) *big.Float {
	k := x.MantExp(nil) + 12
	if k < 0 {
		k = 0
	}
	y := newF().SetMantExp(x, -k)
	eps := new(big.Float).SetMantExp(bf(1), -320)
	sum, term := bf(1), bf(1)
	for n := 1; n < 200; n++ {
		term.Mul(term, y)
		term.Quo(term, bf(float64(n)))
		sum.Add(sum, term)
		if newF().Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	for ; k > 0; k-- {
		sum.Mul(sum, sum)
	}
	return sum
}

// refLog is log(x) by Halley iterations on exp from an estimate by
// math.Frexp and math.Log of the fraction (math.Log itself is far off for
// subnormal x on amd64: Log(5e-324) = -709.09).
func refLog(x float64) *big.Float {
	X := bf(x)
	m, e := math.Frexp(x)
	y := bf(math.Log(m) + float64(e)*math.Ln2)
	for i := 0; i < 4; i++ {
		e := refExp(y)
		num := newF().Sub(X, e)
		den := newF().Add(X, e)
		num.Quo(num, den)
		y.Add(y, num.Mul(num, bf(2)))
	}
	return y
}

func refPow(x, y float64) *big.Float {
	r := refExp(newF().Mul(bf(y), refLog(math.Abs(x))))
	if x < 0 && math.Mod(y, 2) != 0 {
		r.Neg(r)
	}
	return r
}

// ulpErr is |got - ref| in units of the last place of ref rounded to
// float64.
func ulpErr(got float64, ref *big.Float) float64 {
	r, _ := ref.Float64()
	if math.IsInf(r, 0) || math.IsNaN(got) || math.IsInf(got, 0) {
		if got == r {
			return 0
		}
		return math.Inf(1)
	}
	a := math.Abs(r)
	ulp := math.Nextafter(a, math.Inf(1)) - a
	d := newF().Sub(bf(got), ref)
	d.Abs(d)
	d.Quo(d, bf(ulp))
	e, _ := d.Float64()
	return e
}
