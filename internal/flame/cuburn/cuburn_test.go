package cuburn

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/flame"
)

// flockDir is cuburn's sample flock in the shared corpus.
var flockDir = "../../../../shared/corpus/flames/flock"

func needFlock(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(flockDir); err != nil {
		t.Skipf("no flock at %s", flockDir)
	}
}

func flockFiles(t testing.TB, sub string) []string {
	t.Helper()
	fs, err := filepath.Glob(filepath.Join(flockDir, sub, "*.json"))
	if err != nil || len(fs) == 0 {
		t.Fatalf("no %s in the flock: %v", sub, err)
	}
	return fs
}

// TestCuburnSplineEnds checks the spline against what cuburn's knots mean:
// positions at t=0 and t=1, velocities (per unit time, times the duration)
// as the tangents there, and edge knots passed through.
func TestCuburnSplineEnds(t *testing.T) {
	for _, c := range []struct {
		p0, v0, p1, v1, dur float64
		inner               []cbKnot
		mag                 bool
	}{
		{1, 0, 3, 0, 1, nil, false},
		{198.772, -360, -161.228, -360, 0.5, nil, false},
		{0.2, 0.7, -1, 2, 2.2, []cbKnot{{0.5, 2}}, false},
		{0.3, 0, 2.5, 0, 1.5, []cbKnot{{0.25, 4}, {0.75, 0.01}}, false},
		{0.3, 0, 2.5, 0, 1, nil, true},
	} {
		s := newCBSpline(c.p0, c.v0, c.p1, c.v1, c.inner, c.dur, c.mag)
		if got := s.at(0); math.Abs(got-c.p0) > 1e-12 {
			t.Errorf("%+v: at(0) = %g", c, got)
		}
		if got := s.at(1); math.Abs(got-c.p1) > 1e-12 {
			t.Errorf("%+v: at(1) = %g", c, got)
		}
		for _, k := range c.inner {
			if got := s.at(k.t); math.Abs(got-k.v) > 1e-12 {
				t.Errorf("%+v: at(%g) = %g, want the knot", c, k.t, got)
			}
		}
		if c.mag {
			mid := s.at(0.5)
			if !(mid > c.p0 && mid < c.p1) || math.Abs(mid-(c.p0+c.p1)/2) < 1e-3 {
				t.Errorf("mag spline midpoint %g: want between the ends and not the linear midpoint", mid)
			}
			continue
		}
		const h = 1e-6
		if d := (s.at(h) - s.at(0)) / h; math.Abs(d-c.v0*c.dur) > 1e-3*(1+math.Abs(c.v0*c.dur)) {
			t.Errorf("%+v: slope at 0 = %g, want %g", c, d, c.v0*c.dur)
		}
		if d := (s.at(1) - s.at(1-h)) / h; math.Abs(d-c.v1*c.dur) > 1e-3*(1+math.Abs(c.v1*c.dur)) {
			t.Errorf("%+v: slope at 1 = %g, want %g", c, d, c.v1*c.dur)
		}
	}
}

// TestCuburnPeriodicExtension checks the half loop's angle: a node angle
// [198.772, -360] at -0.25 and +0.25 turns moves by exactly -180 degrees
// over duration 0.5; a still angle takes the short way round.
func TestCuburnPeriodicExtension(t *testing.T) {
	spec := cbSP(45, 360)
	num := func(f float64) *jval { return &jval{kind: jNum, num: f} }
	pair := &jval{kind: jArr, arr: []*jval{num(198.772), num(-360)}}
	b := &cbBlender{duration: 0.5, srcOff: -0.25, dstOff: 0.25}
	s, err := b.spline(spec, pair, pair, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a0, a1 := s.at(0), s.at(1); math.Abs(a0-288.772) > 1e-9 || math.Abs(a1-108.772) > 1e-9 {
		t.Errorf("half loop angle %g -> %g, want 288.772 -> 108.772", a0, a1)
	}
	b = &cbBlender{duration: 1}
	s, err = b.spline(spec, num(10), num(350), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a1 := s.at(1); math.Abs(a1-(-10)) > 1e-9 {
		t.Errorf("still angle 10 -> 350 ends at %g, want -10 (the short way)", a1)
	}
}

// TestCuburnCorpusLoads loads every edge and node of the flock and checks
// the genomes over the edge are valid.
func TestCuburnCorpusLoads(t *testing.T) {
	needFlock(t)
	files := append(flockFiles(t, "edges"), flockFiles(t, "nodes")...)
	for _, f := range files {
		a, err := LoadFile(f, DefaultProfile(), Options{})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, tt := range []float64{0, 0.3, 0.5, 1} {
			if err := a.Genome(tt).Validate(); err != nil {
				t.Errorf("%s at %g: %v", filepath.Base(f), tt, err)
			}
		}
		if n := a.FrameCount(); n < 1 {
			t.Errorf("%s: %d frames", filepath.Base(f), n)
		}
	}
}

// TestCuburnNodeMatchesFlam3 checks that each node, at t=0 of its loop, is
// the .flam3 genome it was converted from: affines (decoded from cuburn's
// polar form), post affines, weights, colours, variations and their
// parameters, camera, filters and palette. Affines agree to the six
// significant digits the node files keep.
func TestCuburnNodeMatchesFlam3(t *testing.T) {
	needFlock(t)
	n := 0
	for _, f := range flockFiles(t, "nodes") {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		sheep := filepath.Join(flockDir, "sheep", name+".flam3")
		if _, err := os.Stat(sheep); err != nil {
			continue // the -extended node has no sheep
		}
		n++
		gs, _, err := flame.ParseFile(sheep, flame.ParseOptions{})
		if err != nil || len(gs) != 1 {
			t.Fatalf("%s: %v", sheep, err)
		}
		want := gs[0]
		prof := DefaultProfile()
		prof.Width, prof.Height = want.Width, want.Height
		a, err := LoadFile(f, prof, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := a.Genome(0)
		compareCBGenome(t, name, a.XformKeys(), got, want)
	}
	if n == 0 {
		t.Fatal("no node had its sheep")
	}
}

func compareCBGenome(t *testing.T, name string, keys []string, got, want *flame.Genome) {
	t.Helper()
	near := func(what string, g, w, tol float64) {
		t.Helper()
		if math.Abs(g-w) > tol {
			t.Errorf("%s: %s = %.9g, want %.9g", name, what, g, w)
		}
	}
	// The node keeps scale/width to six significant digits.
	near("scale", got.Scale, want.Scale, 1e-5*want.Scale)
	near("center x", got.Center[0], want.Center[0], 1e-6)
	near("center y", got.Center[1], want.Center[1], 1e-6)
	near("rotate", got.Rotate, want.Rotate, 1e-6)
	near("brightness", got.Brightness, want.Brightness, 1e-6)
	near("gamma", got.Gamma, want.Gamma, 1e-6)
	near("vibrancy", got.Vibrancy, want.Vibrancy, 1e-6)
	near("estimator radius", got.EstimatorRadius, want.EstimatorRadius, 1e-6)
	near("estimator minimum", got.EstimatorMinimum, want.EstimatorMinimum, 1e-6)
	near("estimator curve", got.EstimatorCurve, want.EstimatorCurve, 1e-6)
	near("filter radius", got.FilterRadius, want.FilterRadius, 1e-6)
	for i := range want.Palette {
		for c := 0; c < 3; c++ {
			near("palette["+strconv.Itoa(i)+"]", got.Palette[i][c], want.Palette[i][c], 1e-6)
		}
	}
	if len(got.Xforms) != len(want.Xforms) {
		t.Fatalf("%s: %d xforms, want %d", name, len(got.Xforms), len(want.Xforms))
	}
	for i, key := range keys {
		src, _, _ := strings.Cut(key, "_")
		j, err := strconv.Atoi(src)
		if err != nil || j >= len(want.Xforms) {
			t.Fatalf("%s: xform key %q", name, key)
		}
		compareCBXform(t, name+" xform "+key, &got.Xforms[i], &want.Xforms[j])
	}
	if (got.Final == nil) != (want.Final == nil) {
		t.Fatalf("%s: final xform %v, want %v", name, got.Final != nil, want.Final != nil)
	}
	if got.Final != nil {
		compareCBXform(t, name+" final", got.Final, want.Final)
	}
}

func compareCBXform(t *testing.T, what string, got, want *flame.Xform) {
	t.Helper()
	affine := func(which string, g, w flame.Affine) {
		// Six significant digits of angle and magnitude bound the error
		// by about 1e-5 of the largest coefficient.
		scale := 1.0
		for _, v := range w {
			scale = max(scale, math.Abs(v))
		}
		for k := range w {
			if math.Abs(g[k]-w[k]) > 2e-5*scale {
				t.Errorf("%s: %s = %v, want %v", what, which, g, w)
				return
			}
		}
	}
	affine("coefs", got.Coefs, want.Coefs)
	affine("post", got.Post, want.Post)
	for _, c := range []struct {
		n    string
		g, w float64
	}{{"weight", got.Weight, want.Weight}, {"color", got.Color, want.Color}, {"color_speed", got.ColorSpeed, want.ColorSpeed},
		{"opacity", got.Opacity, want.Opacity}} {
		if math.Abs(c.g-c.w) > 1e-6 {
			t.Errorf("%s: %s = %g, want %g", what, c.n, c.g, c.w)
		}
	}
	if len(got.Vars) != len(want.Vars) {
		t.Fatalf("%s: variations %v, want %v", what, got.Vars, want.Vars)
	}
	for i := range want.Vars {
		if got.Vars[i].ID != want.Vars[i].ID || math.Abs(got.Vars[i].Weight-want.Vars[i].Weight) > 1e-6 {
			t.Errorf("%s: variations %v, want %v", what, got.Vars, want.Vars)
		}
		for _, p := range cbVariations[flame.VarNames[want.Vars[i].ID]].params {
			if math.Abs(got.Params[p.id]-want.Params[p.id]) > 1e-6*(1+math.Abs(want.Params[p.id])) {
				t.Errorf("%s: %s = %g, want %g", what, flame.ParamNames[p.id], got.Params[p.id], want.Params[p.id])
			}
		}
	}
}

// rawNode is a node file read with encoding/json, for expectations computed
// independently of the loader.
type rawNode struct {
	Xforms map[string]struct {
		Pre        *rawAffine `json:"pre_affine"`
		Post       *rawAffine `json:"post_affine"`
		Weight     float64    `json:"weight"`
		Color      float64    `json:"color"`
		Variations map[string]map[string]float64
	} `json:"xforms"`
}

type rawAffine struct {
	Angle     json.RawMessage `json:"angle"`
	Spread    *float64        `json:"spread"`
	Magnitude *struct{ X, Y float64 }
	Offset    *struct{ X, Y float64 }
}

// coefs is the affine at phase (turns): angle moved by phase·velocity.
func (r *rawAffine) coefs(t *testing.T, phase float64) flame.Affine {
	if r == nil {
		return flame.Identity
	}
	angle, spread := 45.0, 45.0
	if r.Angle != nil {
		var pv []float64
		if json.Unmarshal(r.Angle, &pv) == nil && len(pv) == 2 {
			angle = pv[0] + phase*pv[1]
		} else if err := json.Unmarshal(r.Angle, &angle); err != nil {
			t.Fatal(err)
		}
	}
	if r.Spread != nil {
		spread = *r.Spread
	}
	mx, my, ox, oy := 1.0, 1.0, 0.0, 0.0
	if r.Magnitude != nil {
		mx, my = r.Magnitude.X, r.Magnitude.Y
	}
	if r.Offset != nil {
		ox, oy = r.Offset.X, r.Offset.Y
	}
	// x axis at angle-spread, y axis at angle+spread; cuburn's y is flipped.
	xa, ya := (angle-spread)*math.Pi/180, (angle+spread)*math.Pi/180
	return flame.Affine{mx * math.Cos(xa), -mx * math.Sin(xa), -my * math.Cos(ya), my * math.Sin(ya), ox, -oy}
}

func readRawNode(t *testing.T, id string) rawNode {
	data, err := os.ReadFile(filepath.Join(flockDir, id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var n rawNode
	if err := json.Unmarshal(data, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCuburnEdgeEnds checks every edge of the flock: at t=0 each blended
// xform is its source node's xform at the link's phase (rotation applied),
// at t=1 its destination's; a padded side has weight 0 there.
func TestCuburnEdgeEnds(t *testing.T) {
	needFlock(t)
	for _, f := range flockFiles(t, "edges") {
		var e struct {
			Link struct{ Src, Dst string }
		}
		data, _ := os.ReadFile(f)
		if err := json.Unmarshal(data, &e); err != nil {
			t.Fatal(err)
		}
		a, err := LoadFile(f, DefaultProfile(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for side, ref := range []string{e.Link.Src, e.Link.Dst} {
			id, ph, _ := strings.Cut(ref, "@")
			phase, _ := strconv.ParseFloat(ph, 64)
			node := readRawNode(t, id)
			g := a.Genome(float64(side))
			for i, key := range a.XformKeys() {
				k := strings.Split(key, "_")[side]
				x := &g.Xforms[i]
				if k == "pad" {
					if x.Weight != 0 {
						t.Errorf("%s t=%d xform %s: padded side has weight %g", filepath.Base(f), side, key, x.Weight)
					}
					continue
				}
				want, ok := node.Xforms[k]
				if !ok {
					t.Fatalf("%s: xform %s not in %s", f, k, id)
				}
				what := filepath.Base(f) + " t=" + strconv.Itoa(side) + " xform " + key
				if math.Abs(x.Weight-want.Weight) > 1e-9 || math.Abs(x.Color-want.Color) > 1e-9 {
					t.Errorf("%s: weight %g colour %g, want %g %g", what, x.Weight, x.Color, want.Weight, want.Color)
				}
				for _, pair := range []struct {
					g flame.Affine
					w *rawAffine
				}{{x.Coefs, want.Pre}, {x.Post, want.Post}} {
					w := pair.w.coefs(t, phase)
					for c := range w {
						if math.Abs(pair.g[c]-w[c]) > 1e-9*(1+math.Abs(w[c])) {
							t.Errorf("%s: affine %v, want %v", what, pair.g, w)
							break
						}
					}
				}
			}
		}
	}
}

// TestCuburnEdgeKnot checks an edge's inserted knot: the self-edge of
// 00216 sets julia's weight of the xform from source xform 0 to 2 at t=0.5,
// and the base node's 0.01... is not on that xform (it is on xform 1).
func TestCuburnEdgeKnot(t *testing.T) {
	needFlock(t)
	a, err := LoadFile(filepath.Join(flockDir, "edges", "electricsheep.244.00216=electricsheep.244.00216.json"),
		DefaultProfile(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := a.Genome(0.5)
	found := false
	for i, key := range a.XformKeys() {
		if !strings.HasPrefix(key, "0_") {
			continue
		}
		for _, v := range g.Xforms[i].Vars {
			if v.ID == flame.VarJulia {
				found = true
				if math.Abs(v.Weight-2) > 1e-12 {
					t.Errorf("julia weight at t=0.5 = %g, want the knot's 2", v.Weight)
				}
			}
		}
	}
	if !found {
		t.Errorf("no julia on the xform blended from source xform 0 at t=0.5")
	}
}

// TestCuburnInheritedNode checks a node with a base: the -extended node is
// its base plus julia on xform 0.
func TestCuburnInheritedNode(t *testing.T) {
	needFlock(t)
	load := func(name string) *flame.Genome {
		a, err := LoadFile(filepath.Join(flockDir, "nodes", name), DefaultProfile(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		return a.Genome(0)
	}
	base, ext := load("electricsheep.244.00216.json"), load("electricsheep.244.00216-extended.json")
	if base.Xforms[0].Coefs != ext.Xforms[0].Coefs || base.Palette != ext.Palette {
		t.Errorf("the extended node changed more than xform 0's variations")
	}
	var w float64
	for _, v := range ext.Xforms[0].Vars {
		if v.ID == flame.VarJulia {
			w = v.Weight
		}
	}
	if w != 0.02 || len(ext.Xforms[0].Vars) != len(base.Xforms[0].Vars)+1 {
		t.Errorf("extended xform 0 variations %v, want the base's plus julia 0.02", ext.Xforms[0].Vars)
	}
}

// TestCuburnRenderEdgeFrame renders one motion-blurred frame of an edge on
// the CPU at 64x36 and checks it is not blank.
func TestCuburnRenderEdgeFrame(t *testing.T) {
	needFlock(t)
	prof := DefaultProfile()
	prof.TemporalSamples = 64
	a, err := LoadFile(filepath.Join(flockDir, "edges", "electricsheep.244.00216=electricsheep.244.80674.json"), prof, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Override(flame.Options{Width: 64, Height: 36, Quality: 20}); err != nil {
		t.Fatal(err)
	}
	fs, err := a.Frame(0.5)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs.Samples) != 64 || fs.Samples[0].Time >= fs.Samples[63].Time {
		t.Fatalf("%d temporal samples from %g to %g", len(fs.Samples), fs.Samples[0].Time, fs.Samples[len(fs.Samples)-1].Time)
	}
	f, _, err := flame.CPU{Workers: 2}.RenderFrame(context.Background(), fs, flame.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	img := f.NRGBA()
	if b := img.Bounds(); b.Dx() != 64 || b.Dy() != 36 {
		t.Fatalf("frame %v, want 64x36", b)
	}
	lit := 0
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i]|img.Pix[i+1]|img.Pix[i+2] > 8 {
			lit++
		}
	}
	if lit < 64*36/50 {
		t.Errorf("%d of %d pixels lit: the frame is (nearly) blank", lit, 64*36)
	}
}

// TestCuburnFrameTimes checks cuburn's frame rule: round(fps · duration ·
// blend.duration) frames centred in their slots, and the profile's
// start/end/skip.
func TestCuburnFrameTimes(t *testing.T) {
	p := DefaultProfile()
	if n := p.FrameCount(1.54464); n != 1112 {
		t.Errorf("frames for 1.54464 units = %d, want round(24*30*1.54464) = 1112", n)
	}
	times, nums := p.FrameTimes(4)
	if len(times) != 4 || times[0] != 0.125 || times[3] != 0.875 || nums[0] != 1 || nums[3] != 4 {
		t.Errorf("times %v numbers %v", times, nums)
	}
	p.Skip = 1
	if _, nums = p.FrameTimes(5); len(nums) != 3 || nums[1] != 3 {
		t.Errorf("skip 1: %v, want 1 3 5", nums)
	}
	end, start := 1, 0
	p.Skip, p.End, p.Start = 0, &end, &start
	if _, nums = p.FrameTimes(5); len(nums) != 1 || nums[0] != 1 {
		t.Errorf("end 1: %v, want 1", nums)
	}
	p.Shard = 1
	if _, nums = p.FrameTimes(5); len(nums) != 5 {
		t.Errorf("shard ignores start/end/skip: %v", nums)
	}
}

// TestCuburnProfiles reads every profile of the flock.
func TestCuburnProfiles(t *testing.T) {
	needFlock(t)
	fs, _ := filepath.Glob(filepath.Join(flockDir, "profiles", "*.json"))
	for _, f := range fs {
		p, err := ReadProfile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if filepath.Base(f) == "1080p.json" && (p.Width != 1920 || p.Height != 1080 || p.SPP != 2500 || p.Output != "x264" ||
			p.Filters["bilateral.spatial_std"] != 1.667) {
			t.Errorf("1080p: %+v", p)
		}
	}
}

// BenchmarkCuburnFrame measures the interpolation of one frame's 1024
// temporal genomes of a corpus edge.
func BenchmarkCuburnFrame(b *testing.B) {
	needFlock(b)
	a, err := LoadFile(filepath.Join(flockDir, "edges", "electricsheep.244.00216=electricsheep.244.80674.json"),
		DefaultProfile(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		if _, err := a.Frame(0.5); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCuburnVariationTable checks the variation map against cuburn's list:
// 95 names, each mapped to a distinct one of ours, parameters named as
// flam3 names them (NAME_PARAM, oscope as oscilloscope).
func TestCuburnVariationTable(t *testing.T) {
	if len(cbVariations) != 95 {
		t.Errorf("%d variations, want cuburn's 95", len(cbVariations))
	}
	seen := map[flame.VarID]string{}
	for name, v := range cbVariations {
		if other, ok := seen[v.id]; ok {
			t.Errorf("%s and %s both map to %s", name, other, flame.VarNames[v.id])
		}
		seen[v.id] = name
		flam3 := flame.VarNames[v.id]
		if name != flam3 && !(name == "oscope" && flam3 == "oscilloscope") {
			t.Errorf("cuburn %s maps to our %s", name, flam3)
		}
		for _, p := range v.params {
			if flame.ParamNames[p.id] != flam3+"_"+p.name {
				t.Errorf("%s.%s maps to %s", name, p.name, flame.ParamNames[p.id])
			}
		}
	}
}
