package pga

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// footprintGrammar parses src and registers every lot of footprintLots
// (the L, the courtyards and the U) as LotAxioms does.
func footprintGrammar(t *testing.T, src string, kind ShapeKind) (*Grammar, []Shape) {
	t.Helper()
	var feats []string
	for _, l := range footprintLots {
		feats = append(feats, polygon(`1`, `{"height": 9}`, l.coords))
	}
	lots, err := ParseLots("f.geojson", collection(feats...))
	if err != nil {
		t.Fatal(err)
	}
	return footprintCase(t, "f.pga", src, kind, lots)
}

// The device's profile table holds each lot's polygon as the CPU keeps it:
// its rings' points in order, their lengths and the cap triangles, for the
// top cap and its mirror (the bottom's view).
func TestFootprintCompiledTables(t *testing.T) {
	g, axioms := footprintGrammar(t, "axiom Quad Lot;\nterminal Mass (1, 0);\nLot = Extrude(9) Mass;", Quad)
	p, err := compileGrammar(g)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for k, e := range p.profiles {
		fp := g.footprintOf(int32(k))
		if k == 0 || fp == nil {
			if e.Rings != -1 || e.Tris != -1 || e.NRings != 1 {
				t.Errorf("profile %d (no footprint): %+v", k, e)
			}
			continue
		}
		seen++
		if int(e.N) != fp.n || int(e.NRings) != len(fp.rings) || int(e.NTris) != len(fp.tris) {
			t.Fatalf("profile %d: %+v, footprint of %d points, %d rings, %d triangles", k, e, fp.n, len(fp.rings), len(fp.tris))
		}
		at := int(e.Start)
		for r, ring := range fp.rings {
			if int(p.poly[int(e.Rings)+r]) != len(ring) {
				t.Fatalf("profile %d ring %d: length %d, want %d", k, r, p.poly[int(e.Rings)+r], len(ring))
			}
			for _, q := range ring {
				if p.points[2*at] != q[0] || p.points[2*at+1] != q[1] {
					t.Fatalf("profile %d point %d: (%g, %g), want %v", k, at, p.points[2*at], p.points[2*at+1], q)
				}
				at++
			}
		}
		for i, tri := range fp.tris {
			for a := range 3 {
				if int(p.poly[int(e.Tris)+3*i+a]) != tri[a] {
					t.Fatalf("profile %d triangle %d: %v, want %v", k, i, p.poly[int(e.Tris)+3*i:int(e.Tris)+3*i+3], tri)
				}
			}
		}
	}
	// Every lot that is not its bounding rectangle: a top and a bottom each.
	if want := 2 * len(axioms); seen != want {
		t.Errorf("%d footprint profiles, want %d", seen, want)
	}
}

// What the device runs on a lot's own polygon and what it leaves to the
// CPU: the flow follows shapes through successors and blocks, Extrude makes
// the prism (whose cuts along Y keep the polygon), CompSplit's caps keep
// it and its walls do not, SetAs replaces it.
func TestFootprintOpRefusal(t *testing.T) {
	const head = "axiom Quad Lot;\nterminal M (1, 0);\n"
	for _, c := range []struct {
		name, rules string
		kind        ShapeKind
		want        string // "" runs on the device
	}{
		{"extrude", "Lot = Extrude(9) M;", Quad, ""},
		{"courtyard", "Lot = Extrude(9) B;\nB = CompSplit() { M | Discard() | F };\nF = Repeat(Y, 3) G;\nG = Repeat(X, 3) H;\nH = SubDiv(X) { -1: M | 1: M | -1: M };", Quad, ""},
		{"floors", "Lot = Extrude(9) Repeat(Y, 3) B;\nB = CompSplit() { M | M | M };", Quad, ""},
		{"setas", "Lot = SetAsDynamicConvexRightPrism((0,0),(1,0),(1,1)) Repeat(X, 3) M;", Quad, ""},
		{"walls roof", "Lot = Extrude(9) CompSplit() { M | M | W };\nW = Roof(GABLE, 30) M;", Quad, ""},
		{"box axiom", "Lot = Repeat(Y, 3) M;", Box, ""},
		{"roof", "Lot = Roof(HIP, 30) M;", Quad, ""},
		{"top roof", "Lot = Extrude(9) CompSplit() { T | M | M };\nT = Roof(SHED, 30) M;", Quad, ""},
		{"scaled roof", "Lot = Scale(-1, -2, -1) Roof(HIP, 30) M;", Quad, "Roof at f.pga:3:25 on a lot's own polygon"},
		{"roof split across", "Lot = Roof(HIP, 30) SubDiv(X) { 3: M | -1: M };", Quad, "SubDiv along X at f.pga:3:21"},
		{"roof tiled across", "Lot = Roof(HIP, 30) A;\nA = Repeat(Y, 3) M;", Quad, "Repeat along Y at f.pga:4:5"},
		{"roof split along its height", "Lot = Roof(HIP, 30) SubDiv(Z) { 1: M | -1: M };", Quad, ""},
		{"roof scaled", "Lot = Roof(HIP, 30) Scale(-1, -1, -0.5) M;", Quad, "Scale at f.pga:3:21"},
		{"roof extruded", "Lot = Roof(HIP, 30) Extrude(3) M;", Quad, "Extrude at f.pga:3:21"},
		{"roof moved", "Lot = Roof(HIP, 30) Translate(0, 0, 1) Rotate(0, 0, 10) M;", Quad, ""},
		{"piece's roof split across", "Lot = Offset(1) { A | M };\nA = Roof(SHED, 20) Repeat(X, 2) M;", Quad, "Repeat along X at f.pga:4:20"},
		{"scaled prism roof", "Lot = Extrude(9) A;\nA = SwapSize(Z, Y, X) CompSplit() { T | M | M };\nT = Roof(HIP, 30) M;", Quad, "after Scale or SwapSize"},
		{"gable round a courtyard", "Lot = Roof(GABLE, 30) M;", Quad, "cannot be built (Roof GABLE at f.pga:3:7 on lot 1 (id \"1\")'s polygon: GABLE:"},
		{"offset", "Lot = Offset(1) { M | M };", Quad, ""},
		{"outset", "Lot = Offset(-2 * 0.5) { M | M };", Quad, ""},
		{"setback", "Lot = A;\nA = Setback(3) { M | M };", Quad, ""},
		{"prism offset", "Lot = Extrude(9) Offset(1) { M | M };", Quad, ""},
		{"top offset roof", "Lot = Extrude(9) CompSplit() { T | M | M };\nT = Offset(1) { R | M };\nR = Roof(HIP, 30) M;", Quad, ""},
		{"piece extrude split", "Lot = Offset(-1) { A | M };\nA = Extrude(3) CompSplit() { M | M | M };", Quad, ""},
		{"offset of a piece", "Lot = Offset(1) { A | M };\nA = Offset(1) { M | M };", Quad, ""},
		{"offset of a top of a piece", "Lot = Setback(1) { M | A };\nA = Extrude(3) CompSplit() { B | M | M };\nB = Offset(-1) { M | M };", Quad, ""},
		{"three cuts deep", "Lot = Offset(1) { A | M };\nA = Offset(1) { B | M };\nB = Setback(1) { M | M };", Quad, ""},
		{"six cuts deep", "Lot = Offset(1) { A | M };\nA = Offset(1) { B | M };\nB = Setback(1) { M | C };\nC = SubDiv(X) { 3: D | -1: M };\nD = Repeat(Y, 2) Offset(0.2) { M | M };", Quad, ""},
		{"seven cuts deep", "Lot = Offset(1) { A | M };\nA = Offset(1) { B | M };\nB = Setback(1) { M | C };\nC = SubDiv(X) { 3: D | -1: M };\nD = Repeat(Y, 2) Offset(0.2) { E | M };\nE = Setback(0.1) { M | M };", Quad, "Setback at f.pga:8:5"},
		{"four cuts deep", "Lot = Offset(1) { A | M };\nA = Offset(1) { B | M };\nB = Setback(1) { M | C };\nC = Offset(1) { M | M };", Quad, ""},
		{"cut recursion", "Lot = Offset(1) { Lot | M };", Quad, "more than 6 deep"},
		{"offset by the seed", "Lot = Offset(ShapeSeed()) { M | M };", Quad, "not made of constants, a lot's attributes and its size"},
		{"offset by its size", "Lot = Offset(ShapeSize(X) / 10) { M | M };", Quad, ""},
		{"quad offset by its depth", "Lot = Offset(ShapeSize(Y) / 10 - ShapeSize(X) / 20) { M | M };", Quad, ""},
		{"prism offset by its depth", "Lot = Extrude(9) Offset(ShapeSize(Z) / 10) { M | M };", Quad, ""},
		{"prism offset by its height", "Lot = Extrude(9) Offset(ShapeSize(Y) / 10) { M | M };", Quad, "Offset at f.pga:3:18"},
		{"offset by its position", "Lot = Offset(ShapePosition(X) / 10) { M | M };", Quad, "not made of constants"},
		{"offset by the depth of a quad or a prism", "Lot = Extrude(9) B;\nB = If(1) { CompSplit() { C | M | M } | C };\nC = Offset(ShapeSize(Z)) { M | M };", Quad, "Offset at f.pga:5:5"},
		{"offset by chance", "Lot = Offset(Rand(1, 2)) { M | M };", Quad, "not made of constants"},
		{"offset by a lot's attribute", "Lot = Offset(LotAttr(setback, 2)) { M | M };", Quad, ""},
		{"setback of a piece by lot attributes", "Lot = Offset(-LotAttr(yard, 1)) { A | M };\nA = Setback(LotAttr(floors, 2) * 0.5 + (LotAttr(height, 9) > 12)) { M | M };", Quad, ""},
		{"scaled offset", "Lot = Scale(-1, -2, -1) Offset(1) { M | M };", Quad, "as resized"},
		{"quad slabs", "Lot = SubDiv(Y) { 1: M | -1: M };", Quad, ""},
		{"prism slabs", "Lot = Extrude(9) SubDiv(Z) { 4: M | -1: M | 0: M };", Quad, ""},
		{"floors then slabs", "Lot = Extrude(9) SubDiv(Y) { 3: A | -1: M };\nA = SubDiv(X) { -1: M | 2: M };", Quad, ""},
		{"bottom slabs", "Lot = Extrude(9) CompSplit() { M | C | M };\nC = SubDiv(X) { 2: M | -1: M };", Quad, ""},
		{"slabs by a lot's attribute", "Lot = SubDiv(X) { LotAttr(floors, 2) * 3: M | -1: M };", Quad, ""},
		{"slabs of an inset", "Lot = Offset(1) { A | M };\nA = SubDiv(X) { 3: M | -1: A };", Quad, "more than 6 deep"},
		{"slabs of slabs", "Lot = SubDiv(X) { 5: A | -1: M };\nA = SubDiv(Y) { -1: M | -1: M };", Quad, ""},
		{"slabs by chance", "Lot = SubDiv(X) { Rand(1, 3): M | -1: M };", Quad, "SubDiv along X at f.pga:3:7"},
		{"slabs by its size", "Lot = SubDiv(Y) { ShapeSize(Y) / 3: M | -1: M };", Quad, ""},
		{"prism slabs by its depth", "Lot = Extrude(9) SubDiv(X) { ShapeSize(Z) / 3: M | ShapeSize(X) / 4: M | -1: M };", Quad, ""},
		{"prism slabs by its height", "Lot = Extrude(9) SubDiv(X) { ShapeSize(Y) / 3: M | -1: M };", Quad, "slabs whose sizes are not made of"},
		{"tiles by its size", "Lot = Extrude(9) Repeat(Z, ShapeSize(X) / 3) M;", Quad, ""},
		{"tiles by its height", "Lot = Extrude(9) Repeat(Z, ShapeSize(Y) / 3) M;", Quad, "tiles whose size is not made of"},
		{"snapped slabs", "Lot = Replicate() { SnapLines(X, cuts) Discard() | B };\nphase 2;\nB = SubDiv(X, cuts) { 3: M | -1: M };", Quad, "snapped to planes"},
		{"scaled slabs", "Lot = Scale(-1, -2, -1) SubDiv(X) { 1: M | -1: M };", Quad, "as resized"},
		{"slabs four deep", "Lot = Offset(1) { A | M };\nA = Offset(1) { B | M };\nB = SubDiv(X) { 1: C | -1: M };\nC = SubDiv(Y) { 1: M | -1: M };", Quad, ""},
		{"prism tiles", "Lot = Extrude(9) B;\nB = If(1) { C | M };\nC = Repeat(Z, 3) M;", Quad, ""},
		{"box tiles", "Lot = Repeat(X, 3) M;", Box, ""},
		{"bottom tiles", "Lot = Extrude(9) CompSplit() { M | C | M };\nC = Repeat(X, 3) M;", Quad, ""},
		{"tiles by a lot's attribute, anchored", "Lot = Repeat(Y, -1 / LotAttr(floors, 2), ANCHOR_TO_END) M;", Quad, ""},
		{"tiles then an inset", "Lot = Repeat(X, 8) Offset(1) { M | M };", Quad, ""},
		{"tiles by chance", "Lot = Repeat(X, Rand(2, 4)) M;", Quad, "Repeat along X at f.pga:3:7"},
		{"snapped tiles", "Lot = Replicate() { SnapLines(X, cuts) Discard() | B };\nphase 2;\nB = Repeat(X, 3, ADJUST_TO_FILL, cuts) M;", Quad, "tiles snapped"},
		{"scaled tiles", "Lot = Scale(-2, -1, -1) Repeat(X, 3) M;", Quad, "as resized"},
		{"tiles four deep", "Lot = Repeat(X, 20) Repeat(Y, 20) Offset(1) { A | M };\nA = Repeat(X, 2) M;", Quad, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(head, "Quad", c.kind.String(), 1) + c.rules
			g, _ := footprintGrammar(t, src, c.kind)
			_, err := compileGrammar(g)
			var u *UnsupportedError
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("compile: %v", err)
			case c.want != "" && (!errors.As(err, &u) || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("compile: %v, want an UnsupportedError with %q", err, c.want)
			}
			if err != nil && !strings.Contains(err.Error(), "f.pga:") {
				t.Errorf("%v: no position", err)
			}
		})
	}
}

// The flow starts at the axioms' rules; evaluating another rule on a
// lot's polygon is refused, on rectangles it is not.
func TestFootprintStartRule(t *testing.T) {
	g, axioms := footprintGrammar(t, "axiom Quad Lot;\nterminal M (1, 0);\nLot = Extrude(9) M;\nOther = Roof(HIP, 30) M;", Quad)
	p, err := compileGrammar(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.footprintStart(g, "Lot", axioms); err != nil {
		t.Errorf("axiom rule: %v", err)
	}
	var u *UnsupportedError
	if err := p.footprintStart(g, "Other", axioms); !errors.As(err, &u) {
		t.Errorf("another rule: %v, want an UnsupportedError", err)
	}
	if err := p.footprintStart(g, "Other", []Shape{NewAxiom(Quad, Vec3{10, 10, 0}, 1)}); err != nil {
		t.Errorf("another rule on a rectangle: %v", err)
	}
}

// The shipped scenes on their lots: courtyard.pga, roofs.pga (setbacks,
// offsets, skeleton roofs on the pieces), pavements.pga (outsets of
// outsets), footprints.pga, gables.pga (the faces of a gable roof split,
// on polygons and on rectangles) and slopes.pga on polygons run on the
// device; slopes.pga on a town with rectangular lots, whose hip roofs
// over rectangles the device does not split, does not.
func TestFootprintScenes(t *testing.T) {
	for _, c := range []struct {
		grammar, lots string
		device        bool
	}{
		{"courtyard.pga", "courtyard.geojson", true},
		{"roofs.pga", "courtyard.geojson", true},
		{"gables.pga", "wings.geojson", true},
		{"gables.pga", "town.geojson", true},
		{"slopes.pga", "wings.geojson", true},
		{"slopes.pga", "town.geojson", false},
		{"pavements.pga", "courtyard.geojson", true},
		{"footprints.pga", "courtyard.geojson", true},
	} {
		t.Run(c.grammar+"/"+c.lots, func(t *testing.T) {
			g, _, _ := configCase(t, c.grammar, c.lots)
			_, err := compileGrammar(g)
			if c.device && err != nil {
				t.Fatalf("compile: %v", err)
			}
			var u *UnsupportedError
			if !c.device && !errors.As(err, &u) {
				t.Fatalf("compile: %v, want an UnsupportedError", err)
			}
			t.Logf("%v", err)
		})
	}
}

// polygonLots are n lots on a 45 m grid, in turn an L, a block round a
// courtyard, a U and a trapezoid, each with its sizes, its turn and its
// floors drawn from seed: the lots that stand on their own polygons.
func polygonLots(n int, seed uint64) []Lot {
	rng := rand.New(rand.NewPCG(seed, 0x6c6f7473))
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	lots := make([]Lot, n)
	for i := range lots {
		ox, oy := float64(i%cols)*45, float64(i/cols)*45
		w, d := 24+6*rng.Float64(), 24+6*rng.Float64()
		a, b := 8+4*rng.Float64(), 8+4*rng.Float64() // arm widths
		outer, holes := lotShape(i%4, w, d, a, b)
		turn := 2 * math.Pi * rng.Float64()
		place := func(ring [][2]float64) [][2]float64 {
			c, s := math.Cos(turn), math.Sin(turn)
			out := make([][2]float64, len(ring))
			for k, p := range ring {
				x, y := p[0]-w/2, p[1]-d/2
				out[k] = [2]float64{ox + x*c - y*s, oy + x*s + y*c}
			}
			return out
		}
		lots[i] = Lot{Index: i, Polygon: place(outer), Height: 3 * float64(2+rng.IntN(5)),
			Attrs: map[string]float64{"floors": float64(2 + i%4)}}
		for _, h := range holes {
			lots[i].Holes = append(lots[i].Holes, place(h))
		}
	}
	return lots
}

// lotShape is the outline of a lot kind 0 to 3 of polygonLots: an L, a
// block round a courtyard, a U or a trapezoid, w by d with arms (or the
// courtyard's margins) a and b wide.
func lotShape(kind int, w, d, a, b float64) (outer [][2]float64, holes [][][2]float64) {
	switch kind {
	case 0:
		outer = [][2]float64{{0, 0}, {w, 0}, {w, b}, {a, b}, {a, d}, {0, d}}
	case 1:
		outer = [][2]float64{{0, 0}, {w, 0}, {w, d}, {0, d}}
		holes = [][][2]float64{{{a, b}, {a, d - b}, {w - a, d - b}, {w - a, b}}}
	case 2:
		outer = [][2]float64{{0, 0}, {w, 0}, {w, d}, {w - a, d}, {w - a, b}, {a, b}, {a, d}, {0, d}}
	default:
		outer = [][2]float64{{0, 0}, {w, 0}, {w - a, d}, {a, d}}
	}
	return outer, holes
}

// footprintGrammars run on polygonLots on both backends: the CUDA
// equivalence test and TestFootprintGrammarsBuild ("" reads configs/pga).
var footprintGrammars = []struct {
	name, src string
	kind      ShapeKind
}{
	{"courtyard.pga", "", Quad},
	{"floors", `axiom Quad Lot;
terminal Top (1, 0);
terminal Under (2, 1);
terminal Wall (3, 2);
terminal Glass (4, 3);
Lot = Extrude(LotAttr(height, 9)) Translate(0, ShapeSize(Y) / 2, 0) Color("#c0a080") Repeat(Y, 3) Floor;
Floor = CompSplit() { Cap | Under | Side };
Cap = SetupProjection(XY, 2, 2) ProjectUV() Top;
Side = SetupProjection(XY, 3, 3) ProjectUV() IfSizeLess(X, 2) { Wall | Bays };
Bays = Repeat(X, 3) SubDiv(X) { -1: Wall | 1.2: Glass | -1: Wall };`, Quad},
	{"box axiom", "axiom Box Lot;\nterminal Mass (1, 0);\nterminal Cap (2, 1);\nLot = Translate(0, 4, 0) Scale(-1, 8, -1) R;\nR = Replicate() { Mass | CompSplit() { Cap | Cap | Discard() } };", Box},
	{"quads", "axiom Quad Lot;\nterminal Pad (1, 0);\nLot = Translate(0, 0, 0.1) Pad;", Quad},
	{"hip", `axiom Quad Lot;
terminal Wall (1, 0);
terminal Tiles (2, 1);
Lot = Extrude(LotAttr(height, 9)) Translate(0, ShapeSize(Y) / 2, 0) CompSplit() { Top | Discard() | Wall };
Top = Roof(HIP, 30) SetupProjection(XY, 2, 2) ProjectUV() Tiles;`, Quad},
	{"shed", "axiom Quad Lot;\nterminal Tiles (1, 0);\nLot = Rotate(0, 0, 10) Roof(SHED, 20) Tiles;", Quad},
	{"roofs.pga", "", Quad},
	{"pavements.pga", "", Quad},
	{"footprints.pga", "", Quad},
	{"parts.pga", "", Quad},
	// Cuts three deep, of prisms and of their bottom caps, whole shapes
	// (Offset(0), Setback(0)) and pieces of no extent (an inset wider
	// than a wing), hip roofs on pieces.
	{"cuts", `axiom Quad Lot;
terminal Yard (1, 0);
terminal Walk (2, 1);
terminal Wall (3, 2);
terminal Tiles (4, 3);
terminal Under (5, 4);
Lot = Setback(2) { Front | Plot };
Front = Offset(0) { Yard | Walk };
Plot = Offset(0.5) { Mass | Setback(0) { Walk | Walk } };
Mass = Extrude(6) Translate(0, 3, 0) CompSplit() { Top | Bottom | Wall };
Top = Offset(4) { Roof(HIP, 30) Tiles | Roof(HIP, 20) Tiles };
Bottom = Offset(-1) { Under | Walk };`, Quad},
	{"prism cuts", `axiom Box Lot;
terminal Mass (1, 0);
terminal Rim (2, 1);
Lot = Translate(0, 4.5, 0) Offset(1.5) { Mass | Offset(-0.25) { Rim | Rim } };`, Box},
	// Distances of each lot's own (floors 2-5, heights 6-18 m, a property
	// no lot has), on the lot, on a piece and on a prism's top.
	{"cuts by lot attributes", `axiom Quad Lot;
terminal Yard (1, 0);
terminal Wall (2, 1);
terminal Tiles (3, 2);
Lot = Setback(LotAttr(floors, 9) * 1.5 - (LotAttr(height, 0) > 12)) { Yard | Plot };
Plot = Offset(-LotAttr(yard, 0.5)) { Mass | Yard };
Mass = Extrude(LotAttr(height, 6)) CompSplit() { Top | Discard() | Wall };
Top = Offset(LotAttr(floors, 1) / 2) { Roof(HIP, 30) Tiles | Tiles };`, Quad},
	// Cuts six deep (maxCutDepth), hip roofs on the deepest pieces.
	{"cuts six deep", `axiom Quad Lot;
terminal Yard (1, 0);
terminal Wall (2, 1);
terminal Tiles (3, 2);
Lot = Setback(2) { Yard | A };
A = Offset(0.5) { B | Yard };
B = SubDiv(X) { -1: C | 2: Yard | -1: C };
C = SubDiv(Y) { 4: Yard | -1: D };
D = Repeat(X, 3) Offset(0.3) { E | Yard };
E = Extrude(LotAttr(height, 6)) CompSplit() { Roof(HIP, 30) Tiles | Discard() | Wall };`, Quad},
	// Distances and sizes that read the shape's size in the polygon's
	// plane (X and a Quad's Y, X and a prism's Z), which the host knows at
	// every cut: of the lot, of pieces, of a prism and of its top.
	{"cuts by size", `axiom Quad Lot;
terminal Yard (1, 0);
terminal Wall (2, 1);
terminal Tiles (3, 2);
terminal Under (4, 3);
Lot = Setback(ShapeSize(Y) / 8) { Front | Plot };
Front = Repeat(X, ShapeSize(X) / 4 + 0.5) Yard;
Plot = Extrude(LotAttr(height, 6)) SubDiv(X) { ShapeSize(X) / 3: Wing | -1: Core };
Wing = SubDiv(Z) { ShapeSize(Z) * 0.4: Low | -1: CompSplit() { Roof(HIP, 30) Tiles | Under | Wall } };
Low = CompSplit() { Tiles | Under | Wall };
Core = CompSplit() { Top | Under | Wall };
Top = Offset(-0.03 * (ShapeSize(X) + ShapeSize(Y))) { Roof(HIP, 25) Tiles | Yard };`, Quad},
	// SubDiv across the polygon three deep: a slab through a courtyard
	// or across a wing falls apart into parts; a branch of size 0; a
	// prism cut along its height (whole) and then across (Z); slabs of
	// a piece's bottom cap (mirrored); a Setback of a slab; hip roofs on
	// slabs.
	{"slabs", `axiom Quad Lot;
terminal Yard (1, 0);
terminal Wall (2, 1);
terminal Tiles (3, 2);
terminal Under (4, 3);
Lot = SubDiv(X) { 10: Wing | 0: Yard | 3: Yard | -1: Back };
Wing = Extrude(LotAttr(height, 6)) SubDiv(Y) { 3: Ground | -1: Upper };
Ground = SubDiv(Z) { -1: Mass | 4: Mass };
Mass = CompSplit() { Roof(HIP, 30) Tiles | Bottom | Wall };
Bottom = SubDiv(X) { -1: Under | 2: Under };
Upper = CompSplit() { Tiles | Discard() | Wall };
Back = SubDiv(Y) { LotAttr(floors, 2) * 2: Yard | -1: Setback(1) { Yard | Yard } };`, Quad},
	// Repeat across the polygon three deep, its tiles going on down the
	// chain: anchored and by a lot's attribute, a prism's tiles along its
	// height (whole) and across (Z), hip roofs on tiles.
	{"tiles", `axiom Quad Lot;
terminal Wall (1, 0);
terminal Tiles (2, 1);
terminal Under (3, 2);
Lot = Repeat(X, 7, ANCHOR_TO_START) Repeat(Y, -1 / LotAttr(floors, 2)) Cell;
Cell = Extrude(4) Translate(0, 2, 0) Repeat(Y, 2) Repeat(Z, 5, ANCHOR_TO_END) CompSplit() { Roof(HIP, 25) Tiles | Under | Wall };`, Quad},
	// CompSplit of hip roofs on insets and on the rings round them: the
	// slopes and undersides, a slope extruded into a slab and split
	// again (its caps on the face's polygon and its mirror).
	{"roof faces", `axiom Quad Lot;
terminal Slope (1, 0);
terminal Under (2, 1);
terminal Rim (3, 2);
terminal Tiles (4, 3);
Lot = Extrude(LotAttr(height, 9)) Translate(0, ShapeSize(Y) / 2, 0) CompSplit() { Top | Discard() | Discard() };
Top = Offset(1.5) { Roof(HIP, 30) CompSplit() { Face | Under | Rim } | Roof(HIP, 20) CompSplit() { Slope | Discard() | Rim } };
Face = SetupProjection(XY, 2, 2) ProjectUV() Extrude(0.2) CompSplit() { Tiles | Under | Rim };`, Quad},
}

// footprintCase parses a grammar of footprintGrammars (src, or the file
// name of configs/pga when src is empty) and lays out lots for it.
func footprintCase(t testing.TB, name, src string, kind ShapeKind, lots []Lot) (*Grammar, []Shape) {
	t.Helper()
	text := []byte(src)
	if src == "" {
		var err error
		if text, err = os.ReadFile("../../configs/pga/" + name); err != nil {
			t.Fatal(err)
		}
	}
	g, err := Parse(name, text)
	if err != nil {
		t.Fatal(err)
	}
	axioms, err := g.LotAxioms(kind, lots, 5, 9)
	if err != nil {
		t.Fatal(err)
	}
	return g, axioms
}

// Every grammar of footprintGrammars builds on every polygon lot on the
// CPU and compiles for the device (the GPU test compares the two).
func TestFootprintGrammarsBuild(t *testing.T) {
	lots := polygonLots(120, 3)
	for _, c := range footprintGrammars {
		t.Run(c.name, func(t *testing.T) {
			g, axioms := footprintCase(t, c.name, c.src, c.kind, lots)
			p, err := compileGrammar(g)
			if err != nil {
				t.Fatal(err)
			}
			// The device cuts and roofs a piece's profile at the size the
			// piece was made at: every piece standing on it has that size.
			for i, pc := range p.cpiece {
				if pc.Profile < 0 {
					continue
				}
				if f := p.footAt(g, pc.Profile); f.size != [2]float64{pc.W, pc.H} {
					t.Fatalf("piece %d: %g by %g on device profile %d, made for %g by %g", i, pc.W, pc.H, pc.Profile, f.size[0], f.size[1])
				}
			}
			ts, err := g.Evaluate(axioms, Options{Workers: 2, LotAttrs: LotAttrValues(lots)})
			if err != nil {
				t.Fatal(err)
			}
			onPolygon := 0
			for i := range ts {
				if g.footprintOf(ts[i].Profile) != nil {
					onPolygon++
				}
			}
			if onPolygon == 0 && c.name != "box axiom" {
				t.Errorf("%d terminals, none on a lot's polygon", len(ts))
			}
			t.Logf("%d terminals, %d on a lot's polygon", len(ts), onPolygon)
		})
	}
}
