package flame

import (
	"math"
	"math/cmplx"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwf9dRefCases are the cases of variations_jwf9d.go for
// TestJWildfireReference, with parameters other than the defaults.
func jwf9dRefCases() [][]jwfTerm {
	four := func(first ParamID, x1, x2, y1, y2 float64) []jwfParam {
		return []jwfParam{{first, "x1", x1}, {first + 1, "x2", x2}, {first + 2, "y1", y1}, {first + 3, "y2", y2}}
	}
	var cs [][]jwfTerm
	for _, id := range []VarID{VarCsc2Bs, VarCosh2Bs, VarCot2Bs, VarCoth2Bs, VarSech2Bs, VarSinh2Bs, VarTan2Bs, VarTanh2Bs} {
		cs = append(cs, []jwfTerm{{id: id, w: 0.8, params: four(bsFirst(id), 0.7, -1.3, 1.9, 0.4)}},
			[]jwfTerm{{id: id, w: -1.2, params: four(bsFirst(id), 2.5, 0.6, -0.8, 1.7)}})
	}
	return append(cs, []jwfTerm{{id: VarExp2Bs, w: 1.1, params: []jwfParam{{PExp2BsX1, "x1", 0.6}, {PExp2BsY1, "y1", -1.4},
		{PExp2BsY2, "y2", 2.2}}}})
}

// With unit frequencies (factor 2 for cot, coth, tan, tanh, whose
// formulas halve the angle) the "_bs" variations are the complex functions
// their names say (coth2_bs conjugated: its imaginary part is added where
// coth's is subtracted).
func TestJWF9dByHand(t *testing.T) {
	for _, z := range []complex128{complex(0.3, -0.7), complex(-1.4, 0.25), complex(0.6, 0.45)} {
		for _, c := range []struct {
			id   VarID
			k    float64 // the frequencies
			want complex128
		}{
			{VarCsc2Bs, 1, 1 / cmplx.Sin(z)},
			{VarCosh2Bs, 1, cmplx.Cosh(z)},
			{VarCot2Bs, 2, cmplx.Cot(z)},
			{VarCoth2Bs, 2, cmplx.Conj(1 / cmplx.Tanh(z))},
			{VarSech2Bs, 1, 1 / cmplx.Cosh(z)},
			{VarSinh2Bs, 1, cmplx.Sinh(z)},
			{VarTan2Bs, 2, cmplx.Tan(z)},
			{VarTanh2Bs, 2, cmplx.Tanh(z)},
			{VarExp2Bs, 1, cmplx.Exp(z)},
		} {
			ps := map[ParamID]float64{PExp2BsX1: 1, PExp2BsY1: 1, PExp2BsY2: 1}
			if c.id != VarExp2Bs {
				f := bsFirst(c.id)
				ps = map[ParamID]float64{f: c.k, f + 1: c.k, f + 2: c.k, f + 3: c.k}
			}
			r := rng.NewStream(1)
			got := jwf8Map(c.id, 1, ps, [3]float64{real(z), imag(z), 0}, [3]float64{}, &r)
			if !near3(got, [3]float64{real(c.want), imag(c.want), 0}, 1e-9) {
				t.Errorf("%s at %v: %v, want %v", VarNames[c.id], z, got, c.want)
			}
		}
	}
	// inflateZ_*: at (0, 1) (angle π/2) z moves by w·(1 − 2), ±w·0, w·½, w·(1.5 − acos(π/4·sin 1)).
	for _, c := range []struct {
		id   VarID
		want float64
	}{{VarInflateZ1, -2}, {VarInflateZ4, 0}, {VarInflateZ5, 1}, {VarInflateZ6, 2 * (1.5 - math.Acos(math.Pi/4*math.Sin(1)))}} {
		r := rng.NewStream(1)
		if got := jwf8Map(c.id, 2, nil, [3]float64{0, 1, 0.5}, [3]float64{}, &r); !near3(got, [3]float64{0, 0, c.want}, 1e-12) {
			t.Errorf("%s: %v, want z %g", VarNames[c.id], got, c.want)
		}
	}
}
