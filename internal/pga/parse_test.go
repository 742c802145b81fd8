package pga

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const header = "axiom Box A;\nterminal T (1,0);\n"

func TestParseModel(t *testing.T) {
	src := header + `A = Translate(1, -2, Exp(ShapeSize(X) * 0.5)) Repeat(Y, 3, ANCHOR_TO_END) SubDiv(X) { 2: T | -1: Discard() | -2: B };
B = RandomRule(ShapeSeed()) { 0.5: T | 0.5: If(ShapeNormal(Y) == -1) { T | Generate() } };
terminal U V (2,3);`
	g, err := Parse("m.pga", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Axioms) != 1 || g.Axioms[0].Rule != "A" || g.Axioms[0].Kind != Box {
		t.Fatalf("axioms %+v", g.Axioms)
	}
	if u := g.Terminals["V"]; u.Geometry != 2 || u.Material != 3 {
		t.Fatalf("terminal V = %+v", u)
	}
	a := g.Rules["A"].Body
	if len(a.Ops) != 3 || a.Ops[0].Kind != OpTranslate || a.Ops[1].Kind != OpRepeat || a.Ops[2].Kind != OpSubDiv {
		t.Fatalf("A ops %+v", a.Ops)
	}
	if a.Ops[1].Args[2].Mode != AnchorToEnd || a.Ops[1].Args[0].Axis != AxisY {
		t.Fatalf("Repeat args %+v", a.Ops[1].Args)
	}
	if got := a.Ops[0].Args[2].Expr.String(); got != "(ShapeSize(X) * 0.5)" {
		t.Fatalf("expr %s", got)
	}
	if w := a.Ops[2].Branches[2].Weight; w.Eval(nil) != -2 {
		t.Fatalf("weight %v", w)
	}
	if g.RuleOrder[0] != "A" || g.RuleOrder[1] != "B" {
		t.Fatalf("order %v", g.RuleOrder)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"axiom Box A", "e.pga:1:12: expected \";\", found end of file"},
		{"axiom Cone A;", "e.pga:1:7: expected shape kind Box, Quad, Sphere, Triangle"},
		{header + "A = Translate(Frob(1), 0, 0) T;", "e.pga:3:15: unknown function Frob"},
		{header + "A = 60%: T 50%: T;", "add up to 110%"},
		{header + "A = 60%: T T;", "e.pga:3:12: a rule with several successors needs a probability"},
		{header + "A = else: T else: T;", "at most one else"},
		{header + "A = Translate(1,2) T;", "e.pga:3:18: Translate takes 3 arguments, found 2"},
		{header + "A = Scale(1,2,3,4) T;", "e.pga:3:17: Scale takes 3 arguments, found 4"},
		{header + "A = Repeat(Y) T;", "e.pga:3:13: Repeat takes 2 to 4 arguments, found 1"},
		{header + "A = Repeat(W, 2) T;", "e.pga:3:12: expected axis X, Y or Z, found identifier \"W\""},
		{header + "A = Repeat(X, 2, FILL) T;", "e.pga:3:18: expected repeat mode"},
		{header + "A = Translate(1,2,3) Nope;", "e.pga:3:22: successor \"Nope\" is neither a rule nor a declared terminal"},
		{header + "A = Frob(1) T;", "e.pga:3:5: unknown operator \"Frob\""},
		{header + "A = SubDiv(X) { T | T };", "e.pga:3:17: expected expression, found identifier \"T\""},
		{header + "A = SubDiv(X) { 1 T };", "e.pga:3:19: expected \":\", found identifier \"T\""},
		{header + "A = If(1) { T };", "e.pga:3:11: If takes 2 branches, found 1"},
		{header + "A = CompSplit() { T | T };", "e.pga:3:17: CompSplit takes 3 branches, found 2"},
		{header + "A = Translate(1,2,*) T;", "e.pga:3:19: expected expression, found \"*\""},
		{header + "A = T;\nA = T;", "e.pga:4:1: rule \"A\" defined twice"},
		{header + "A = T", "e.pga:3:6: expected \";\", found end of file"},
		{header + "A = T; $", "e.pga:3:8: unexpected character '$'"},
		{"axiom Box Z;\nterminal T (1,0);\nA = T;", "e.pga:1:11: axiom names undefined rule \"Z\""},
		{"terminal T (1,0);\nA = T;", "expected an axiom declaration"},
		{header + "A = Translate(1,2,3)", "e.pga:3:21: expected operator or successor, found end of file"},
	} {
		_, err := Parse("e.pga", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, src := range []string{
		header + "A = T;",
		header + "A = SubDiv(Y) { -1: T | 2: Repeat(X, 1) T };",
		header + "A = If(Exp(ShapeNormal(Z) == -1)) { T | Discard() };",
		header + "A = SetAsDynamicConvexRightPrism((0,0.5),(-0.5,-0.5),(0.5,-0.5)) T;",
		"/* c */ axiom Quad A; terminal T (1,0); A = Extrude(1e2) SwapSize(Z,X,Y) T;",
		"axiom Quad A; terminal T (1,0); A = Setback(2) { Roof(GABLE, 30) T | Offset(1) { Collider(m) T | SnapLines(X, s) T } };\nphase 2;\nB = If(Overlaps(m) + Touches(m) + Inside(m)) { Repeat(X, 1, ADJUST_TO_FILL, s) T | SubDiv(Y, s) { 1: T } };",
		header + "A = IfCollides(w) { T | Scale(LotAttr(h, 3), ShapeIndex(), ShapeSiblings()) T };\nphase 3;\nW = Collider(w) T;",
		ogGrammar,
		ogColliders,
		balconyDoors("", "", "Balcony"),
		balconyDoors("var w = 3;\n", "phase 2;\n", "Slab"),
		header + "A = Replicate() { B | If(Touches(A, B) + Inside(A, T)) { T | Discard() } };\nB = Repeat(X, 1) T;",
		"axiom DynamicRightPrism { (0,0) (1,0) (0.5,0.2) (0.5,1) } A; terminal T (1,2,3); A -> 40%: SetAsDynamicConcaveRightPrism((0,0),(1,0),(0.5,0.2),(0.5,1)) T 20%: Collider(2) T else: T;",
		header + "A = Replicate() { 30%: T | else: SubDiv(X) { 2: 50%: T | -1: Translate(1, 0, 0) 5 % : T } };",
		"axiom Sphere A; terminal T (1,0); A = Replicate() { Scale(2, -1, -1) T | SetAsDynamicConvexPolygon((0,0.5),(-0.5,-0.5),(0.5,-0.5)) Extrude(1) CompSplit() { T | T | T } | CompSplit() { T | T | T } };",
	} {
		f.Add([]byte(src))
	}
	paths, _ := filepath.Glob(filepath.Join(corpusDir, "*.pga"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
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
		// A grammar that parses also evaluates without panicking, within caps.
		_, _ = g.Evaluate([]Shape{NewAxiom(g.Axioms[0].Kind, Vec3{4, 4, 4}, 1)}, Options{MaxShapes: 2000, MaxDepth: 50, Workers: 1})
	})
}
