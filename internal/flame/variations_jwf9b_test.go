package flame

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwf9bRefCases are the cases of variations_jwf9b.go for
// TestJWildfireReference, with parameters other than the defaults.
func jwf9bRefCases() [][]jwfTerm {
	osc := func(sep, fx, fy, amp, pert, damp float64) []jwfParam {
		return []jwfParam{{POscilloscope2Separation, "separation", sep}, {POscilloscope2Frequencyx, "frequencyx", fx},
			{POscilloscope2Frequencyy, "frequencyy", fy}, {POscilloscope2Amplitude, "amplitude", amp},
			{POscilloscope2Perturbation, "perturbation", pert}, {POscilloscope2Damping, "damping", damp}}
	}
	return [][]jwfTerm{
		{{id: VarMcarpet, w: 0.8, params: []jwfParam{{PMcarpetX, "x", -0.6}, {PMcarpetY, "y", 1.3},
			{PMcarpetTwist, "twist", 0.2}, {PMcarpetTilt, "tilt", 0.7}}}},
		{{id: VarCos2Bs, w: 1.1, params: []jwfParam{{PCos2BsX1, "x1", 0.4}, {PCos2BsX2, "x2", -1.3},
			{PCos2BsY1, "y1", 2.1}, {PCos2BsY2, "y2", 0.6}}}},
		{{id: VarSec2Bs, w: 0.7, params: []jwfParam{{PSec2BsX1, "x1", -0.4}, {PSec2BsX2, "x2", 1.8},
			{PSec2BsY1, "y1", 0.3}, {PSec2BsY2, "y2", -1.1}}}},
		{{id: VarMapleLeaf, w: 0.9, params: []jwfParam{{PMapleLeafFilled, "filled", 0.9}}}},
		{{id: VarMapleLeaf, w: 1.2, params: []jwfParam{{PMapleLeafFilled, "filled", 0}}}},
		{{id: VarJapaneseMapleLeaf, w: 1.1, params: []jwfParam{{PJapaneseMapleLeafFilled, "filled", 0.7}}}},
		{{id: VarJapaneseMapleLeaf, w: 0.8, params: []jwfParam{{PJapaneseMapleLeafFilled, "filled", -1}}}},
		{{id: VarDisc3D, w: 0.9, params: []jwfParam{{PDisc3DPi, "pi", 1.7}}}},
		{{id: VarLissajous, w: 1.2, params: []jwfParam{{PLissajousTmin, "tmin", -2}, {PLissajousTmax, "tmax", 5},
			{PLissajousA, "a", 1.5}, {PLissajousB, "b", -4}, {PLissajousC, "c", 0.3}, {PLissajousD, "d", 0.8},
			{PLissajousE, "e", 0.6}}}},
		{{id: VarOscilloscope2, w: 0.8, params: osc(0.4, 1.3, 0.7, 0.9, 0.5, 0)}},
		{{id: VarOscilloscope2, w: 1.1, params: osc(-0.2, 2.5, 1.1, 1.4, -0.8, 0.6)}},
		{{id: VarSpligon, w: 0.9, params: []jwfParam{{PSpligonSides, "sides", 5}, {PSpligonR, "r", 0.6}, {PSpligonI, "i", -1.5}}}},
		{{id: VarSpligon, w: 1.2, params: []jwfParam{{PSpligonSides, "sides", 0.3}, {PSpligonR, "r", 1.4}, {PSpligonI, "i", 2}}}},
	}
}

// By hand: maps whose result is easy to state.
func TestJWF9bByHand(t *testing.T) {
	cases := []struct {
		name   string
		id     VarID
		w      float64
		params map[ParamID]float64
		in     [3]float64
		want   [3]float64
	}{
		// mcarpet at the origin: (1 − 0 + 0)·w on x.
		{"mcarpet at 0", VarMcarpet, 2, nil, [3]float64{0, 0, 0}, [3]float64{2, 0, 0}},
		// cos2_bs with unit factors is cos z conjugated: (cos x cosh y, −sin x sinh y).
		{"cos2_bs", VarCos2Bs, 1, nil, [3]float64{0.5, 0.3, 0}, [3]float64{math.Cos(0.5) * math.Cosh(0.3), -math.Sin(0.5) * math.Sinh(0.3), 0}},
		// sec2_bs on the real axis with x2 = y = 0 factors: 2/(cos 2x + 1)·cos 0 = sec² x.
		{"sec2_bs", VarSec2Bs, 1, map[ParamID]float64{PSec2BsX2: 0}, [3]float64{0.4, 0, 0}, [3]float64{1 / (math.Cos(0.4) * math.Cos(0.4)), 0, 0}},
		// inflateZ_3 on the positive x axis (angle 0): z += 0.2·π·cos(−x).
		{"inflateZ_3", VarInflateZ3, 1, nil, [3]float64{0.5, 0, 0}, [3]float64{0, 0, 0.2 * math.Pi * math.Cos(-0.5)}},
		// disc3d: at (0, 1) the angle atan2(x, y) is 0: nothing moves.
		{"disc3d", VarDisc3D, 1, nil, [3]float64{0, 1, 0}, [3]float64{0, 0, 0}},
		// oscilloscope2: far outside the wave the point is linear, inside mirrored.
		{"oscilloscope2 out", VarOscilloscope2, 1.5, nil, [3]float64{0, 3, 0}, [3]float64{0, 4.5, 0}},
		{"oscilloscope2 in", VarOscilloscope2, 1.5, nil, [3]float64{0, 0.5, 0}, [3]float64{0, -0.75, 0}},
		// wdisc at (−1, 0): r = 1, a = π − π/2: (0, 1)·w.
		{"wdisc", VarWdisc, 2, nil, [3]float64{-1, 0, 0}, [3]float64{0, 2, 0}},
	}
	for _, c := range cases {
		r := rng.NewStream(rng.Key(9, 4))
		if got := jwf8Map(c.id, c.w, c.params, c.in, [3]float64{}, &r); !near3(got, c.want, 1e-12) {
			t.Errorf("%s: %v -> %v, want %v", c.name, c.in, got, c.want)
		}
	}
	// circleblur stays in the disc of radius w; lissajous with c = e = 0
	// on its curve (|x|, |y| ≤ w).
	for seed := range uint64(50) {
		r := rng.NewStream(rng.Key(9, 5, seed))
		q := r
		if got := jwf8Map(VarCircleblur, 0.7, nil, [3]float64{3, 3, 0}, [3]float64{}, &q); math.Hypot(got[0], got[1]) > 0.7 {
			t.Errorf("circleblur outside its disc: %v", got)
		}
		checkDraws(t, "circleblur", r, q, 2)
		q = r
		if got := jwf8Map(VarLissajous, 0.7, nil, [3]float64{3, 3, 0}, [3]float64{}, &q); math.Abs(got[0]) > 0.7 || math.Abs(got[1]) > 0.7 {
			t.Errorf("lissajous off its curve: %v", got)
		}
		checkDraws(t, "lissajous", r, q, 2)
		for _, id := range []VarID{VarMapleLeaf, VarJapaneseMapleLeaf} {
			q = r
			jwf8Map(id, 1, nil, [3]float64{0.3, -0.2, 0}, [3]float64{}, &q)
			checkDraws(t, VarNames[id], r, q, 2)
		}
	}
}
