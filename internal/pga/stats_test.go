package pga

import (
	"reflect"
	"testing"
)

// EvaluateStats counts what Evaluate keeps, on single lots split over the
// workers and on many lots, with phases and Generate() terminals.
func TestEvaluateStatsMatchesStats(t *testing.T) {
	for _, c := range []struct {
		name       string
		cols, rows int
	}{{"Tree8,3", 0, 0}, {"Residential", 0, 0}, {"CrossTowers", 0, 0}, {"Skyscrapers", 3, 2}, {"CityOverview", 8, 6}} {
		g, axioms, opt := scenes[c.name].load(t, c.cols, c.rows)
		ts, err := g.Evaluate(axioms, opt)
		if err != nil {
			t.Fatal(err)
		}
		want := g.Stats(ts)
		got, err := g.EvaluateStats(axioms, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: EvaluateStats %+v\nStats of Evaluate %+v", c.name, got, want)
		}
	}
	g := parseCorpus(t, "3d_tree_4_3.pga")
	if _, err := g.EvaluateStats([]Shape{NewAxiom(Box, Vec3{1, 1, 1}, 1)}, Options{MaxShapes: 100}); err == nil {
		t.Fatal("EvaluateStats past MaxShapes")
	}
}
