package flame

import (
	"math"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// Other programs' parameters of flam3 variations move the weight to the
// variation that honours them only where they change flam3's map; the
// writer writes them back under flam3's names, and the file reads back the
// same.
func TestJWF12ExtendedFlam3Parse(t *testing.T) {
	for _, c := range []struct {
		xf   string
		want VarID
		p    ParamID
		v    float64
	}{
		{`elliptic="0.7"`, VarElliptic, PEllipticMode, 0},
		{`elliptic="0.7" elliptic_mode="0"`, VarElliptic, PEllipticMode, 0},
		{`elliptic="0.7" elliptic_mode="-3"`, VarElliptic, PEllipticMode, -3}, // clamped to 0: flam3's
		{`elliptic_mode="1" elliptic="0.7"`, VarEllipticMode, PEllipticMode, 1},
		{`elliptic="0.7" elliptic_mode="2"`, VarEllipticMode, PEllipticMode, 2},
		{`splits="0.7" splits_x="0.3"`, VarSplits, PSplitsX, 0.3},
		{`splits="0.7" splits_lshear="0" splits_dshear="0"`, VarSplits, PSplitsDshear, 0},
		{`splits="0.7" splits_dshear="-0.25"`, VarSplitsShear, PSplitsDshear, -0.25},
		{`splits="0.7" splits_rshear="0.5"`, VarSplitsShear, PSplitsRshear, 0.5},
		{`waves2="0.7" waves2_freqz="3"`, VarWaves2, PWaves2Freqz, 3}, // no z wave without scalez
		{`waves2="0.7" waves2_scalez="0.4" waves2_freqz="3"`, VarWaves2Z, PWaves2Scalez, 0.4},
		{`log="0.7"`, VarLog, PLogBase, math.E},
		{`log="0.7" log_base="2.718281828459045"`, VarLog, PLogBase, math.E},
		{`log="0.7" log_base="10"`, VarLogBase, PLogBase, 10},
	} {
		gs, ws, err := Parse(strings.NewReader(stageFlame(c.xf)), "e.flame", ParseOptions{Strict: true})
		if err != nil {
			t.Errorf("%s: %v %v", c.xf, err, ws)
			continue
		}
		x := gs[0].Xforms[0]
		if len(x.Vars) != 1 || x.Vars[0] != (VarTerm{ID: c.want, Weight: 0.7}) || x.Params[c.p] != c.v {
			t.Errorf("%s: vars %v, %s %v; want %s, %v", c.xf, x.Vars, ParamNames[c.p], x.Params[c.p],
				VarNames[c.want], c.v)
			continue
		}
		if c.want == VarElliptic || c.want == VarSplits || c.want == VarWaves2 || c.want == VarLog {
			continue
		}
		out, err := GenomeXML(gs[0], Options{})
		if err != nil {
			t.Fatal(err)
		}
		if s := string(out); !strings.Contains(s, ` `+VarNames[c.want]+`="0.7"`) || !strings.Contains(s, ParamNames[c.p]+`=`) {
			t.Errorf("%s: written as %s", c.xf, s)
		}
		back, _, err := Parse(strings.NewReader(string(out)), "w.flame", ParseOptions{Strict: true})
		if err != nil || back[0].Xforms[0].Vars[0].ID != c.want || back[0].Xforms[0].Params[c.p] != c.v {
			t.Errorf("%s: read back %v %v", c.xf, back[0].Xforms[0].Vars, err)
		}
	}
}

// By hand: where the extended variations' parameters are flam3's values,
// they are flam3's maps (elliptic mode 1's y sign aside, which the draw
// picks), and each parameter does what its program's formula says.
func TestJWF12ByHand(t *testing.T) {
	pts := [][2]float64{{0.3, -0.7}, {-1.2, 0.4}, {0.05, 0.02}, {1.7, 1.1}, {-0.4, -0.9}}
	apply := func(id VarID, p Params, x, y float64, key uint64) (float64, float64, float64) {
		xf := newXform(0)
		xf.Vars = []VarTerm{{ID: id, Weight: 0.8}}
		xf.Params = p
		Precalc(&xf)
		s := rng.NewStream(key)
		ox, oy, oz, _ := ApplyXform3D(&xf, x, y, 0, &s)
		return ox, oy, oz
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*(1+math.Abs(b)) }
	for i, pt := range pts {
		p := DefaultParams()
		p[PSplitsX], p[PSplitsY], p[PWaves2Freqz] = 0.3, 0.6, 2
		p[PEllipticMode] = 0
		for _, pair := range [][2]VarID{{VarElliptic, VarEllipticMode}, {VarSplits, VarSplitsShear},
			{VarWaves2, VarWaves2Z}, {VarLog, VarLogBase}} {
			fx, fy, fz := apply(pair[0], p, pt[0], pt[1], uint64(i))
			ex, ey, ez := apply(pair[1], p, pt[0], pt[1], uint64(i))
			if !near(ex, fx) || !near(ey, fy) || ez != fz {
				t.Errorf("%s at flam3's values, point %v: (%g %g %g), flam3's (%g %g %g)", VarNames[pair[1]], pt, ex, ey, ez, fx, fy, fz)
			}
		}
		// Mode 1: flam3's |y|, the sign from the draw; mode 2: the same map.
		fx, fy, _ := apply(VarElliptic, p, pt[0], pt[1], 1)
		p[PEllipticMode] = 1
		signs := map[bool]bool{}
		for k := range uint64(64) {
			ex, ey, _ := apply(VarEllipticMode, p, pt[0], pt[1], k)
			s := rng.NewStream(k)
			signs[s.Float64() < 0.5] = true
			if want := math.Copysign(fy, map[bool]float64{true: 1, false: -1}[s2(k)]); !near(ex, fx) || !near(ey, want) {
				t.Errorf("mode 1, point %v, key %d: (%g %g), want (%g %g)", pt, k, ex, ey, fx, want)
			}
		}
		if len(signs) != 2 {
			t.Errorf("mode 1: one sign in 64 draws")
		}
		p[PEllipticMode] = 2
		if ex, ey, _ := apply(VarEllipticMode, p, pt[0], pt[1], 1); math.Abs(ex-fx) > 1e-9 || math.Abs(ey-fy) > 1e-9 {
			t.Errorf("mode 2, point %v: (%g %g), flam3's (%g %g)", pt, ex, ey, fx, fy)
		}
		// Shears move each half plane along the other axis.
		p[PSplitsLshear], p[PSplitsRshear], p[PSplitsUshear], p[PSplitsDshear] = 0.1, 0.2, 0.3, 0.4
		sx, sy, _ := apply(VarSplits, p, pt[0], pt[1], 0)
		hx, hy, _ := apply(VarSplitsShear, p, pt[0], pt[1], 0)
		dx := map[bool]float64{true: 0.3, false: -0.4}[pt[1] >= 0]
		dy := map[bool]float64{true: 0.2, false: -0.1}[pt[0] >= 0]
		if !near(hx, sx+0.8*dx) || !near(hy, sy+0.8*dy) {
			t.Errorf("shears, point %v: (%g %g), want (%g %g)", pt, hx, hy, sx+0.8*dx, sy+0.8*dy)
		}
		// The z wave and the base.
		p[PWaves2Scalez] = 0.7
		if _, _, z := apply(VarWaves2Z, p, pt[0], pt[1], 0); !near(z, 0.8*0.7*math.Sin(math.Hypot(pt[0], pt[1])*2)) {
			t.Errorf("waves2 z, point %v: %g", pt, z)
		}
		p[PLogBase] = 2
		lx, _, _ := apply(VarLog, p, pt[0], pt[1], 0)
		if bx, _, _ := apply(VarLogBase, p, pt[0], pt[1], 0); !near(bx, lx/math.Ln2) {
			t.Errorf("log base 2, point %v: %g, want %g", pt, bx, lx/math.Ln2)
		}
	}
}

// s2 is whether the first draw of stream key is below ½: elliptic mode 1's
// + sign.
func s2(key uint64) bool {
	s := rng.NewStream(key)
	return s.Float64() < 0.5
}
