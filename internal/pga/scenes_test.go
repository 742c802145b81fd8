package pga

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// scene is one of the paper's seven scenes as written in configs/pga: the
// grammar and the lots it is meant for.
type scene struct {
	file string
	grid Grid // Cols == 0: one axiom of size unit (the trees)
	unit Vec3
}

var scenes = map[string]scene{
	"Tree4,3":      {file: "tree4_3.pga", unit: Vec3{1, 1, 1}},
	"Tree8,3":      {file: "tree8_3.pga", unit: Vec3{1, 1, 1}},
	"Residential":  {file: "residential.pga", grid: Grid{Cols: 1, Rows: 1, LotWidth: 40, LotDepth: 40}},
	"CrossTowers":  {file: "cross_towers.pga", grid: Grid{Cols: 1, Rows: 1, LotWidth: 60, LotDepth: 60}},
	"Skyscrapers":  {file: "skyscrapers.pga", grid: Grid{Cols: 23, Rows: 23}},
	"CityOverview": {file: "city_overview.pga", grid: Grid{Cols: 200, Rows: 190}},
	"Suburban":     {file: "suburban.pga", grid: Grid{Cols: 66, Rows: 64}},
}

// load parses the scene's grammar and lays out its lots (seed 1), cut to
// the first cols x rows of its grid when those are not zero.
func (s scene) load(t testing.TB, cols, rows int) (*Grammar, []Shape, Options) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("../../configs/pga", s.file))
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse(s.file, src)
	if err != nil {
		t.Fatal(err)
	}
	if s.grid.Cols == 0 {
		return g, []Shape{NewAxiom(g.Axioms[0].Kind, s.unit, 1)}, Options{}
	}
	grid := s.grid
	grid.Seed = 1
	if cols > 0 {
		grid.Cols, grid.Rows = cols, rows
	}
	lots, err := grid.Lots()
	if err != nil {
		t.Fatal(err)
	}
	return g, LotAxioms(g.Axioms[0].Kind, lots, 1, 20), Options{LotAttrs: LotAttrValues(lots)}
}

func BenchmarkScene(b *testing.B) {
	for _, name := range []string{"Tree8,3", "Residential", "CrossTowers", "Skyscrapers", "CityOverview", "Suburban"} {
		b.Run(name, func(b *testing.B) {
			g, axioms, opt := scenes[name].load(b, 0, 0)
			var n int
			for b.Loop() {
				ts, err := g.Evaluate(axioms, opt)
				if err != nil {
					b.Fatal(err)
				}
				n = len(ts)
			}
			b.ReportMetric(float64(n), "terminals")
		})
	}
}

// evalScene evaluates a scene (cut to cols x rows lots when not zero).
func evalScene(t *testing.T, name string, cols, rows int) (*Grammar, []TerminalShape, int) {
	t.Helper()
	g, axioms, opt := scenes[name].load(t, cols, rows)
	ts, err := g.Evaluate(axioms, opt)
	if err != nil {
		t.Fatal(err)
	}
	return g, ts, len(axioms)
}

func count(g *Grammar, ts []TerminalShape) map[string]int {
	m := map[string]int{}
	for i := range ts {
		m[g.TermName(&ts[i])]++
	}
	return m
}

// normal is the world direction of a terminal's local +Z.
func normal(s *TerminalShape) Vec3 { return Vec3{s.Transform[2], s.Transform[6], s.Transform[10]} }

// bottom is the lowest world y of a terminal's solid.
func bottom(g *Grammar, s *TerminalShape) float64 {
	c, _, _ := g.worldSolid(&s.Shape)
	lo := math.Inf(1)
	for _, p := range c {
		lo = min(lo, p[1])
	}
	return lo
}

func TestSceneTrees(t *testing.T) {
	for name, want := range map[string][2]int{"Tree4,3": {283, 121}, "Tree8,3": {22963, 9841}} {
		g, ts, _ := evalScene(t, name, 0, 0)
		if c := count(g, ts); len(ts) != want[0] || c["Trunk"] != want[1] || c["Leaf"] != want[0]-want[1] {
			t.Errorf("%s: %d terminals %v, want %d with %d trunks", name, len(ts), c, want[0], want[1])
		}
	}
}

// Residential: balconies never intersect each other or any facade, and
// the street door replaces a ground-floor window.
func TestSceneResidential(t *testing.T) {
	g, ts, _ := evalScene(t, "Residential", 0, 0)
	c := count(g, ts)
	if len(ts) != 1105 || c["Door"] != 1 || c["Balcony"] != 108 {
		t.Fatalf("%d terminals %v, want 1105 with 1 door and 108 balconies", len(ts), c)
	}
	overlaps := func(g *Grammar, ts []TerminalShape) (n int) {
		var balc, facade []obb
		for i := range ts {
			switch g.TermName(&ts[i]) {
			case "Balcony":
				balc = append(balc, shapeOBB(&ts[i].Shape))
			case "Wall", "Window", "Door":
				facade = append(facade, shapeOBB(&ts[i].Shape))
			}
		}
		for i := range balc {
			for j := range balc[:i] {
				if o, _ := contact(&balc[i], &balc[j]); o {
					n++
				}
			}
			for j := range facade {
				if o, _ := contact(&balc[i], &facade[j]); o {
					n++
				}
			}
		}
		return n
	}
	if n := overlaps(g, ts); n != 0 {
		t.Errorf("%d balcony intersections", n)
	}
	// Without the phase-3 query the front wing's courtyard balconies hit
	// the back wing's: the check above is not vacuous.
	src, _ := os.ReadFile("../../configs/pga/residential.pga")
	loose := strings.Replace(string(src), "IfCollides(balc) { Discard() | Balcony }", "Balcony", 1)
	lg, err := Parse("loose.pga", []byte(loose))
	if err != nil {
		t.Fatal(err)
	}
	_, axioms, opt := scenes["Residential"].load(t, 0, 0)
	lts, err := lg.Evaluate(axioms, opt)
	if err != nil {
		t.Fatal(err)
	}
	if n := overlaps(lg, lts); n == 0 {
		t.Error("without the balcony query no balconies intersect: the scene does not exercise it")
	}
	var door TerminalShape
	for _, s := range ts {
		if g.TermName(&s) == "Door" {
			door = s
		}
	}
	// The lot's front faces world +Z (row 0 of the grid).
	if n := normal(&door); !near(n[2], 1) || !near(bottom(g, &door), 0) {
		t.Errorf("door faces %v from y %v, want the street (+Z) at ground level", n, bottom(g, &door))
	}
	for _, s := range ts {
		if g.TermName(&s) == "Window" && near(normal(&s)[2], 1) && s.Transform[7] < 3 &&
			math.Abs(s.Transform[3]-door.Transform[3]) < 1.5 && math.Abs(s.Transform[11]-door.Transform[11]) < 0.01 {
			t.Errorf("a window beside the door in its bay: %v", s.Transform)
		}
	}
}

// Cross-Towers: wherever the towers stand side by side their floor slabs
// are at the same heights.
func TestSceneCrossTowers(t *testing.T) {
	g, ts, _ := evalScene(t, "CrossTowers", 0, 0)
	if c := count(g, ts); len(ts) != 14383 || c["Slab"] != 73 {
		t.Fatalf("%d terminals %v, want 14383 with 73 slabs", len(ts), c)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range ts {
		lo, hi = min(lo, s.Transform[3]), max(hi, s.Transform[3])
	}
	var a, b []float64 // slab heights by tower (A stands at lower x)
	for _, s := range ts {
		if g.TermName(&s) == "Slab" {
			if s.Transform[3] < (lo+hi)/2 {
				a = append(a, bottom(g, &s))
			} else {
				b = append(b, bottom(g, &s))
			}
		}
	}
	if len(a) != 30 || len(b) != 43 {
		t.Fatalf("%d and %d storeys, want 30 and 43", len(a), len(b))
	}
	slices.Sort(a)
	slices.Sort(b)
	for i, y := range a {
		if math.Abs(b[i]-y) > 1e-9 {
			t.Fatalf("storey %d: tower A at %.6f, tower B at %.6f", i, y, b[i])
		}
	}
	// Without snapping, B's 3 m storeys drift from A's 3.4 m ones.
	if math.Abs(3*float64(len(a)-1)-a[len(a)-1]) < 1 {
		t.Fatal("tower A's storeys are 3 m: the snap test would be vacuous")
	}
}

// The large scenes: lots, terminal counts near the paper's and the
// properties each grammar promises.
func TestSceneSkyscrapers(t *testing.T) {
	g, ts, lots := evalScene(t, "Skyscrapers", 0, 0)
	c := count(g, ts)
	if lots != 529 || len(ts) != 1634286 {
		t.Fatalf("%d lots, %d terminals %v; want 529 and 1,634,286", lots, len(ts), c)
	}
	entrances := map[int32]int{}
	for i := range ts {
		s := &ts[i]
		if g.TermName(s) == "Entrance" {
			entrances[s.Lot]++
			if b := bottom(g, s); !near(b, 0) {
				t.Fatalf("lot %d: entrance %v above the ground", s.Lot, b)
			}
		}
	}
	if len(entrances) != lots || c["Entrance"] != lots {
		t.Fatalf("%d entrances on %d lots, want one per lot", c["Entrance"], len(entrances))
	}
}

func TestSceneCityOverview(t *testing.T) {
	g, ts, lots := evalScene(t, "CityOverview", 0, 0)
	c := count(g, ts)
	if lots != 38000 || len(ts) != 834992 {
		t.Fatalf("%d lots, %d terminals %v; want 38,000 and 834,992", lots, len(ts), c)
	}
	if c["Yard"] != lots || c["Roof"]+c["FlatRoof"] != lots {
		t.Fatalf("%v: want a yard and a roof per lot", c)
	}
	kinds := map[RoofKind]int{}
	for i := range ts {
		if g.TermName(&ts[i]) == "Roof" {
			kinds[ts[i].Roof]++
		}
	}
	if len(kinds) != 4 {
		t.Errorf("roof kinds %v, want all four", kinds)
	}
}

func TestSceneSuburban(t *testing.T) {
	if testing.Short() {
		t.Skip("6 million terminals")
	}
	g, ts, lots := evalScene(t, "Suburban", 0, 0)
	c := count(g, ts)
	if lots != 4224 || len(ts) != 6202334 {
		t.Fatalf("%d lots, %d terminals %v; want 4,224 and 6,202,334", lots, len(ts), c)
	}
	if c["Door"] != lots || c["Chimney"] != lots || c["Gable"] != 2*lots {
		t.Fatalf("%v: want a door, a chimney and two gables per lot", c)
	}
}

// A single lot is split over the workers within each phase (queries, snap
// lines and deferred shapes included) and gives exactly the one-worker
// result, in the same order.
func TestSplitLotMatchesOneWorker(t *testing.T) {
	for _, name := range []string{"Tree8,3", "Residential", "CrossTowers"} {
		g, axioms, opt := scenes[name].load(t, 0, 0)
		opt.Workers = 1
		one, err := g.Evaluate(axioms, opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.Workers = 5
		many, err := g.Evaluate(axioms, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(one, many) {
			t.Fatalf("%s: %d terminals with 5 workers differ from %d with one", name, len(many), len(one))
		}
		opt.MaxShapes = 5000
		if _, err := g.Evaluate(axioms, opt); name != "Residential" && !errors.Is(err, ErrLimit) {
			t.Fatalf("%s: split evaluation past MaxShapes: %v", name, err)
		}
	}
}
