package cuburn

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/flame"
)

// cbTestNode is a small valid node.
var cbTestNode = `{ "type": "node"
, "camera": {"scale": 0.3}
, "palette": ["rgb8", "` + cbTestPal + `"]
, "xforms": {"0": {"weight": 1, "pre_affine": {"angle": [30, -360]}, "variations": {"linear": {"weight": 1}}}}
}
`

// cbTestPal is 256 grey RGB triples in base64.
var cbTestPal = func() string {
	var b strings.Builder
	for i := 0; i < 256; i++ {
		b.WriteString("gICA") // 0x80 0x80 0x80
	}
	return b.String()
}()

// writeFlock writes files (path -> content) under a new directory.
func writeFlock(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCuburnErrors checks that bad documents fail with file:line:col and
// what was expected.
func TestCuburnErrors(t *testing.T) {
	edge := func(extra string) string {
		return `{ "type": "edge"
, "link": {"src": "nodes/a@0", "dst": "nodes/a@0.5"}` + extra + `
}
`
	}
	for _, c := range []struct {
		name, file, content string
		want                []string
	}{
		{"syntax", "edges/e.json", "{ \"type\": \"edge\",\n  \"link\": [1, 2,, 3] }", []string{"e.json:2:17:", "want a value"}},
		{"nan knot", "edges/e.json", edge("\n, \"xforms.src.0.weight\": [0.5, NaN]"), []string{"e.json:3:32:", "NaN is not a finite number"}},
		{"inf knot", "edges/e.json", edge("\n, \"xforms.src.0.weight\": [0.5, 1e999]"), []string{"e.json:3:32:", "not a finite number"}},
		{"missing node", "edges/e.json", strings.Replace(edge(""), "nodes/a@0.5", "nodes/nope@0.5", 1), []string{"e.json:2:39:", `"nodes/nope" names a missing file`}},
		{"unknown variation", "nodes/b.json", strings.Replace(cbTestNode, `"linear"`, `"flatten"`, 1), []string{"b.json:4:", `unknown variation "flatten"`}},
		{"unknown key", "nodes/b.json", strings.Replace(cbTestNode, `"scale"`, `"zoom"`, 1), []string{"b.json:2:22:", `unknown key "camera.zoom"`}},
		{"odd knots", "edges/e.json", edge("\n, \"xforms.src.0.weight\": [0.5]"), []string{"e.json:3:26:", "time, value pairs"}},
		{"node value", "nodes/b.json", strings.Replace(cbTestNode, `"weight": 1,`, `"weight": [1, 2, 3],`, 1), []string{"b.json:4:", "number or [position, velocity]"}},
		{"no type", "nodes/b.json", `{"xforms": {}}`, []string{"b.json:1:1:", `"type": "node" or "edge"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFlock(t, map[string]string{"nodes/a.json": cbTestNode, c.file: c.content})
			_, err := LoadFile(filepath.Join(dir, c.file), DefaultProfile(), Options{})
			if err == nil {
				t.Fatalf("no error")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("%v does not wrap ErrInvalid", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestCuburnSmallEdge blends a hand-made edge: a node into itself half a
// turn later, with a knot; it checks the loop's rotation and the padding
// of an xform only the destination has.
func TestCuburnSmallEdge(t *testing.T) {
	two := strings.Replace(cbTestNode, `"xforms": {`, `"xforms": {"1": {"weight": 0.5, "variations": {"spherical": {"weight": 1}}}, `, 1)
	dir := writeFlock(t, map[string]string{"nodes/a.json": cbTestNode, "nodes/b.json": two,
		"edges/e.json": `{"type": "edge", "link": {"src": "nodes/a@0", "dst": "nodes/b@0.5"}, "blend": {"duration": 1}}`})
	a, err := LoadFile(filepath.Join(dir, "edges/e.json"), DefaultProfile(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	keys := strings.Join(a.XformKeys(), " ")
	if keys != "0_1 pad_0" && keys != "0_0 pad_1" {
		t.Fatalf("blended xforms %q", keys)
	}
	g0, g1 := a.Genome(0), a.Genome(1)
	for i, k := range a.XformKeys() {
		if strings.HasPrefix(k, "pad_") {
			if g0.Xforms[i].Weight != 0 || g1.Xforms[i].Weight == 0 {
				t.Errorf("padded xform %s: weight %g -> %g", k, g0.Xforms[i].Weight, g1.Xforms[i].Weight)
			}
			if !strings.HasSuffix(k, "_1") {
				continue
			}
			// spherical is a hole variation: padded with an inverted linear.
			if v := g0.Xforms[i].Vars; len(v) != 1 || v[0].ID != flame.VarLinear || v[0].Weight != -1 {
				t.Errorf("padding for spherical: %v, want linear -1", v)
			}
		}
	}
	if g0.Palette[10][0] != 128.0/255 || g0.Palette[10][3] != 1 {
		t.Errorf("palette entry %v, want grey 128/255", g0.Palette[10])
	}
}

// FuzzCuburnJSON feeds arbitrary documents to the loader (as an edge or
// node beside a valid node) and to the profile reader: no input may crash
// or hang them.
func FuzzCuburnJSON(f *testing.F) {
	f.Add([]byte(cbTestNode))
	f.Add([]byte(`{"type": "edge", "link": {"src": "nodes/a@-0.25", "dst": "nodes/a@0.25"}, "xforms.src.0.variations.julia.weight": [0.5, 2]}`))
	f.Add([]byte(`{"type": "edge", "link": {"src": "nodes/a", "dst": "nodes/a"}, "blend": {"xform_map": [["0", "pad"]], "xform_sort": "color"}, "palette": [[0.5, "rgb8", "AAAA"]]}`))
	f.Add([]byte(`{"type": "node", "base": "nodes/a", "xforms.0.variations.blob.low": 2, "final_xform": {"color": [0.5, 1]}}`))
	f.Add([]byte(`{"type": "profile", "width": 64, "height": 36, "spp": 5, "end": -1, "filters": {"logscale": {"brightness": 2}}}`))
	if matches, _ := filepath.Glob(filepath.Join(flockDir, "*", "*.json")); len(matches) > 0 {
		for _, m := range matches[:min(len(matches), 8)] {
			if data, err := os.ReadFile(m); err == nil {
				f.Add(data)
			}
		}
	}
	dir := writeFlock(f, map[string]string{"nodes/a.json": cbTestNode})
	f.Fuzz(func(t *testing.T, data []byte) {
		prof := DefaultProfile()
		prof.TemporalSamples = 2
		a, err := Load(data, filepath.Join(dir, "edges", "x.json"), prof, Options{})
		if err == nil {
			for _, tt := range []float64{0, 0.5, 1} {
				a.Genome(tt)
			}
			if err := a.Override(flame.Options{Width: 8, Height: 8, Quality: 1}); err == nil {
				_, _ = a.Frame(0.5)
			}
		} else if !strings.Contains(err.Error(), "x.json") && !strings.Contains(err.Error(), "a.json") {
			t.Errorf("error without a file name: %v", err)
		}
		_, _ = ParseProfile(data, "p.json")
		IsJSON(data)
	})
}

// TestCuburnProfileMultipliers checks that a profile's filter values
// multiply the genome's, and its size and spp set the genome's.
func TestCuburnProfileMultipliers(t *testing.T) {
	dir := writeFlock(t, map[string]string{"nodes/a.json": strings.Replace(cbTestNode, `"camera"`,
		`"filters": {"logscale": {"brightness": 3}, "de": {"radius": 5, "minimum": 0.2}}, "camera"`, 1)})
	prof, err := ParseProfile([]byte(`{"type": "profile", "width": 40, "height": 30, "spp": 7,
		"filters": {"logscale": {"brightness": 2}, "de": {"radius": 3}, "colorclip": {"gamma": 0.5}}}`), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	a, err := LoadFile(filepath.Join(dir, "nodes", "a.json"), prof, Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := a.Genome(0.3)
	// Magnitude-domain splines return constants to within rounding.
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if !near(g.Brightness, 6) || !near(g.EstimatorRadius, 15) || !near(g.EstimatorMinimum, 3) || !near(g.Gamma, 2) {
		t.Errorf("brightness %g, estimator radius %g minimum %g, gamma %g: want 6, 15, 3 and 2 (cuburn's default 4 × 0.5)",
			g.Brightness, g.EstimatorRadius, g.EstimatorMinimum, g.Gamma)
	}
	if g.Width != 40 || g.Height != 30 || g.Quality != 7 || math.Abs(g.Scale-0.3*40) > 1e-12 {
		t.Errorf("size %dx%d quality %g scale %g", g.Width, g.Height, g.Quality, g.Scale)
	}
	if _, err := ParseProfile([]byte(`{"type": "profile", "widht": 4}`), "p.json"); err == nil ||
		!strings.Contains(err.Error(), `p.json:1:30: `) || !strings.Contains(err.Error(), `unknown profile key "widht"`) {
		t.Errorf("misspelt key: %v", err)
	}
}
