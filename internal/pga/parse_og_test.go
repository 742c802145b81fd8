package pga

import (
	"math"
	"strings"
	"testing"
)

// ogGrammar uses the constructs OperatorGraph's parser accepts beyond the
// ones the corpus grammars use; the CUDA test runs it too.
const ogGrammar = `var W = 2.5;
axiom Box A;
terminal T U (1, 0, 7);
terminal P (2);
A --> Replicate() { Stoch | Bool | Polys | Coll };
Stoch = 30%: Translate(ShapePos(X), 0, 0) T else: Scale(W, -1, -1) U;
Bool = If(Exp(ShapeSize(X) > 1 && ShapeSize(Y) < 0 || ShapeSeed() >= 0)) { Repeat(X, Exp(Rand(0.5, W))) T | U };
Polys = CompSplit() { SetAsDynamicConvexPolygon((0,0.5),(-0.5,0),(0,-0.5),(0.5,0)) Extrude(Rand(1, 2)) Translate(0, ShapeSize(Y) / 2, 0) CompSplit() { P | P | T } | SetAsDynamicConcavePolygon((-0.5,-0.5),(0.5,-0.5),(0.5,0.5),(0,0),(-0.5,0.5)) P | Discard() };
Coll => Collider(1) Scale(Rand(1, 3), -1, -1) Translate(ShapeRotation(X, Y), ShapeRotation(Z, X) * 2, 0) T;
`

func TestOperatorGraphConstructs(t *testing.T) {
	g, err := Parse("og.pga", []byte(ogGrammar))
	if err != nil {
		t.Fatal(err)
	}
	if g.Terminals["T"].Geometry != 1 || g.Terminals["P"].Material != 0 {
		t.Fatalf("terminal attributes %+v %+v", g.Terminals["T"], g.Terminals["P"])
	}
	counts := map[string]int{}
	for seed := uint64(0); seed < 400; seed++ {
		ts, err := g.Evaluate([]Shape{NewAxiom(Box, Vec3{4, 3, 2}, seed)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range ts {
			counts[g.TermName(&ts[i])]++
		}
		if seed == 0 {
			// the convex diamond: 2 caps and 4 sides; the concave cap: 1 P.
			p := 0
			for i := range ts {
				if g.TermName(&ts[i]) == "P" {
					p++
				}
			}
			if p != 3 {
				t.Fatalf("%d P terminals, want the diamond prism's 2 caps and the concave cap", p)
			}
		}
	}
	// Stoch gives T 30% and U 70% of the time: about 120 and 280 of 400.
	if counts["U"] < 230 || counts["U"] > 330 {
		t.Errorf("else branch taken %d times of 400, want about 280", counts["U"])
	}
	if len(g.Groups) != 1 || g.Groups[0] != "1" {
		t.Errorf("collider groups %v", g.Groups)
	}
}

func TestRandDrawsFromTheShapeSeed(t *testing.T) {
	src := "axiom Box A;\nterminal T (1,0);\nA = Scale(Rand(2, 4), Rand(2, 4), Rand(1, 2)) T;"
	seen := map[float64]bool{}
	for seed := uint64(0); seed < 200; seed++ {
		s := run(t, src, Vec3{1, 1, 1}, seed)[0]
		x, z := s.Size[0], s.Size[2]
		if x < 2 || x >= 4 || s.Size[1] != x || !near(z, 1+(x-2)/2) {
			t.Fatalf("seed %d: size %v (Rand draws one fraction per shape, as OperatorGraph)", seed, s.Size)
		}
		seen[math.Floor(x*4)] = true
	}
	if len(seen) < 8 {
		t.Fatalf("Rand(2, 4) hit %d of 8 quarter-metre bins", len(seen))
	}
}

func TestAndOr(t *testing.T) {
	for _, c := range []struct {
		x    string
		want float64
	}{
		{"1 && 0", 0}, {"1 && 2", 1}, {"0 || 0", 0}, {"0 || 3", 1},
		{"1 < 2 && 3 < 4", 1}, {"0 && 1 || 1", 1}, {"1 || 0 && 0", 1}, {"(1 || 0) && 0", 0},
		{"0 / 0 || 0", 0}, {"0 / 0 && 1", 0},
	} {
		p := &parser{g: &Grammar{}, vars: map[string]float64{}}
		toks, err := lex("x", []byte(c.x))
		if err != nil {
			t.Fatal(err)
		}
		p.toks = toks
		x, err := p.expr()
		if err != nil {
			t.Fatal(err)
		}
		if v := x.Eval(nil); v != c.want {
			t.Errorf("%s = %v, want %v", c.x, v, c.want)
		}
	}
}

func TestAxiomKinds(t *testing.T) {
	for _, c := range []struct {
		kind  string
		shape ShapeKind
		n     int // profile points, 0: rectangle
	}{
		{"Box", Box, 0}, {"Quad", Quad, 0}, {"Triangle", Quad, 3}, {"Hexagon", Quad, 6}, {"Octagon", Quad, 8},
		{"Prism3", Box, 3}, {"Prism5", Box, 5}, {"Prism8", Box, 8},
		{"DynamicConvexPolygon { (0,0.5), (-0.5,-0.5), (0.5,-0.5) }", Quad, 3},
		{"DynamicRightPrism { (-0.5,-0.5) (0.5,-0.5) (0.5,0.5) (0,0) (-0.5,0.5) }", Box, 5},
	} {
		g, err := Parse("k.pga", []byte("axiom "+c.kind+" A;\nterminal T (1,0);\nA = T;"))
		if err != nil {
			t.Fatalf("%s: %v", c.kind, err)
		}
		a := g.Axioms[0]
		if a.Kind != c.shape || len(g.Profiles[a.Profile]) != c.n {
			t.Fatalf("%s: kind %v, %d points", c.kind, a.Kind, len(g.Profiles[a.Profile]))
		}
		ts, err := g.Evaluate([]Shape{NewAxiom(a.Kind, Vec3{2, 2, 2}, 1)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if ts[0].Profile != int32(a.Profile) {
			t.Fatalf("%s: the axiom shape has profile %d, want %d", c.kind, ts[0].Profile, a.Profile)
		}
		if c.n > 0 && !strings.HasPrefix(c.kind, "Dynamic") {
			// OperatorGraph's regular polygons start at (0, 0.5).
			if p := g.Profiles[a.Profile]; !near(p[0][0], 0) || !near(p[0][1], 0.5) {
				t.Fatalf("%s: first point %v", c.kind, p[0])
			}
		}
	}
	if g, err := Parse("k.pga", []byte("axiom Sphere A;\nterminal T (1,0);\nA = T;")); err != nil || g.Axioms[0].Kind != Sphere || g.Axioms[0].Profile != 0 {
		t.Fatalf("Sphere: %v", err)
	}
}

func TestArrowsAndVars(t *testing.T) {
	for _, arrow := range []string{"=", "->", "-->", "=>", "==>", ">>"} {
		src := "var h = 3;\naxiom Box A;\nterminal T (1,0);\nA " + arrow + " Scale(h, h, h) T;"
		ts := run(t, src, Vec3{1, 1, 1}, 1)
		if ts[0].Size != (Vec3{3, 3, 3}) {
			t.Fatalf("%s: %v", arrow, ts[0].Size)
		}
	}
}

// A concave cap is drawn as counter-clockwise triangles covering it exactly.
func TestConcaveCapTriangles(t *testing.T) {
	src := "axiom Box A;\nterminal T (1,0);\nA = SetAsDynamicConcaveRightPrism((-0.5,-0.5),(0.5,-0.5),(0.5,0.5),(0,-0.1),(-0.2,0.5),(-0.5,0.4)) T;"
	g, err := Parse("c.pga", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	pts := g.Profiles[1]
	tris := g.capTriangles(1)
	if len(tris) != len(pts)-2 {
		t.Fatalf("%d triangles for %d points", len(tris), len(pts))
	}
	area := func(a, b, c [2]float64) float64 { return ((b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])) / 2 }
	var sum, poly float64
	for _, tr := range tris {
		a := area(pts[tr[0]], pts[tr[1]], pts[tr[2]])
		if a <= 0 {
			t.Fatalf("triangle %v is not counter-clockwise", tr)
		}
		sum += a
	}
	for i := range pts {
		q := pts[(i+1)%len(pts)]
		poly += (pts[i][0]*q[1] - q[0]*pts[i][1]) / 2
	}
	if !near(sum, poly) {
		t.Fatalf("triangles cover %v, the polygon %v", sum, poly)
	}
	ts := run(t, src, Vec3{2, 2, 2}, 1)
	_, faces, _ := g.worldSolid(&ts[0].Shape)
	if len(faces) != g.faceCount(&ts[0].Shape) {
		t.Fatalf("%d faces, faceCount %d", len(faces), g.faceCount(&ts[0].Shape))
	}
	if _, err := compileGrammar(g); err == nil {
		t.Fatal("the CUDA backend compiled a concave profile it cannot mesh")
	}
}

// ShapeRotation(A, B) is OperatorGraph's element of the frame: the world
// component B of local axis A; ShapeRotation(A) is ShapeRotation(A, X), as
// OperatorGraph's parser leaves the component at 0 (Parameters.cuh indexes
// the model matrix with component * 4 + axis).
func TestShapeRotationTwoAxes(t *testing.T) {
	src := "axiom Box A;\nterminal T (1,0);\nA = Rotate(0, 0, 30) Scale(ShapeRotation(X, Y) + 1, ShapeRotation(Y) + 3, ShapeRotation(X) + 1) T;"
	s := run(t, src, Vec3{1, 1, 1}, 1)[0]
	// Local X points to world (cos 30, sin 30, 0), local Y to (-sin 30, cos 30, 0).
	if !near(s.Size[0], 1.5) || !near(s.Size[1], 2.5) || !near(s.Size[2], 1+math.Sqrt(3)/2) {
		t.Fatalf("size %v, want (1.5, 2.5, 1.866)", s.Size)
	}
	g, err := Parse("r.pga", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	args := g.Rules["A"].Body.Ops[1].Args
	if got := args[0].Expr.String(); got != "(ShapeRotation(X, Y) + 1)" {
		t.Fatalf("printed as %s", got)
	}
	if got := args[1].Expr.String(); got != "(ShapeRotation(Y, X) + 3)" {
		t.Fatalf("one axis printed as %s", got)
	}
	for _, bad := range []string{"ShapeRotation()", "ShapeRotation(X,)", "ShapeRotation(X, Y, Z)", "ShapeRotation(W)"} {
		if _, err := Parse("r.pga", []byte("axiom Box A;\nterminal T (1,0);\nA = Translate("+bad+", 0, 0) T;")); err == nil || !strings.Contains(err.Error(), "r.pga:3:") {
			t.Errorf("%s: error %v", bad, err)
		}
	}
}

// ogColliders has no phase statements: as OperatorGraph, each IfCollides
// runs one phase after the Colliders of its tag.
const ogColliders = `axiom Box A;
terminal T U W (1,0);
A = Replicate() { Collider(1) Scale(-1, -1, -1) W | Translate(Exp(ShapeSize(X) * 0.25), 0, 0) Scale(-0.5, -1, -1) IfCollides(1) { T | U } | B };
B = Translate(Exp(ShapeSize(X) * 2), 0, 0) IfCollides(1) { T | Generate() };
`

func TestInferredColliderPhases(t *testing.T) {
	g, err := Parse("c.pga", []byte(ogColliders))
	if err != nil {
		t.Fatal(err)
	}
	// The IfCollides of A and of B are split off into rules of phase 2;
	// A and B (their Translate and Scale) stay in phase 1.
	if len(g.Phases) != 2 || g.Rules["A"].Phase != 1 || g.Rules["B"].Phase != 1 {
		t.Fatalf("phases %v, A in %d, B in %d", g.Phases, g.Rules["A"].Phase, g.Rules["B"].Phase)
	}
	splits := 0
	for _, n := range g.RuleOrder {
		if r := g.Rules[n]; strings.Contains(n, "/IfCollides@") {
			splits++
			if r.Phase != 2 || r.Body.Ops[0].Kind != OpIfCollides || (!strings.HasPrefix(n, "A/IfCollides@3:") && !strings.HasPrefix(n, "B/IfCollides@4:")) {
				t.Fatalf("rule %s in phase %d", n, r.Phase)
			}
		}
	}
	if splits != 2 {
		t.Fatalf("rules %v", g.RuleOrder)
	}
	ts := run(t, ogColliders, Vec3{4, 3, 2}, 1)
	names := map[string]int{}
	for i := range ts {
		names[g.TermName(&ts[i])]++
	}
	// W is the collider; the half box inside it collides (T); B, moved
	// away, does not: its Generate() terminal keeps B's name.
	if len(ts) != 3 || names["W"] != 1 || names["T"] != 1 || names["B"] != 1 {
		t.Fatalf("terminals %v", names)
	}
	// With phase statements nothing is inferred: the query in the
	// collider's phase is refused.
	if _, err := Parse("c.pga", []byte("phase 1;\n"+ogColliders)); err == nil || !strings.Contains(err.Error(), "has not run yet") {
		t.Fatalf("explicit phases: %v", err)
	}
	// An IfCollides that feeds its own colliders cannot be ordered.
	loop := "axiom Box A;\nterminal T (1,0);\nA = IfCollides(1) { T | Collider(1) A };"
	if _, err := Parse("l.pga", []byte(loop)); err == nil || !strings.Contains(err.Error(), "cannot order the phases") {
		t.Fatalf("loop: %v", err)
	}
}

// OperatorGraph accepts a probability prefix before any successor but uses
// only a rule's own (ParserProductionRule.cpp): inside blocks and chains the
// prefixes are read and dropped, so each grammar here builds what the same
// grammar without them builds.
func TestInnerProbabilityPrefixes(t *testing.T) {
	for _, c := range []struct{ with, without string }{
		{"A = Replicate() { 30%: T | else: U | 70 % : Translate(1, 0, 0) T };", "A = Replicate() { T | U | Translate(1, 0, 0) T };"},
		{"A = SubDiv(X) { 2: 50%: T | -1: else: Repeat(Y, 0.5) 10%: U };", "A = SubDiv(X) { 2: T | -1: Repeat(Y, 0.5) U };"},
		{"A = Translate(1, 0, 0) 40%: Rotate(0, 30, 0) else: T;", "A = Translate(1, 0, 0) Rotate(0, 30, 0) T;"},
		{"A = If(ShapeSize(X) > 3) { 20%: CompSplit() { 1%: T | 2%: U | else: T } | 99%: U };", "A = If(ShapeSize(X) > 3) { CompSplit() { T | U | T } | U };"},
		// A rule's own prefixes still make it stochastic; the inner one is dropped.
		{"A = 30%: Translate(0, 1, 0) 50%: T else: U;", "A = 30%: Translate(0, 1, 0) T else: U;"},
	} {
		const head = "axiom Box A;\nterminal T U (1,0);\n"
		for seed := uint64(0); seed < 20; seed++ {
			a, b := run(t, head+c.with, Vec3{4, 3, 2}, seed), run(t, head+c.without, Vec3{4, 3, 2}, seed)
			if len(a) != len(b) || len(a) == 0 {
				t.Fatalf("%q: %d terminals, without the prefixes %d", c.with, len(a), len(b))
			}
			for i := range a {
				if a[i].Term != b[i].Term || a[i].Transform != b[i].Transform || a[i].Size != b[i].Size || a[i].Seed != b[i].Seed {
					t.Fatalf("%q seed %d: terminal %d %+v, without the prefixes %+v", c.with, seed, i, a[i], b[i])
				}
			}
		}
	}
	for _, c := range []struct{ src, want string }{
		{"A = Replicate() { 30% T | U };", `t.pga:3:23: expected ":"`},
		{"A = Replicate() { else T | U };", "t.pga:3:19"},
		{"A = Replicate() { 30%: | U };", "t.pga:3:24: expected operator or successor"},
	} {
		_, err := Parse("t.pga", []byte("axiom Box A;\nterminal T U (1,0);\n"+c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}
