package flame

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

const quirkPal = `<palette count="2" format="RGB">000000FFFFFF</palette>`

// TestParseArtistQuirks reads, one quirk at a time, what JWildfire,
// Fractorium and Apophysis write and flam3 does not.
func TestParseArtistQuirks(t *testing.T) {
	cases := []struct {
		name, doc string
		check     func(g *Genome) string // "" when right
		warn      string                 // a warning that must be given
	}{
		{"integers written as 1.0", `<flame temporal_samples="1.0" supersample="2.0" passes="1.0"><xform weight="1" linear="1"/>` + quirkPal + `</flame>`,
			func(g *Genome) string {
				return want(g.TemporalSamples == 1 && g.Supersample == 2 && g.Passes == 1, "ints %d %d %d", g.TemporalSamples, g.Supersample, g.Passes)
			}, ""},
		{"Apophysis Flames root", `<Flames name="x"><flame name="a"><xform weight="1" linear="1"/>` + quirkPal + `</flame><flame name="b"><xform weight="1" linear="1"/>` + quirkPal + `</flame></Flames>`,
			nil, ""},
		{"jwf-flame first layer", `<jwf-flame name="j" size="40 30"><layer weight="1"><xform weight="1" spherical="1"/>` + quirkPal + `</layer><layer weight="0.4"><xform weight="1" linear="1"/><xform weight="1" linear="1"/>` + quirkPal + `</layer></jwf-flame>`,
			func(g *Genome) string {
				return want(g.Width == 40 && len(g.Xforms) == 1 && g.Xforms[0].Vars[0].ID == VarSpherical, "size %d xforms %d", g.Width, len(g.Xforms))
			}, "only the first of 2 layers"},
		{"512-entry palette", `<flame><xform weight="1" linear="1"/><palette count="512" format="RGB">` + strings.Repeat("000000FFFFFF", 256) + `</palette></flame>`,
			func(g *Genome) string {
				return want(g.Palette[0][0] == 0.5 && g.Palette[255][2] == 0.5, "entries %v %v", g.Palette[0], g.Palette[255])
			}, ""},
		{"variation written twice", `<flame><xform weight="1" bubble="0.25" bubble#1#="0.5" bubble#1#_fx_priority="0"/>` + quirkPal + `</flame>`,
			func(g *Genome) string {
				v := g.Xforms[0].Vars
				return want(len(v) == 1 && v[0].ID == VarBubble && v[0].Weight == 0.75, "vars %v", v)
			}, ""},
		{"copy with other parameters", `<flame><xform weight="1" julian="1" julian_power="2" julian#1#="1" julian#1#_power="3"/>` + quirkPal + `</flame>`,
			func(g *Genome) string {
				v := g.Xforms[0].Vars
				return want(len(v) == 1 && v[0].Weight == 1, "vars %v", v)
			}, `variation copy "julian#1#" not honoured, ignored (1 xform)`},
		{"names that are not XML names", `<flame><xform weight="1" linear="1" sunvoroni="0.5" sunvoroni_color mode="1" dc_booleans="0.1" dc_booleans_^/&/|="2"/>` + quirkPal + `</flame>`,
			nil, `unknown variation "sunvoroni" ignored (1 xform)`},
		{"unknown variation counted over xforms", `<flame><xform weight="1" text_wf="1" text_wf_cellsize="2"/><xform weight="1" text_wf="1"/><finalxform text_wf="0.5" sattractor3D="0"/>` + quirkPal + `</flame>`,
			nil, `unknown variation "text_wf" ignored (3 xforms)`},
		{"Fractorium pre_ and post_ linear", `<flame><xform weight="1" pre_linear="2" linear="1" post_linear="3" coefs="1 0 0 1 1 0" post="1 0 0 1 0 1"/>` + quirkPal + `</flame>`,
			func(g *Genome) string {
				x := g.Xforms[0]
				return want(x.Coefs == Affine{2, 0, 0, 2, 2, 0} && x.Post == Affine{3, 0, 0, 3, 0, 1}, "coefs %v post %v", x.Coefs, x.Post)
			}, ""},
		{"JWildfire _fx_priority", `<flame><xform weight="1" linear="2" linear_fx_priority="-1" spherical="1" spherical_fx_priority="0"/>` + quirkPal + `</flame>`,
			func(g *Genome) string {
				x := g.Xforms[0]
				return want(x.Coefs == Affine{2, 0, 0, 2, 0, 0} && len(x.Vars) == 1 && x.Vars[0].ID == VarSpherical, "coefs %v vars %v", x.Coefs, x.Vars)
			}, ""},
		{"post stage not honoured", `<flame><xform weight="1" spherical="1" spherical_fx_priority="1"/>` + quirkPal + `</flame>`,
			nil, `variation stage "spherical_fx_priority" not honoured`},
		{"several finals: an affine one folds in", `<flame><xform weight="1" linear="1"/><finalxform linear="2" coefs="1 0 0 1 1 0" color="0" color_speed="0.5"/><finalxform julian="1" color="1" color_speed="0.5"/>` + quirkPal + `</flame>`,
			func(g *Genome) string {
				f := g.Final
				return want(f.Vars[0].ID == VarJulian && f.Coefs == Affine{2, 0, 0, 2, 2, 0} && f.ColorSpeed == 0.75 && math.Abs(f.Color-2.0/3) < 1e-12,
					"final coefs %v colour %g speed %g", f.Coefs, f.Color, f.ColorSpeed)
			}, ""},
		{"several finals: affine last", `<flame><xform weight="1" linear="1"/><finalxform julian="1"/><finalxform linear="1" coefs="0 1 1 0 0 0"/>` + quirkPal + `</flame>`,
			func(g *Genome) string {
				f := g.Final
				return want(f.Vars[0].ID == VarJulian && f.Post == Affine{0, 1, 1, 0, 0, 0}, "final post %v", f.Post)
			}, ""},
		{"several finals: neither affine", `<flame><xform weight="1" linear="1"/><finalxform julian="1"/><finalxform spherical="1"/>` + quirkPal + `</flame>`,
			func(g *Genome) string { return want(g.Final.Vars[0].ID == VarJulian, "final %v", g.Final.Vars) },
			`finalxform "finalxform" not honoured, ignored (1 flame)`},
		{"JWildfire colour settings", `<flame><xform weight="1" linear="1" color_speed="0.5" color_type="NONE" material="0.0" mod_gamma="0.0" xyCoeff00Curve_enabled="false"/>` + quirkPal + `</flame>`,
			func(g *Genome) string {
				return want(g.Xforms[0].ColorSpeed == 0, "color_speed %g", g.Xforms[0].ColorSpeed)
			}, ""},
		{"camera roll warned", `<flame cam_roll="0.5" cam_yaw="0"><xform weight="1" linear="1"/>` + quirkPal + `</flame>`,
			nil, `flame attribute "cam_roll" not honoured`},
		{"preserve_z warned", `<flame preserve_z="1"><xform weight="1" linear="1"/>` + quirkPal + `</flame>`,
			nil, `flame attribute "preserve_z" not honoured`},
		{"preserve_z off is neutral", `<flame preserve_z="0"><xform weight="1" linear="1"/>` + quirkPal + `</flame>`,
			nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gs, ws, err := parseString(c.doc, ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c.check != nil {
				if msg := c.check(gs[0]); msg != "" {
					t.Error(msg)
				}
			}
			if c.warn != "" && !hasWarning(ws, c.warn) {
				t.Errorf("warnings %v, want %q", ws, c.warn)
			}
			if c.warn == "" && len(ws) != 0 {
				t.Errorf("unexpected warnings %v", ws)
			}
		})
	}
}

func want(ok bool, format string, args ...any) string {
	if ok {
		return ""
	}
	return fmt.Sprintf(format, args...)
}

// TestParseStrictKinds: under --strict each kind of name procgen does not
// honour is an error at its line and column.
func TestParseStrictKinds(t *testing.T) {
	cases := []struct{ doc, where, what string }{
		{"<flame>\n<xform weight=\"1\" linear=\"1\" text_wf=\"1\"/>" + quirkPal + "</flame>", "test.flam3:2:30:", `variation "text_wf"`},
		{"<flame>\n<xform weight=\"1\" julian=\"1\" julian_spin=\"1\"/>" + quirkPal + "</flame>", "test.flam3:2:30:", `parameter "julian_spin"`},
		{"<flame>\n<xform weight=\"1\" linear=\"1\" material=\"0.5\"/>" + quirkPal + "</flame>", "test.flam3:2:30:", `xform attribute "material"`},
		{"<flame name=\"a\"\n  cam_zoom=\"0.8\"><xform weight=\"1\" linear=\"1\"/>" + quirkPal + "</flame>", "test.flam3:2:3:", `flame attribute "cam_zoom"`},
		{"<flame>\n <xform weight=\"1\" linear=\"1\"/>" + quirkPal + "\n  <curves/></flame>", "test.flam3:3:3:", `element "curves"`},
		{"<jwf-flame><layer><xform weight=\"1\" linear=\"1\"/>" + quirkPal + "</layer>\n<layer/></jwf-flame>", "test.flam3:2:1:", `element "layer"`},
	}
	for _, c := range cases {
		_, _, err := parseString(c.doc, ParseOptions{Strict: true})
		if !errors.Is(err, ErrInvalidGenome) || !strings.HasPrefix(err.Error(), c.where) || !strings.Contains(err.Error(), c.what) {
			t.Errorf("%q: error %v, want %s ... %s", c.doc, err, c.where, c.what)
		}
		if _, _, err := parseString(c.doc, ParseOptions{}); err != nil {
			t.Errorf("%q without --strict: %v", c.doc, err)
		}
	}
	// What is neutral or metadata is fine under --strict.
	doc := `<flame name="n" version="JWildfire" cam_pitch="0.0" cam_zoom="1.0" temporal_samples="1.0" frame="1" xCurve_enabled="false">
<xform weight="1" linear="1" material="0.0" color_type="DIFFUSION" linear_fx_priority="0"/>` + quirkPal + `<edit/></flame>`
	if _, _, err := parseString(doc, ParseOptions{Strict: true}); err != nil {
		t.Errorf("neutral settings under --strict: %v", err)
	}
}

func TestResamplePalette(t *testing.T) {
	for _, n := range []int{257, 384, 512, 1000, 1024} {
		cols := make([][4]float64, n)
		for i := range cols {
			cols[i] = [4]float64{float64(i), 1, 0, 255}
		}
		out := resamplePalette(cols)
		// A box filter keeps the mean, and constant channels stay constant.
		var sum float64
		for _, c := range out {
			sum += c[0]
			if math.Abs(c[1]-1) > 1e-9 || math.Abs(c[3]-255) > 1e-9 {
				t.Fatalf("n=%d: constant channel moved: %v", n, c)
			}
		}
		if mean, want := sum/256, float64(n-1)/2; math.Abs(mean-want) > 1e-9 {
			t.Errorf("n=%d: mean %g, want %g", n, mean, want)
		}
	}
}
