package pga

import (
	"bytes"
	"errors"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh"
)

var writePNG = flag.Bool("write-png", false, "write configs/pga/bricks.png (TestTexturedExamplePNG)")

// bricksPNG draws the example's texture: 64 x 64 pixels of running-bond
// bricks (two courses, the second offset by half a brick) with grey mortar,
// so it tiles seamlessly.
func bricksPNG() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			xs := x
			if (y/16)%2 == 1 {
				xs = (x + 16) % 64
			}
			c := color.NRGBA{R: 150 + uint8((x*7+y*3)%23), G: 62 + uint8((x*5+y*11)%17), B: 44, A: 255}
			if y%16 < 2 || xs%32 < 2 {
				c = color.NRGBA{R: 190, G: 186, B: 178, A: 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// The committed texture is the one the code draws (go test -write-png
// rewrites it).
func TestTexturedExamplePNG(t *testing.T) {
	path := filepath.Join("..", "..", "configs", "pga", "bricks.png")
	want := bricksPNG()
	if *writePNG {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from bricksPNG (rewrite it with -write-png)", path)
	}
}

// SetupProjection works in world units: a 3 m wide scope under a 3 m
// repeat spans u in [0, 1], a 6 m one [0, 2]; pieces split off a projected
// facade continue its coordinates; negative repeats are factors of the
// scope; Texture and Color name materials once each.
func TestProjectionWorldUnits(t *testing.T) {
	src := `axiom Quad Lot;
terminal A (1, 0);
terminal B (2, 0);
terminal C (3, 0);
Lot = Rotate(0, 0, 30) Translate(5, -2, 1) Replicate() { SetupProjection(XY, 3, 3) ProjectUV() Texture("t.png") A |
  SetupProjection(XY, 3, 3) ProjectUV() Texture("t.png") SubDiv(X) { 2: B | -1: Color("#ff0000") B } |
  SetupProjection(YX, -1, -0.5) ProjectUV() C };`
	g, err := Parse("dir/g.pga", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Materials) != 2 || g.Materials[0].Image != filepath.Join("dir", "t.png") || g.Materials[1].Color != [3]float64{1, 0, 0} {
		t.Fatalf("materials %+v", g.Materials)
	}
	for _, w := range []float64{3, 6} {
		ts, projs, err := g.evaluateTerms([]Shape{NewAxiom(Quad, Vec3{w, 1.5, 0}, 1)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rng := map[string][4]float64{}
		for i := range ts {
			name := g.TermName(&ts[i])
			corners, _, _ := g.worldSolid(&ts[i].Shape)
			r, ok := rng[name]
			if !ok {
				r = [4]float64{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
			}
			for _, p := range corners {
				pr := projection1(projs, &ts[i])
				uv := uvAt(&pr, p)
				r = [4]float64{min(r[0], float64(uv[0])), max(r[1], float64(uv[0])), min(r[2], float64(uv[1])), max(r[3], float64(uv[1]))}
			}
			rng[name] = r
			if !ts[i].UV {
				t.Errorf("%s: not projected", name)
			}
		}
		near := func(got [4]float64, want [4]float64) bool {
			for k := range got {
				if math.Abs(got[k]-want[k]) > 1e-5 {
					return false
				}
			}
			return true
		}
		if r := rng["A"]; !near(r, [4]float64{0, w / 3, 0, 0.5}) {
			t.Errorf("width %g: A spans %v, want u [0, %g], v [0, 0.5]", w, r, w/3)
		}
		if r := rng["B"]; !near(r, [4]float64{0, w / 3, 0, 0.5}) {
			t.Errorf("width %g: the split B span %v, want the whole facade's [0, %g]", w, r, w/3)
		}
		if r := rng["C"]; !near(r, [4]float64{0, 1, 0, 2}) {
			t.Errorf("width %g: C (YX, -1, -0.5) spans %v, want u [0, 1] along Y, v [0, 2] along X", w, r)
		}
		mats := map[int16]int{}
		for i := range ts {
			mats[ts[i].Mat]++
		}
		if mats[1] != 2 || mats[2] != 1 || mats[0] != 1 {
			t.Errorf("materials per terminal %v", mats)
		}
	}
}

// Material and projection syntax errors name their place.
func TestTextureSyntaxErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`Lot = Color("red") A;`, `g.pga:4:13: colour "red"`},
		{`Lot = Texture("a.gif") A;`, `g.pga:4:15: Texture "a.gif": want a .png or .jpg image`},
		{`Lot = Texture(3) A;`, `g.pga:4:15: expected a "quoted" string, found number 3`},
		{`Lot = SetupProjection(XX, 1, 1) A;`, `g.pga:4:23: expected projection axes`},
		{`Lot = Texture("a.png) A;`, `g.pga:4:15: unterminated string`},
	} {
		_, err := Parse("g.pga", []byte("axiom Quad Lot;\nterminal A (1, 0);\n\n"+c.src))
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(c.want)) {
			t.Errorf("%s: got %v, want %q", c.src, err, c.want)
		}
	}
}

// FuzzTextureOps: grammars with strings, materials and projections parse
// or fail with a position, and what parses evaluates and meshes with
// finite texture coordinates.
func FuzzTextureOps(f *testing.F) {
	for _, src := range []string{
		header + `A = SetupProjection(XY, 3, 3) ProjectUV() Texture("b.png") T;`,
		header + `A = SetupProjection(ZY, -1, 0) ProjectUV() SubDiv(X) { 1: Color("#00ff7f") T | -1: T };`,
		header + `A = Color("#0") T;`,
		header + `A = Texture("a b.jpg") Rotate(10, 20, 30) SetupProjection(YZ, 1e300, -1e300) ProjectUV() T;`,
		"axiom Sphere A; terminal T (1,0); A = SetupProjection(XZ, ShapeSize(X), 1) ProjectUV() T;",
		header + `A = Texture("unterminated) T;`,
	} {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		g, err := Parse("f.pga", src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Pos.Line < 1 || se.Pos.Col < 1 {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		ts, projs, err := g.evaluateTerms([]Shape{NewAxiom(g.Axioms[0].Kind, Vec3{4, 4, 4}, 1)}, Options{MaxShapes: 2000, MaxDepth: 50, Workers: 1})
		if err != nil {
			return
		}
		for i := range ts {
			if ts[i].Mat < 0 || int(ts[i].Mat) > len(g.Materials) {
				t.Fatalf("terminal %d: material %d of %d", i, ts[i].Mat, len(g.Materials))
			}
		}
		// The mesh builds: a part's vertices all have UVs or none.
		m := g.Mesh(ts, projs)
		for _, p := range m.Parts {
			var c mesh.Chunk
			p.Build(0, p.Count, &c)
			if len(c.UVs) > 0 && len(c.UVs) != len(c.Positions) {
				t.Fatalf("part %s: %d UVs for %d positions", p.Name, len(c.UVs), len(c.Positions))
			}
		}
	})
}
