package lsys

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// logUniform draws |x| log-uniformly in [lo, hi] with a random sign.
func logUniform(r *rand.Rand, lo, hi float64) float64 {
	x := math.Exp(math.Log(lo) + r.Float64()*(math.Log(hi)-math.Log(lo)))
	if r.IntN(2) == 0 {
		return -x
	}
	return x
}

type mathCase struct {
	name   string
	maxULP float64
	n      int
	gen    func(r *rand.Rand) []float64
	got    func(a []float64) float64
	ref    func(a []float64) *big.Float
}

func one(f func(*rand.Rand) float64) func(*rand.Rand) []float64 {
	return func(r *rand.Rand) []float64 { return []float64{f(r)} }
}

func mathCases() []mathCase {
	angles := func(r *rand.Rand) float64 {
		switch r.IntN(6) {
		case 0:
			return (r.Float64()*2 - 1) * 720
		case 1:
			return logUniform(r, 1e-12, 1e16)
		case 2: // near multiples of 90, where sin, cos or tan are small or huge
			return float64(r.IntN(41)-20)*90 + (r.Float64()*2-1)*1e-6
		case 3: // near multiples of 30 and 45 (exact and near-exact values)
			return float64(r.IntN(49)-24)*15 + logUniform(r, 1e-14, 1e-3)
		case 4: // tiny, down to subnormal results
			return logUniform(r, 1e-300, 1e-12)
		}
		return logUniform(r, 1e16, 1e300)
	}
	unit := func(r *rand.Rand) float64 {
		switch r.IntN(4) {
		case 0: // near +-1
			return math.Copysign(1-math.Abs(logUniform(r, 1e-16, 1e-2)), float64(r.IntN(2)*2-1))
		case 1: // near 0
			return logUniform(r, 1e-300, 1e-3)
		}
		return r.Float64()*2 - 1
	}
	ratio := func(r *rand.Rand) []float64 {
		if r.IntN(4) == 0 { // extreme magnitudes, and ratios near 1
			y := logUniform(r, 1e-300, 1e300)
			if r.IntN(2) == 0 {
				return []float64{y, y * (1 + (r.Float64()-0.5)*1e-6)}
			}
			return []float64{y, logUniform(r, 1e-300, 1e300)}
		}
		return []float64{logUniform(r, 1e-8, 1e8), logUniform(r, 1e-8, 1e8)}
	}
	return []mathCase{
		{"SinDeg", 0.6, 20000, one(angles), func(a []float64) float64 { return SinDeg(a[0]) },
			func(a []float64) *big.Float { return refSinDeg(a[0]) }},
		{"CosDeg", 0.6, 20000, one(angles), func(a []float64) float64 { return CosDeg(a[0]) },
			func(a []float64) *big.Float { return refCosDeg(a[0]) }},
		{"TanDeg", 0.6, 20000, one(angles), func(a []float64) float64 { return TanDeg(a[0]) },
			func(a []float64) *big.Float { return refTanDeg(a[0]) }},
		{"AtanDeg", 0.55, 20000, one(func(r *rand.Rand) float64 {
			if r.IntN(3) == 0 {
				return logUniform(r, 1e-300, 1e300)
			}
			return logUniform(r, 1e-20, 1e25)
		}),
			func(a []float64) float64 { return AtanDeg(a[0]) },
			func(a []float64) *big.Float { return refRadToDeg(refAtan(bf(a[0]))) }},
		{"Atan2Deg", 0.55, 20000, ratio,
			func(a []float64) float64 { return Atan2Deg(a[0], a[1]) },
			func(a []float64) *big.Float { return refAtan2Deg(a[0], a[1]) }},
		{"AsinDeg", 0.55, 20000, one(unit), func(a []float64) float64 { return AsinDeg(a[0]) },
			func(a []float64) *big.Float { return refAsinDeg(a[0]) }},
		{"AcosDeg", 0.55, 20000, one(unit), func(a []float64) float64 { return AcosDeg(a[0]) },
			func(a []float64) *big.Float { return refAcosDeg(a[0]) }},
		{"Exp", 0.55, 20000, one(func(r *rand.Rand) float64 {
			switch r.IntN(3) {
			case 0:
				return r.Float64()*1450 - 740
			case 1: // near the overflow and underflow thresholds
				return []float64{709.78, -708.4, -745}[r.IntN(3)] + r.Float64()*0.01
			}
			return logUniform(r, 1e-20, 10)
		}), func(a []float64) float64 { return Exp(a[0]) },
			func(a []float64) *big.Float { return refExp(bf(a[0])) }},
		{"Log", 0.55, 20000, one(func(r *rand.Rand) float64 {
			switch r.IntN(3) {
			case 0:
				return 1 + logUniform(r, 1e-15, 0.5)
			case 1: // subnormal (random fraction bits)
				return math.Float64frombits(1 + r.Uint64()>>12)
			}
			return math.Abs(logUniform(r, 1e-310, 1e308))
		}), func(a []float64) float64 { return Log(a[0]) },
			func(a []float64) *big.Float { return refLog(a[0]) }},
		{"Pow", 0.55, 20000, func(r *rand.Rand) []float64 {
			x := math.Abs(logUniform(r, 1e-6, 1e6))
			y := (r.Float64()*2 - 1) * 40
			switch r.IntN(5) {
			case 0: // integer exponents, negative bases
				y = math.Round(y)
				if math.Abs(y) <= 4 {
					y = math.Copysign(5, y)
				}
				x = -x
			case 1: // near one, large exponents
				x = 1 + logUniform(r, 1e-12, 1e-3)
				y = logUniform(r, 1, 1e9)
			case 2: // results near the overflow and underflow thresholds
				x = math.Abs(logUniform(r, 1e-300, 1e300))
				y = (r.Float64()*1450 - 740) / math.Log(x)
			}
			return []float64{x, y}
		}, func(a []float64) float64 { return Pow(a[0], a[1]) },
			func(a []float64) *big.Float { return refPow(a[0], a[1]) }},
		{"Pow small integers", 3, 5000, func(r *rand.Rand) []float64 {
			return []float64{logUniform(r, 1e-6, 1e6), float64(r.IntN(9) - 4)}
		}, func(a []float64) float64 { return Pow(a[0], a[1]) },
			func(a []float64) *big.Float { return refPow(a[0], a[1]) }},
	}
}

// TestMathAccuracy measures each function against 256-bit references on
// random arguments: the largest error in ulps, and how many results are not
// the correctly rounded value (the design rounds once, at the end, of a
// double-double result, so those are rare near-halfway cases).
func TestMathAccuracy(t *testing.T) {
	n := 1
	if testing.Short() {
		n = 10
	}
	for _, c := range mathCases() {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(len(c.name))))
			worst, worstAt := 0.0, []float64(nil)
			total, wrong := 0, 0
			for i := 0; i < c.n/n; i++ {
				a := c.gen(r)
				got := c.got(a)
				ref := c.ref(a)
				if rf, _ := ref.Float64(); math.IsInf(rf, 0) || math.Abs(rf) < 0x1p-1000 {
					continue // overflow and subnormal results are not ulp-comparable
				} else if total++; got != rf {
					wrong++
				}
				if e := ulpErr(got, ref); e > worst {
					worst, worstAt = e, a
				}
			}
			t.Logf("max error %.3f ulp (at %v); %d of %d not correctly rounded", worst, worstAt, wrong, total)
			if worst > c.maxULP {
				t.Errorf("max error %.3f ulp at %v, want <= %v", worst, worstAt, c.maxULP)
			}
			if c.maxULP < 1 && wrong*1000 > total {
				t.Errorf("%d of %d results not correctly rounded, want at most 0.1%%", wrong, total)
			}
		})
	}
}

// TestMathAgainstStdlib checks the functions against Go's math package in
// the ranges where the package's own result is accurate.
func TestMathAgainstStdlib(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	ulps := func(a, b float64) float64 {
		if a == b {
			return 0
		}
		return math.Abs(a-b) / (math.Nextafter(math.Abs(b), math.Inf(1)) - math.Abs(b))
	}
	check := func(name string, got, want, tol float64, args ...float64) {
		t.Helper()
		if e := ulps(got, want); !(e <= tol) {
			t.Errorf("%s%v = %v, math gives %v (%.2f ulp)", name, args, got, want, e)
		}
	}
	for i := 0; i < 20000; i++ {
		x := (r.Float64()*2 - 1) * 700
		check("Exp", Exp(x), math.Exp(x), 2, x)
		y := math.Abs(logUniform(r, 1e-300, 1e300))
		check("Log", Log(y), math.Log(y), 2, y)
		a := logUniform(r, 1e-10, 1e10)
		check("AtanDeg", AtanDeg(a), math.Atan(a)*(180/math.Pi), 3, a)
		// Within 45 degrees sin and cos are well conditioned, so the
		// rounding of d*pi/180 costs math's result at most about an ulp.
		d := (r.Float64()*2 - 1) * 45
		check("SinDeg", SinDeg(d), math.Sin(d*(math.Pi/180)), 3, d)
		check("CosDeg", CosDeg(d), math.Cos(d*(math.Pi/180)), 3, d)
		// math.Pow's own error grows with |y log x|; keep it small.
		b, p := math.Abs(logUniform(r, 0.1, 10)), (r.Float64()*2-1)*2
		check("Pow", Pow(b, p), math.Pow(b, p), 3, b, p)
	}
}

func TestMathExactValues(t *testing.T) {
	eq := func(name string, got, want float64) {
		t.Helper()
		if got != want || math.Signbit(got) != math.Signbit(want) && want != 0 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	for k := -8; k <= 8; k++ {
		x := float64(k) * 90
		s := []float64{0, 1, 0, -1}[(k%4+4)%4]
		c := []float64{1, 0, -1, 0}[(k%4+4)%4]
		eq("SinDeg", SinDeg(x), s)
		eq("CosDeg", CosDeg(x), c)
	}
	eq("SinDeg(1e22 multiple of 360)", SinDeg(360*0x1p60), 0)
	eq("AtanDeg(1)", AtanDeg(1), 45)
	eq("Atan2Deg(1,0)", Atan2Deg(1, 0), 90)
	eq("Atan2Deg(0,-1)", Atan2Deg(0, -1), 180)
	eq("Atan2Deg(-0,-1)", Atan2Deg(math.Copysign(0, -1), -1), -180)
	eq("AsinDeg(1)", AsinDeg(1), 90)
	eq("AcosDeg(-1)", AcosDeg(-1), 180)
	eq("AcosDeg(1)", AcosDeg(1), 0)
	eq("Exp(0)", Exp(0), 1)
	eq("Log(1)", Log(1), 0)
	for _, v := range []struct{ x, y, want float64 }{
		{2, 10, 1024}, {3, 5, 243}, {-3, 5, -243}, {-2, -3, -0.125}, {10, 15, 1e15},
		{0.5, 30, 0x1p-30}, {1.5, 2, 2.25}, {7, 0, 1}, {0, 3, 0}, {2, 1023, 0x1p1023}, {2, -1074, 0x1p-1074},
	} {
		eq("Pow", Pow(v.x, v.y), v.want)
	}
	r := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 10000; i++ {
		x := logUniform(r, 1e-100, 1e100)
		if Pow(x, 2) != x*x || Pow(x, 3) != x*x*x || Pow(x, -2) != 1/(x*x) || Pow(x, 1) != x {
			t.Fatalf("small integer powers of %v are not the products", x)
		}
		if a := math.Abs(x); Pow(a, 0.5) != math.Sqrt(a) {
			t.Fatalf("Pow(%v, 0.5) != Sqrt", a)
		}
	}
}

func BenchmarkMath(b *testing.B) {
	xs := make([]float64, 1024)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range xs {
		xs[i] = r.Float64()*720 - 360
	}
	fns := []struct {
		name string
		f    func(float64) float64
	}{
		{"SinDeg", SinDeg}, {"AtanDeg", AtanDeg}, {"Exp", func(x float64) float64 { return Exp(x / 100) }},
		{"Log", func(x float64) float64 { return Log(math.Abs(x) + 1) }},
		{"Pow", func(x float64) float64 { return Pow(math.Abs(x)+1, 1.7) }},
	}
	for _, fn := range fns {
		b.Run(fn.name, func(b *testing.B) {
			s := 0.0
			for i := 0; b.Loop(); i++ {
				s += fn.f(xs[i&1023])
			}
			_ = s
		})
	}
}
