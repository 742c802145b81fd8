package pga

import (
	"os"
	"path/filepath"
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
