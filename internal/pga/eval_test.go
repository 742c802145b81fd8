package pga

import (
	"math"
	"testing"
)

func run(t *testing.T, src string, size Vec3, seed uint64) []TerminalShape {
	t.Helper()
	g, err := Parse("t.pga", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := g.Evaluate([]Shape{NewAxiom(g.Axioms[0].Kind, size, seed)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// names runs src like run and returns the terminals' names.
func names(t *testing.T, src string, size Vec3, seed uint64) []string {
	t.Helper()
	g, err := Parse("t.pga", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ts := run(t, src, size, seed)
	out := make([]string, len(ts))
	for i := range ts {
		out[i] = g.TermName(&ts[i])
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func pos(s TerminalShape) Vec3 { return Vec3{s.Transform[3], s.Transform[7], s.Transform[11]} }

func TestSubDivRelativeAndAbsolute(t *testing.T) {
	ts := run(t, header+"A = SubDiv(X) { 2: T | -1: T | -3: T | 0: T };", Vec3{10, 1, 1}, 1)
	want := []struct{ size, centre float64 }{{2, -4}, {2, -2}, {6, 2}}
	if len(ts) != len(want) {
		t.Fatalf("%d pieces, want %d (a branch of size 0 makes no piece)", len(ts), len(want))
	}
	for i, w := range want {
		if !near(ts[i].Size[0], w.size) || !near(pos(ts[i])[0], w.centre) {
			t.Errorf("piece %d: size %v centre %v, want %v %v", i, ts[i].Size[0], pos(ts[i])[0], w.size, w.centre)
		}
	}
}

func TestRepeatModes(t *testing.T) {
	for _, c := range []struct {
		mode    string
		sizes   []float64
		centres []float64
	}{
		{"", []float64{10.0 / 3, 10.0 / 3, 10.0 / 3}, []float64{-10.0 / 3, 0, 10.0 / 3}},
		{", ADJUST_TO_FILL", []float64{10.0 / 3, 10.0 / 3, 10.0 / 3}, []float64{-10.0 / 3, 0, 10.0 / 3}},
		// OperatorGraph's anchored modes keep the rest as a short tile.
		{", ANCHOR_TO_START", []float64{1, 3, 3, 3}, []float64{-4.5, -2.5, 0.5, 3.5}},
		{", ANCHOR_TO_END", []float64{3, 3, 3, 1}, []float64{-3.5, -0.5, 2.5, 4.5}},
	} {
		ts := run(t, header+"A = Repeat(X, 3"+c.mode+") T;", Vec3{10, 1, 1}, 1)
		if len(ts) != len(c.sizes) {
			t.Fatalf("%q: %d tiles", c.mode, len(ts))
		}
		for i := range ts {
			if !near(ts[i].Size[0], c.sizes[i]) || !near(pos(ts[i])[0], c.centres[i]) {
				t.Errorf("%q tile %d: size %v centre %v", c.mode, i, ts[i].Size[0], pos(ts[i])[0])
			}
		}
	}
	if ts := run(t, header+"A = Repeat(X, 30, ANCHOR_TO_START) T;", Vec3{10, 1, 1}, 1); len(ts) != 1 || ts[0].Size[0] != 10 {
		t.Fatalf("anchored tile longer than the extent: %d tiles", len(ts))
	}
	if ts := run(t, header+"A = Repeat(X, 2.5, ANCHOR_TO_END) T;", Vec3{10, 1, 1}, 1); len(ts) != 4 {
		t.Fatalf("an exact fit has no short tile: %d tiles", len(ts))
	}
}

// OperatorGraph's SubDiv (Subdivide.cuh) gives every branch whose size is
// not 0 a piece, one of no extent where relative branches have nothing left;
// its Repeat (Repeat.cuh) always lays a first tile: of no extent at the low
// end for ADJUST_TO_FILL when not one tile fits, a whole one for
// ANCHOR_TO_END (hanging over the high end) and for an empty extent.
func TestZeroSizePieces(t *testing.T) {
	for _, c := range []struct {
		name, src string
		size      float64
		sizes     []float64
		centres   []float64
	}{
		{"subdiv nothing left", "A = SubDiv(X) { 4: T | 6: T | -1: T | 0: T | -2: T };", 10,
			[]float64{4, 6, 0, 0}, []float64{-3, 2, 5, 5}},
		{"subdiv too much", "A = SubDiv(X) { -1: T | 12: T };", 10, []float64{0, 12}, []float64{-5, 1}},
		{"subdiv empty", "A = SubDiv(X) { -1: T | -1: T };", 0, []float64{0, 0}, []float64{0, 0}},
		{"adjust short", "A = Repeat(X, 30) T;", 10, []float64{0}, []float64{-5}},
		{"adjust empty", "A = Repeat(X, 3) T;", 0, []float64{0}, []float64{0}},
		{"end short", "A = Repeat(X, 30, ANCHOR_TO_END) T;", 10, []float64{30}, []float64{10}},
		{"start short", "A = Repeat(X, 30, ANCHOR_TO_START) T;", 10, []float64{10}, []float64{0}},
		{"end empty", "A = Repeat(X, 3, ANCHOR_TO_END) T;", 0, []float64{3}, []float64{1.5}},
		{"start empty", "A = Repeat(X, 3, ANCHOR_TO_START) T;", 0, []float64{3}, []float64{1.5}},
		{"end two", "A = Repeat(X, 6, ANCHOR_TO_END) T;", 10, []float64{6, 4}, []float64{-2, 3}},
		{"start two", "A = Repeat(X, 6, ANCHOR_TO_START) T;", 10, []float64{4, 6}, []float64{-3, 2}},
		{"not positive", "A = Replicate() { Repeat(X, 0) T | Repeat(X, 1 / 0) T };", 10, nil, nil},
		{"empty then split", "A = Repeat(X, 3) SubDiv(X) { -1: T | 1: T };", 0, []float64{0, 1}, []float64{0, 0.5}},
	} {
		ts := run(t, header+c.src, Vec3{c.size, 1, 1}, 1)
		if len(ts) != len(c.sizes) {
			t.Errorf("%s: %d pieces, want %d", c.name, len(ts), len(c.sizes))
			continue
		}
		for i := range ts {
			if !near(ts[i].Size[0], c.sizes[i]) || !near(pos(ts[i])[0], c.centres[i]) || ts[i].Size[1] != 1 {
				t.Errorf("%s piece %d: size %v centre %v, want %v %v", c.name, i, ts[i].Size, pos(ts[i])[0], c.sizes[i], c.centres[i])
			}
		}
	}
}

func TestCompSplitFaces(t *testing.T) {
	src := "axiom Box A;\nterminal Top Bot Side (1,0);\nA = CompSplit() { Top | Bot | Side };"
	ts := run(t, src, Vec3{2, 4, 6}, 1)
	if len(ts) != 6 {
		t.Fatalf("%d faces", len(ts))
	}
	// OperatorGraph's order: top, bottom, then back, front, left, right.
	wantN := []Vec3{{0, 1, 0}, {0, -1, 0}, {0, 0, -1}, {0, 0, 1}, {-1, 0, 0}, {1, 0, 0}}
	wantSize := [][2]float64{{2, 6}, {2, 6}, {2, 4}, {2, 4}, {6, 4}, {6, 4}}
	for i, s := range ts {
		env := shapeEnv{s: &s.Shape}
		for a := AxisX; a <= AxisZ; a++ {
			if !near(env.ShapeNormal(a), wantN[i][a]) {
				t.Fatalf("face %d normal %v, want %v", i, s.Transform, wantN[i])
			}
			// The face centre sits on the box surface along its normal.
			if wantN[i][a] != 0 && !near(pos(s)[a], wantN[i][a]*[]float64{2, 4, 6}[a]/2) {
				t.Fatalf("face %d centre %v", i, pos(s))
			}
		}
		if s.Kind != Quad || !near(s.Size[0], wantSize[i][0]) || !near(s.Size[1], wantSize[i][1]) {
			t.Fatalf("face %d: %v %v", i, s.Kind, s.Size)
		}
	}
}

func TestScaleRotateTranslate(t *testing.T) {
	ts := run(t, header+"A = Scale(-0.5, 3, -2) Rotate(0, 90, 0) Translate(1, 0, 0) T;", Vec3{4, 4, 4}, 1)
	s := ts[0]
	if s.Size != (Vec3{2, 3, 8}) {
		t.Fatalf("size %v", s.Size)
	}
	// Translate moves along the rotated local X, which points to world -Z.
	if p := pos(s); !near(p[0], 0) || !near(p[2], -1) {
		t.Fatalf("position %v", p)
	}
}

func TestIfSizeLessAndIf(t *testing.T) {
	src := "axiom Box A;\nterminal Small Big (1,0);\nA = IfSizeLess(X, 3) { Small | If(ShapeSize(Y) * 2 >= 8) { Big | Discard() } };"
	if ts := names(t, src, Vec3{2, 1, 1}, 1); len(ts) != 1 || ts[0] != "Small" {
		t.Fatalf("small: %+v", ts)
	}
	if ts := names(t, src, Vec3{5, 4, 1}, 1); len(ts) != 1 || ts[0] != "Big" {
		t.Fatalf("big: %+v", ts)
	}
	if ts := run(t, src, Vec3{5, 3, 1}, 1); len(ts) != 0 {
		t.Fatalf("discard: %+v", ts)
	}
}

// A random choice depends on the shape's place among its siblings, not on
// how many shapes were made before it.
func TestRandomChoiceKeyedByPosition(t *testing.T) {
	r := "R = RandomRule(ShapeSeed()) { 0.5: T | 0.5: U };\nterminal U (1,1);\n"
	a := run(t, header+r+"A = Replicate() { T | R };", Vec3{1, 1, 1}, 9)
	b := run(t, header+r+"A = Replicate() { Repeat(X, 0.01) T | R };", Vec3{1, 1, 1}, 9)
	if last(a).Term != last(b).Term || last(a).Seed != last(b).Seed {
		t.Fatal("sibling work changed a random choice")
	}
	counts := map[string]int{}
	for seed := uint64(0); seed < 2000; seed++ {
		counts[names(t, header+r+"A = R;", Vec3{1, 1, 1}, seed)[0]]++
	}
	if counts["T"] < 900 || counts["U"] < 900 {
		t.Fatalf("choice not balanced: %v", counts)
	}
}

func last(ts []TerminalShape) TerminalShape { return ts[len(ts)-1] }

func TestExtrudeQuad(t *testing.T) {
	ts := run(t, "axiom Quad A;\nterminal T (1,0);\nA = Extrude(2) T;", Vec3{3, 4, 0}, 1)
	// OperatorGraph: local +Y along the quad's normal (+Z), size (x, h, y),
	// centred on the quad.
	s := ts[0]
	if s.Kind != Box || s.Size != (Vec3{3, 2, 4}) || pos(s) != (Vec3{}) {
		t.Fatalf("%+v", s)
	}
	if y := s.Transform.direction(Vec3{0, 1, 0}); !near(y[0], 0) || !near(y[1], 0) || !near(y[2], 1) {
		t.Fatalf("local Y points to %v, want the quad's normal (0 0 1)", y)
	}
}
