package pga

import (
	"bytes"
	"context"
	"math"
	"os"
	"testing"
)

// The L-shaped, courtyard and U-shaped lots of configs/pga/courtyard.geojson
// with their total edge counts.
var footprintLots = []struct {
	coords string
	edges  int
	area   float64
}{
	{`[[[0,0],[30,0],[30,12],[12,12],[12,30],[0,30],[0,0]]]`, 6, 30*12 + 12*18},
	{`[[[40,0],[70,0],[70,30],[40,30],[40,0]],[[48,8],[48,22],[62,22],[62,8],[48,8]]]`, 8, 900 - 14*14},
	// Clockwise with a clockwise hole: orientation is the lot file's choice.
	{`[[[0,0],[0,30],[30,30],[30,0],[0,0]],[[8,8],[8,22],[22,22],[22,8],[8,8]]]`, 8, 900 - 14*14},
	{`[[[80,0],[104,0],[104,24],[96,24],[96,8],[88,8],[88,24],[80,24],[80,0]]]`, 8, 24*24 - 8*16},
}

func footprintCity(t *testing.T, src string, kind ShapeKind, coords string) (*Grammar, []TerminalShape, Lot) {
	t.Helper()
	g, err := Parse("f.pga", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	lots, err := ParseLots("f.geojson", collection(polygon(`1`, `{"height": 9}`, coords)))
	if err != nil {
		t.Fatal(err)
	}
	axioms, err := g.LotAxioms(kind, lots, 1, 9)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := g.Evaluate(axioms, Options{Workers: 1, LotAttrs: LotAttrValues(lots)})
	if err != nil {
		t.Fatal(err)
	}
	return g, ts, lots[0]
}

// An extruded footprint is a closed solid: every edge is shared by exactly
// two faces running it in opposite directions, the faces are wound
// outwards (the divergence theorem gives a positive volume) and the volume
// is the lot's area times the height.
func TestFootprintExtrusionClosed(t *testing.T) {
	for _, c := range footprintLots {
		for _, kind := range []ShapeKind{Quad, Box} {
			src := "axiom Quad Lot;\nterminal Mass (1, 0);\nLot = Extrude(9) Translate(0, ShapeSize(Y) / 2, 0) Mass;"
			if kind == Box {
				src = "axiom Box Lot;\nterminal Mass (1, 0);\nLot = Mass;"
			}
			g, ts, _ := footprintCity(t, src, kind, c.coords)
			if len(ts) != 1 {
				t.Fatalf("%d terminals", len(ts))
			}
			corners, faces, _ := g.worldSolid(&ts[0].Shape)
			edges := map[[2]int]int{}
			vol := 0.0
			for _, f := range faces {
				for i := range f {
					edges[[2]int{f[i], f[(i+1)%len(f)]}]++
				}
				for i := 1; i+1 < len(f); i++ {
					a, b, d := corners[f[0]], corners[f[i]], corners[f[i+1]]
					vol += dot(a, crossV(b, d)) / 6
				}
			}
			for e, n := range edges {
				if n != 1 || edges[[2]int{e[1], e[0]}] != 1 {
					t.Fatalf("%s: edge %v used %d times, reverse %d times: not closed", c.coords, e, n, edges[[2]int{e[1], e[0]}])
				}
			}
			if math.Abs(vol-9*c.area) > 1e-6*vol {
				t.Errorf("%s %v: volume %g, want %g", c.coords, kind, vol, 9*c.area)
			}
			cs, tris := g.counts(&ts[0].Shape)
			nt := 0
			for _, f := range faces {
				nt += len(f) - 2
			}
			if cs != len(corners) || tris != nt || g.faceCount(&ts[0].Shape) != len(faces) {
				t.Errorf("%s: counts %d, %d, %d; solid has %d corners, %d triangles, %d faces", c.coords, cs, tris, g.faceCount(&ts[0].Shape), len(corners), nt, len(faces))
			}
		}
	}
}

func crossV(a, b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// CompSplit of an extruded footprint gives a top facing up with the lot's
// area, a bottom facing down, and one side per edge (hole edges included):
// X along its edge and as long, Y up and as tall as the solid, Z out of the
// building (just in front of a side is outside the lot or in its
// courtyard, just behind it inside).
func TestFootprintCompSplit(t *testing.T) {
	src := "axiom Quad Lot;\nterminal Top Bot Side (1, 0);\nLot = Extrude(9) Translate(0, ShapeSize(Y) / 2, 0) CompSplit() { Top | Bot | Side };"
	for _, c := range footprintLots {
		g, ts, lot := footprintCity(t, src, Quad, c.coords)
		byName := names2(ts)
		if len(byName["Top"]) != 1 || len(byName["Bot"]) != 1 || len(byName["Side"]) != c.edges {
			t.Fatalf("%s: %d tops, %d bottoms, %d sides, want 1, 1, %d", c.coords, len(byName["Top"]), len(byName["Bot"]), len(byName["Side"]), c.edges)
		}
		rings := append([][][2]float64{lot.Polygon}, lot.Holes...)
		for name, up := range map[string]float64{"Top": 1, "Bot": -1} {
			area := 0.0
			g.faces(&byName[name][0], func(cs []Vec3, n Vec3) {
				if !near(n[1], up) {
					t.Fatalf("%s: %s face normal %v", c.coords, name, n)
				}
				area += math.Abs(crossV(sub3(cs[1], cs[0]), sub3(cs[2], cs[0]))[1]) / 2
			})
			if math.Abs(area-c.area) > 1e-9*c.area {
				t.Errorf("%s: %s area %g, want %g", c.coords, name, area, c.area)
			}
		}
		perimeter, sides := 0.0, 0.0
		for _, r := range rings {
			for i := range r {
				q := r[(i+1)%len(r)]
				perimeter += math.Hypot(q[0]-r[i][0], q[1]-r[i][1])
			}
		}
		for i, s := range byName["Side"] {
			if s.Index != int32(2+i) || !near(s.Size[1], 9) {
				t.Errorf("%s: side %d index %d size %v", c.coords, i, s.Index, s.Size)
			}
			sides += s.Size[0]
			x, z, p := s.Transform.direction(Vec3{1, 0, 0}), s.Transform.direction(Vec3{0, 0, 1}), pos(s)
			if !near(z[1], 0) || !near(x[1], 0) || !near(s.Transform.direction(Vec3{0, 1, 0})[1], 1) {
				t.Fatalf("%s: side %d frame x %v z %v", c.coords, i, x, z)
			}
			out := [2]float64{p[0] + 0.01*z[0], -(p[2] + 0.01*z[2])}
			in := [2]float64{p[0] - 0.01*z[0], -(p[2] - 0.01*z[2])}
			if insidePolygon(rings, out) || !insidePolygon(rings, in) {
				t.Errorf("%s: side %d at %v faces %v: in front %v, behind %v", c.coords, i, p, z, out, in)
			}
		}
		if math.Abs(sides-perimeter) > 1e-9*perimeter {
			t.Errorf("%s: sides add up to %g m, perimeter %g m", c.coords, sides, perimeter)
		}
	}
}

func sub3(a, b Vec3) Vec3 { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// The example city of concave and holed lots builds, stays inside its
// lots, and its GLB passes the Khronos validator.
func TestFootprintCourtyardConfig(t *testing.T) {
	g, axioms, lots := configCase(t, "courtyard.pga", "courtyard.geojson")
	ts, err := g.Evaluate(axioms, Options{LotAttrs: LotAttrValues(lots)})
	if err != nil {
		t.Fatal(err)
	}
	if ov := g.Overflows(ts, lots, 1e-6); len(ov) != 0 {
		t.Errorf("overflows %v", ov)
	}
	roofs := 0
	for _, s := range ts {
		if g.TermName(&s) == "Roof" {
			roofs++
		}
	}
	if roofs != len(lots) {
		t.Errorf("%d roofs for %d lots", roofs, len(lots))
	}
	var b bytes.Buffer
	if err := writeGLB(context.Background(), &b, g, ts, nil); err != nil {
		t.Fatal(err)
	}
	validateGLB(t, b.Bytes())
}

// configCase parses configs/pga's grammar and lots files and lays the lots
// out for the grammar's first axiom (seed 1, 9 m high where a lot says
// nothing).
func configCase(t *testing.T, grammar, lotsFile string) (*Grammar, []Shape, []Lot) {
	t.Helper()
	src, err := os.ReadFile("../../configs/pga/" + grammar)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../../configs/pga/" + lotsFile)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse(grammar, src)
	if err != nil {
		t.Fatal(err)
	}
	lots, err := ParseLots(lotsFile, data)
	if err != nil {
		t.Fatal(err)
	}
	axioms, err := g.LotAxioms(g.Axioms[0].Kind, lots, 1, 9)
	if err != nil {
		t.Fatal(err)
	}
	return g, axioms, lots
}
