package flame

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwf9fRefCases are the cases of variations_jwf9f.go for
// TestJWildfireReference, with parameters other than the defaults.
func jwf9fRefCases() [][]jwfTerm {
	pb := func(num, den, root, cn, cd float64) []jwfParam {
		return []jwfParam{{PPowBlockNumerator, "numerator", num}, {PPowBlockDenominator, "denominator", den},
			{PPowBlockRoot, "root", root}, {PPowBlockCorrectn, "correctn", cn}, {PPowBlockCorrectd, "correctd", cd}}
	}
	loonie := func(sides, star, circle float64) []jwfParam {
		return []jwfParam{{PLoonie2Sides, "sides", sides}, {PLoonie2Star, "star", star}, {PLoonie2Circle, "circle", circle}}
	}
	cpow := func(r, d, div, spread float64) []jwfParam {
		return []jwfParam{{PCpow3R, "r", r}, {PCpow3D, "d", d}, {PCpow3Divisor, "divisor", div}, {PCpow3Spread, "spread", spread}}
	}
	return [][]jwfTerm{
		{{id: VarPowBlock, w: 1.4, params: pb(4, 2, 1, 1, 1)}},
		{{id: VarPowBlock, w: 0.8, params: pb(5.5, 3.2, 0.7, 1.3, -0.6)}},
		{{id: VarLoonie2, w: 1.1, params: loonie(6, -0.4, 0.5)}},
		{{id: VarLoonie2, w: 0.9, params: loonie(1, 0.3, -0.2)}},
		{{id: VarLoonie2, w: 1.3, params: loonie(2, 0.7, 1.5)}},
		{{id: VarHypershift, w: 0.9, params: []jwfParam{{PHypershiftShift, "shift", 0.6}, {PHypershiftStretch, "stretch", -1.3}}}},
		{{id: VarEnnepers2, w: 1.1, params: []jwfParam{{PEnnepers2A, "a", 0.8}, {PEnnepers2B, "b", -0.6}, {PEnnepers2C, "c", 0.3}}}},
		{{id: VarEScale, w: 0.7, params: []jwfParam{{PEScaleScale, "scale", 1.7}, {PEScaleAngle, "angle", 0.9}}}},
		{{id: VarEScale, w: 1.2, params: []jwfParam{{PEScaleScale, "scale", -0.6}, {PEScaleAngle, "angle", -2.1}}}},
		{{id: VarLine, w: 0.9, params: []jwfParam{{PLineDelta, "delta", 0.3}, {PLinePhi, "phi", -0.2}}}},
		{{id: VarSphericalN, w: 1.1, params: []jwfParam{{PSphericalNPower, "power", 4.6}, {PSphericalNDist, "dist", 1.3}}}},
		{{id: VarLozi, w: 0.8, params: []jwfParam{{PLoziA, "a", 1.7}, {PLoziB, "b", 0.5}, {PLoziC, "c", -0.3}}}},
		{{id: VarHenon, w: 1.2, params: []jwfParam{{PHenonA, "a", 1.4}, {PHenonB, "b", 0.3}, {PHenonC, "c", 0.6}}}},
		{{id: VarCpow3, w: 0.9, params: cpow(1.3, 2.5, 3, 1.5)}},
		{{id: VarCpow3, w: 1.1, params: cpow(0.7, -0.4, 1.6, 0.3)}},
		{{id: VarHypertile3D, w: 0.8, params: []jwfParam{{PHypertile3DP, "p", 5}, {PHypertile3DQ, "q", 4}, {PHypertile3DN, "n", 2}}}},
	}
}

// By hand: maps whose result is easy to state.
func TestJWF9fByHand(t *testing.T) {
	cases := []struct {
		name   string
		id     VarID
		w      float64
		params map[ParamID]float64
		in     [3]float64
		want   [3]float64
	}{
		// lozi: (c − a·|x| + y, b·x)·w = (1 − 0.5·2 + 0.5, −2)·2.
		{"lozi", VarLozi, 2, nil, [3]float64{-2, 0.5, 0}, [3]float64{1, -4, 0}},
		{"henon", VarHenon, 1, nil, [3]float64{2, 0.5, 0}, [3]float64{1 - 2 + 0.5, 2, 0}},
		// pyramid: (x³, y³, |z³|) over their 1-norm: (1, 0, 0) → (w, 0, 0).
		{"pyramid", VarPyramid, 2, nil, [3]float64{1, 0, 0}, [3]float64{2 / (1 + 1e-9), 0, 0}},
		// hypershift with shift 0 is the double inversion: the identity (stretch 1).
		{"hypershift 0", VarHypershift, 1.5, map[ParamID]float64{PHypershiftShift: 0}, [3]float64{0.3, -0.7, 0}, [3]float64{0.45, -1.05, 0}},
		// eScale with scale 1, angle 0 is the identity (elliptic coordinates there and back).
		{"eScale identity", VarEScale, 1, nil, [3]float64{0.3, 0.7, 0}, [3]float64{0.3, 0.7, 0}},
		{"loonie2 far", VarLoonie2, 1, nil, [3]float64{3, 1, 0}, [3]float64{3, 1, 0}},
	}
	for _, c := range cases {
		r := rng.NewStream(rng.Key(9, 10))
		if got := jwf8Map(c.id, c.w, c.params, c.in, [3]float64{}, &r); !near3(got, c.want, 1e-9) {
			t.Errorf("%s: %v -> %v, want %v", c.name, c.in, got, c.want)
		}
	}
	for seed := range uint64(20) {
		r := rng.NewStream(rng.Key(9, 11, seed))
		// line: along its direction (delta 0, phi 0: the x axis), w·u1.
		u := r
		q := r
		if got := jwf8Map(VarLine, 2, nil, [3]float64{5, 5, 5}, [3]float64{}, &q); !near3(got, [3]float64{2 * u.Float64(), 0, 0}, 1e-12) {
			t.Errorf("line: %v", got)
		}
		checkDraws(t, "line", r, q, 1)
		// sphericalN with power 1, dist 1 is spherical's direction over r.
		q = r
		if got := jwf8Map(VarSphericalN, 1, map[ParamID]float64{PSphericalNPower: 1}, [3]float64{0, 2, 0}, [3]float64{}, &q); !near3(got, [3]float64{0, 0.5, 0}, 1e-12) {
			t.Errorf("sphericalN: %v", got)
		}
		for _, id := range []VarID{VarPowBlock, VarCpow3} {
			q = r
			jwf8Map(id, 1, nil, [3]float64{0.3, -0.4, 0}, [3]float64{}, &q)
			checkDraws(t, VarNames[id], r, q, int(varDraws[id]))
		}
	}
	// pow_block with numerator = denominator = 1 (root 1) is linear.
	r := rng.NewStream(3)
	ps := map[ParamID]float64{PPowBlockNumerator: 1, PPowBlockDenominator: 1}
	if got := jwf8Map(VarPowBlock, 1, ps, [3]float64{0.3, -0.4, 0}, [3]float64{}, &r); !near3(got, [3]float64{0.3, -0.4, 0}, 1e-9) {
		t.Errorf("pow_block 1/1: %v", got)
	}
}
