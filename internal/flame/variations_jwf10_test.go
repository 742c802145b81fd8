package flame

import (
	"math"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwf10RefCases are the cases of variations_jwf10.go for
// TestJWildfireReference (every branch: glitchy1's mirrors on all three
// axes, shredded's three types with and without blur).
func jwf10RefCases() [][]jwfTerm {
	ex := func(dist, r, x0, y0, z0 float64) []jwfParam {
		return []jwfParam{{PExBlurDist, "dist", dist}, {PExBlurR, "r", r}, {PExBlurXOrigin, "x_origin", x0},
			{PExBlurYOrigin, "y_origin", y0}, {PExBlurZOrigin, "z_origin", z0}}
	}
	gl := func(scale, shift, n, width, seed, angle float64) []jwfParam {
		return []jwfParam{{PGlitchy1ScaleX, "scale_x", scale}, {PGlitchy1ShiftX, "shift_x", shift}, {PGlitchy1NX, "n_x", n},
			{PGlitchy1ScaleY, "scale_y", -scale * 1.3}, {PGlitchy1ShiftY, "shift_y", -shift}, {PGlitchy1NY, "n_y", n + 1},
			{PGlitchy1ScaleZ, "scale_z", scale * 0.7}, {PGlitchy1ShiftZ, "shift_z", shift / 2}, {PGlitchy1NZ, "n_z", 3},
			{PGlitchy1Width, "width", width}, {PGlitchy1Seed, "seed", seed}, {PGlitchy1Angle, "angle", angle},
			{PGlitchy1U, "u", 1.2}, {PGlitchy1V, "v", -0.8}, {PGlitchy1W, "w", 0.6}}
	}
	lz := func(x, y, z float64) []jwfParam {
		return []jwfParam{{PLazysensenScaleX, "scale_x", x}, {PLazysensenScaleY, "scale_y", y}, {PLazysensenScaleZ, "scale_z", z}}
	}
	sh := func(typ, blur float64) []jwfParam {
		return []jwfParam{{PShreddedX1, "x1", 1.3}, {PShreddedX2, "x2", 2.5}, {PShreddedX3, "x3", 0.8},
			{PShreddedXBlurAmount, "x_blur_amount", 0.3}, {PShreddedY1, "y1", -0.7}, {PShreddedY2, "y2", 4},
			{PShreddedY3, "y3", 1.1}, {PShreddedYBlurAmount, "y_blur_amount", 0.2}, {PShreddedZ1, "z1", 2.1},
			{PShreddedZ2, "z2", 1.5}, {PShreddedZ3, "z3", 0.6}, {PShreddedZBlurAmount, "z_blur_amount", 0.4},
			{PShreddedType, "type", typ}, {PShreddedBlur, "blur", blur}}
	}
	cr := func(cs, pw, d, sc, z float64) []jwfParam {
		return []jwfParam{{PCrackleCellsize, "cellsize", cs}, {PCracklePower, "power", pw}, {PCrackleDistort, "distort", d},
			{PCrackleScale, "scale", sc}, {PCrackleZ, "z", z}}
	}
	tq := func(vals []float64, typ, mode float64) []jwfParam {
		ps := []jwfParam{{PTqmirrorPreset, "preset", 0}}
		for i, v := range vals {
			ps = append(ps, jwfParam{PTqmirrorA + ParamID(i), string(rune('a' + i)), v})
		}
		return append(ps, jwfParam{PTqmirrorType, "type", typ}, jwfParam{PTqmirrorMode, "mode", mode})
	}
	//          a    b    c    d    e    f    g     h    i    j    k    l     m     n    o    p    q    r    s
	tqv := []float64{1.2, 0.8, 1.5, 0.9, 1.1, 0.3, -0.4, 1.3, 0.7, 0.9, 1.2, -0.5, -0.8, 0.1, 0.2, -0.3, 0.2, 1.1, 0.9}
	far := append([]float64(nil), tqv...)
	far[11], far[12] = 0.5, 0.4 // l, m: more points too far
	cs := [][]jwfTerm{
		{{id: VarTqmirror, w: 0.9, params: tq(tqv, 0, 0)}},
		{{id: VarTqmirror, w: 1.3, params: tq(tqv, 1, 1)}},
		{{id: VarTqmirror, w: 1.7, params: tq(tqv, 0, 2)}},
		{{id: VarTqmirror, w: 0.8, params: tq(far, 0, 1)}},
		{{id: VarTqmirror, w: 1.1, params: tq(far, 1, 2.6)}},
	}
	// post_trig: each function alone (after the stages it follows), then
	// mixes, on the sum a linear3D leaves. JWildfire draws for the square
	// root and the acosh only where they are on: the cases with acosh on
	// have the square root on too, so that both take the same draws.
	trigNames := []string{"reciprocalpow", "log_dividepow", "sqrtpow", "exppow", "logpow", "asinhpow", "acoshpow",
		"atanhpow", "asinpow", "acospow", "atanpow", "sinpow", "cospow", "tanpow", "sinhpow", "coshpow", "tanhpow"}
	trig := func(w float64, on map[int]float64) []jwfTerm {
		var ps []jwfParam
		for i, n := range trigNames {
			ps = append(ps, jwfParam{PTrigReciprocal + ParamID(i), n, on[i]})
		}
		return []jwfTerm{{id: VarLinear3D, w: 1.1}, {id: VarTrig, w: w, params: ps, post: true}}
	}
	for i := range trigNames {
		on := map[int]float64{i: 1.3}
		if i == 6 { // acosh
			on[2] = 0.8
		}
		cs = append(cs, trig(0.9, on))
	}
	cs = append(cs, trig(1.2, map[int]float64{0: 1, 1: 0.7, 2: -1.1, 3: 0.4, 4: 0.9}),
		trig(0.8, map[int]float64{2: 1, 5: 0.5, 6: -0.7, 7: 1.2, 8: 0.3, 9: -0.4, 10: 0.6, 11: 0.2, 12: -0.9, 13: 0.3,
			14: 0.5, 15: -0.2, 16: 0.8}),
		trig(1.1, map[int]float64{0: 1, 11: 0.6, 12: -0.6})) // the exponents cancel: the first stages' result stays
	// scrambly: the shift (seeds 0..50), the shuffle of the grid and by
	// rows, sizes clamped to 3..25, points outside the square.
	sc := func(l, seed, byrows, cellsize float64) []jwfParam {
		return []jwfParam{{PScramblyL, "l", l}, {PScramblySeed, "seed", seed}, {PScramblyByrows, "byrows", byrows},
			{PScramblyCellsize, "cellsize", cellsize}}
	}
	cs = append(cs, [][]jwfTerm{
		{{id: VarScrambly, w: 0.9, params: sc(4, 7, 0, 3)}},
		{{id: VarScrambly, w: 1.1, params: sc(-25, 51, 0, 4.6)}},
		{{id: VarScrambly, w: 0.8, params: sc(30, 1234567, 0, 5)}},
		{{id: VarScrambly, w: 1.2, params: sc(6.4, -77, 1, 3.7)}},
		{{id: VarScrambly, w: 0.7, params: sc(1, 200, 1, 2.5)}},
		{{id: VarScrambly, w: 1.3, params: sc(9, 99, 0, 0.8)}},
	}...)
	fb := func(x, y, z, x0, y0, z0 float64) []jwfParam {
		return []jwfParam{{PFarblurX, "x", x}, {PFarblurY, "y", y}, {PFarblurZ, "z", z}, {PFarblurXOrigin, "x_origin", x0},
			{PFarblurYOrigin, "y_origin", y0}, {PFarblurZOrigin, "z_origin", z0}}
	}
	// farblur reads the sum: a linear3D's, and julia3D's with spherical3D's.
	cs = append(cs, [][]jwfTerm{
		{{id: VarLinear3D, w: 0.9}, {id: VarFarblur, w: 0.2, params: fb(1, 1, 1, 0, 0, 0)}},
		{{id: VarLinear3D, w: 1.2}, {id: VarFarblur, w: -0.6, params: fb(0.7, -1.3, 0.4, 0.3, -0.2, 0.5)}},
		{{id: VarJulia3D, w: 0.8, params: []jwfParam{{PJulia3DPower, "power", 3}}}, {id: VarSpherical3D, w: 0.4},
			{id: VarFarblur, w: 0.35, params: fb(1.1, 0.9, -0.8, -0.4, 0.1, 0)}},
	}...)
	// maurer_rose's end points and curve (its lines, which take their
	// draws in another order, are in jwf11RefCases).
	mr := func(kn, kd, c, off, count, pts, curve, pth, cth float64) []jwfParam {
		return []jwfParam{{PMaurerRoseKn, "kn", kn}, {PMaurerRoseKd, "kd", kd}, {PMaurerRoseC, "c", c},
			{PMaurerRoseLineOffsetDegrees, "line_offset_degrees", off}, {PMaurerRoseLineCount, "line_count", count},
			{PMaurerRoseShowLines, "show_lines", 0}, {PMaurerRoseShowPoints, "show_points", pts},
			{PMaurerRoseShowCurve, "show_curve", curve}, {PMaurerRosePointThickness, "point_thickness", pth},
			{PMaurerRoseCurveThickness, "curve_thickness", cth}}
	}
	cs = append(cs, [][]jwfTerm{
		{{id: VarMaurerRose, w: 0.9, params: mr(3, 1, 0, 71, 360, 1, 0, 3, 1)}},
		{{id: VarMaurerRose, w: 1.2, params: mr(5, 2, 0.3, 29, 120, 1, 1, 0, 2.5)}},
		{{id: VarMaurerRose, w: 0.7, params: mr(7, 3, -0.2, 97, 500, 0, 1, 2, 0)}},
	}...)
	// pRose3D: the reflection (opt or opt3 negative) and not, each blend
	// of opt (up to 1, to 2, past 2) and opt3, k tiny and l zero.
	pr := func(l, k, opt, opt3, transp float64) []jwfParam {
		return []jwfParam{{PPRose3DL, "l", l}, {PPRose3DK, "k", k}, {PPRose3DC, "c", 0.3}, {PPRose3DZ1, "z1", 0.65},
			{PPRose3DZ2, "z2", 1.2}, {PPRose3DRefSc, "refSc", 0.8}, {PPRose3DOpt, "opt", opt}, {PPRose3DOptSc, "optSc", -0.96},
			{PPRose3DOpt3, "opt3", opt3}, {PPRose3DTransp, "transp", transp}, {PPRose3DDist, "dist", 0.252},
			{PPRose3DWagsc, "wagsc", 1.616}, {PPRose3DSrvsc, "srvsc", 1.156}, {PPRose3DF, "f", 2},
			{PPRose3DWigsc, "wigsc", 0.157}, {PPRose3DOffset, "offset", 0.4}}
	}
	cs = append(cs, [][]jwfTerm{
		{{id: VarPRose3D, w: 1.65, params: pr(1.75, 13, 1.235, 0.25, 0.5)}},
		{{id: VarPRose3D, w: 1.2, params: pr(1.894, 6, 1.5, -0.39, 0.9)}},
		{{id: VarPRose3D, w: 0.8, params: pr(0.7, -5, -0.6, 0, 0.95)}},
		{{id: VarPRose3D, w: 1.1, params: pr(0, 0.00002, 2.7, 1.8, 1)}},
	}...)
	for _, m := range []float64{1, 3.7, 7, 12, 40} { // m is clamped to 2..12
		cs = append(cs, []jwfTerm{{id: VarSattractorJs, w: 1.1, params: []jwfParam{{PSattractorJsM, "m", m}}}})
	}
	cs = append(cs, []jwfTerm{{id: VarCliffordJs, w: 0.9, params: []jwfParam{{PCliffordJsA, "a", 1.7}, {PCliffordJsB, "b", -2.3},
		{PCliffordJsC, "c", -0.6}, {PCliffordJsD, "d", 1.2}}}})
	return append(cs, [][]jwfTerm{
		// crackle: the corpus's settings, no distortion, and cells beyond
		// JWildfire's cache of 21×21 (cellsize 0.05).
		{{id: VarCrackle, w: 1, params: cr(0.275, 0.2, 0.58, 1, 0)}},
		{{id: VarCrackle, w: 0.8, params: cr(0.4, -0.4, 0, 0.6, 0)}},
		{{id: VarCrackle, w: 1.2, params: cr(0.05, 0.5, 1.3, 1.4, 0.7)}},
		{{id: VarCrackle, w: -0.7, params: cr(-0.9, 1.5, -0.8, 0.9, -2.3)}},
		{{id: VarExBlur, w: 0.9, params: ex(0.3, 0.1, 0, 0, 0)}},
		{{id: VarExBlur, w: 1.2, params: ex(-0.4, 0.6, 0.3, -0.2, 0.5)}},
		{{id: VarGlitchy1, w: 0.8, params: gl(2.5, 0.3, 2, 1.5, 42, 30)}},
		{{id: VarGlitchy1, w: 1.1, params: gl(-1.7, -0.4, 4, 3, 17, -75)}},
		{{id: VarGlitchy1, w: 0.7, params: gl(0.9, 0, 1, 0.5, -9, 120)}},
		{{id: VarLazysensen, w: 1.3, params: lz(2.5, -1.5, 3)}},
		{{id: VarLazysensen, w: 0.6, params: lz(0, 4, -0.7)}},
		{{id: VarShredded, w: 0.9, params: sh(0, 0)}},
		{{id: VarShredded, w: 1.1, params: sh(1, 0)}},
		{{id: VarShredded, w: 0.7, params: sh(2, 0)}},
		{{id: VarShredded, w: 1.2, params: sh(0, 1)}},
		{{id: VarShredded, w: 0.8, params: sh(1, 1)}},
		{{id: VarShredded, w: 1.3, params: sh(2.7, 0.6)}},
		// In a sum, in procgen's order (by id). lazysensen is left out:
		// JWildfire's mirrors the affine point the variations after it read,
		// procgen's only its own term.
		{{id: VarExBlur, w: 0.3}, {id: VarGlitchy1, w: 0.6}, {id: VarShredded, w: 0.4, params: sh(1, 1)}},
	}...)
}

// By hand: lazysensen's bands, glitchy1's hash and the draws.
func TestJWF10ByHand(t *testing.T) {
	// lazysensen at scale 2: bands of width ½, the odd ones above 0 and the
	// even ones below negated: both bands either side of 0 keep the point.
	for _, c := range []struct{ in, want float64 }{{0.2, 0.2}, {0.7, -0.7}, {1.1, 1.1}, {-0.2, -0.2}, {-0.7, 0.7}, {-1.2, -1.2}} {
		ps := map[ParamID]float64{PLazysensenScaleX: 2, PLazysensenScaleY: 0, PLazysensenScaleZ: 2}
		r := rng.NewStream(1)
		got := jwf8Map(VarLazysensen, 1.5, ps, [3]float64{c.in, c.in, c.in}, [3]float64{}, &r)
		if want := [3]float64{1.5 * c.want, 1.5 * c.in, 1.5 * c.want}; !near3(got, want, 1e-15) {
			t.Errorf("lazysensen at %g: %v, want %v", c.in, got, want)
		}
	}
	// Bob Jenkins' hash of 1 in 32-bit arithmetic: (1^61)^0 = 60; +<<3 =
	// 540; ^>>4 = 540^33 = 573; ·0x27d4eb2d wraps to 573·668265261 mod
	// 2³² as int32; ^>>15.
	a := int64(573) * 0x27d4eb2d % (1 << 32)
	if a >= 1<<31 {
		a -= 1 << 32
	}
	a32 := int32(a)
	a32 ^= a32 >> 15
	if got, want := glitchHash(1), float64(a32)/(1<<31-1); got != want {
		t.Errorf("glitchHash(1) = %v, want %v", got, want)
	}
	// crackle with power 1 and scale 1 keeps the blurred point itself
	// (R = 1): the sum is w·u, u on the disc of the draws; cellsize 0 adds
	// nothing.
	for _, c := range []struct{ cs, want float64 }{{0.7, 1}, {0, 0}} {
		r := rng.NewStream(3)
		q := r
		u1, u2, u3, u4 := q.Float64(), q.Float64(), q.Float64(), q.Float64()
		b := (u1+u2)/2 + (u3-0.5)/4
		sn, cs := math.Sincos(2 * math.Pi * u4)
		ps := map[ParamID]float64{PCrackleCellsize: c.cs, PCracklePower: 1, PCrackleScale: 1, PCrackleDistort: 0.6}
		got := jwf8Map(VarCrackle, 1.5, ps, [3]float64{0.3, 0.2, 0}, [3]float64{}, &r)
		if want := [3]float64{c.want * 1.5 * b * sn, c.want * 1.5 * b * cs, 0}; !near3(got, want, 1e-12) {
			t.Errorf("crackle identity, cellsize %g: %v, want %v", c.cs, got, want)
		}
	}
	// The noise is 0 at the lattice's corners and stays within [−1, 1].
	if n := simplexNoise3(0, 0, 0); n != 0 {
		t.Errorf("simplexNoise3 at the origin: %v", n)
	}
	for i := range 2000 {
		v := float64(i)
		if n := simplexNoise3(v*0.37-200, v*0.11+3, v*-0.53); math.Abs(n) > 1 {
			t.Errorf("simplexNoise3 out of range: %v", n)
		}
	}
	for _, id := range []VarID{VarExBlur, VarShredded, VarGlitchy1, VarLazysensen, VarCrackle} {
		r := rng.NewStream(9)
		q := r
		jwf8Map(id, 0.8, map[ParamID]float64{PShreddedBlur: 1}, [3]float64{0.3, -0.4, 0.2}, [3]float64{}, &q)
		checkDraws(t, VarNames[id], r, q, int(varDraws[id]))
	}
}

// plane_wf by hand: a point of the size×size square on the plane at
// position along each axis, whatever the input.
func TestJWF10PlaneWf(t *testing.T) {
	for axis, want := range [][3]float64{{0, 1, 2}, {1, 2, 0}, {0, 2, 1}} { // where a, b, position go
		r := rng.NewStream(5)
		q := r
		a, b := 0.5-q.Float64(), 0.5-q.Float64()
		vals := [3]float64{a * 4, b * 4, 0.7}
		ps := map[ParamID]float64{PPlaneWfAxis: float64(axis), PPlaneWfSize: 4, PPlaneWfPosition: 0.7}
		got := jwf8Map(VarPlaneWf, 1.5, ps, [3]float64{3, -2, 9}, [3]float64{}, &r)
		var w [3]float64
		for k, at := range want {
			w[int(at)] = 1.5 * vals[k]
		}
		if !near3(got, w, 1e-12) {
			t.Errorf("plane_wf axis %d: %v, want %v", axis, got, w)
		}
	}
}

// plane_wf as JWildfire writes it parses strictly with its colour and
// maps off, and is refused strictly with either on.
func TestJWF10PlaneWfStrict(t *testing.T) {
	const base = `plane_wf="1.0" plane_wf_fx_priority="0" plane_wf_position="0.0" plane_wf_size="10.0" plane_wf_axis="0" ` +
		`plane_wf_color_mode="2" plane_wf_blend_colormap="1" plane_wf_displ_amount="0.1" plane_wf_blend_displ_map="1" ` +
		`plane_wf_calc_color_idx="0" plane_wf_receive_only_shadows="0" `
	for _, c := range []struct {
		extra string
		ok    bool
	}{
		{`plane_wf_direct_color="0" plane_wf_colormap_filename="" plane_wf_displ_map_filename=""`, true},
		{`plane_wf_direct_color="1" plane_wf_colormap_filename="" plane_wf_displ_map_filename=""`, false},
		{`plane_wf_direct_color="0" plane_wf_colormap_filename="" plane_wf_displ_map_filename="d.png"`, false},
	} {
		_, ws, err := Parse(strings.NewReader(stageFlame(base+c.extra)), "p.flame", ParseOptions{Strict: true})
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok %v (warnings %v)", c.extra, err, c.ok, ws)
		}
	}
}

// JWildfire's post_trig is read as the post stage of trig, its parameters
// as trig's.
func TestJWF10PostTrigParse(t *testing.T) {
	gs, ws, err := Parse(strings.NewReader(stageFlame(`linear="1" post_trig="0.8" post_trig_fx_priority="1" `+
		`post_trig_reciprocalpow="0" post_trig_sinpow="0.5"`)), "t.flame", ParseOptions{Strict: true})
	if err != nil {
		t.Fatal(err, ws)
	}
	x := gs[0].Xforms[0]
	if len(x.Stages) != 1 || x.Stages[0] != (StageTerm{Post: true, ID: VarTrig, Weight: 0.8}) {
		t.Errorf("stages %+v", x.Stages)
	}
	if x.Params[PTrigSin] != 0.5 || x.Params[PTrigReciprocal] != 0 {
		t.Errorf("sinpow %v, reciprocalpow %v", x.Params[PTrigSin], x.Params[PTrigReciprocal])
	}
	// A post_ variation moved to JWildfire's pre stage is not what procgen runs.
	if _, _, err := Parse(strings.NewReader(stageFlame(`linear="1" post_trig="0.8" post_trig_fx_priority="-1"`)),
		"t.flame", ParseOptions{Strict: true}); err == nil || !strings.Contains(err.Error(), "post_trig_fx_priority") {
		t.Errorf("post_trig_fx_priority -1: %v", err)
	}
}

// plane_wf and farblur are on the GPU (flame_variations_3d4.cuh), anywhere
// in their xform (farblur is handed the sum before it) and as stages.
func TestJWF10GPU(t *testing.T) {
	for _, c := range []struct {
		vars []VarTerm
		want string
	}{
		{[]VarTerm{{ID: VarLinear, Weight: 1}, {ID: VarPlaneWf, Weight: 0.5}}, ""},
		{[]VarTerm{{ID: VarFarblur, Weight: 0.5}}, ""},
		{[]VarTerm{{ID: VarLinear, Weight: 0}, {ID: VarFarblur, Weight: 0.5}}, ""},
		{[]VarTerm{{ID: VarLinear, Weight: 1}, {ID: VarFarblur, Weight: 0.5}}, ""},
	} {
		x := newXform(0)
		x.Vars = c.vars
		if name, ok := pluginVar(&x); name != c.want || ok != (c.want != "") {
			t.Errorf("%v: pluginVar %q %v, want %q", c.vars, name, ok, c.want)
		}
	}
	x := newXform(0)
	x.Vars = []VarTerm{{ID: VarLinear, Weight: 1}}
	for _, id := range []VarID{VarPlaneWf, VarFarblur, VarTrig} {
		x.Stages = []StageTerm{{Post: true, ID: id, Weight: 1}}
		if name, ok := pluginVar(&x); ok {
			t.Errorf("post_%s stage refused (%q): the kernels have it", VarNames[id], name)
		}
	}
}

// farblur reads the sum of the variations before it: procgen applies them
// in ID order, so farblur must stay the last ID, and a file that writes a
// variation after it (JWildfire's farblur would not see that one) is
// reported.
func TestJWF10Farblur(t *testing.T) {
	if VarFarblur != NumVars-1 {
		t.Errorf("farblur is ID %d of %d: the variations after it would not be in the sum it blurs; move it last, with NumVars",
			VarFarblur, NumVars)
	}
	for _, c := range []struct {
		xf string
		ok bool
	}{
		{`linear3D="1" sphericalN="0.5" farblur="0.1" farblur_fx_priority="0"`, true},
		{`linear3D="1" farblur="0.1" shift="0"`, true}, // a zero weight changes nothing
		{`linear3D="1" farblur="0.1" shift="0.3"`, false},
		{`linear3D="1" post_farblur="0.1"`, false}, // not a stage: a stage has no sum
	} {
		gs, ws, err := Parse(strings.NewReader(stageFlame(c.xf)), "f.flame", ParseOptions{Strict: true})
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok %v", c.xf, err, c.ok)
		}
		if err == nil && gs[0].Xforms[0].Vars[len(gs[0].Xforms[0].Vars)-1].ID != VarFarblur {
			t.Errorf("%s: farblur not applied last: %v (%v)", c.xf, gs[0].Xforms[0].Vars, ws)
		}
	}
}

// sym_ng15 by hand: each of the twelve maps (picked by the draw) of the
// point moved by √(radius²/2) on both axes, shifted by ∓step/2.
func TestJWF10SymNg15(t *testing.T) {
	const c = 0.866
	ps := map[ParamID]float64{PSymNg15Radius: 0.5, PSymNg15Stepx: 1.6, PSymNg15Stepy: -0.4}
	sp := math.Sqrt(0.5 * 0.5 / 2)
	x, y := 0.3+sp, -0.7+sp
	lin := [6][2]float64{{y, -x}, {-y, -x}, {c*x - y/2, x/2 + c*y}, {c*x + y/2, x/2 - c*y}, {-c*x - y/2, x/2 - c*y}, {-c*x + y/2, x/2 + c*y}}
	seen := map[int]bool{}
	for seed := uint64(1); len(seen) < 12 && seed < 1000; seed++ {
		r := rng.NewStream(seed)
		q := r
		k := int(12 * q.Float64())
		seen[k] = true
		sh := [2]float64{-0.8, 0.2}
		if k >= 6 {
			sh = [2]float64{0.8, -0.2}
		}
		want := [3]float64{1.5 * (lin[k%6][0] + sh[0]), 1.5 * (lin[k%6][1] + sh[1]), 0}
		if got := jwf8Map(VarSymNg15, 1.5, ps, [3]float64{0.3, -0.7, 0.9}, [3]float64{}, &r); !near3(got, want, 1e-12) {
			t.Errorf("sym_ng15 map %d: %v, want %v", k, got, want)
		}
		if r != q {
			t.Errorf("sym_ng15: not one draw")
		}
	}
	if len(seen) < 12 {
		t.Errorf("sym_ng15: saw maps %v only", seen)
	}
}

// maurer_rose's lines by hand: the point u4 of the way from the step's
// first end point to its second, jittered by u2, u3 (the class draws u4
// from Java's Math.random, which the harness build points at the scripted
// draws: jwf11RefCases checks the lines against the class too).
func TestJWF10MaurerRose(t *testing.T) {
	ps := map[ParamID]float64{PMaurerRoseKn: 3, PMaurerRoseKd: 2, PMaurerRoseC: 0.1, PMaurerRoseLineOffsetDegrees: 53,
		PMaurerRoseLineCount: 200, PMaurerRoseShowLines: 1, PMaurerRoseShowCurve: 0, PMaurerRoseLineThickness: 2}
	rose := func(th float64) (float64, float64) {
		rr := math.Cos(1.5*th) + 0.1
		return rr * math.Cos(th), rr * math.Sin(th)
	}
	step := 53.0 / 180 * math.Pi
	for i, pt := range [][2]float64{{0.3, -0.7}, {-1.4, 0.25}, {0.05, 0.9}, {2.2, 1.3}} {
		r := rng.NewStream(uint64(i) + 40)
		q := r
		_, u2, u3, u4 := q.Float64(), q.Float64(), q.Float64(), q.Float64()
		th := math.Floor(200*step/(2*math.Pi)*math.Atan2(pt[1], pt[0])/step) * step
		x1, y1 := rose(th)
		x2, y2 := rose(th + step)
		want := [3]float64{1.3 * (x1 + u4*(x2-x1) + (u2-0.5)*0.02), 1.3 * (y1 + u4*(y2-y1) + (u3-0.5)*0.02), 0}
		if got := jwf8Map(VarMaurerRose, 1.3, ps, [3]float64{pt[0], pt[1], 0}, [3]float64{}, &r); !near3(got, want, 1e-12) {
			t.Errorf("maurer_rose line at %v: %v, want %v", pt, got, want)
		}
		checkDraws(t, "maurer_rose", r, q, 0)
	}
}
