package lsys_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
)

// mathSystem is one expression function applied, in one derivation step, to
// every module of a long axiom: the CPU-versus-CUDA test of the functions
// (math_cuda_test.go) derives it on both backends and compares parameters
// bit for bit.
type mathSystem struct {
	name string
	src  string
	args [][]float64               // the axiom's modules' parameters
	f    func(a []float64) float64 // the Go function the production applies
}

// mathArgGen draws one argument: wide random ranges mixed with special
// finite values (zeros, subnormals, the largest float, exact angles).
func mathArgGen(r *rand.Rand, special []float64, wide func(*rand.Rand) float64) float64 {
	if r.IntN(8) == 0 {
		return special[r.IntN(len(special))]
	}
	return wide(r)
}

func logUni(r *rand.Rand, lo, hi float64) float64 {
	x := math.Exp(math.Log(lo) + r.Float64()*(math.Log(hi)-math.Log(lo)))
	if r.IntN(2) == 0 {
		return -x
	}
	return x
}

func mathSystems(n int) []mathSystem {
	negz, maxf, tiny := math.Copysign(0, -1), math.MaxFloat64, math.SmallestNonzeroFloat64
	angleSpecial := []float64{0, negz, 30, -30, 45, 60, 90, 135, 150, 180, 225, 270, 360, 1e300, -maxf, maxf, tiny,
		1e-310, 360 * 0x1p60, 44.99999999999999, 1e22, 0x1p40, 0x1p40 + 45}
	angle := func(r *rand.Rand) float64 {
		switch r.IntN(4) {
		case 0:
			return (r.Float64()*2 - 1) * 720
		case 1:
			return float64(r.IntN(49)-24)*15 + logUni(r, 1e-14, 1e-3)
		case 2:
			return logUni(r, 1e-300, 1e-3)
		}
		return logUni(r, 1e-3, 1e300)
	}
	unitSpecial := []float64{0, negz, 0.5, -0.5, 1, -1, 0.9999999999999999, -0.9999999999999999, tiny, 1e-300}
	unit := func(r *rand.Rand) float64 {
		if r.IntN(3) == 0 {
			return math.Copysign(1-math.Abs(logUni(r, 1e-16, 1e-2)), float64(r.IntN(2)*2-1))
		}
		return r.Float64()*2 - 1
	}
	wide := func(r *rand.Rand) float64 { return logUni(r, 1e-300, 1e300) }
	wideSpecial := []float64{0, negz, 1, -1, maxf, -maxf, tiny, -tiny, 1e-310, 0x1p64, 1e20}
	expArg := func(r *rand.Rand) float64 {
		if r.IntN(2) == 0 {
			return r.Float64()*1450 - 740
		}
		return logUni(r, 1e-300, 10)
	}
	logArg := func(r *rand.Rand) float64 {
		switch r.IntN(3) {
		case 0:
			return 1 + logUni(r, 1e-15, 0.5)
		case 1:
			return math.Float64frombits(1 + r.Uint64()>>12) // subnormal
		}
		return math.Abs(wide(r))
	}
	powArgs := func(r *rand.Rand) []float64 {
		x := math.Abs(logUni(r, 1e-6, 1e6))
		y := (r.Float64()*2 - 1) * 40
		switch r.IntN(6) {
		case 0:
			x, y = -x, math.Round(y)
		case 1:
			x, y = 1+logUni(r, 1e-12, 1e-3), logUni(r, 1, 1e9)
		case 2:
			x = math.Abs(wide(r))
			y = (r.Float64()*1450 - 740) / math.Log(x)
		case 3:
			x, y = float64(r.IntN(40)), float64(r.IntN(30)-10)
		case 4:
			x = []float64{0, negz, 1, -1, 2, 0.5, tiny, maxf}[r.IntN(8)]
		}
		return []float64{x, y}
	}
	one := func(name, fn string, special []float64, gen func(*rand.Rand) float64, f func(float64) float64) mathSystem {
		return mathSystem{name: name, src: "A(x) --> B(" + fn + "(x))\n",
			args: draw(n, name, func(r *rand.Rand) []float64 { return []float64{mathArgGen(r, special, gen)} },
				func(a []float64) float64 { return f(a[0]) }),
			f: func(a []float64) float64 { return f(a[0]) }}
	}
	return []mathSystem{
		one("sin", "sin", angleSpecial, angle, lsys.SinDeg),
		one("cos", "cos", angleSpecial, angle, lsys.CosDeg),
		one("tan", "tan", angleSpecial, angle, lsys.TanDeg),
		one("atan", "atan", wideSpecial, wide, lsys.AtanDeg),
		one("asin", "asin", unitSpecial, unit, lsys.AsinDeg),
		one("acos", "acos", unitSpecial, unit, lsys.AcosDeg),
		one("exp", "exp", []float64{0, negz, 1, -1, 709.78, -745.13, -708.4, tiny}, expArg, lsys.Exp),
		one("log", "log", []float64{1, 2, 10, maxf, tiny, 0x1p-1022, 1.4142135623730951, 0.7071067811865476}, logArg, lsys.Log),
		{name: "atan2", src: "A(y, x) --> B(atan2(y, x))\n",
			args: draw(n, "atan2", func(r *rand.Rand) []float64 {
				return []float64{mathArgGen(r, wideSpecial, wide), mathArgGen(r, wideSpecial, wide)}
			}, func(a []float64) float64 { return lsys.Atan2Deg(a[0], a[1]) }),
			f: func(a []float64) float64 { return lsys.Atan2Deg(a[0], a[1]) }},
		{name: "pow", src: "A(x, y) --> B(x^y)\n", args: draw(n, "pow", powArgs, func(a []float64) float64 { return lsys.Pow(a[0], a[1]) }),
			f: func(a []float64) float64 { return lsys.Pow(a[0], a[1]) }},
	}
}

// draw makes n argument lists whose results are finite (an infinite or NaN
// result is an expression error, which would end the derivation early).
func draw(n int, name string, gen func(*rand.Rand) []float64, f func([]float64) float64) [][]float64 {
	r := rand.New(rand.NewPCG(uint64(len(name)), uint64(name[0])))
	var out [][]float64
	for len(out) < n {
		a := gen(r)
		if v := f(a); !math.IsNaN(v) && !math.IsInf(v, 0) {
			out = append(out, a)
		}
	}
	return out
}

// parse builds the system's source: the axiom lists every argument list
// exactly (shortest round-trip decimal).
func (m mathSystem) parse(t testing.TB) *lsys.System {
	t.Helper()
	var b strings.Builder
	b.WriteString("axiom:")
	for _, a := range m.args {
		b.WriteString(" A(")
		for i, v := range a {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteString(")")
	}
	b.WriteString("\n" + m.src)
	sys, err := syntax.Parse(m.name+".l", []byte(b.String()))
	if err != nil {
		t.Fatalf("%s: %v", m.name, err)
	}
	return sys
}

// TestMathSystemsCPU: the CPU derives every function system without error,
// and each B parameter is the Go function of the A parameters bit for bit,
// so that the CUDA comparison exercises every argument.
func TestMathSystemsCPU(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	for _, m := range mathSystems(n) {
		t.Run(m.name, func(t *testing.T) {
			d, err := lsys.CPU{}.Derive(context.Background(), m.parse(t), lsys.DeriveOptions{Steps: 1})
			if err != nil {
				t.Fatal(err)
			}
			s := d.String
			if len(s.Params) != len(m.args) {
				t.Fatalf("%d parameters, want %d", len(s.Params), len(m.args))
			}
			for i, a := range m.args {
				if want := m.f(a); math.Float64bits(s.Params[i]) != math.Float64bits(want) {
					t.Fatalf("%s%v derived %v, want %v", m.name, a, s.Params[i], want)
				}
			}
			t.Logf("%d arguments", len(m.args))
		})
	}
}
