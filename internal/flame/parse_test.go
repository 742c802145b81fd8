package flame

import (
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func parseString(s string, opts ParseOptions) ([]*Genome, []Warning, error) {
	return Parse(strings.NewReader(s), "test.flam3", opts)
}

// parseOne parses a document that must hold exactly one valid flame.
func parseOne(t *testing.T, s string, opts ParseOptions) (*Genome, []Warning) {
	t.Helper()
	gs, ws, err := parseString(s, opts)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if len(gs) != 1 {
		t.Fatalf("Parse returned %d genomes, want 1", len(gs))
	}
	return gs[0], ws
}

func testPalettes(t *testing.T) *PaletteFile {
	t.Helper()
	pf, err := LoadPaletteFile("testdata/parse/palettes.xml")
	if err != nil {
		t.Fatal(err)
	}
	return pf
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestParseDefaults(t *testing.T) {
	g, _ := parseOne(t, `<flame><xform weight="1" linear="1"/><color index="0" rgb="1 2 3"/></flame>`, ParseOptions{})
	want := DefaultGenome()
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"size", [2]int{g.Width, g.Height}, [2]int{100, 100}},
		{"center", g.Center, [2]float64{}},
		{"scale", g.Scale, 50.0},
		{"zoom", g.Zoom, 0.0},
		{"quality", g.Quality, 1.0},
		{"supersample", g.Supersample, 1},
		{"passes", g.Passes, 1},
		{"temporal_samples", g.TemporalSamples, 1000},
		{"brightness", g.Brightness, 4.0},
		{"contrast", g.Contrast, 1.0},
		{"gamma", g.Gamma, 4.0},
		{"gamma_threshold", g.GammaThreshold, 0.01},
		{"vibrancy", g.Vibrancy, 1.0},
		{"highlight_power", g.HighlightPower, -1.0},
		{"filter", g.FilterRadius, 0.5},
		{"filter_shape", g.FilterShape, FilterGaussian},
		{"estimator_radius", g.EstimatorRadius, 9.0},
		{"estimator_minimum", g.EstimatorMinimum, 0.0},
		{"estimator_curve", g.EstimatorCurve, 0.4},
		{"palette_mode", g.PaletteMode, PaletteStep},
		{"interpolation", g.Interpolation, "linear"},
		{"fuse", g.Fuse, 15},
		{"transparent", g.Transparent, false},
		{"final", g.Final == nil, true},
		{"DefaultGenome fuse", want.Fuse, DefaultFuse},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	x := g.Xforms[0]
	if x.Color != 0 || x.ColorSpeed != 0.5 || x.Opacity != 1 || x.Animate != 1 {
		t.Errorf("xform defaults color %g speed %g opacity %g animate %g", x.Color, x.ColorSpeed, x.Opacity, x.Animate)
	}
	if x.Coefs != Identity || x.Post != Identity || x.Chaos != nil {
		t.Errorf("xform affines %v %v chaos %v", x.Coefs, x.Post, x.Chaos)
	}
	if x.Params != DefaultParams() {
		t.Errorf("xform params differ from DefaultParams")
	}
	if len(x.Vars) != 1 || x.Vars[0] != (VarTerm{VarLinear, 1}) {
		t.Errorf("vars %v", x.Vars)
	}
	// One colour given: flam3 fills the whole palette from it.
	if c := g.Palette[200]; !near(c[0], 1/255.0) || !near(c[2], 3/255.0) || c[3] != 1 {
		t.Errorf("palette[200] = %v", c)
	}
}

func TestDefaultParams(t *testing.T) {
	p := DefaultParams()
	for id, want := range map[ParamID]float64{
		PJulianPower: 1, PJulianDist: 1, PJuliascopePower: 1, PJuliascopeDist: 1,
		PBlobLow: 0, PBlobHigh: 1, PBlobWaves: 1, PPieSlices: 6, PPieThickness: 0.5,
		PNgonSides: 5, PNgonPower: 3, PNgonCircle: 1, PNgonCorners: 2, PCurlC1: 1, PCurlC2: 0,
		PRectanglesX: 1, PAmwAmp: 1, PSuperShapeN1: 1, PConicEccentricity: 1, PBent2Y: 1,
		PCellSize: 1, PCpowR: 1, PCpowI: 0, PCpowPower: 1, PCurveXlength: 1, PCurveXamp: 0,
		POscilloscopeSeparation: 1, POscilloscopeFrequency: math.Pi, POscilloscopeAmplitude: 1,
		PWedgeCount: 1, PWedgeJuliaCount: 1, PWedgeJuliaPower: 1, PWedgeJuliaDist: 0,
		PWedgeSphCount: 1, PAugerWeight: 0.5, PAugerFreq: 1, PAugerScale: 1, PAugerSym: 0,
		PMobiusReA: 0, PFluxSpread: 0,
	} {
		if p[id] != want {
			t.Errorf("%s = %g, want %g", paramName(id), p[id], want)
		}
	}
}

func TestParseXformDefaultColour(t *testing.T) {
	// flam3 colours a new xform by the parity of how many xforms (final
	// and symmetry ones included) were added before it.
	g, _ := parseOne(t, `<flame>
		<xform weight="1" linear="1"/>
		<xform weight="1" linear="1"/>
		<finalxform linear="1"/>
		<xform weight="1" linear="1"/>
		<symmetry kind="2"/>
		<xform weight="1" linear="1"/>
	</flame>`, ParseOptions{})
	want := []float64{0, 1, 1, 0 /* symmetry */, 1}
	if len(g.Xforms) != len(want) {
		t.Fatalf("%d xforms, want %d", len(g.Xforms), len(want))
	}
	for i, c := range want {
		if g.Xforms[i].Color != c {
			t.Errorf("xform %d colour %g, want %g", i, g.Xforms[i].Color, c)
		}
	}
	if g.Final.Color != 0 {
		t.Errorf("final colour %g, want 0", g.Final.Color)
	}
	// No variation attribute at all: no variation (flam3 clears linear).
	g, _ = parseOne(t, `<flame><xform weight="1"/><xform weight="1" linear="1"/></flame>`, ParseOptions{})
	if len(g.Xforms[0].Vars) != 0 || g.Xforms[0].Weight != 1 {
		t.Errorf("xform without variations: %+v", g.Xforms[0].Vars)
	}
}

func TestParseLegacyForms(t *testing.T) {
	cases := []struct {
		attrs       string
		color       float64
		speed, anim float64
		vars        []VarTerm
	}{
		{`symmetry="1" linear="1"`, 0, 0, 0, []VarTerm{{VarLinear, 1}}},
		{`symmetry="0" linear="1"`, 0, 0.5, 1, []VarTerm{{VarLinear, 1}}},
		{`symmetry="-1" linear="1"`, 0, 1, 1, []VarTerm{{VarLinear, 1}}},
		{`symmetry="0.9" color_speed="0.3" linear="1"`, 0, 0.3, 0, []VarTerm{{VarLinear, 1}}},
		{`color_speed="0.3" symmetry="0.9" linear="1"`, 0, 0.05, 0, []VarTerm{{VarLinear, 1}}},
		{`color="0.25 0.75" linear="1"`, 0.25, 0.5, 1, []VarTerm{{VarLinear, 1}}},
		{`color=" 0.6 " linear="1"`, 0.6, 0.5, 1, []VarTerm{{VarLinear, 1}}},
		{`linear="1" var1="2"`, 0, 0.5, 1, []VarTerm{{VarSpherical, 1}}},
		{`var1="2" linear="0.5"`, 0, 0.5, 1, []VarTerm{{VarLinear, 0.5}, {VarSpherical, 1}}},
		{`swirl="1" var="0 0.5 0 2"`, 0, 0.5, 1, []VarTerm{{VarSinusoidal, 0.5}, {VarSwirl, 2}}},
		{`julian="0.5" linear="0.25" spherical="0"`, 0, 0.5, 1, []VarTerm{{VarLinear, 0.25}, {VarJulian, 0.5}}},
	}
	for _, c := range cases {
		g, _ := parseOne(t, `<flame><xform weight="1" `+c.attrs+`/></flame>`, ParseOptions{})
		x := g.Xforms[0]
		if x.Color != c.color || !near(x.ColorSpeed, c.speed) || x.Animate != c.anim {
			t.Errorf("%s: color %g speed %g animate %g, want %g %g %g", c.attrs, x.Color, x.ColorSpeed, x.Animate, c.color, c.speed, c.anim)
		}
		if len(x.Vars) != len(c.vars) {
			t.Errorf("%s: vars %v, want %v", c.attrs, x.Vars, c.vars)
			continue
		}
		for i := range x.Vars {
			if x.Vars[i] != c.vars[i] {
				t.Errorf("%s: vars %v, want %v", c.attrs, x.Vars, c.vars)
			}
		}
	}
}

func TestParseSymmetry(t *testing.T) {
	type xf struct {
		color float64
		coefs Affine
	}
	s3 := 0.866025
	cases := []struct {
		doc  string
		want []xf
	}{
		{`<flame><xform weight="1" linear="1"/><symmetry kind="3"/></flame>`, []xf{
			{0, Identity},
			{0, Affine{-0.5, s3, -s3, -0.5, 0, 0}},
			{1, Affine{-0.5, -s3, s3, -0.5, 0, 0}},
		}},
		{`<flame symmetry="-2"><xform weight="1" linear="1"/></flame>`, []xf{
			{0, Identity},
			{1, Affine{-1, 0, 0, 1, 0, 0}},
			{0, Affine{-1, 0, 0, -1, 0, 0}},
		}},
		{`<flame><symmetry kind="1"/><xform weight="1" linear="1"/></flame>`, []xf{{0, Identity}}},
	}
	for _, c := range cases {
		g, _ := parseOne(t, c.doc, ParseOptions{})
		if len(g.Xforms) != len(c.want) {
			t.Fatalf("%s: %d xforms, want %d", c.doc, len(g.Xforms), len(c.want))
		}
		for i, w := range c.want {
			x := g.Xforms[i]
			same := x.Color == w.color
			for k := range 6 {
				same = same && near(x.Coefs[k], w.coefs[k])
			}
			if !same {
				t.Errorf("%s: xform %d color %g coefs %v, want %g %v", c.doc, i, x.Color, x.Coefs, w.color, w.coefs)
			}
			if i > 0 && (x.Weight != 1 || x.ColorSpeed != 0 || x.Animate != 0 || len(x.Vars) != 1 || x.Vars[0] != (VarTerm{VarLinear, 1})) {
				t.Errorf("%s: symmetry xform %d = %+v", c.doc, i, x)
			}
		}
	}
	if _, _, err := parseString(`<flame><xform weight="1" linear="1"/><symmetry kind="100000"/></flame>`, ParseOptions{}); !errors.Is(err, ErrInvalidGenome) {
		t.Errorf("huge symmetry: err %v", err)
	}
}

func TestParseChaosAndPost(t *testing.T) {
	g, ws := parseOne(t, `<flame>
		<xform weight="1" linear="1" chaos="0 1 0.5"/>
		<xform weight="1" linear="1" chaos="1 1 1 " post="0 1 -1 0 0.5 0.25"/>
		<xform weight="1" linear="1" chaos="2"/>
		<xform weight="1" linear="1" chaos="1 1 1 1 0"/>
		<finalxform linear="1" chaos="0 0"/>
	</flame>`, ParseOptions{})
	wantChaos := [][]float64{{0, 1, 0.5, 1}, nil, {2, 1, 1, 1}, nil}
	for i, w := range wantChaos {
		got := g.Xforms[i].Chaos
		if len(got) != len(w) {
			t.Errorf("xform %d chaos %v, want %v", i, got, w)
			continue
		}
		for j := range w {
			if got[j] != w[j] {
				t.Errorf("xform %d chaos %v, want %v", i, got, w)
			}
		}
	}
	if g.Xforms[1].Post != (Affine{0, 1, -1, 0, 0.5, 0.25}) || g.Xforms[0].Post != Identity {
		t.Errorf("post %v %v", g.Xforms[1].Post, g.Xforms[0].Post)
	}
	if g.Final.Chaos != nil {
		t.Errorf("final chaos %v", g.Final.Chaos)
	}
	if !hasWarning(ws, "chaos entries beyond") || !hasWarning(ws, "finalxform: chaos ignored") {
		t.Errorf("warnings %v", ws)
	}
}

func hasWarning(ws []Warning, substr string) bool {
	for _, w := range ws {
		if strings.Contains(w.Msg, substr) {
			return true
		}
	}
	return false
}

func TestParseFinalXform(t *testing.T) {
	g, ws := parseOne(t, `<flame><finalxform weight="0.5" julian="1" julian_power="5" coefs="2 0 0 2 0 0"/><xform weight="1" linear="1"/></flame>`, ParseOptions{})
	if len(g.Xforms) != 1 || g.Final == nil {
		t.Fatalf("xforms %d final %v", len(g.Xforms), g.Final)
	}
	f := g.Final
	if f.Weight != 0 || f.Params[PJulianPower] != 5 || f.Coefs[0] != 2 || len(f.Vars) != 1 || f.Vars[0].ID != VarJulian {
		t.Errorf("final %+v", f)
	}
	if !hasWarning(ws, "weight 0.5 ignored") {
		t.Errorf("warnings %v", ws)
	}
	// Two finals that are not affine maps cannot be one: --strict refuses
	// the second where it is written.
	_, _, err := parseString(`<flame><xform weight="1" linear="1"/><finalxform julia="1"/>
<finalxform julia="1"/></flame>`, ParseOptions{Strict: true})
	if !errors.Is(err, ErrInvalidGenome) || !strings.Contains(err.Error(), "test.flam3:2:1:") {
		t.Errorf("two finals: %v", err)
	}
}

func TestParseUnknownAttributes(t *testing.T) {
	doc := `<flame name="x">
	<xform weight="1" linear="1" name="a" var_color="1" text_wf="1" split="0.5" split_shift="1"/>
	<xform weight="1" text_wf="0.5" flower_db="0.25"/><color index="0" rgb="0 0 0"/>
</flame>`
	_, ws, err := parseString(doc, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, w := range ws {
		msgs = append(msgs, w.String())
	}
	want := []string{
		`test.flam3:2: flame "x": unknown variation "text_wf" ignored (2 xforms)`,
		`test.flam3:2: flame "x": unknown parameter "split_shift" ignored (1 xform)`,
		// flower is not written beside it: JWildfire's flower_db.
		`test.flam3:3: flame "x": unknown variation "flower_db" ignored (1 xform)`,
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
	_, _, err = parseString(doc, ParseOptions{Strict: true})
	if !errors.Is(err, ErrInvalidGenome) || !strings.Contains(err.Error(), `test.flam3:2:54: flame 0 "x": variation "text_wf" is not honoured`) {
		t.Errorf("strict: %v", err)
	}
}

func TestParseAliases(t *testing.T) {
	g, ws := parseOne(t, `<flame><xform weight="1" oscilloscope="1" oscope_separation="2" oscilloscope_damping="0.5"
		mobius="1" Re_A="3" mobius_im_d="4" Im_B="5" super_shape_rnd="7"/><color index="0" rgb="0 0 0"/></flame>`, ParseOptions{})
	p := g.Xforms[0].Params
	for id, want := range map[ParamID]float64{
		POscilloscopeSeparation: 2, POscilloscopeDamping: 0.5, POscilloscopeFrequency: math.Pi,
		PMobiusReA: 3, PMobiusImD: 4, PMobiusImB: 5, PSuperShapeRnd: 1,
	} {
		if p[id] != want {
			t.Errorf("%s = %g, want %g", paramName(id), p[id], want)
		}
	}
	if len(ws) != 0 {
		t.Errorf("warnings %v", ws)
	}
}

func TestParseOpacityAndSolo(t *testing.T) {
	g, _ := parseOne(t, `<flame soloxform="1"><xform weight="1" linear="1" opacity="0.5"/><xform weight="1" linear="1" opacity="0.5"/><xform weight="1" linear="1" plotmode="off"/></flame>`, ParseOptions{})
	for i, want := range []float64{0, 0.5, 0} {
		if g.Xforms[i].Opacity != want {
			t.Errorf("xform %d opacity %g, want %g", i, g.Xforms[i].Opacity, want)
		}
	}
}

func TestParseFlameAttributes(t *testing.T) {
	g, _ := parseOne(t, `<flame name="attrs" size="640 480" center="1 -2" scale="120" zoom="1.5" rotate="30"
		supersample="3" quality="250" passes="2" temporal_samples="10" brightness="14" contrast="2" gamma="2.2"
		gamma_threshold="0.04" vibrancy="0.5" highlight_power="1" background="1 0.5 0" filter="1.2"
		filter_shape="mitchell" estimator_radius="11" estimator_minimum="1" estimator_curve="0.6" hue="1.25"
		palette_mode="linear" interpolation="smooth" time="3" fuse="50" version="x">
		<xform weight="1" linear="1"/></flame>`, ParseOptions{})
	got := *g
	got.Xforms, got.Palette = nil, Palette{}
	want := DefaultGenome()
	want.Name, want.Width, want.Height, want.Center = "attrs", 640, 480, [2]float64{1, -2}
	want.Scale, want.Zoom, want.Rotate, want.Supersample, want.Quality = 120, 1.5, 30, 3, 250
	want.Passes, want.TemporalSamples, want.Brightness, want.Contrast, want.Gamma = 2, 10, 14, 2, 2.2
	want.GammaThreshold, want.Vibrancy, want.HighlightPower = 0.04, 0.5, 1
	want.Background, want.FilterRadius, want.FilterShape = [3]float64{1, 0.5, 0}, 1.2, FilterMitchell
	want.EstimatorRadius, want.EstimatorMinimum, want.EstimatorCurve = 11, 1, 0.6
	want.HueRotation, want.PaletteMode, want.Interpolation = 0.25, PaletteLinear, "smooth"
	// Fractorium's fuse is honoured; flam3 ignores it (its FUSE_27, 15).
	want.Fuse = 50
	if !reflect.DeepEqual(got, want) {
		t.Errorf("genome\n%+v\nwant\n%+v", got, want)
	}
	g, _ = parseOne(t, `<flame oversample="4"><xform weight="1" linear="1"/></flame>`, ParseOptions{})
	if g.Supersample != 4 {
		t.Errorf("oversample: %d", g.Supersample)
	}
}

func TestParseMultiple(t *testing.T) {
	gs, ws, err := ParseFile("testdata/parse/apophysis.flam3", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 2 || gs[0].Name != "apo one" || gs[1].Name != "apo two" {
		t.Fatalf("genomes %d: %v", len(gs), gs)
	}
	x := gs[0].Xforms[1]
	if x.Opacity != 0.5 || x.Params[POscilloscopeFrequency] != 2 || x.Params[PMobiusReA] != 1 || x.Params[PMobiusImD] != 0.5 {
		t.Errorf("apo xform %+v", x)
	}
	if gs[0].Xforms[0].Chaos[1] != 0.5 {
		t.Errorf("chaos %v", gs[0].Xforms[0].Chaos)
	}
	if len(ws) != 1 || ws[0].Line != 3 || ws[0].Flame != "apo one" || !strings.Contains(ws[0].Msg, `"text_wf"`) {
		t.Errorf("warnings %v", ws)
	}
}

func TestParseFixtures(t *testing.T) {
	pf := testPalettes(t)
	for _, name := range []string{"basic", "legacy", "apophysis", "fractorium"} {
		gs, ws, err := ParseFile(filepath.Join("testdata/parse", name+".flam3"), ParseOptions{Palettes: pf})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, g := range gs {
			t.Logf("%s: flame %q: %d xforms, final %v", name, g.Name, len(g.Xforms), g.Final != nil)
		}
		for _, w := range ws {
			t.Logf("%s", w)
		}
	}
	gs, _, err := ParseFile("testdata/parse/legacy.flam3", ParseOptions{Palettes: pf})
	if err != nil {
		t.Fatal(err)
	}
	g := gs[0]
	// <symmetry kind="-3"/> comes first: mirror, then two rotations; the
	// explicit xforms follow with default colours by position overridden.
	if len(g.Xforms) != 5 || g.Symmetry != -3 || g.Xforms[0].Coefs != (Affine{-1, 0, 0, 1, 0, 0}) {
		t.Fatalf("legacy xforms %d symmetry %d first %v", len(g.Xforms), g.Symmetry, g.Xforms[0].Coefs)
	}
	x := g.Xforms[3]
	if x.Color != 0.25 || x.ColorSpeed != 0.25 || x.Animate != 0 || x.Vars[0].ID != VarSpherical {
		t.Errorf("legacy xform %+v", x)
	}
}
