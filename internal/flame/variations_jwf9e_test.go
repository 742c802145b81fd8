package flame

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwf9eRefCases are the cases of variations_jwf9e.go for
// TestJWildfireReference, with parameters other than the defaults.
func jwf9eRefCases() [][]jwfTerm {
	tri := func(v ...float64) []jwfParam {
		ids := []ParamID{PTriangleX1, PTriangleY1, PTriangleZ1, PTriangleX2, PTriangleY2, PTriangleZ2, PTriangleX3, PTriangleY3, PTriangleZ3}
		names := []string{"x1", "y1", "z1", "x2", "y2", "z2", "x3", "y3", "z3"}
		var ps []jwfParam
		for k := range ids {
			ps = append(ps, jwfParam{ids[k], names[k], v[k]})
		}
		return ps
	}
	cone := func(v ...float64) []jwfParam {
		names := []string{"radius1", "radius2", "size1", "size2", "ywave", "xwave", "height", "warp", "weight"}
		var ps []jwfParam
		for k, n := range names {
			ps = append(ps, jwfParam{PConeRadius1 + ParamID(k), n, v[k]})
		}
		return ps
	}
	return [][]jwfTerm{
		{{id: VarCardioid, w: 0.8, params: []jwfParam{{PCardioidA, "a", 3.3}}}},
		{{id: VarChecks, w: 1.1, params: []jwfParam{{PChecksX, "x", 5}, {PChecksY, "y", -2}, {PChecksSize, "size", 0.4},
			{PChecksRnd, "rnd", 0.7}}}},
		{{id: VarSph3D, w: 0.9, params: []jwfParam{{PSph3DX, "x", 1.4}, {PSph3DY, "y", -0.6}, {PSph3DZ, "z", 2}}}},
		{{id: VarSigmoid, w: -1.2, params: []jwfParam{{PSigmoidShiftx, "shiftx", -0.4}, {PSigmoidShifty, "shifty", 2.5}}}},
		{{id: VarSigmoid, w: 0.7, params: []jwfParam{{PSigmoidShiftx, "shiftx", 0}, {PSigmoidShifty, "shifty", 0.6}}}},
		{{id: VarShift, w: 1.1, params: []jwfParam{{PShiftShiftX, "shift_x", -0.3}, {PShiftShiftY, "shift_y", 0.5},
			{PShiftAngle, "angle", 100}}}},
		{{id: VarTriangle, w: 0.9, params: tri(0.3, -0.5, 0.2, 1.1, 0.4, -0.3, -0.6, 0.9, 0.7)}},
		{{id: VarCone, w: 0.8, params: cone(0.7, 1.3, 0.2, 1.5, 2, -1, 0.4, 1.6, 3.5)}},
	}
}

// By hand: maps whose result is easy to state.
func TestJWF9eByHand(t *testing.T) {
	cases := []struct {
		name   string
		id     VarID
		w      float64
		params map[ParamID]float64
		in     [3]float64
		want   [3]float64
	}{
		// cardioid on the x axis: angle 0, radius w·√(x² + 1).
		{"cardioid", VarCardioid, 2, nil, [3]float64{1, 0, 0}, [3]float64{2 * math.Sqrt2, 0, 0}},
		{"flipcircle in", VarFlipcircle, 2, nil, [3]float64{0.5, 0.5, 0}, [3]float64{1, -1, 0}},
		{"flipcircle out", VarFlipcircle, 0.5, nil, [3]float64{0.5, 0.5, 0}, [3]float64{0.25, 0.25, 0}},
		{"flipy", VarFlipy, 1, nil, [3]float64{0.5, 0.5, 0}, [3]float64{0.5, -0.5, 0}},
		{"invpolar", VarInvpolar, 1, nil, [3]float64{0.5, 1, 0}, [3]float64{2, 0, 0}},
		{"whitney_umbrella", VarWhitneyUmbrella, 2, nil, [3]float64{0.5, 3, 0}, [3]float64{3, 1, 18}},
		// squarize maps the circle of radius 1 onto the square: angle π/4 → the corner (1, 1).
		{"squarize corner", VarSquarize, 1, nil, [3]float64{math.Sqrt2 / 2, math.Sqrt2 / 2, 0}, [3]float64{1, 1, 0}},
		{"squarize axis", VarSquarize, 1, nil, [3]float64{0, -2, 0}, [3]float64{0, -2, 0}},
		{"twoface left", VarTwoface, 2, nil, [3]float64{-1, 1, 0}, [3]float64{-2, 2, 0}},
		{"twoface right", VarTwoface, 2, nil, [3]float64{1, 1, 0}, [3]float64{1, 1, 0}},
		// shift with angle 0 adds (shift_x, −shift_y).
		{"shift", VarShift, 1, map[ParamID]float64{PShiftAngle: 0}, [3]float64{1, 1, 0}, [3]float64{1.1, 0.94, 0}},
		// sigmoid at 0 is 0; far out ±|w|.
		{"sigmoid far", VarSigmoid, -2, nil, [3]float64{100, -100, 0}, [3]float64{2, -2, 0}},
		// sph3D with unit factors is spherical in 3D.
		{"sph3D", VarSph3D, 1, map[ParamID]float64{PSph3DX: 1}, [3]float64{0, 2, 0}, [3]float64{0, 0.5, 0}},
	}
	for _, c := range cases {
		r := rng.NewStream(rng.Key(9, 8))
		if got := jwf8Map(c.id, c.w, c.params, c.in, [3]float64{}, &r); !near3(got, c.want, 1e-9) {
			t.Errorf("%s: %v -> %v, want %v", c.name, c.in, got, c.want)
		}
	}
	for seed := range uint64(30) {
		r := rng.NewStream(rng.Key(9, 9, seed))
		// triangle's points lie in its triangle (barycentric weights ≥ 0) and replace the sum.
		q := r
		got := jwf8Map(VarTriangle, 1, nil, [3]float64{5, 5, 5}, [3]float64{9, 9, 9}, &q)
		if got[0] < -0.2-1e-12 || got[0] > 0.2+1e-12 || got[1] < -0.1-1e-12 || got[1] > got[0]/2+1e-12 || got[2] != 0 {
			t.Errorf("triangle: %v outside its triangle", got)
		}
		checkDraws(t, "triangle", r, q, 2)
		q = r
		if got := jwf8Map(VarSquare3D, 2, nil, [3]float64{}, [3]float64{}, &q); math.Abs(got[0]) > 1 || math.Abs(got[1]) > 1 || math.Abs(got[2]) > 1 {
			t.Errorf("square3D: %v outside its cube", got)
		}
		checkDraws(t, "square3D", r, q, 3)
		q = r
		if got := jwf8Map(VarBlurCircle, 0.5, nil, [3]float64{}, [3]float64{}, &q); math.Hypot(got[0], got[1]) > 0.5+1e-12 {
			t.Errorf("blur_circle: %v outside its disc", got)
		}
		checkDraws(t, "blur_circle", r, q, 2)
	}
}
