package flame

import (
	"fmt"
	"strings"
	"testing"
)

// JWildfire's motion curves on a variation's parameter (and on a stage's)
// are neither unknown parameters nor variations: a disabled one is read
// silently, even with --strict; an enabled one is reported as not honoured
// (an error with --strict, naming the attribute's file:line:col). A real
// parameter with a curve-like name (falloff2_x0) stays a parameter.
func TestMotionCurves(t *testing.T) {
	curve := func(name, enabled string) string {
		return fmt.Sprintf(`%[1]s_enabled="%[2]s" %[1]s_view_xmin="0" %[1]s_view_xmax="100" %[1]s_view_ymin="-1" `+
			`%[1]s_view_ymax="1" %[1]s_interpolation="SPLINE" %[1]s_selected_idx="0" %[1]s_locked="false" `+
			`%[1]s_point_count="2" %[1]s_x0="0" %[1]s_y0="3" %[1]s_x1="60" %[1]s_y1="4" `, name, enabled)
	}
	for _, c := range []struct {
		name, xf string
		strictOK bool
		warn     string // a warning without --strict, "" for none
	}{
		{"disabled", `julian="1" julian_power="3" ` + curve("julian_power", "false"), true, ""},
		{"on a stage's parameter", `linear="1" post_trig="0.8" post_trig_fx_priority="1" post_trig_sinpow="0.5" ` +
			curve("post_trig_sinpow", "false"), true, ""},
		{"on a variation's weight", `julian="1" ` + curve("julian", "false"), true, ""},
		{"enabled", `julian="1" julian_power="3" ` + curve("julian_power", "true"), false,
			`motion curve "julian_power_enabled"`},
		{"of a name procgen does not know", `julian="1" ` + curve("nosuch_power", "false"), false,
			`"nosuch_power_enabled"`},
	} {
		_, _, err := Parse(strings.NewReader(stageFlame(c.xf)), "m.flame", ParseOptions{Strict: true})
		if (err == nil) != c.strictOK {
			t.Errorf("%s: --strict: %v", c.name, err)
		}
		if err != nil && !strings.Contains(err.Error(), "m.flame:1:") {
			t.Errorf("%s: --strict error without a position: %v", c.name, err)
		}
		_, ws, err := Parse(strings.NewReader(stageFlame(c.xf)), "m.flame", ParseOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := fmt.Sprint(ws)
		if (c.warn == "") != (len(ws) == 0) || !strings.Contains(got, c.warn) {
			t.Errorf("%s: warnings %s, want %q", c.name, got, c.warn)
		}
	}
	gs, _, err := Parse(strings.NewReader(stageFlame(`falloff2="1" falloff2_x0="0.25" falloff2_y0="-0.5"`)), "f.flame", ParseOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if p := gs[0].Xforms[0].Params; p[PFalloff2X0] != 0.25 || p[PFalloff2Y0] != -0.5 {
		t.Errorf("falloff2_x0, _y0 = %v, %v", p[PFalloff2X0], p[PFalloff2Y0])
	}
}
