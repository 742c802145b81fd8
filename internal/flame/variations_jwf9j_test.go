package flame

import (
	"math"
	"math/cmplx"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwf9jRefCases are the cases of variations_jwf9j.go for
// TestJWildfireReference (JWildfire's chrysanthemum and lazyTravis; its
// joukowski is in jwf11RefCases, and gnarly is Fractorium's:
// TestJWF9jByHand pins both by hand too).
func jwf9jRefCases() [][]jwfTerm {
	lt := func(in, out, space float64) []jwfParam {
		return []jwfParam{{PLazyTravisSpinIn, "spin_in", in}, {PLazyTravisSpinOut, "spin_out", out}, {PLazyTravisSpace, "space", space}}
	}
	return [][]jwfTerm{
		{{id: VarChrysanthemum, w: 1.3}},
		{{id: VarLazyTravis, w: 0.6, params: lt(0.25, 0.25, 0)}},
		{{id: VarLazyTravis, w: 1.2, params: lt(-0.7, 1.3, 0.4)}},
		{{id: VarLazyTravis, w: 0.9, params: lt(2.2, -0.4, -0.3)}},
	}
}

// By hand: joukowski against Go's complex arithmetic, gnarly's fixed
// points and twist.
func TestJWF9jByHand(t *testing.T) {
	z0 := complex(-0.3, 0.2)
	ps := map[ParamID]float64{PJoukowskiP1: 1.7, PJoukowskiP2: 0.3}
	inv := map[ParamID]float64{PJoukowskiP1: 1.7, PJoukowskiP2: 0.3, PJoukowskiInverse: 1}
	// (Off the imaginary axis of w: there JWildfire's square root of a
	// negative real is 0, its sign of 0 being 0, and procgen's too.)
	for _, z := range []complex128{complex(0.5, -0.6), complex(-1.4, 0.25), complex(2.2, 1.3)} {
		want := (z + z0) + complex(1.7*1.7, 0)/(z+z0)
		r := rng.NewStream(1)
		got := jwf8Map(VarJoukowski, 2, ps, [3]float64{real(z), imag(z), 0}, [3]float64{}, &r)
		if !near3(got, [3]float64{2 * real(want), 2 * imag(want), 0}, 1e-9) {
			t.Errorf("joukowski at %v: %v, want 2·%v", z, got, want)
		}
		// The inverse undoes the map: from want back to z (the root farther out).
		back := jwf8Map(VarJoukowski, 1, inv, [3]float64{real(want), imag(want), 0}, [3]float64{}, &r)
		zb := complex(back[0], back[1])
		if fwd := (zb + z0) + complex(1.7*1.7, 0)/(zb+z0); cmplx.Abs(fwd-want) > 1e-9 {
			t.Errorf("joukowski inverse of %v: %v maps to %v", want, zb, fwd)
		}
	}
	r := rng.NewStream(1)
	// gnarly: a cell centre stays (cells of size 1 centred on the half
	// integers); outside the cell's disc the point is linear.
	for _, c := range []struct{ in, want [3]float64 }{
		{[3]float64{0.5, 1.5, 0}, [3]float64{1, 3, 0}},
		{[3]float64{0.02, 0.03, 0}, [3]float64{0.04, 0.06, 0}},
	} {
		if got := jwf8Map(VarGnarly, 2, nil, c.in, [3]float64{}, &r); !near3(got, c.want, 1e-12) {
			t.Errorf("gnarly at %v: %v, want %v", c.in, got, c.want)
		}
	}
	// Inside, the turn is twist·log(d²/R²): at distance R/e^½ from the
	// centre with twist 1, a turn of −1 radian.
	d := 0.5 / math.Sqrt(math.E)
	got := jwf8Map(VarGnarly, 1, nil, [3]float64{0.5 + d, 0.5, 0}, [3]float64{}, &r)
	want := [3]float64{0.5 + d*math.Cos(-1), 0.5 - math.Sin(-1)*d, 0}
	if !near3(got, want, 1e-12) {
		t.Errorf("gnarly twist: %v, want %v", got, want)
	}
}
