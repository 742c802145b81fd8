package flame

import (
	"math"
	"math/cmplx"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwf9Defaults gives, in JWildfire's class's names, procgen's defaults of
// the variations whose class defaults differ (Fractorium's Mobius and
// bwraps checked against JWildfire's mobius and bwraps7) or are random
// (target).
func jwf9Defaults(id VarID) []jwfParam {
	switch id {
	case VarMobiusFr:
		return mobiusParams(1, 0, 0, 0, 0, 0, 1, 0)
	case VarBwraps:
		return bwrapsParams(1, 0, 1, 0, 0)
	case VarTarget:
		return []jwfParam{{PTargetEven, "even", math.Pi + 0.5}, {PTargetOdd, "odd", math.Pi + 0.5}, {PTargetSize, "size", 0.875}}
	case VarPowBlock:
		return []jwfParam{{PPowBlockNumerator, "numerator", 4.5}, {PPowBlockDenominator, "denominator", 2.5}}
	}
	return nil
}

func mobiusParams(reA, imA, reB, imB, reC, imC, reD, imD float64) []jwfParam {
	return []jwfParam{{PMobiusFrReA, "re_a", reA}, {PMobiusFrImA, "im_a", imA}, {PMobiusFrReB, "re_b", reB},
		{PMobiusFrImB, "im_b", imB}, {PMobiusFrReC, "re_c", reC}, {PMobiusFrImC, "im_c", imC},
		{PMobiusFrReD, "re_d", reD}, {PMobiusFrImD, "im_d", imD}}
}

func bwrapsParams(cs, space, gain, inner, outer float64) []jwfParam {
	return []jwfParam{{PBwrapsCellsize, "cellsize", cs}, {PBwrapsSpace, "space", space}, {PBwrapsGain, "gain", gain},
		{PBwrapsInnerTwist, "inner_twist", inner}, {PBwrapsOuterTwist, "outer_twist", outer}}
}

// jwf9RefCases are the cases of variations_jwf9.go for
// TestJWildfireReference, with parameters other than the defaults.
func jwf9RefCases() [][]jwfTerm {
	truchet := func(ext, exp, width, rot, size, seed float64) []jwfParam {
		return []jwfParam{{PTruchetExtended, "extended", ext}, {PTruchetExponent, "exponent", exp},
			{PTruchetArcWidth, "arc_width", width}, {PTruchetRotation, "rotation", rot}, {PTruchetSize, "size", size},
			{PTruchetSeed, "seed", seed}}
	}
	glynn := func(radius, r1, phi, thick, pow, contrast float64) []jwfParam {
		return []jwfParam{{PGlynnSim1Radius, "radius", radius}, {PGlynnSim1Radius1, "radius1", r1},
			{PGlynnSim1Phi1, "phi1", phi}, {PGlynnSim1Thickness, "thickness", thick}, {PGlynnSim1Pow, "pow", pow},
			{PGlynnSim1Contrast, "contrast", contrast}}
	}
	return [][]jwfTerm{
		{{id: VarAcosh, w: -1.3}},
		{{id: VarAcosech, w: 0.6}},
		{{id: VarAcoth, w: 1.7}},
		{{id: VarFoci3D, w: -0.8}},
		{{id: VarMobiusFr, w: 0.9, params: mobiusParams(-0.92, 0.262, 0.3, -0.12, 0.05, -1, 2.05, 0.124)}},
		{{id: VarMobiusFr, w: 1.2, params: mobiusParams(0.4, 2.2, -0.5, 0.5, 1.3, 0.05, -0.4, -0.4)}},
		{{id: VarBwraps, w: 0.95, params: bwrapsParams(0.7, 0, 0, 0.5, 0)}},
		{{id: VarBwraps, w: 1.1, params: bwrapsParams(0.333333, 0.4, 1, -0.5, 1.2)}},
		{{id: VarBwraps, w: 0.8, params: bwrapsParams(2, 0.1, 3, 0.7, -0.3)}},
		{{id: VarLinearT3D, w: 0.7, params: []jwfParam{{PLinearT3DPowX, "powX", 2.2}, {PLinearT3DPowY, "powY", 0.4},
			{PLinearT3DPowZ, "powZ", -1.3}}}},
		{{id: VarMurl, w: 0.9, params: []jwfParam{{PMurlC, "c", 0.6}, {PMurlPower, "power", 3.7}}}},
		{{id: VarMurl, w: 1.1, params: []jwfParam{{PMurlC, "c", -0.3}, {PMurlPower, "power", -2}}}},
		{{id: VarShredlin, w: 1.3, params: []jwfParam{{PShredlinXdistance, "xdistance", 0.4}, {PShredlinXwidth, "xwidth", 0.8},
			{PShredlinYdistance, "ydistance", -0.7}, {PShredlinYwidth, "ywidth", 0.2}}}},
		{{id: VarTarget, w: 0.9, params: []jwfParam{{PTargetEven, "even", 0.4}, {PTargetOdd, "odd", -1.1}, {PTargetSize, "size", 0.6}}}},
		{{id: VarBarycentroid, w: 1.1, params: []jwfParam{{PBarycentroidA, "a", 0.7}, {PBarycentroidB, "b", -0.4},
			{PBarycentroidC, "c", 0.3}, {PBarycentroidD, "d", 1.5}}}},
		{{id: VarBTransform, w: 0.8, params: []jwfParam{{PBTransformRotate, "rotate", 0.6}, {PBTransformPower, "power", 3.4},
			{PBTransformMove, "move", -0.2}, {PBTransformSplit, "split", 0.35}}}},
		{{id: VarGlynnSim1, w: 0.9, params: glynn(0.8, 0.4, 30, 0.3, 2.5, 0.9)}},
		{{id: VarGlynnSim1, w: 1.2, params: glynn(1.5, 1.1, 200, 1.4, -1, -0.3)}},
		{{id: VarGlynnSim1, w: 0.7, params: glynn(2.5, 2.5, 160, 0.5, 1, 1)}},
		{{id: VarHypertile, w: 0.9, params: []jwfParam{{PHypertileP, "p", 5}, {PHypertileQ, "q", 4}, {PHypertileN, "n", 3}}}},
		{{id: VarHypertile, w: 1.1, params: []jwfParam{{PHypertileP, "p", 2}, {PHypertileQ, "q", 8.6}, {PHypertileN, "n", -1}}}},
		{{id: VarTruchet, w: 0.9, params: truchet(0, 1.5, 0.8, 0.3, 1.4, 17)}},
		{{id: VarTruchet, w: 1.3, params: truchet(1, 0.7, 1, -0.4, 0.6, 33.3)}},
		{{id: VarTruchet, w: 0.45, params: truchet(0, 2, 0.9, 0, 1, 1)}},
		{{id: VarTruchet, w: 0.6, params: truchet(1, 3, 2, 0.1, 20, 0)}},
	}
}

// By hand: the hyperbolic arcs against Go's complex functions, and maps
// whose result is easy to state.
func TestJWF9ByHand(t *testing.T) {
	for _, z := range []complex128{complex(0.3, -0.7), complex(-1.4, 0.25), complex(2.2, 1.3), complex(-0.6, -0.45)} {
		x, y := real(z), imag(z)
		for _, c := range []struct {
			id   VarID
			want complex128
		}{
			{VarAcosh, cmplx.Acosh(z)},
			{VarAcosech, cmplx.Acosh(1 / z)},
			{VarAcoth, cmplx.Atanh(1 / z)},
		} {
			want := c.want * 2 / math.Pi
			if c.id != VarAcosh { // JWildfire swaps re and im
				want = complex(imag(want), real(want))
			}
			r := rng.NewStream(rng.Key(9, 1))
			u := r
			got := jwf8Map(c.id, 1, nil, [3]float64{x, y, 0}, [3]float64{}, &r)
			if c.id != VarAcoth && u.Float64() >= 0.5 {
				want = -want
			}
			// For Re z < 0 JWildfire's log(z + √(z² − 1)) is the other
			// branch, −acosh z; the random sign makes both the same map.
			neg := c.id != VarAcoth && !near3(got, [3]float64{-real(want), -imag(want), 0}, 1e-9)
			if !near3(got, [3]float64{real(want), imag(want), 0}, 1e-9) && (c.id == VarAcoth || neg) {
				t.Errorf("%s at %v: %v, want %v", VarNames[c.id], z, got, want)
			}
		}
	}
	cases := []struct {
		name   string
		id     VarID
		w      float64
		params map[ParamID]float64
		in     [3]float64
		want   [3]float64
	}{
		{"bi_linear swaps", VarBiLinear, 2, nil, [3]float64{0.3, -0.5, 1}, [3]float64{-1, 0.6, 0}},
		// Mobius with a = d = 1, b = c = 0 is the identity; with c = 1, d = 0 the inverse 1/z.
		{"Mobius identity", VarMobiusFr, 1.5, nil, [3]float64{0.3, -0.5, 0}, [3]float64{0.45, -0.75, 0}},
		{"Mobius inverse", VarMobiusFr, 1, map[ParamID]float64{PMobiusFrReA: 0, PMobiusFrReB: 1, PMobiusFrReC: 1, PMobiusFrReD: 0},
			[3]float64{0, 2, 0}, [3]float64{0, -0.5, 0}},
		// linearT3D with powers 1 is linear in 3D; a zero coordinate counts as negative: −0^p.
		{"linearT3D", VarLinearT3D, 2, map[ParamID]float64{PLinearT3DPowX: 1, PLinearT3DPowY: 2, PLinearT3DPowZ: 1},
			[3]float64{-0.5, 3, 0.25}, [3]float64{-1, 18, 0.5}},
		// murl with c = 0 is linear times w.
		{"murl c 0", VarMurl, 1.5, map[ParamID]float64{PMurlC: 0}, [3]float64{0.4, -2, 0}, [3]float64{0.6, -3, 0}},
		// shredlin width 1 is the identity, replacing the sum.
		{"shredlin width 1", VarShredlin, 2, map[ParamID]float64{PShredlinXwidth: 1, PShredlinYwidth: 1},
			[3]float64{1.3, -0.7, 0}, [3]float64{2.6, -1.4, 0}},
		// shredlin's default: 1.3 (strip 1, 0.3 in) goes to 1 + 0.3·0.5 + 0.25.
		{"shredlin", VarShredlin, 1, nil, [3]float64{1.3, 0, 0}, [3]float64{1.4, 0.25, 0}},
		// target: r = 1 is log 0, in the even half; the turn is even, the weight not applied.
		{"target", VarTarget, 3, map[ParamID]float64{PTargetEven: math.Pi / 2}, [3]float64{1, 0, 0}, [3]float64{0, 1, 0}},
		// barycentroid on the unit axes: u = x, v = y, lengthened to √2·x.
		{"barycentroid", VarBarycentroid, 1, nil, [3]float64{0.5, -2, 0}, [3]float64{0.5 * math.Sqrt2, -2 * math.Sqrt2, 0}},
		// hypertile n = 0 is the translation along the real axis by r: at 0, w·r.
		{"foci_3D at 0", VarFoci3D, 1, nil, [3]float64{0, 0, 0}, [3]float64{0, 0, 0}},
	}
	for _, c := range cases {
		r := rng.NewStream(rng.Key(9, 2))
		if got := jwf8Map(c.id, c.w, c.params, c.in, [3]float64{5, 5, 0}, &r); !near3(got, add3(c.want, c.id), 1e-12) {
			t.Errorf("%s: %v -> %v, want %v", c.name, c.in, got, add3(c.want, c.id))
		}
	}
	// hypertile with n = 0 moves 0 to r = 1/√((1 − cos pa)/(cos pa + cos qa) + 1).
	pa, qa := 2*math.Pi/3, 2*math.Pi/7
	want := 1 / math.Sqrt((1-math.Cos(pa))/(math.Cos(pa)+math.Cos(qa))+1)
	r := rng.NewStream(1)
	if got := jwf8Map(VarHypertile, 1, map[ParamID]float64{PHypertileN: 0}, [3]float64{}, [3]float64{}, &r); !near3(got, [3]float64{want, 0, 0}, 1e-12) {
		t.Errorf("hypertile at 0: %v, want (%g, 0)", got, want)
	}
	// truchet with seed 1: every point on an arc of the tile keeps its
	// place (size 1, w 1); the tile's centre (½, ½) is on no arc of exponent 2.
	r = rng.NewStream(1)
	if got := jwf8Map(VarTruchet, 1, map[ParamID]float64{PTruchetSeed: 1}, [3]float64{0.5, 0.5, 0}, [3]float64{}, &r); got != [3]float64{} {
		t.Errorf("truchet at the centre: %v", got)
	}
	on := 0.5 / math.Sqrt2 // on the arc of radius ½ about (0, 0)... of tile type 1, about (1, 0)
	r = rng.NewStream(1)
	if got := jwf8Map(VarTruchet, 1, map[ParamID]float64{PTruchetSeed: 1}, [3]float64{1 - on, on, 0}, [3]float64{}, &r); !near3(got, [3]float64{1 - on, on, 0}, 1e-12) {
		t.Errorf("truchet on the arc: %v", got)
	}
}

// add3 is want plus the starting sum (5, 5, 0) the by-hand cases use,
// except for shredlin, which replaces the sum.
func add3(want [3]float64, id VarID) [3]float64 {
	if id == VarShredlin {
		return want
	}
	return [3]float64{want[0] + 5, want[1] + 5, want[2]}
}

// glynnSim1 draws three numbers whichever branch it takes.
func TestJWF9Draws(t *testing.T) {
	for _, in := range [][3]float64{{0.1, 0.2, 0}, {3, 1, 0}, {-0.34, 0.94, 0}} {
		for _, id := range []VarID{VarGlynnSim1, VarBTransform, VarAcosh, VarAcosech} {
			r := rng.NewStream(rng.Key(9, 3))
			q := r
			jwf8Map(id, 1, nil, in, [3]float64{}, &q)
			checkDraws(t, VarNames[id], r, q, int(varDraws[id]))
		}
	}
}
