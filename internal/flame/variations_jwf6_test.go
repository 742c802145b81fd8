package flame

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// synthModes are all of synth's modes, new and legacy.
var synthModes = []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
	1001, 1002, 1003, 1004, 1005, 1006, 1007}

// synthRefTerm is a synth term in mode with smoothing smooth and every
// layer used: each wave type (9 is unknown: the previous layer's wave is
// reused), each layer kind, skews of both signs.
func synthRefTerm(mode, smooth, w float64) jwfTerm {
	m := int(mode)
	ps := []jwfParam{{PSynthA, "a", 1.1}, {PSynthMode, "mode", mode}, {PSynthPower, "power", -1.3},
		{PSynthMix, "mix", 0.8}, {PSynthSmooth, "smooth", smooth}}
	layers := [synthLayers][6]float64{
		{0.4, float64(m % 9), 0.3, 3, 0.5, float64(m % 4)},
		{0.3, float64((m + 4) % 9), -0.4, 2, -1.1, float64((m + 1) % 4)},
		{-0.2, 7, 0, 5, 0.2, 1},
		{0.15, 8, 0.6, 4, 0, float64((m + 2) % 4)},
		{0.25, 9, 0, 1.5, 0.7, float64((m + 3) % 4)},
	}
	names := [6]string{"", "_type", "_skew", "_frq", "_phs", "_layer"}
	for k, l := range layers {
		for j, v := range l {
			ps = append(ps, jwfParam{PSynthB + ParamID(6*k+j), string(rune('b'+k)) + names[j], v})
		}
	}
	return jwfTerm{id: VarSynth, w: w, params: ps}
}

// jwf6RefCases are the cases of variations_jwf6.go for
// TestJWildfireReference: synth in every mode, with both smoothings, and
// after a linear (disc mode replaces the sum before it).
func jwf6RefCases() [][]jwfTerm {
	var cs [][]jwfTerm
	for _, mode := range synthModes {
		cs = append(cs, []jwfTerm{synthRefTerm(mode, 0, 0.9)}, []jwfTerm{synthRefTerm(mode, 1, -1.2)})
	}
	cs = append(cs, []jwfTerm{{id: VarLinear3D, w: 0.5}, synthRefTerm(1005, 0, 0.7)})
	return cs
}

func TestJWF6Synth(t *testing.T) {
	// The base wave: a = 1.1 alone, mix ½: 1.1·½ + ½ = 1.05.
	// b = 0.5 sine at phase π/2 (y = ¼ of the turn): 1 + 0.5·1 = 1.5.
	// skew ½ moves the midpoint to ¾: y = ¼ → 0.5 − 0.5·(½)/(¾) = ⅙.
	// square at y = ⅙ (≤ ½) is −1; multiplied: 1·(1 + 0.5·−1) = 0.5.
	// max of a + b·wave: 1 vs 1 + 0.5·sin(π/2) = 1.5.
	// unknown type 9 after a sine layer reuses its wave.
	base := map[ParamID]float64{PSynthMode: 7}
	type tc struct {
		name   string
		params map[ParamID]float64
		in     [2]float64
		want   [2]float64
	}
	with := func(m map[ParamID]float64) map[ParamID]float64 {
		out := map[ParamID]float64{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	cases := []tc{
		// mode 7 (raw y): y scaled by the wave of x.
		{"a and mix", with(map[ParamID]float64{PSynthA: 1.1, PSynthMix: 0.5}), [2]float64{0.3, 2}, [2]float64{0.3, 2.1}},
		{"sine layer", with(map[ParamID]float64{PSynthB: 0.5, PSynthBPhs: math.Pi / 2}), [2]float64{0, 2}, [2]float64{0, 3}},
		{"skewed square, multiplied", with(map[ParamID]float64{PSynthB: 0.5, PSynthBType: 2, PSynthBSkew: 0.5, PSynthBLayer: 1,
			PSynthBPhs: math.Pi / 2}), [2]float64{0, 2}, [2]float64{0, 1}},
		{"saw at ⅙", with(map[ParamID]float64{PSynthB: 0.5, PSynthBType: 3, PSynthBSkew: 0.5, PSynthBPhs: math.Pi / 2}),
			[2]float64{0, 2}, [2]float64{0, 2 * (1 + 0.5*(1-2.0/6))}},
		{"max", with(map[ParamID]float64{PSynthB: 0.5, PSynthBLayer: 2, PSynthBFrq: 1, PSynthBPhs: math.Pi / 2}),
			[2]float64{0, 2}, [2]float64{0, 3}},
		{"min", with(map[ParamID]float64{PSynthB: 0.5, PSynthBLayer: 3, PSynthBPhs: math.Pi / 2}),
			[2]float64{0, 2}, [2]float64{0, 2}},
		{"unknown type reuses the wave", with(map[ParamID]float64{PSynthB: 0.5, PSynthBPhs: math.Pi / 2,
			PSynthD: 0.25, PSynthDType: 9}), [2]float64{0, 2}, [2]float64{0, 2 * (1 + 0.5 + 0.25)}},
		// mode 5 (raw circle): radius scaled by the wave of atan2(x, y) =
		// π/2 at (1, 0): sine layer at frequency 1 is 1, so radius 1.5.
		{"raw circle", map[ParamID]float64{PSynthMode: 5, PSynthB: 0.5}, [2]float64{1, 0}, [2]float64{1.5, 0}},
		// Bézier smoothing, m = 1.5 > 1 and x = 1: the curve passes (1, m).
		{"bezier at 1", map[ParamID]float64{PSynthMode: 5, PSynthB: 0.5, PSynthSmooth: 1}, [2]float64{1, 0}, [2]float64{1.5, 0}},
		// Bézier with m = 0.5 (the special straight case t = x... m−½ = 0):
		// x = ¼: t = ¼, y = ¼ − ½·(1/16) = 7/32.
		{"bezier m ½", map[ParamID]float64{PSynthMode: 5, PSynthA: 0.5, PSynthSmooth: 1}, [2]float64{0.25, 0}, [2]float64{7.0 / 32, 0}},
		// beyond L = max(2−m, 2m) the map is the identity.
		{"bezier far", map[ParamID]float64{PSynthMode: 5, PSynthA: 0.5, PSynthSmooth: 1}, [2]float64{3, 0}, [2]float64{3, 0}},
		// mode 11 (shift xy) with a = 1: a flat wave moves nothing.
		{"shift xy flat", map[ParamID]float64{PSynthMode: 11}, [2]float64{0.4, -0.3}, [2]float64{0.4, -0.3}},
		// mode 17 (x mirror), a = 1.25: y ↦ 2·0.25 − y.
		{"x mirror", map[ParamID]float64{PSynthMode: 17, PSynthA: 1.25}, [2]float64{0.4, 0.1}, [2]float64{0.4, 0.4}},
		// mode 0 (spherical), power −2: r^(−1) at angle; (0, 2) → (0, ½).
		{"spherical", map[ParamID]float64{PSynthMode: 0, PSynthPower: -2}, [2]float64{0, 2}, [2]float64{0, 0.5}},
		// mode 1 (bubble): r/(r²/4+1) = 2/2 at (0, 2).
		{"bubble", map[ParamID]float64{PSynthMode: 1}, [2]float64{0, 2}, [2]float64{0, 1}},
		// mode 1006 (rings), power 1 (mu 1): r = 2.5 + (−2·trunc(3.5/2)) + 0 = 0.5.
		{"rings", map[ParamID]float64{PSynthMode: 1006, PSynthPower: 1}, [2]float64{0, 2.5}, [2]float64{0, 0.5}},
		// an unknown mode adds nothing.
		{"unknown mode", map[ParamID]float64{PSynthMode: 50}, [2]float64{1, 1}, [2]float64{0, 0}},
	}
	for _, c := range cases {
		x := newXform(0)
		x.Vars = []VarTerm{{ID: VarSynth, Weight: 1}}
		for id, v := range c.params {
			x.Params[id] = v
		}
		Precalc(&x)
		st := varState{tx: c.in[0], ty: c.in[1], p: &x.Params}
		st.sumsq = st.tx*st.tx + st.ty*st.ty
		st.sqrt = math.Sqrt(st.sumsq)
		r := rng.NewStream(rng.Key(6, 1))
		st.apply(VarSynth, 1, &r)
		if math.Abs(st.px-c.want[0]) > 1e-9 || math.Abs(st.py-c.want[1]) > 1e-9 {
			t.Errorf("%s: %v -> (%.12g, %.12g), want %v", c.name, c.in, st.px, st.py, c.want)
		}
	}
}

func TestJWF6SynthBlurRing(t *testing.T) {
	// Mode 13 with a flat wave (a = 1) and power 1: the radius is
	// 1 + 0.1·(u2 + ε), at angle 2π·u1 − π from the y axis.
	x := newXform(0)
	x.Vars = []VarTerm{{ID: VarSynth, Weight: 2}}
	x.Params[PSynthMode], x.Params[PSynthPower] = 13, 1
	Precalc(&x)
	r := rng.NewStream(rng.Key(6, 1))
	peek := r
	u1, u2 := peek.Float64(), peek.Float64()
	gx, gy, _ := ApplyXform(&x, 0.3, 0.2, &r)
	rad, th := 2*(1+0.1*u2), 2*math.Pi*u1-math.Pi
	if math.Abs(gx-rad*math.Sin(th)) > 1e-12 || math.Abs(gy-rad*math.Cos(th)) > 1e-12 {
		t.Errorf("blur ring 2: got (%g, %g), want (%g, %g)", gx, gy, rad*math.Sin(th), rad*math.Cos(th))
	}
	for range 2 {
		peek.Float64()
	}
	if r != peek {
		t.Error("synth did not take its four draws")
	}
}
