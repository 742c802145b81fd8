package flame

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwf9iRefCases are the cases of variations_jwf9i.go for
// TestJWildfireReference, with parameters other than the defaults.
func jwf9iRefCases() [][]jwfTerm {
	hexes := func(size, power, rotate, scale float64) []jwfParam {
		return []jwfParam{{PHexesCellsize, "cellsize", size}, {PHexesPower, "power", power}, {PHexesRotate, "rotate", rotate},
			{PHexesScale, "scale", scale}}
	}
	f3 := func(typ, shape, strength, mind, inv, alpha float64) []jwfParam {
		return []jwfParam{{PFalloff3BlurType, "blur_type", typ}, {PFalloff3BlurShape, "blur_shape", shape},
			{PFalloff3BlurStrength, "blur_strength", strength}, {PFalloff3MinDistance, "min_distance", mind},
			{PFalloff3InvertDistance, "invert_distance", inv}, {PFalloff3MulX, "mul_x", 0.8}, {PFalloff3MulY, "mul_y", 1.4},
			{PFalloff3MulZ, "mul_z", 0.6}, {PFalloff3CenterX, "center_x", 0.2}, {PFalloff3CenterY, "center_y", -0.3},
			{PFalloff3CenterZ, "center_z", 0.1}, {PFalloff3Alpha, "alpha", alpha}}
	}
	return [][]jwfTerm{
		{{id: VarHexes, w: 0.9, params: hexes(0.6, 1.7, 0.3, 1.2)}},
		{{id: VarHexes, w: 1.1, params: hexes(1.4, 0.5, -0.166, 0.8)}},
		{{id: VarHexes, w: 0.8, params: hexes(0.25, 2, 0.05, -1)}},
		{{id: VarFalloff3, w: 0.9, params: f3(0, 0, 2, 0.3, 0, 0.5)}},
		{{id: VarFalloff3, w: 1.1, params: f3(1, 1, 3, 0.1, 1, 0.7)}},
		{{id: VarFalloff3, w: 0.7, params: f3(2, 0, 1.5, 0, 0, 0.4)}},
		{{id: VarFalloff3, w: 1.3, params: f3(2, 1, 1e-9, 0.2, 1, -0.6)}},
	}
}

// By hand: hexes at its defaults keeps the cell centres fixed and falloff3
// does not blur within min_distance.
func TestJWF9iByHand(t *testing.T) {
	r := rng.NewStream(1)
	// The centre of hexagon (1, 0) of size 1 is (1.5, √3/2); power 1,
	// scale 1: the centre maps to itself.
	c := [3]float64{1.5, math.Sqrt(3) / 2, 0}
	if got := jwf8Map(VarHexes, 2, nil, c, [3]float64{}, &r); !near3(got, [3]float64{3, math.Sqrt(3), 0}, 1e-9) {
		t.Errorf("hexes at a cell centre: %v", got)
	}
	// rotate 0, power 1, scale 1 is the identity everywhere.
	ps := map[ParamID]float64{PHexesRotate: 0}
	for _, in := range [][3]float64{{0.3, -0.2, 0}, {1.1, 0.9, 0}, {-2.3, 0.4, 0}} {
		if got := jwf8Map(VarHexes, 1, ps, in, [3]float64{}, &r); !near3(got, in, 1e-9) {
			t.Errorf("hexes identity at %v: %v", in, got)
		}
	}
	for seed := range uint64(10) {
		r := rng.NewStream(rng.Key(9, 15, seed))
		q := r
		for _, typ := range []float64{0, 1, 2} {
			q = r
			in := [3]float64{0.2, 0.1, 0.1}
			if got := jwf8Map(VarFalloff3, 2, map[ParamID]float64{PFalloff3BlurType: typ}, in, [3]float64{}, &q); !near3(got, [3]float64{0.4, 0.2, 0.2}, 1e-12) {
				t.Errorf("falloff3 type %g near the centre: %v", typ, got)
			}
		}
		checkDraws(t, "falloff3", r, q, 4)
	}
}
