package flame

import (
	"math"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwf8Map adds variation id with weight w at (x, y, z), with JWildfire's
// defaults changed by params, to a sum that starts at sum.
func jwf8Map(id VarID, w float64, params map[ParamID]float64, in, sum [3]float64, r *rng.Stream) [3]float64 {
	xf := newXform(0)
	for p, v := range params {
		xf.Params[p] = v
	}
	Precalc(&xf)
	s := varState{tx: in[0], ty: in[1], tz: in[2], px: sum[0], py: sum[1], pz: sum[2], c: &xf.Coefs, p: &xf.Params}
	s.sumsq = in[0]*in[0] + in[1]*in[1]
	s.sqrt = math.Sqrt(s.sumsq)
	s.apply(id, w, r)
	return [3]float64{s.px, s.py, s.pz}
}

// The deterministic ones: each point worked out by hand.
func TestJWF8Fixed(t *testing.T) {
	cases := []struct {
		name   string
		id     VarID
		w      float64
		params map[ParamID]float64
		in     [3]float64
		want   [3]float64
	}{
		// dir 0, angle π/2: a quarter wave along x (sin(¼·2π) = 1) moves y by amp ¼.
		{"vibration2 wave", VarVibration2, 1, map[ParamID]float64{PVibration2Angle: math.Pi / 2, PVibration2Amp2: 0},
			[3]float64{0.25, 0, 5}, [3]float64{0.25, 0.25, 0}},
		// the weight scales the moved point; at half a wave the sine is 0.
		{"vibration2 weight", VarVibration2, 2, map[ParamID]float64{PVibration2Angle: math.Pi / 2, PVibration2Amp2: 0},
			[3]float64{0.5, 1, 0}, [3]float64{1, 2, 0}},
		// am 1 at amfreq 0 doubles the amplitude (amp + amp·1·cos 0).
		{"vibration2 am", VarVibration2, 1, map[ParamID]float64{PVibration2Angle: math.Pi / 2, PVibration2Amp2: 0,
			PVibration2Am: 1, PVibration2Amfreq: 0}, [3]float64{0.25, 0, 0}, [3]float64{0.25, 0.5, 0}},
		// the second wave alone: along y (dir2 π/2), moving along π (angle2 π/2 + dir2).
		{"vibration2 second", VarVibration2, 1, map[ParamID]float64{PVibration2Amp: 0,
			PVibration2Dir2: math.Pi / 2, PVibration2Angle2: math.Pi / 2},
			[3]float64{0, 0.25, 0}, [3]float64{-0.25, 0.25, 0}},
		// phase ¼ of a turn shifts the first wave by π/2: sin(0 + π/2) = 1.
		{"vibration2 phase", VarVibration2, 1, map[ParamID]float64{PVibration2Angle: math.Pi / 2, PVibration2Amp2: 0,
			PVibration2Phase: 0.25}, [3]float64{0, 0, 0}, [3]float64{0, 0.25, 0}},
		// wavesn power 1: the root is the point times w; x waves by ½·sin(freqy·xn).
		{"wavesn", VarWavesn, 1, nil, [3]float64{1, 0, 0}, [3]float64{1, 0.5 * math.Sin(2), 0}},
		// incy 2 adds ½·|yn|·2·sin(..) — yn 0 here; on y: (0, 1) gives x ½·sin 2·(1 + 0).
		{"wavesn inc", VarWavesn, 1, map[ParamID]float64{PWavesnIncx: 2}, [3]float64{0, 1, 0},
			[3]float64{0.5 * math.Sin(2), 1, 0}},
		// weight twice: w·(w·x) without waves.
		{"wavesn weight", VarWavesn, 2, map[ParamID]float64{PWavesnScalex: 0, PWavesnScaley: 0}, [3]float64{1, 0.5, 0},
			[3]float64{4, 2, 0}},
	}
	for _, c := range cases {
		r := rng.NewStream(rng.Key(8, 1))
		if got := jwf8Map(c.id, c.w, c.params, c.in, [3]float64{}, &r); !near3(got, c.want, 1e-12) {
			t.Errorf("%s: %v -> %v, want %v", c.name, c.in, got, c.want)
		}
	}
}

// The ones that draw: the expected point follows from the same draws,
// taken from a copy of the stream.
func TestJWF8Random(t *testing.T) {
	r2 := math.Sqrt2
	for seed := range uint64(24) {
		r := rng.NewStream(rng.Key(8, seed))
		u := r
		u1 := u.Float64()
		u2, u3, u4, u5 := u.Float64(), u.Float64(), u.Float64(), u.Float64()
		// gaussian: the point plus w·(u2+u3+u4+u5−2) at angle 2π·u1.
		g := 0.5 * (u2 + u3 + u4 + u5 - 2)
		want := [3]float64{1 + g*math.Cos(2*math.Pi*u1), -2 + g*math.Sin(2*math.Pi*u1), 0}
		q := r
		if got := jwf8Map(VarGaussian, 0.5, nil, [3]float64{1, -2, 3}, [3]float64{}, &q); !near3(got, want, 1e-12) {
			t.Errorf("gaussian (seed %d): %v, want %v", seed, got, want)
		}
		checkDraws(t, "gaussian", r, q, 5)
		// mirror_x: the sum is replaced by (±|x|, y, z), whatever the weight.
		want = [3]float64{3, 2, 1}
		if u1 >= 0.5 {
			want[0] = -3
		}
		q = r
		if got := jwf8Map(VarMirrorX, 0.05, nil, [3]float64{-3, 2, 1}, [3]float64{7, 7, 7}, &q); !near3(got, want, 0) {
			t.Errorf("mirror_x (seed %d): %v, want %v", seed, got, want)
		}
		checkDraws(t, "mirror_x", r, q, 1)
		// wavesn power 2 without waves: the square roots of (0, 4) are ±(√2, √2).
		want = [3]float64{r2, r2, 0}
		if u1 >= 0.5 {
			want = [3]float64{-r2, -r2, 0}
		}
		q = r
		if got := jwf8Map(VarWavesn, 1, map[ParamID]float64{PWavesnPower: 2, PWavesnScalex: 0, PWavesnScaley: 0},
			[3]float64{0, 4, 0}, [3]float64{}, &q); !near3(got, want, 1e-12) {
			t.Errorf("wavesn (seed %d): %v, want %v", seed, got, want)
		}
		checkDraws(t, "wavesn", r, q, 1)
		// xtrb with width 0 (always the bent map, which is then the
		// identity) or 1 (always the plain map, scale 1) leaves the
		// trilinear point as it is: power 1 gives w²·(x, y); power 2 a
		// square root picked by u2, scaled by w².
		for _, width := range []float64{0, 1} {
			ps := map[ParamID]float64{PXtrbWidth: width, PXtrbPower: 1, PXtrbA: 0.7, PXtrbB: 0.4, PXtrbRadius: 0.8}
			q = r
			if got := jwf8Map(VarXtrb, 2, ps, [3]float64{0.3, -1.7, 0}, [3]float64{}, &q); !near3(got, [3]float64{1.2, -6.8, 0}, 1e-9) {
				t.Errorf("xtrb width %g power 1 (seed %d): %v", width, seed, got)
			}
			checkDraws(t, "xtrb", r, q, 2)
			ps[PXtrbPower] = 2
			want = [3]float64{r2, r2, 0}
			if math.Mod(math.Trunc(u2*math.MaxInt32), 2) == 1 {
				want = [3]float64{-r2, -r2, 0}
			}
			q = r
			if got := jwf8Map(VarXtrb, 1, ps, [3]float64{0, 4, 0}, [3]float64{}, &q); !near3(got, want, 1e-9) {
				t.Errorf("xtrb width %g power 2 (seed %d): %v, want %v", width, seed, got, want)
			}
		}
	}
}

// checkDraws fails unless after is before moved on by n draws.
func checkDraws(t *testing.T, name string, before, after rng.Stream, n int) {
	t.Helper()
	for range n {
		before.Float64()
	}
	if before != after {
		t.Errorf("%s: not %d draws", name, n)
	}
}

// Fractorium's pre_gaussian and pre_mirror_x are read as stages of these.
func TestJWF8Stages(t *testing.T) {
	gs, ws, err := Parse(strings.NewReader(stageFlame(`linear="1" pre_gaussian="0.1" pre_mirror_x="0.05"`)), "s.flame", ParseOptions{Strict: true})
	if err != nil {
		t.Fatal(err, ws)
	}
	st := gs[0].Xforms[0].Stages
	if len(st) != 2 || st[0].ID != VarGaussian || st[1].ID != VarMirrorX || st[0].Post || st[0].Weight != 0.1 {
		t.Errorf("stages %+v", st)
	}
}

// jwf8RefCases are the cases of variations_jwf8.go for
// TestJWildfireReference: vibration2 with every modulation, xtrb with
// either map, negative and odd powers, after a linear.
func jwf8RefCases() [][]jwfTerm {
	names := []string{"dir", "angle", "freq", "amp", "phase", "dir2", "angle2", "freq2", "amp2", "phase2",
		"dm", "dmfreq", "tm", "tmfreq", "fm", "fmfreq", "am", "amfreq", "d2m", "d2mfreq", "t2m", "t2mfreq",
		"f2m", "f2mfreq", "a2m", "a2mfreq"}
	var vib []jwfParam
	for k, n := range names {
		vib = append(vib, jwfParam{PVibration2Dir + ParamID(k), n, 0.37*float64(k%7) - 0.6 + 0.05*float64(k)})
	}
	xtrb := func(power, width, dist, a, b, radius float64) []jwfParam {
		return []jwfParam{{PXtrbPower, "power", power}, {PXtrbWidth, "width", width}, {PXtrbDist, "dist", dist},
			{PXtrbA, "a", a}, {PXtrbB, "b", b}, {PXtrbRadius, "radius", radius}}
	}
	nblur := func(edges, stripes, ratioStripes, hole, circum, adjust, equal, highlight float64) []jwfParam {
		return []jwfParam{{PNBlurNumEdges, "numEdges", edges}, {PNBlurNumStripes, "numStripes", stripes},
			{PNBlurRatioStripes, "ratioStripes", ratioStripes}, {PNBlurRatioHole, "ratioHole", hole},
			{PNBlurCircumCircle, "circumCircle", circum}, {PNBlurAdjustToLinear, "adjustToLinear", adjust},
			{PNBlurEqualBlur, "equalBlur", equal}, {PNBlurHighlightEdges, "highlightEdges", highlight}}
	}
	falloff := func(typ, invert, scatter, mindist, mx, my, mz, x0 float64) []jwfParam {
		return []jwfParam{{PFalloff2Type, "type", typ}, {PFalloff2Invert, "invert", invert},
			{PFalloff2Scatter, "scatter", scatter}, {PFalloff2Mindist, "mindist", mindist}, {PFalloff2MulX, "mul_x", mx},
			{PFalloff2MulY, "mul_y", my}, {PFalloff2MulZ, "mul_z", mz}, {PFalloff2X0, "x0", x0}, {PFalloff2Y0, "y0", -x0},
			{PFalloff2Z0, "z0", 0.1}}
	}
	cs := [][]jwfTerm{
		{{id: VarNBlur, w: 0.9, params: nblur(3, 0, 1, 0, 0, 1, 1, 1)}},
		{{id: VarNBlur, w: 1.1, params: nblur(4, 0, 1, 0.6, 0, 1, 0, 0.1)}},
		{{id: VarNBlur, w: 0.8, params: nblur(5, 3, 0.45, 0.4, 0, 0, 1, 2)}},
		{{id: VarNBlur, w: 0.7, params: nblur(6, 2, 1.5, 0.667, 1, 1, 1, 1)}},
		{{id: VarNBlur, w: 1.2, params: nblur(8, -3, 0.45, 0.425, 0, 1, 1, 1)}},
		{{id: VarNBlur, w: 0.6, params: nblur(4, -15, 1, 0, 0, 1, 1, 1)}},
		{{id: VarNBlur, w: 0.6, params: nblur(7, -2, 1.6, 0.2, 1, 0, 0, 0.5)}},
		{{id: VarNBlur, w: 1, params: nblur(2, 1, 0.2, 0.9, 0, 1, 1, 1)}},
		{{id: VarNBlur, w: 0.9, params: nblur(3, -1, 1.9, 0, 0, 1, 1, 0.1)}},
		{{id: VarNBlur, w: 1.3, params: nblur(4, 1, 0.1, 0, 0, 1, 0, 0.1)}},
	}
	return append(cs, [][]jwfTerm{
		{{id: VarVibration2, w: 0.8, params: vib}},
		{{id: VarBlade3D, w: -1.3}},
		{{id: VarFalloff2, w: 0.8, params: falloff(0, 0, 1.3, 0.2, 0.9, -0.7, 0.5, 0.3)}},
		{{id: VarFalloff2, w: 1.1, params: falloff(1, 1, 2, 0.1, 0.6, 1.2, -0.4, 0.4)}},
		{{id: VarFalloff2, w: -0.7, params: falloff(2, 0, 0.7, 0, 1.5, 0.8, 0.9, -0.2)}},
		{{id: VarTileHlp, w: 0.8, params: []jwfParam{{PTileHlpWidth, "width", 0.35}}}},
		{{id: VarTileHlp, w: -1.1, params: []jwfParam{{PTileHlpWidth, "width", 1.7}}}},
		{{id: VarJulian3Dx, w: 0.9, params: []jwfParam{{PJulian3DxPower, "power", 3}, {PJulian3DxDist, "dist", 1.4},
			{PJulian3DxA, "a", 0.8}, {PJulian3DxB, "b", -0.3}, {PJulian3DxC, "c", 0.2}, {PJulian3DxD, "d", 1.1},
			{PJulian3DxE, "e", 0.15}, {PJulian3DxF, "f", -0.25}}}},
		{{id: VarJulian3Dx, w: 1.2, params: []jwfParam{{PJulian3DxPower, "power", -4}, {PJulian3DxDist, "dist", 0.6}}}},
		{{id: VarLinear3D, w: 0.4}, {id: VarVibration2, w: -1.1, params: vib[:10]}},
		{{id: VarXtrb, w: 0.9, params: xtrb(3, 0.5, 1.3, 0.5, 0.9, 1.2)}},
		{{id: VarXtrb, w: 1.2, params: xtrb(-2, 0.8, 0.7, 1.1, 0.3, 0.6)}},
		{{id: VarXtrb, w: 0.7, params: xtrb(5, 0.2, 2, 0.2, 0.2, 2)}},
		{{id: VarLinear3D, w: 0.5}, {id: VarXtrb, w: 0.6, params: xtrb(2, 0.35, 1, 1, 1, 0.9)}},
	}...)
}

// nBlur on its circumcircle: the radius is u3 (equalBlur 0), u4 unused
// without a hole; adjustToLinear widens a square by 2/√(2 − 2·cos 90°) =
// √2. (The hole follows the polygon's edge: the reference test covers it.)
func TestJWF8NBlurRadius(t *testing.T) {
	for seed := range uint64(32) {
		r := rng.NewStream(rng.Key(9, seed))
		u := r
		u.Float64()
		u.Float64()
		u3 := u.Float64()
		for _, c := range []struct {
			adjust, hole, want float64
		}{
			{0, 0, 0.8 * u3},
			{1, 0, math.Sqrt2 * 0.8 * u3},
		} {
			q := r
			got := jwf8Map(VarNBlur, 0.8, map[ParamID]float64{PNBlurNumEdges: 4, PNBlurCircumCircle: 1, PNBlurEqualBlur: 0,
				PNBlurAdjustToLinear: c.adjust, PNBlurRatioHole: c.hole}, [3]float64{5, 5, 5}, [3]float64{}, &q)
			if d := math.Hypot(got[0], got[1]); math.Abs(d-c.want) > 1e-12 || got[2] != 0 {
				t.Errorf("seed %d %+v: |%v| = %g, want %g", seed, c, got, d, c.want)
			}
			checkDraws(t, "nBlur", r, q, 4)
		}
	}
}

// nBlur's exactCalc draws without bound; procgen reads it as 0 and says
// so, as it does for falloff2's colour scatter.
func TestJWF8NBlurExactCalc(t *testing.T) {
	for _, c := range []struct {
		xf   string
		warn bool
	}{
		{`nBlur="1" nBlur_exactCalc="0"`, false},
		{`nBlur="1" nBlur_exactCalc="1"`, true},
		{`nBlur="1" nBlur_exactCalc="1" nBlur_circumCircle="1"`, false}, // JWildfire turns it off itself
		{`linear="1" nBlur_exactCalc="1"`, false},
		{`falloff2="1" falloff2_mul_c="0.0"`, false},
		{`falloff2="1" falloff2_mul_c="0.3"`, true},
	} {
		_, ws, err := Parse(strings.NewReader(stageFlame(c.xf)), "s.flame", ParseOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.xf, err)
		}
		warned := false
		for _, w := range ws {
			warned = warned || strings.Contains(w.Msg, "nBlur_exactCalc") || strings.Contains(w.Msg, "falloff2_mul_c")
		}
		if warned != c.warn {
			t.Errorf("%s: warned %v, want %v (%v)", c.xf, warned, c.warn, ws)
		}
		if _, _, err := Parse(strings.NewReader(stageFlame(c.xf)), "s.flame", ParseOptions{Strict: true}); (err != nil) != c.warn {
			t.Errorf("%s --strict: %v", c.xf, err)
		}
	}
}

// blade3D and julian3Dx, which write z, by hand.
func TestJWF8ThreeD(t *testing.T) {
	for seed := range uint64(16) {
		r := rng.NewStream(rng.Key(10, seed))
		u := r
		u1 := u.Float64()
		// blade3D at (1, 2), w 1: angle u1·√5; x and y from x = 1, z from y = 2.
		sn, cs := math.Sincos(u1 * math.Sqrt(5))
		q := r
		if got := jwf8Map(VarBlade3D, 1, nil, [3]float64{1, 2, 9}, [3]float64{}, &q); !near3(got, [3]float64{cs + sn, cs - sn, 2 * (sn - cs)}, 1e-12) {
			t.Errorf("blade3D (seed %d): %v", seed, got)
		}
		checkDraws(t, "blade3D", r, q, 1)
		// julian3Dx power 1, dist 1, identity affine: the point scaled by w, z = w·x.
		q = r
		if got := jwf8Map(VarJulian3Dx, 0.5, map[ParamID]float64{PJulian3DxPower: 1}, [3]float64{0.6, -0.8, 3}, [3]float64{}, &q); !near3(got, [3]float64{0.3, -0.4, 0.3}, 1e-12) {
			t.Errorf("julian3Dx (seed %d): %v", seed, got)
		}
		// power −2 at (0, 4) (z = 0, cN = −¾): radius 16^−¾·4 = ½ at angle (π/2 + 2πk)/−2.
		want := [3]float64{0.5 * math.Cos(-math.Pi/4), 0.5 * math.Sin(-math.Pi/4), 0}
		if u1 >= 0.5 {
			want = [3]float64{0.5 * math.Cos(-5*math.Pi/4), 0.5 * math.Sin(-5*math.Pi/4), 0}
		}
		q = r
		if got := jwf8Map(VarJulian3Dx, 1, map[ParamID]float64{PJulian3DxPower: -2}, [3]float64{0, 4, 0}, [3]float64{}, &q); !near3(got, want, 1e-12) {
			t.Errorf("julian3Dx power -2 (seed %d): %v, want %v", seed, got, want)
		}
		checkDraws(t, "julian3Dx", r, q, 1)
	}
}

// tile_hlp by hand, width 1, w 2: at x = 2.25 (frac ¼) the point moves by
// −2 (a tile of w·width towards 0) where cos(π/4) < 2·u1 − 1. At x = −2.25
// the "fraction" is −2.25 + trunc(−2.25) = −4.25, cos(−4.25π) = cos(π/4)
// again, and the move is +2.
func TestJWF8TileHlp(t *testing.T) {
	for seed := range uint64(32) {
		r := rng.NewStream(rng.Key(11, seed))
		u := r
		jump := math.Cos(math.Pi/4) < 2*u.Float64()-1
		for _, x := range []float64{2.25, -2.25} {
			want := [3]float64{2 * x, 1, 0}
			if jump {
				want[0] -= math.Copysign(2, x)
			}
			q := r
			if got := jwf8Map(VarTileHlp, 2, nil, [3]float64{x, 0.5, 3}, [3]float64{}, &q); !near3(got, want, 1e-12) {
				t.Errorf("tile_hlp x %g (seed %d, jump %v): %v, want %v", x, seed, jump, got, want)
			}
			checkDraws(t, "tile_hlp", r, q, 1)
		}
	}
}

// falloff2 type 0 by hand: from (0, 0, 0) the point (3, 4, 0) is 5 away,
// 4.5 beyond mindist ½, so d = 4.5·0.04 = 0.18 (scatter 1); x and y move
// by mul·u·d (mul_y 3 is clamped to 1), z by nothing (mul_z 0).
func TestJWF8Falloff2(t *testing.T) {
	for seed := range uint64(16) {
		r := rng.NewStream(rng.Key(12, seed))
		u := r
		u1, u2 := u.Float64(), u.Float64()
		want := [3]float64{0.5 * (3 + 0.5*u1*0.18), 0.5 * (4 + u2*0.18), 0}
		q := r
		got := jwf8Map(VarFalloff2, 0.5, map[ParamID]float64{PFalloff2MulX: 0.5, PFalloff2MulY: 3}, [3]float64{3, 4, 0}, [3]float64{}, &q)
		if !near3(got, want, 1e-12) {
			t.Errorf("falloff2 (seed %d): %v, want %v", seed, got, want)
		}
		checkDraws(t, "falloff2", r, q, 4)
	}
}
