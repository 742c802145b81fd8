// Package mathgen computes the constants of internal/lsys's deterministic
// math functions (mathfn.go, mathpow.go and the constants of their CUDA twin,
// cuda/lsys_math_consts.cuh) in 320-bit arithmetic, so that every coefficient can
// be regenerated and checked (mathconst_test.go compares the Go and CUDA
// values with these; `go run ./internal/lsys/internal/mathgen/cmd/mathgen`
// prints them).
//
// All polynomial coefficients are Taylor coefficients (1/n!, 1/(2k+1)), not
// minimax fits: the functions reduce their arguments far enough that the
// truncated series is below 2^-60 relative, and keeping the coefficients
// simple facts makes them easy to audit. The remaining constants are
// pi/2, ln 2 and atan(i/8), computed here by series:
//   - ln 2 = 2 atanh(1/3) = 2 sum (1/3)^(2k+1)/(2k+1);
//   - atan(x) for x <= 1 after halving the angle four times with
//     atan(x) = 2 atan(x/(1 + sqrt(1 + x^2))), then its Taylor series;
//   - pi/2 = 2 atan(1).
package mathgen

import (
	"fmt"
	"io"
	"math/big"
	"strconv"
)

const prec = 320

// Const is one named float64 constant.
type Const struct {
	Name  string
	Value float64
}

func newF() *big.Float { return new(big.Float).SetPrec(prec) }

func num(x int64) *big.Float { return newF().SetInt64(x) }

func quo(a, b *big.Float) *big.Float { return newF().Quo(a, b) }

// small is 2^-330, below which series terms are dropped.
func small() *big.Float { return new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), -330) }

// ln2 = 2 atanh(1/3).
func ln2() *big.Float {
	x := quo(num(1), num(3))
	x2 := newF().Mul(x, x)
	sum, pw := newF(), newF().Set(x)
	for k := int64(0); ; k++ {
		term := quo(pw, num(2*k+1))
		sum.Add(sum, term)
		if term.Cmp(small()) < 0 {
			break
		}
		pw.Mul(pw, x2)
	}
	return sum.Mul(sum, num(2))
}

// atan is atan(x) for 0 <= x <= 1.
func atan(x *big.Float) *big.Float {
	x = newF().Set(x)
	const halvings = 4
	for i := 0; i < halvings; i++ {
		d := newF().Mul(x, x)
		d.Add(d, num(1))
		d.Sqrt(d)
		d.Add(d, num(1))
		x = quo(x, d)
	}
	x2 := newF().Mul(x, x)
	sum, pw := newF(), newF().Set(x)
	for k := int64(0); ; k++ {
		term := quo(pw, num(2*k+1))
		if k%2 == 1 {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
		if term.Cmp(small()) < 0 {
			break
		}
		pw.Mul(pw, x2)
	}
	return sum.SetMantExp(sum, halvings)
}

// split rounds v to float64 and returns the rounding and the rest.
func split(v *big.Float) (hi, lo float64) {
	hi, _ = v.Float64()
	lo, _ = newF().Sub(v, newF().SetFloat64(hi)).Float64()
	return hi, lo
}

// truncBits keeps the leading n bits of v's significand (towards zero).
func truncBits(v *big.Float, n uint) float64 {
	f, _ := new(big.Float).SetPrec(n).SetMode(big.ToZero).Set(v).Float64()
	return f
}

func factorial(n int64) *big.Float {
	f := num(1)
	for i := int64(2); i <= n; i++ {
		f.Mul(f, num(i))
	}
	return f
}

// Constants returns every constant, in the order they are printed.
func Constants() []Const {
	var cs []Const
	add := func(name string, v float64) { cs = append(cs, Const{name, v}) }
	addDD := func(name string, v *big.Float) {
		hi, lo := split(v)
		add(name+"Hi", hi)
		add(name+"Lo", lo)
	}
	sign := func(k int64) *big.Float {
		if k%2 == 1 {
			return num(-1)
		}
		return num(1)
	}
	// sin x = x - x^3/6 + x^5/5! - ... (the leading coefficients as double-double).
	addDD("Sin3", newF().Neg(quo(num(1), num(6))))
	addDD("Sin5", quo(num(1), factorial(5)))
	for n := int64(7); n <= 17; n += 2 {
		f, _ := quo(sign((n-1)/2), factorial(n)).Float64()
		add(fmt.Sprintf("Sin%d", n), f)
	}
	// cos x = 1 - x^2/2 + x^4/4! - ...
	addDD("Cos4", quo(num(1), factorial(4)))
	addDD("Cos6", newF().Neg(quo(num(1), factorial(6))))
	for n := int64(8); n <= 18; n += 2 {
		f, _ := quo(sign(n/2), factorial(n)).Float64()
		add(fmt.Sprintf("Cos%d", n), f)
	}
	// atan t = t - t^3/3 + t^5/5 - ...
	for n := int64(3); n <= 15; n += 2 {
		f, _ := quo(sign((n-1)/2), num(n)).Float64()
		add(fmt.Sprintf("Atan%d", n), f)
	}
	for i := int64(0); i <= 8; i++ {
		addDD(fmt.Sprintf("AtanTab%d", i), atan(quo(num(i), num(8))))
	}
	addDD("PiO2", newF().Mul(atan(num(1)), num(2)))
	// e^r = 1 + r + r^2/2 + r^3 (1/3! + r/4! + ... + r^11/14!).
	addDD("Exp3", quo(num(1), factorial(3)))
	addDD("Exp4", quo(num(1), factorial(4)))
	for n := int64(5); n <= 14; n++ {
		f, _ := quo(num(1), factorial(n)).Float64()
		add(fmt.Sprintf("Exp%d", n), f)
	}
	l2 := ln2()
	inv, _ := quo(num(1), l2).Float64()
	add("InvLn2", inv)
	// ln 2 = Ln2A + Ln2B with Ln2A 42 bits long, so k*Ln2A is exact for
	// |k| < 2^11 (every binary exponent).
	a := truncBits(l2, 42)
	add("Ln2A", a)
	b, _ := newF().Sub(l2, newF().SetFloat64(a)).Float64()
	add("Ln2B", b)
	addDD("Ln2", l2)
	// log m = 2 atanh s = 2s (1 + s^2/3 + s^4/5 + ...): 1/3 and 1/5 as
	// double-double, the rest plain.
	addDD("Inv3", quo(num(1), num(3)))
	addDD("Inv5", quo(num(1), num(5)))
	for n := int64(7); n <= 27; n += 2 {
		f, _ := quo(num(1), num(n)).Float64()
		add(fmt.Sprintf("Inv%d", n), f)
	}
	return cs
}

// Hex is v as an exact hexadecimal floating-point literal, which Go and
// C++17 both read.
func Hex(v float64) string {
	if v == 0 {
		return "0.0"
	}
	return strconv.FormatFloat(v, 'x', -1, 64)
}

// Print writes the constants as a Go const block and as C #defines.
func Print(w io.Writer) error {
	cs := Constants()
	if _, err := fmt.Fprintln(w, "const ("); err != nil {
		return err
	}
	for _, c := range cs {
		if _, err := fmt.Fprintf(w, "\tk%s = %s // %.17g\n", c.Name, Hex(c.Value), c.Value); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintln(w, ")"); err != nil {
		return err
	}
	for _, c := range cs {
		if _, err := fmt.Fprintf(w, "#define LSYS_K_%s (%s) /* %.17g */\n", c.Name, Hex(c.Value), c.Value); err != nil {
			return err
		}
	}
	return nil
}
