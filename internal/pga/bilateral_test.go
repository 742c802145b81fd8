package pga

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// balconyDoors is the paper's example of a bilateral query: a facade makes
// its floors of window tiles and, beside them, a balcony in front of the
// second tile of the upper floor; a tile asks whether the balcony that its
// ancestor Facade makes covers it, and becomes a door if so. head goes
// before the rules (declarations), mid before the Tile rule (a phase).
func balconyDoors(head, mid, target string) string {
	return head + `axiom Quad Facade;
terminal Window (1, 0);
terminal Door (2, 0);
terminal Slab (4, 0);
Facade = Replicate() { Floors | Balconies };
Floors = SubDiv(Y) { -1: Floor | -1: Floor };
Floor = Repeat(X, 3) Tile;
Balconies = SubDiv(Y) { -1: Discard() | -1: BalconyRow };
BalconyRow = SubDiv(X) { 3: Discard() | 3: Balcony | -1: Discard() };
Balcony = Slab;
` + mid + `Tile = If(Overlaps(Facade, ` + target + `)) { Door | Window };
`
}

func evalBilateral(t *testing.T, src string, size Vec3, opt Options) (*Grammar, []TerminalShape) {
	t.Helper()
	g, err := Parse("b.pga", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := g.Evaluate([]Shape{NewAxiom(g.Axioms[0].Kind, size, 1)}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return g, ts
}

// kinds lists the terminal names with their centre's local x and y.
func kinds(g *Grammar, ts []TerminalShape) []string {
	var out []string
	for i := range ts {
		out = append(out, fmt.Sprintf("%s@%g,%g", g.TermName(&ts[i]), ts[i].Transform[3], ts[i].Transform[7]))
	}
	return out
}

// The tile the balcony covers becomes a door, every other a window: with
// the balcony rule or its terminal as the target, with the tiles in a
// later phase than their ancestor, on one worker or several.
func TestBilateralBalconyDoors(t *testing.T) {
	want := []string{"Window@-4.5,-1.5", "Window@-1.5,-1.5", "Window@1.5,-1.5", "Window@4.5,-1.5",
		"Window@-4.5,1.5", "Door@-1.5,1.5", "Window@1.5,1.5", "Window@4.5,1.5", "Slab@-1.5,1.5"}
	for _, c := range []struct{ name, mid, target string }{
		{"rule", "", "Balcony"},
		{"terminal", "", "Slab"},
		{"later phase", "phase 2;\n", "Balcony"},
	} {
		for _, workers := range []int{1, 4} {
			g, ts := evalBilateral(t, balconyDoors("", c.mid, c.target), Vec3{12, 6, 0}, Options{Workers: workers})
			got := kinds(g, ts)
			if c.mid != "" { // phase 2's tiles come after phase 1's slab
				want := append([]string{"Slab@-1.5,1.5"}, want[:8]...)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, %d workers:\n got %v\nwant %v", c.name, workers, got, want)
				}
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, %d workers:\n got %v\nwant %v", c.name, workers, got, want)
			}
		}
	}
}

// A shape never finds the target applications it descends from: a tile is
// inside itself only, so Inside(Floor, Tile) is 0; Touches(Floor, Tile)
// finds the neighbours, so it is 1 unless the floor has a single tile. A
// shape with no such ancestor gets 0.
func TestBilateralLineageAndAncestor(t *testing.T) {
	src := `axiom Quad Lot;
terminal Yes (1, 0);
terminal No (2, 0);
Lot = Replicate() { Floor | Tile };
Floor = Repeat(X, 3) Tile;
Tile = If(%s(Floor, Tile)) { Yes | No };
`
	for _, c := range []struct {
		query string
		width float64
		want  string
	}{
		{"Inside", 9, "No No No No"},
		{"Touches", 9, "Yes Yes Yes No"},
		{"Touches", 3, "No No"},
		{"Overlaps", 9, "No No No No"},
	} {
		g, ts := evalBilateral(t, fmt.Sprintf(src, c.query), Vec3{c.width, 3, 0}, Options{})
		var names []string
		for i := range ts {
			names = append(names, g.TermName(&ts[i]))
		}
		if got := strings.Join(names, " "); got != c.want {
			t.Errorf("%s on %g m: got %s, want %s", c.query, c.width, got, c.want)
		}
	}
}

// The nearest application of the ancestor rule is the one re-derived:
// each floor's tiles look at that floor's own marker only.
func TestBilateralNearestAncestor(t *testing.T) {
	src := `axiom Quad Lot;
terminal Yes (1, 0);
terminal No (2, 0);
Lot = SubDiv(Y) { -1: Floor | -1: Floor };
Floor = Replicate() { Repeat(X, 3) Tile | SubDiv(X) { ShapePosition(Y) + 2: Discard() | 1: Marker | -1: Discard() } };
Marker = Discard();
Tile = If(Overlaps(Floor, Marker)) { Yes | No };
`
	g, ts := evalBilateral(t, src, Vec3{6, 6, 0}, Options{})
	got := strings.Join(kinds(g, ts), " ")
	// Floor 0's marker covers x 0.5..1.5 (its first tile), floor 1's 3.5..4.5 (its second).
	if want := "Yes@-1.5,-1.5 No@1.5,-1.5 No@-1.5,1.5 Yes@1.5,1.5"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// tooDeepGrammar asks Overlaps(A, T) of a T maxRelatedSplits+1 splitting
// operators below A; it returns the grammar and its source.
func tooDeepGrammar(t *testing.T) (*Grammar, string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("axiom Box A;\nterminal T (1,0);\nterminal Y (2,0);\nA = Replicate() { Q | L1 };\nQ = If(Overlaps(A, T)) { Y | Y };\n")
	for k := 1; k <= maxRelatedSplits; k++ {
		fmt.Fprintf(&b, "L%d = Replicate() { L%d };\n", k, k+1)
	}
	fmt.Fprintf(&b, "L%d = T;\n", maxRelatedSplits+1)
	g, err := Parse("deep.pga", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return g, b.String()
}

// Targets deeper than maxRelatedSplits below the ancestor are an error on
// evaluation, naming the query.
func TestBilateralTooDeep(t *testing.T) {
	g, deep := tooDeepGrammar(t)
	_, err := g.Evaluate([]Shape{NewAxiom(Box, Vec3{1, 1, 1}, 1)}, Options{})
	if err == nil || !strings.Contains(err.Error(), "Overlaps(A, T)") || !strings.Contains(err.Error(), "more than 8 splitting operators") {
		t.Fatalf("got %v", err)
	}
	// One level less is fine, and the box overlaps the T it re-derives.
	src := strings.Replace(deep, "L1 = Replicate() { L2 };", "L1 = L2;", 1)
	g, ts := evalBilateral(t, src, Vec3{1, 1, 1}, Options{})
	if got := strings.Join(kinds(g, ts), " "); got != "Y@0,0 T@0,0" {
		t.Fatalf("got %s", got)
	}
	// Re-derived shapes count against MaxShapes.
	if _, err := g.Evaluate([]Shape{NewAxiom(Box, Vec3{1, 1, 1}, 1)}, Options{MaxShapes: 12}); !errors.Is(err, ErrLimit) {
		t.Fatalf("MaxShapes 12: got %v", err)
	}
}

func TestBilateralParseErrors(t *testing.T) {
	base := balconyDoors("", "", "Balcony")
	for _, c := range []struct{ src, want string }{
		{strings.Replace(base, "Overlaps(Facade, Balcony)", "Overlaps(Nope, Balcony)", 1),
			`b.pga:11:11: Overlaps(Nope, Balcony): no rule "Nope"`},
		{strings.Replace(base, "Overlaps(Facade, Balcony)", "Touches(Facade, Nope)", 1),
			`b.pga:11:11: Touches(Facade, Nope): "Nope" is neither a rule nor a declared terminal`},
		{strings.Replace(base, "Overlaps(Facade, Balcony)", "Inside(Floor, Balcony)", 1),
			`b.pga:11:11: Inside(Floor, Balcony): rule "Floor" never derives "Balcony" in its phase 1`},
		{strings.Replace(base, "Overlaps(Facade, Balcony)", "Overlaps(Balconies, Balcony)", 1),
			`b.pga:11:11: Overlaps(Balconies, Balcony) in rule "Tile": "Tile" does not descend from rule "Balconies"`},
		{strings.Replace(base, "Balcony = Slab;", "Balcony = If(Touches(Facade, Slab)) { Slab | Slab };", 1),
			`b.pga:10:14: Touches(Facade, Slab) lies on the derivation from "Facade" to "Slab" that Touches(Facade, Slab) derives again: bilateral queries cannot nest`},
		{strings.Replace(base, "BalconyRow = SubDiv(X) { 3:", "BalconyRow = SubDiv(X) { Touches(Facade, Slab) + 3:", 1),
			`b.pga:9:26: Touches(Facade, Slab) lies on the derivation from "Facade" to`},
		{strings.Replace(strings.Replace(base, "Balcony = Slab;", "phase 2;\nBalcony = Slab;", 1), "Overlaps(Facade, Balcony)", "Overlaps(Facade, Slab)", 1),
			`Overlaps(Facade, Slab): rule "Facade" never derives "Slab" in its phase 1`},
		{strings.Replace(base, "Overlaps(Facade, Balcony)", "Overlaps(Facade, )", 1),
			`b.pga:11:28: expected target rule or terminal name, found ")"`},
		{strings.Replace(base, "Overlaps(Facade, Balcony)", "Overlaps(Facade, Balcony, Slab)", 1),
			`b.pga:11:35: expected ")", found ","`},
	} {
		_, err := Parse("b.pga", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
}

// configs/pga/balconies.pga: every balcony has a door behind it, and no
// window is: a door's centre lies 0.7 m behind a slab's (the slab's half
// depth) and about 1 m above it, and no window stands behind a slab.
func TestBilateralBalconiesScene(t *testing.T) {
	g, axioms, opt := scene{file: "balconies.pga", grid: Grid{Cols: 4, Rows: 3}}.load(t, 0, 0)
	ts, err := g.Evaluate(axioms, opt)
	if err != nil {
		t.Fatal(err)
	}
	var slabs, doors, windows []Vec3
	for i := range ts {
		c := Vec3{ts[i].Transform[3], ts[i].Transform[7], ts[i].Transform[11]}
		switch g.TermName(&ts[i]) {
		case "BalconySlab":
			slabs = append(slabs, c)
		case "BalconyDoor":
			doors = append(doors, c)
		case "Window":
			windows = append(windows, c)
		}
	}
	if len(slabs) < 50 || len(doors) != len(slabs) || len(windows) < 2*len(doors) {
		t.Fatalf("%d slabs, %d doors, %d windows", len(slabs), len(doors), len(windows))
	}
	// Slabs 0.7 m in front of p, between lo and hi below it.
	behind := func(p Vec3, lo, hi float64) int {
		n := 0
		for _, s := range slabs {
			dx, dz, dy := p[0]-s[0], p[2]-s[2], p[1]-s[1]
			if h := dx*dx + dz*dz; h > 0.69*0.69 && h < 0.71*0.71 && dy > lo && dy < hi {
				n++
			}
		}
		return n
	}
	for _, d := range doors {
		if n := behind(d, 0.9, 1.2); n != 1 {
			t.Fatalf("door at %v stands behind %d slabs", d, n)
		}
	}
	for _, w := range windows {
		if behind(w, 0.5, 2) != 0 { // a window's centre is 1.6 m above the floor
			t.Fatalf("window at %v stands behind a slab", w)
		}
	}
	// The same city on one worker.
	opt.Workers = 1
	ts1, err := g.Evaluate(axioms, opt)
	if err != nil || !reflect.DeepEqual(ts1, ts) {
		t.Fatalf("one worker: %d terminals, %v; %d with all", len(ts1), err, len(ts))
	}
}

// facadeAxioms are n facade quads of varied sizes, far apart.
func facadeAxioms(n int) []Shape {
	var axioms []Shape
	for i := 0; i < n; i++ {
		a := NewAxiom(Quad, Vec3{5 + 2.5*float64(i%9), 6 + 3*float64(i%4), 0}, uint64(i))
		a.Transform = Translation(Vec3{float64(i) * 50, 0, 0})
		axioms = append(axioms, a)
	}
	return axioms
}

// bilateralGrammars exercise every part of a bilateral query on both
// backends: rule and terminal targets, a later phase, the query in an
// If, in a SubDiv size and in a RandomRule seed, stochastic targets, the
// nearest ancestor, the querying shape's own lineage, no ancestor.
var bilateralGrammars = []struct{ name, src string }{
	{"balcony doors", balconyDoors("", "", "Balcony")},
	{"terminal target", balconyDoors("", "", "Slab")},
	{"later phase", balconyDoors("", "phase 2;\n", "Balcony")},
	{"stochastic", `axiom Quad Facade;
terminal Window Door Shutter Slab (1, 0);
Facade = Replicate() { Repeat(Y, 3) Floor | Repeat(Y, 3) Plan };
Floor = Repeat(X, 2.5) Tile;
Plan = Repeat(X, 2.5) Slot;
Slot = RandomRule(ShapeSeed()) { 1: Balcony | 2: Discard() };
Balcony = Scale(-0.8, -1, -1) Extrude(1.2) Translate(0, ShapeSize(Y) / 2, 0) Slab;
Tile = If(Overlaps(Facade, Balcony)) { Door | SubDiv(X) { 0.5 + Touches(Floor, Tile): Shutter | -1: Window } };
`},
	{"lineage and no ancestor", `axiom Quad Lot;
terminal Yes No Maybe (1, 0);
Lot = Replicate() { Repeat(Y, 3) Floor | Tile };
Floor = Repeat(X, 3) Tile;
Tile = RandomRule(Inside(Floor, Tile) + 2 * Touches(Floor, Tile)) { 1: Yes | 1: No | 1: Maybe };
`},
	{"records of an earlier phase", growGrammar},
	{"nearest ancestor", `axiom Quad Lot;
terminal Yes No (1, 0);
Lot = Repeat(Y, 3) Floor;
Floor = Replicate() { Repeat(X, 3) Tile | SubDiv(X) { ShapeSeed() * 5: Discard() | 1: Marker | -1: Discard() } };
Marker = Discard();
Tile = If(Overlaps(Floor, Marker)) { Yes | No };
`},
}

// The grammars of the GPU equivalence test evaluate on the CPU, the same
// on one worker as on several, and their queries answer both ways.
func TestBilateralGrammarsDeterministic(t *testing.T) {
	for _, c := range bilateralGrammars {
		g, err := Parse(c.name+".pga", []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		axioms := facadeAxioms(30)
		ts, err := g.Evaluate(axioms, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ts1, err := g.Evaluate(axioms, Options{Workers: 1})
		if err != nil || !reflect.DeepEqual(ts, ts1) {
			t.Fatalf("%s: one worker differs (%v)", c.name, err)
		}
		byName := map[string]int{}
		for i := range ts {
			byName[g.TermName(&ts[i])]++
		}
		t.Logf("%s: %v", c.name, byName)
		answers := 0 // kinds only a query's answer picks
		for name := range byName {
			if name != "Slab" && name != "Shutter" {
				answers++
			}
		}
		if answers < 2 {
			t.Errorf("%s: %v: the queries answered one way only", c.name, byName)
		}
	}
}

// growGrammar leaves an ancestor record per floor and per tile in phase 1;
// phase 2 asks about phase 1's tiles.
const growGrammar = `axiom Quad Lot;
terminal Yes Late No (1, 0);
Lot = Repeat(Y, 3) Floor;
Floor = Repeat(X, 3) Tile;
Tile = If(Touches(Floor, Tile)) { Yes | Lone };
phase 2;
Lone = If(Inside(Floor, Tile) + Overlaps(Lot, Floor)) { Late | No };
`

// balconiesNoQuery is balconies.pga (src) with the query answered 0: every
// bay a window; the difference in time is what the queries cost.
func balconiesNoQuery(t testing.TB, src []byte) *Grammar {
	t.Helper()
	plain, err := Parse("balconies-noquery.pga", []byte(strings.Replace(string(src), "If(Overlaps(UpperStorey, Balcony))", "If(0)", 1)))
	if err != nil || len(plain.Links) != 0 {
		t.Fatalf("no-query variant: %v", err)
	}
	return plain
}

// BenchmarkBilateralBalconies: balconies.pga on 10 x 10 lots, with its
// bilateral query and with the query answered 0.
func BenchmarkBilateralBalconies(b *testing.B) {
	g, axioms, opt := scene{file: "balconies.pga", grid: Grid{Cols: 10, Rows: 10}}.load(b, 0, 0)
	src, err := os.ReadFile(filepath.Join("../../configs/pga", "balconies.pga"))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		g    *Grammar
	}{{"query", g}, {"noquery", balconiesNoQuery(b, src)}} {
		b.Run(c.name, func(b *testing.B) {
			var n int
			for b.Loop() {
				ts, err := c.g.Evaluate(axioms, opt)
				if err != nil {
					b.Fatal(err)
				}
				n = len(ts)
			}
			b.ReportMetric(float64(n), "terminals")
		})
	}
}
