package lsys

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// same is bit equality, with every NaN equal to every NaN.
func same(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
}

// TestMathSpecialValues: NaN, infinities, signed zeros, the exact values of
// the degree functions, and C's atan2 conventions, bit for bit.
func TestMathSpecialValues(t *testing.T) {
	nan, inf, negz := math.NaN(), math.Inf(1), math.Copysign(0, -1)
	maxf, tiny := math.MaxFloat64, math.SmallestNonzeroFloat64
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"SinDeg(NaN)", SinDeg(nan), nan}, {"SinDeg(Inf)", SinDeg(inf), nan}, {"SinDeg(-Inf)", SinDeg(-inf), nan},
		{"CosDeg(NaN)", CosDeg(nan), nan}, {"CosDeg(-Inf)", CosDeg(-inf), nan}, {"TanDeg(Inf)", TanDeg(inf), nan},
		{"SinDeg(0)", SinDeg(0), 0}, {"CosDeg(-0)", CosDeg(negz), 1}, {"TanDeg(0)", TanDeg(0), 0},
		{"SinDeg(30)", SinDeg(30), 0.5}, {"SinDeg(150)", SinDeg(150), 0.5}, {"SinDeg(-30)", SinDeg(-30), -0.5},
		{"SinDeg(210)", SinDeg(210), -0.5}, {"SinDeg(390)", SinDeg(390), 0.5}, {"SinDeg(-690)", SinDeg(-690), 0.5},
		{"CosDeg(60)", CosDeg(60), 0.5}, {"CosDeg(120)", CosDeg(120), -0.5}, {"CosDeg(-60)", CosDeg(-60), 0.5},
		{"CosDeg(300)", CosDeg(300), 0.5}, {"CosDeg(240)", CosDeg(240), -0.5},
		{"TanDeg(45)", TanDeg(45), 1}, {"TanDeg(-45)", TanDeg(-45), -1}, {"TanDeg(135)", TanDeg(135), -1},
		{"TanDeg(225)", TanDeg(225), 1}, {"TanDeg(90)", TanDeg(90), -inf}, {"TanDeg(-90)", TanDeg(-90), -inf},
		{"SinDeg(360*2^60)", SinDeg(360 * 0x1p60), 0}, {"CosDeg(360*2^60)", CosDeg(360 * 0x1p60), 1},
		{"SinDeg(90*2^900)", SinDeg(90 * 0x1p900), 0}, {"CosDeg(180*2^3)", CosDeg(180 * 0x1p3), 1},
		{"SinDeg(5e-324)", SinDeg(tiny), 0},
		{"AtanDeg(NaN)", AtanDeg(nan), nan}, {"AtanDeg(Inf)", AtanDeg(inf), 90}, {"AtanDeg(-Inf)", AtanDeg(-inf), -90},
		{"AtanDeg(0)", AtanDeg(0), 0}, {"AtanDeg(1)", AtanDeg(1), 45}, {"AtanDeg(-1)", AtanDeg(-1), -45},
		{"AtanDeg(max)", AtanDeg(maxf), 90}, {"AtanDeg(2^64)", AtanDeg(0x1p64), 90},
		{"AsinDeg(0.5)", AsinDeg(0.5), 30}, {"AsinDeg(-0.5)", AsinDeg(-0.5), -30}, {"AsinDeg(1)", AsinDeg(1), 90},
		{"AsinDeg(-1)", AsinDeg(-1), -90}, {"AsinDeg(0)", AsinDeg(0), 0}, {"AsinDeg(-0)", AsinDeg(negz), negz},
		{"AsinDeg(1+eps)", AsinDeg(1 + 0x1p-52), nan}, {"AsinDeg(NaN)", AsinDeg(nan), nan}, {"AsinDeg(Inf)", AsinDeg(inf), nan},
		{"AcosDeg(0.5)", AcosDeg(0.5), 60}, {"AcosDeg(-0.5)", AcosDeg(-0.5), 120}, {"AcosDeg(0)", AcosDeg(0), 90},
		{"AcosDeg(-0)", AcosDeg(negz), 90}, {"AcosDeg(1)", AcosDeg(1), 0}, {"AcosDeg(-1)", AcosDeg(-1), 180},
		{"AcosDeg(-1-eps)", AcosDeg(-1 - 0x1p-52), nan}, {"AcosDeg(NaN)", AcosDeg(nan), nan},
		{"Exp(NaN)", Exp(nan), nan}, {"Exp(Inf)", Exp(inf), inf}, {"Exp(-Inf)", Exp(-inf), 0},
		{"Exp(0)", Exp(0), 1}, {"Exp(-0)", Exp(negz), 1}, {"Exp(1)", Exp(1), math.E}, {"Exp(5e-324)", Exp(tiny), 1},
		{"Exp(-5e-324)", Exp(-tiny), 1}, {"Exp(709.79)", Exp(709.79), inf}, {"Exp(-745.14)", Exp(-745.14), 0},
		{"Exp(-745.13)", Exp(-745.13), tiny}, {"Exp(1000)", Exp(1000), inf}, {"Exp(-1000)", Exp(-1000), 0},
		{"Log(NaN)", Log(nan), nan}, {"Log(-1)", Log(-1), nan}, {"Log(-Inf)", Log(-inf), nan},
		{"Log(0)", Log(0), -inf}, {"Log(-0)", Log(negz), -inf}, {"Log(Inf)", Log(inf), inf}, {"Log(1)", Log(1), 0},
		{"Log(2)", Log(2), math.Ln2}, {"Log(10)", Log(10), math.Ln10}, {"Log(e)", Log(math.E), 1},
	} {
		if !same(c.got, c.want) {
			t.Errorf("%s = %v (%#x), want %v", c.name, c.got, math.Float64bits(c.got), c.want)
		}
	}
	atan2 := []struct{ y, x, want float64 }{
		{0, 1, 0}, {negz, 1, negz}, {0, -1, 180}, {negz, -1, -180}, {0, 0, 0}, {negz, 0, negz}, {0, negz, 180},
		{negz, negz, -180}, {1, 0, 90}, {-1, 0, -90}, {1, negz, 90}, {inf, 1, 90}, {-inf, 1, -90}, {inf, -1, 90},
		{1, inf, 0}, {-1, inf, negz}, {1, -inf, 180}, {-1, -inf, -180}, {inf, inf, 45}, {inf, -inf, 135},
		{-inf, -inf, -135}, {-inf, inf, -45}, {1, 1, 45}, {-1, -1, -135}, {1, -1, 135}, {2, 2, 45},
		{nan, 1, nan}, {1, nan, nan}, {nan, nan, nan}, {maxf, tiny, 90}, {tiny, maxf, 0}, {tiny, tiny, 45},
		{maxf, maxf, 45}, {maxf, -maxf, 135}, {-tiny, -tiny, -135}, {1e-300, -1e300, 180},
	}
	for _, c := range atan2 {
		if got := Atan2Deg(c.y, c.x); !same(got, c.want) {
			t.Errorf("Atan2Deg(%v, %v) = %v, want %v", c.y, c.x, got, c.want)
		}
	}
}

// TestMathCorrectlyRounded: arguments at the edges (the largest and
// smallest floats, subnormals, every power of two for Log, huge degrees)
// give the correctly rounded result.
func TestMathCorrectlyRounded(t *testing.T) {
	maxf, tiny := math.MaxFloat64, math.SmallestNonzeroFloat64
	check := func(name string, arg, got float64, ref *big.Float) {
		t.Helper()
		want, _ := ref.Float64()
		if !same(got, want) {
			t.Errorf("%s(%v) = %v, correctly rounded %v (%.3f ulp)", name, arg, got, want, ulpErr(got, ref))
		}
	}
	for _, x := range []float64{maxf, -maxf, 0x1p1000, 1e300, 1e22, 0x1p53 + 2, 1e16 + 4, 359.99999999999994, 44.99999999999999,
		45.00000000000001, 1e-300, 1e-10} {
		check("SinDeg", x, SinDeg(x), refSinDeg(x))
		check("CosDeg", x, CosDeg(x), refCosDeg(x))
		check("TanDeg", x, TanDeg(x), refTanDeg(x))
	}
	for _, x := range []float64{1e300, 1e-300, 0x1p-1022, 1e-320, tiny * 3, 0.125, 7.0 / 8, 1.0 / 16, 1.0000000000000002, 0.9999999999999999} {
		check("AtanDeg", x, AtanDeg(x), refRadToDeg(refAtan(bf(x))))
	}
	for _, x := range []float64{0.9999999999999999, 1e-300, 0.7071067811865476, 0.8660254037844386, 1e-8} {
		check("AsinDeg", x, AsinDeg(x), refAsinDeg(x))
		check("AcosDeg", x, AcosDeg(x), refAcosDeg(x))
		check("AcosDeg", -x, AcosDeg(-x), refAcosDeg(-x))
	}
	for _, x := range []float64{709.78, -708.39, -0x1p-30, 0x1p-30, 0.34657359027997264, -0.34657359027997264, 1e-10} {
		check("Exp", x, Exp(x), refExp(bf(x)))
	}
	for _, x := range []float64{maxf, tiny, 0x1p-1022, 1.4142135623730951, 0.7071067811865476, 1 + 0x1p-52, 1 - 0x1p-53} {
		check("Log", x, Log(x), refLog(x))
	}
	for k := -1074; k <= 1023; k += 7 {
		x := math.Ldexp(1, k)
		check("Log", x, Log(x), refLog(x))
	}
}

// TestPowSpecialAndExact: C99's special cases as Go's math.Pow has them,
// exact results where the power is representable, and the products and
// square root Pow promises.
func TestPowSpecialAndExact(t *testing.T) {
	nan, inf, negz := math.NaN(), math.Inf(1), math.Copysign(0, -1)
	special := []float64{0, negz, inf, -inf, nan, 1, -1}
	plain := []float64{0.5, -0.5, 2, -2, 3, -3, 2.5, -2.5, 7, -7, 1e300, -1e300, 5e-324, 0.25, 1e-300}
	args := append(append([]float64{}, special...), plain...)
	for i, x := range args {
		for j, y := range args {
			if i >= len(special) && j >= len(special) {
				continue // neither is special: math.Pow may differ in the last bit
			}
			if x == 0 && math.Signbit(x) && y == 0.5 {
				continue // Pow(x, 0.5) is Sqrt(x), and Sqrt(-0) = -0 where C's pow gives +0
			}
			if got, want := Pow(x, y), math.Pow(x, y); !same(got, want) {
				t.Errorf("Pow(%v, %v) = %v, want %v", x, y, got, want)
			}
		}
	}
	for k := -1074; k <= 1023; k++ {
		want := math.Ldexp(1, k)
		if got := Pow(2, float64(k)); got != want {
			t.Fatalf("Pow(2, %d) = %v, want %v", k, got, want)
		}
		if got := Pow(0.5, float64(-k)); got != want {
			t.Fatalf("Pow(0.5, %d) = %v, want %v", -k, got, want)
		}
	}
	for b := int64(2); b <= 40; b++ {
		p := b * b * b * b
		for n := 5; p <= (1<<53)/b; n++ {
			p *= b
			if got := Pow(float64(b), float64(n)); got != float64(p) {
				t.Errorf("Pow(%d, %d) = %v, want %d", b, n, got, p)
			}
			want := float64(p)
			if n%2 == 1 {
				want = -want
			}
			if got := Pow(float64(-b), float64(n)); got != want {
				t.Errorf("Pow(%d, %d) = %v, want %v", -b, n, got, want)
			}
			ref, _ := refPow(float64(b), float64(-n)).Float64()
			if got := Pow(float64(b), float64(-n)); got != ref {
				t.Errorf("Pow(%d, %d) = %v, correctly rounded %v", b, -n, got, ref)
			}
		}
	}
	for _, c := range []struct{ x, y, want float64 }{
		{16, 0.25, 2}, {81, 0.25, 3}, {1e20, 0.75, 1e15}, {0.0625, 1.5, 0.015625}, {4, -0.5, 0.5}, {9, 1.5, 27},
		{1e10, 1.5, 1e15}, {2, 1024, inf}, {2, -1075, 0}, {-2, 1025, -inf}, {-2, -1075, negz}, {10, 22, 1e22},
	} {
		if got := Pow(c.x, c.y); !same(got, c.want) {
			t.Errorf("Pow(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

// TestMathSubnormalResults: Exp and Pow round a subnormal result once, from
// the double-double, so it is the correctly rounded one too (a plain
// fl(y) * 2^k would round twice and miss about 1% of them).
func TestMathSubnormalResults(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	n := 4000
	if testing.Short() {
		n = 400
	}
	for i := 0; i < n; i++ {
		x := -708.4 - r.Float64()*36.75
		if got, want := Exp(x), refFloat(refExp(bf(x))); got != want {
			t.Errorf("Exp(%v) = %v, correctly rounded %v", x, got, want)
		}
		b := math.Abs(logUniform(r, 1e-3, 1e3))
		if b == 1 {
			continue
		}
		y := -(708.4 + r.Float64()*36.75) / math.Log(b)
		if got, want := Pow(b, y), refFloat(refPow(b, y)); got != want {
			t.Errorf("Pow(%v, %v) = %v, correctly rounded %v", b, y, got, want)
		}
	}
}

func refFloat(f *big.Float) float64 { v, _ := f.Float64(); return v }
