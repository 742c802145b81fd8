package cpfg

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParseSurface(t *testing.T) {
	surf, err := ParseSurface("square.s", readTestdata(t, "square.s"))
	if err != nil {
		t.Fatal(err)
	}
	if surf.PrecS != 2 || surf.PrecT != 3 || surf.Size != 1 || surf.Heading != [3]float64{0, 1, 0} ||
		surf.Up != [3]float64{0, 0, 1} || surf.End != [3]float64{0, 1, 0} {
		t.Errorf("header: %+v", surf)
	}
	if len(surf.Patches) != 1 {
		t.Fatalf("%d patches, want 1", len(surf.Patches))
	}
	p := surf.Patches[0]
	if p.Name != "flat" || p.TopColor != 3 || p.BottomColor != 4 || p.TopDiffuse != 0.5 || p.BottomDiffuse != 0.25 ||
		p.Neighbours != [8]string{} {
		t.Errorf("patch: %+v", p)
	}
	if p.Points[1][2] != [3]float64{0.67, 0.33, 0} || p.Points[3][3] != [3]float64{1, 1, 0} {
		t.Errorf("control points: %v", p.Points)
	}

	two, err := ParseSurface("leaflet.s", readTestdata(t, "leaflet.s"))
	if err != nil {
		t.Fatal(err)
	}
	if two.PrecS != 0 || len(two.Patches) != 2 || two.Patches[0].Neighbours[4] != "right" || two.Patches[1].Neighbours[3] != "left" {
		t.Errorf("leaflet: precision %d, patches %+v", two.PrecS, two.Patches)
	}
}

// newell is a face's unit normal from its corners' order.
func newell(s *mesh.Shape, at int) [3]float64 {
	f := s.Faces[at : at+3]
	return mesh.Newell([][3]float32{s.Positions[f[0]], s.Positions[f[1]], s.Positions[f[2]]})
}

func near(a, b [3]float64, tol float64) bool {
	return math.Abs(a[0]-b[0]) <= tol && math.Abs(a[1]-b[1]) <= tol && math.Abs(a[2]-b[2]) <= tol
}

func f64(p [3]float32) [3]float64 { return [3]float64{float64(p[0]), float64(p[1]), float64(p[2])} }

// A flat square patch in the file's XY plane: the file's +X (HEADING×UP)
// goes to the turtle's left, which is -X in the surfaces' frame; every
// triangle is kept and fronts the side of ds×dt (rows run along +Y, columns
// along +X: Y×X = -Z).
func TestShapeFlatSquare(t *testing.T) {
	surf, err := ParseSurface("square.s", readTestdata(t, "square.s"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ precision, s, t int }{{0, 2, 3}, {1, 1, 1}, {4, 4, 4}} {
		s, err := surf.Shape(tc.precision)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Positions) != (tc.s+1)*(tc.t+1) || len(s.FaceSizes) != 2*tc.s*tc.t {
			t.Errorf("precision %d: %d points, %d faces; want %d, %d", tc.precision, len(s.Positions),
				len(s.FaceSizes), (tc.s+1)*(tc.t+1), 2*tc.s*tc.t)
		}
		for i := range s.FaceSizes {
			if n := newell(s, 3*i); !near(n, [3]float64{0, 0, -1}, 1e-6) {
				t.Errorf("precision %d face %d: normal %v, want (0,0,-1)", tc.precision, i, n)
			}
		}
		for _, p := range s.Positions {
			if p[0] > 1e-6 || p[0] < -1-1e-6 || p[1] < -1e-6 || p[1] > 1+1e-6 || p[2] != 0 {
				t.Errorf("precision %d: point %v outside the mirrored unit square", tc.precision, p)
			}
		}
		// The patch's corners are its corner control points.
		last := len(s.Positions) - 1
		if !near(f64(s.Positions[0]), [3]float64{0, 0, 0}, 1e-6) || !near(f64(s.Positions[last]), [3]float64{-1, 1, 0}, 1e-6) {
			t.Errorf("precision %d: corners %v %v", tc.precision, s.Positions[0], s.Positions[last])
		}
	}
}

// The leaflet's frame is not the identity: HEADING is +Z, UP leans and is
// made square to it, the contact point is off the origin and SIZE is 10.
// Its base goes to the origin, its tip (the end point) to +Y at 1, and the
// patch pinched to a point at both ends loses its zero-area triangles.
func TestShapeFrameAndPinch(t *testing.T) {
	surf, err := ParseSurface("leaflet.s", readTestdata(t, "leaflet.s"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := surf.Shape(0)
	if err != nil {
		t.Fatal(err)
	}
	n := DefaultPrecision
	if want := 2 * (2*n*n - 2*n); len(s.FaceSizes) != want {
		t.Errorf("%d faces, want %d (two patches of %dx%d less the pinched ends)", len(s.FaceSizes), want, n, n)
	}
	per := (n + 1) * (n + 1)
	for k := range 2 {
		base, tip := s.Positions[k*per], s.Positions[k*per+per-1]
		if !near(f64(base), [3]float64{}, 1e-6) || !near(f64(tip), [3]float64{0, 1, 0}, 1e-6) {
			t.Errorf("patch %d: base %v tip %v, want the origin and (0,1,0)", k, base, tip)
		}
	}
	h, u, side, _ := surf.basis()
	if !near(h, [3]float64{0, 0, 1}, 0) || !near(u, [3]float64{0, 1, 0}, 1e-12) || !near(side, [3]float64{-1, 0, 0}, 1e-12) {
		t.Errorf("basis h %v u %v side %v", h, u, side)
	}
	// The left patch lies at the file's -X, which is HEADING×UP: the
	// turtle's left, -X in the surfaces' frame.
	for i := range per {
		if x := s.Positions[i][0]; x > 1e-6 {
			t.Errorf("left patch point %v: x > 0, want it on the left (-X)", s.Positions[i])
		}
	}
	if _, err := surf.Shape(1); err == nil || !strings.Contains(err.Error(), "no patch has any area") {
		t.Errorf("precision 1 pinches both patches to lines; err = %v", err)
	}
}

// The midpoint of a bicubic patch weighs the inner four control points by
// (3/8+3/8)^2 = 0.5625.
func TestPatchMidpoint(t *testing.T) {
	var p Patch
	for _, ij := range [][2]int{{1, 1}, {1, 2}, {2, 1}, {2, 2}} {
		p.Points[ij[0]][ij[1]][2] = 1
	}
	if z := p.eval(0.5, 0.5)[2]; math.Abs(z-0.5625) > 1e-15 {
		t.Errorf("midpoint z = %v, want 0.5625", z)
	}
	if c := p.eval(1, 0); c != p.Points[3][0] {
		t.Errorf("corner (1,0) = %v, want control point [3][0]", c)
	}
}

func TestParseSurfaceErrors(t *testing.T) {
	good := string(readTestdata(t, "square.s"))
	two := string(readTestdata(t, "leaflet.s"))
	for _, tc := range []struct{ name, src, want string }{
		{"empty", "", "x.s:1:1: expected the bounding box's xmin (a finite number), found the end of the file"},
		{"bbox", "0 1 0 1 0 z\n", `x.s:1:11: expected zmax (a finite number), found "z"`},
		{"contact", strings.Replace(good, "CONTACT POINT", "CONTACT PT", 1), `x.s:3:9: expected "CONTACT POINT", found "PT"`},
		{"precision", strings.Replace(good, "S: 2", "S: 0", 1), "x.s:2:14: precision S 0: want 1..64"},
		{"label", strings.Replace(good, "Y: 1.00 Z: 0.00\nUP", "Q: 1.00 Z: 0.00\nUP", 1), `x.s:5:18: expected "Y:", found "Q:"`},
		{"nan", strings.Replace(good, "SIZE: 1.000000", "SIZE: NaN", 1), `x.s:7:7: expected SIZE (a finite number), found "NaN"`},
		{"size", strings.Replace(good, "SIZE: 1.000000", "SIZE: 0", 1), "x.s:7:7: SIZE 0: want a positive number"},
		{"heading", strings.Replace(good, "HEADING  X: 0.00 Y: 1.00", "HEADING  X: 0.00 Y: 0.00", 1), "x.s:5:1: HEADING is the zero vector"},
		{"up", strings.Replace(good, "UP  X: 0.00 Y: 0.00 Z: 1.00", "UP  X: 0.00 Y: -3 Z: 0", 1), "x.s:6:1: UP is zero or parallel to HEADING"},
		{"no patch", strings.SplitAfter(good, "SIZE: 1.000000\n")[0], "x.s:8:1: expected a patch (its name), found the end of the file"},
		{"color", strings.Replace(good, "TOP COLOR: 3", "TOP COLOR: x", 1), `x.s:9:12: expected top colour (an integer), found "x"`},
		{"short", strings.TrimSuffix(good, "1.00 1.00 0.00\n"), "x.s:16:49: expected control point 3,3's x (a finite number), found the end of the file"},
		{"neighbour", strings.Replace(good, "BL: ~ B: ~", "BL: ~ B: other", 1), `x.s:12:10: B:: no patch "other"`},
		{"mismatch", strings.Replace(two, "L: left R: ~", "L: ~ R: ~", 1), "x.s:10:9: R:: patch left names right here, but right's L: is ~, not left"},
		{"duplicate", strings.Replace(two, "\nright\n", "\nleft\n", 1), `x.s: patch name "left" is used twice`},
	} {
		_, err := ParseSurface("x.s", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestShapeLimits(t *testing.T) {
	surf, err := ParseSurface("square.s", readTestdata(t, "square.s"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := surf.Shape(MaxPrecision + 1); err == nil || !strings.Contains(err.Error(), "want 1..64") {
		t.Errorf("precision over the limit: err = %v", err)
	}
	many := *surf
	many.Patches = make([]Patch, MaxTriangles/(2*64*64)+1)
	for i := range many.Patches {
		many.Patches[i] = surf.Patches[0]
	}
	if _, err := many.Shape(64); err == nil || !strings.Contains(err.Error(), "over the") {
		t.Errorf("too many triangles: err = %v", err)
	}
	far := *surf
	far.Size = 1e-300
	if _, err := far.Shape(0); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("points beyond float32: err = %v", err)
	}
}

// FuzzParseSurface: no input crashes the reader or the tessellation; what
// they accept is a shape of finite points and faces that index them.
func FuzzParseSurface(f *testing.F) {
	f.Add(readTestdata(f, "square.s"), 0)
	f.Add(readTestdata(f, "leaflet.s"), 3)
	f.Add([]byte("0 0 0 0 0 0 CONTACT POINT X:0 Y:0 Z:0 END POINT X:0 Y:1 Z:0 HEADING X:0 Y:1 Z:0 UP X:0 Y:0 Z:1 SIZE: 1"), 1)
	f.Fuzz(func(t *testing.T, data []byte, precision int) {
		surf, err := ParseSurface("f.s", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.s:") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		precision = ((precision % 9) + 9) % 9
		s, err := surf.Shape(precision)
		if err != nil {
			return
		}
		for _, p := range s.Positions {
			for _, v := range p {
				if math.IsInf(float64(v), 0) || math.IsNaN(float64(v)) {
					t.Fatalf("non-finite point %v", p)
				}
			}
		}
		for _, v := range s.Faces {
			if v < 0 || int(v) >= len(s.Positions) {
				t.Fatalf("face index %d of %d points", v, len(s.Positions))
			}
		}
		if len(s.Faces) != 3*len(s.FaceSizes) {
			t.Fatalf("%d indices for %d triangles", len(s.Faces), len(s.FaceSizes))
		}
	})
}
