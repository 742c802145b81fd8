package flame

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// stageFlame wraps one xform's attributes in a flame.
func stageFlame(xf string) string {
	return `<flame size="64 64" center="0 0" scale="10"><xform weight="1" color="0" ` + xf +
		` coefs="1 0 0 1 0 0"/><color index="0" rgb="255 255 255"/></flame>`
}

func TestParseStages(t *testing.T) {
	cases := []struct {
		name, xf string
		stages   []StageTerm
		params   map[ParamID]float64
		warn     string
	}{
		{"pre and post in document order",
			`post_spherical="0.8" pre_sineblur="0.5" pre_sineblur_power="2" pre_foci="-0.2" linear="1"`,
			[]StageTerm{{true, VarSpherical, 0.8}, {false, VarSineblur, 0.5}, {false, VarFoci, -0.2}},
			map[ParamID]float64{PSineblurPower: 2}, ""},
		{"stage with the regular variation's parameters",
			`curl="1" curl_c1="0.3" post_curl="0.5" post_curl_c1="0.3"`,
			[]StageTerm{{true, VarCurl, 0.5}}, map[ParamID]float64{PCurlC1: 0.3}, ""},
		{"stage with other parameters than the regular variation",
			`julian="1" julian_power="3" post_julian="1" post_julian_power="2"`,
			nil, map[ParamID]float64{PJulianPower: 3}, "post_julian"},
		{"stage parameter left at its default while the regular one is not",
			`curl="1" curl_c1="0.3" pre_curl="0.5"`, nil, map[ParamID]float64{PCurlC1: 0.3}, "pre_curl"},
		{"zero weight", `linear="1" pre_spherical="0"`, nil, nil, ""},
		{"unknown base stays unknown", `linear="1" post_smartcrop="1"`, nil, nil, "post_smartcrop"},
		{"pre_blur has no stage form", `linear="1" pre_pre_blur="1"`, nil, nil, "pre_pre_blur"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gs, ws, err := Parse(strings.NewReader(stageFlame(c.xf)), "s.flame", ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			x := gs[0].Xforms[0]
			if len(x.Stages) != len(c.stages) {
				t.Fatalf("stages %v, want %v", x.Stages, c.stages)
			}
			for i := range c.stages {
				if x.Stages[i] != c.stages[i] {
					t.Errorf("stage %d = %v, want %v", i, x.Stages[i], c.stages[i])
				}
			}
			for p, v := range c.params {
				if x.Params[p] != v {
					t.Errorf("%s = %v, want %v", ParamNames[p], x.Params[p], v)
				}
			}
			var msgs []string
			for _, w := range ws {
				msgs = append(msgs, w.Msg)
			}
			all := strings.Join(msgs, "; ")
			if c.warn == "" && len(ws) != 0 || c.warn != "" && !strings.Contains(all, c.warn) {
				t.Errorf("warnings %q, want one naming %q", all, c.warn)
			}
			if c.warn == "" {
				if _, _, err := Parse(strings.NewReader(stageFlame(c.xf)), "s.flame", ParseOptions{Strict: true}); err != nil {
					t.Errorf("--strict: %v", err)
				}
			}
		})
	}
}

// one maps (x, y, z) through variation id alone (identity affine), as the
// regular stage does: the sum starts at 0.
func one(id VarID, w, x, y, z float64, s *rng.Stream) (float64, float64, float64) {
	xf := newXform(0)
	xf.Vars = []VarTerm{{id, w}}
	Precalc(&xf)
	ox, oy, oz, _ := ApplyXform3D(&xf, x, y, z, s)
	return ox, oy, oz
}

func TestApplyStages(t *testing.T) {
	aff := Affine{0.8, -0.3, 0.4, 1.1, 0.2, -0.5}
	pt := [3]float64{0.6, -0.35, 0.7}
	tx, ty := aff.Apply(pt[0], pt[1])
	key := rng.Key(3, 1, 4)
	cases := []struct {
		name   string
		vars   []VarTerm
		stages []StageTerm
		want   func(s *rng.Stream) (float64, float64, float64)
	}{
		{"pre replaces, post replaces (a regular 2D variation leaves z at 0)",
			[]VarTerm{{VarLinear, 0.7}}, []StageTerm{{false, VarSpherical, 0.9}, {true, VarSwirl, 0.6}},
			func(s *rng.Stream) (float64, float64, float64) {
				x, y, _ := one(VarSpherical, 0.9, tx, ty, pt[2], s)
				x, y, _ = one(VarSwirl, 0.6, 0.7*x, 0.7*y, 0, s)
				return x, y, 0
			}},
		{"blurs add to the point",
			[]VarTerm{{VarLinear, 1}}, []StageTerm{{false, VarSineblur, 0.3}, {true, VarZtranslate, 0.25}},
			func(s *rng.Stream) (float64, float64, float64) {
				bx, by, _ := one(VarSineblur, 0.3, tx, ty, pt[2], s)
				return tx + bx, ty + by, 0.25
			}},
		{"flatten as a stage zeroes z only",
			[]VarTerm{{VarLinear3D, 1}}, []StageTerm{{true, VarFlatten, 1}},
			func(s *rng.Stream) (float64, float64, float64) { return tx, ty, 0 }},
		{"no regular variation: the point passes, z kept by a 2D stage",
			nil, []StageTerm{{true, VarSpherical, 1}},
			func(s *rng.Stream) (float64, float64, float64) {
				x, y, _ := one(VarSpherical, 1, tx, ty, pt[2], s)
				return x, y, pt[2]
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := newXform(0)
			x.Coefs, x.Vars, x.Stages = aff, c.vars, c.stages
			Precalc(&x)
			if !xformUses3D(&x) {
				t.Error("stage terms must run in the z-carrying loop")
			}
			want := "" // the flame3d family runs stages of the variations it has
			for _, st := range c.stages {
				if !gpuHasVar(st.ID) && want == "" {
					want = st.Name()
				}
			}
			if name, _ := pluginVar(&x); name != want {
				t.Errorf("GPU refusal names %q, want %q", name, want)
			}
			s1, s2 := rng.NewStream(key), rng.NewStream(key)
			gx, gy, gz, ok := ApplyXform3D(&x, pt[0], pt[1], pt[2], &s1)
			wx, wy, wz := c.want(&s2)
			if !ok || !closeTo(gx, wx, 1) || !closeTo(gy, wy, 1) || !closeTo(gz, wz, 1) {
				t.Errorf("got (%v, %v, %v) ok=%v, want (%v, %v, %v)", gx, gy, gz, ok, wx, wy, wz)
			}
		})
	}
}

// TestStagesRoundTrip: written stage terms read back the same, with their
// parameters under the stage's prefix.
func TestStagesRoundTrip(t *testing.T) {
	gs, _, err := Parse(strings.NewReader(stageFlame(`curl="1" curl_c1="0.3" post_curl="0.5" post_curl_c1="0.3" pre_sineblur="0.25" pre_sineblur_power="3"`)), "s.flame", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	x := gs[0].Xforms[0]
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	writeStages(w, &x, num)
	w.Flush()
	out := b.String()
	for _, want := range []string{`post_curl="0.5"`, `pre_sineblur="0.25"`, `post_curl_c1="0.3"`, `pre_sineblur_power="3"`} {
		if !strings.Contains(out, want) {
			t.Errorf("written %q lacks %s", out, want)
		}
	}
	back, ws, err := Parse(strings.NewReader(stageFlame(`curl="1" curl_c1="0.3"`+out)), "s.flame", ParseOptions{})
	if err != nil || len(ws) != 0 {
		t.Fatalf("read back: %v %v", err, ws)
	}
	if y := back[0].Xforms[0]; len(y.Stages) != 2 || y.Stages[0] != x.Stages[0] || y.Stages[1] != x.Stages[1] || y.Params != x.Params {
		t.Errorf("read back %v, want %v", y.Stages, x.Stages)
	}
}

func TestMixStages(t *testing.T) {
	mk := func(st ...StageTerm) aligned { return aligned{xf: []axform{{Xform: Xform{Stages: st}}}} }
	a := mk(StageTerm{false, VarSineblur, 1}, StageTerm{true, VarSpherical, 0.5})
	b := mk(StageTerm{false, VarSineblur, 0.5}, StageTerm{true, VarSpherical, 1.5})
	got := mixStages([]aligned{a, b}, 0, []float64{0.25, 0.75})
	want := []StageTerm{{false, VarSineblur, 0.625}, {true, VarSpherical, 1.25}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("same shape: %v, want %v", got, want)
	}
	pad := mk()
	if got := mixStages([]aligned{a, pad}, 0, []float64{0.4, 0.6}); got != nil {
		t.Errorf("other shapes: %v, want the larger coefficient's (none)", got)
	}
	if got := mixStages([]aligned{a, pad}, 0, []float64{0.6, 0.4}); len(got) != 2 || got[0] != a.xf[0].Stages[0] {
		t.Errorf("other shapes: %v, want %v", got, a.xf[0].Stages)
	}
}

// TestPreBlurNormalStage: JWildfire's pre_blur moved to the normal stage
// (pre_blur_fx_priority="0") changes nothing there; at -1 it is flam3's.
func TestPreBlurNormalStage(t *testing.T) {
	for _, c := range []struct {
		prio string
		want float64
	}{{"0", 0}, {"-1", 0.3}} {
		gs, ws, err := Parse(strings.NewReader(stageFlame(`linear="1" pre_blur="0.3" pre_blur_fx_priority="`+c.prio+`"`)), "s.flame", ParseOptions{Strict: true})
		if err != nil || len(ws) != 0 {
			t.Fatalf("priority %s: %v %v", c.prio, err, ws)
		}
		got := 0.0
		for _, v := range gs[0].Xforms[0].Vars {
			if v.ID == VarPreBlur {
				got = v.Weight
			}
		}
		if got != c.want {
			t.Errorf("priority %s: pre_blur weight %v, want %v", c.prio, got, c.want)
		}
	}
}
