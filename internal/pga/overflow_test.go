package pga

import (
	"reflect"
	"strings"
	"testing"
)

// A building that stays on its lot is not reported; one that reaches out
// is, by how far; the warning names the lot.
func TestOverflows(t *testing.T) {
	src := "axiom Quad A;\nterminal T (1,0);\nA = Extrude(3) Translate(0, ShapeSize(Y) / 2, 0) Translate(ShapeSize(X) * ShapeCustomAttribute(), 0, 0) T;"
	g, err := Parse("o.pga", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	lots := []Lot{
		{Index: 0, Polygon: [][2]float64{{0, 0}, {10, 0}, {10, 8}, {0, 8}}},
		{Index: 1, ID: "b", Polygon: [][2]float64{{20, 0}, {30, 0}, {30, 8}, {20, 8}}},
		{Index: 2, Polygon: [][2]float64{{40, 8}, {50, 8}, {50, 0}, {40, 0}}}, // clockwise
	}
	axioms := LotAxioms(Quad, lots, 1, 10)
	shift := []float64{0, 0.25, -0.5} // of the lot's width, along its first edge
	for i := range axioms {
		axioms[i].Attr = shift[i]
	}
	ts, err := g.Evaluate(axioms, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ov := g.Overflows(ts, lots, 0.01)
	if len(ov) != 2 || ov[0].Lot != 1 || !near(ov[0].Outside, 2.5) || ov[1].Lot != 2 || !near(ov[1].Outside, 5) {
		t.Fatalf("overflows %+v, want lot 1 by 2.5 m and lot 2 by 5 m", ov)
	}
	// Counting without keeping the terminals measures the same.
	st, ov2, err := g.EvaluateStatsLots(axioms, Options{}, lots, 0.01)
	if err != nil || st.Terminals != len(ts) || !reflect.DeepEqual(ov2, ov) {
		t.Fatalf("EvaluateStatsLots: %d terminals, overflows %+v, %v; want %d, %+v", st.Terminals, ov2, err, len(ts), ov)
	}
	if _, ov3, _ := g.EvaluateStatsLots(axioms, Options{}, nil, 0.01); ov3 != nil {
		t.Fatalf("EvaluateStatsLots without lots measured %+v", ov3)
	}
	w := OverflowWarning(ov, lots)
	if !strings.Contains(w, `2 of 3 buildings`) || !strings.Contains(w, `lot 2 by 5.0 m, lot 1 (id "b") by 2.5 m`) {
		t.Fatalf("warning %q", w)
	}
	if OverflowWarning(nil, lots) != "" {
		t.Fatal("a warning without overflows")
	}
}
