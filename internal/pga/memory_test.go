package pga

import (
	"errors"
	"testing"
)

// TestEstimateMemory checks the sample's scaling on a grammar whose counts
// are known: every lot makes its rule application and one terminal.
func TestEstimateMemory(t *testing.T) {
	g, err := Parse("m.pga", []byte("axiom Box Lot;\nterminal Mass (1, 0);\nLot = Mass;\n"))
	if err != nil {
		t.Fatal(err)
	}
	lots, err := Grid{Cols: 20, Rows: 10, Seed: 1, LotWidth: 20, LotDepth: 30, Street: 12}.Lots()
	if err != nil {
		t.Fatal(err)
	}
	axioms := LotAxioms(Box, lots, 1, 10)
	stats, err := g.EstimateMemory(axioms, Options{}, MemoryOutputs{})
	if err != nil {
		t.Fatal(err)
	}
	glb, err := g.EstimateMemory(axioms, Options{}, MemoryOutputs{GLB: true})
	if err != nil {
		t.Fatal(err)
	}
	obj, err := g.EstimateMemory(axioms, Options{}, MemoryOutputs{OBJ: true})
	if err != nil {
		t.Fatal(err)
	}
	if glb.Terminals != 200 || glb.Shapes != 400 || glb.Lots != 200 {
		t.Errorf("200 lots of one terminal: estimated %+v", glb)
	}
	// Statistics keep nothing per terminal: only the lots.
	if stats.Bytes != LotsMemory(200) {
		t.Errorf("statistics only: %.0f bytes, want the lots' %.0f", stats.Bytes, LotsMemory(200))
	}
	// A box's GLB mesh (24 corners, 12 triangles: 720 bytes) and OBJ text
	// (8 corners, 6 normals, 6 faces: hundreds of bytes) come on top of a
	// terminal's 224 bytes.
	for _, fp := range []Footprint{glb, obj} {
		if per := (fp.Bytes - stats.Bytes) / 200; per < 720 || per > 8000 {
			t.Errorf("%.0f bytes a terminal kept and written, want 720..8000", per)
		}
	}
	// Statistics only on a city no larger than the sample: the lots'
	// bytes, no sample evaluated (the run's own evaluation checks the
	// shapes); with geometry kept, the sample is evaluated.
	few := axioms[:memorySample]
	if fp, err := g.EstimateMemory(few, Options{}, MemoryOutputs{}); err != nil || fp.Sampled || fp.Bytes != LotsMemory(len(few)) {
		t.Errorf("statistics of %d lots: %+v, %v; want the lots' bytes, not sampled", len(few), fp, err)
	}
	if fp, err := g.EstimateMemory(few, Options{}, MemoryOutputs{OBJ: true}); err != nil || !fp.Sampled || fp.Terminals != float64(len(few)) {
		t.Errorf("OBJ of %d lots: %+v, %v; want %d terminals sampled", len(few), fp, err, len(few))
	}
	if !stats.Sampled || stats.Shapes != 400 {
		t.Errorf("statistics of 200 lots: %+v, want 400 shapes sampled", stats)
	}
	// A sample that runs into a limit says so.
	if _, err := g.EstimateMemory(axioms, Options{MaxShapes: 1}, MemoryOutputs{GLB: true}); !errors.Is(err, ErrLimit) {
		t.Errorf("MaxShapes 1: %v, want ErrLimit", err)
	}
}

// TestNonFiniteTerminal: NaN or infinite geometry fails at the terminal,
// naming the rule, whether terminals are kept or counted.
func TestNonFiniteTerminal(t *testing.T) {
	for _, src := range []string{
		"axiom Box Lot;\nterminal Mass (1, 0);\nLot = Scale(0/0, 1, 1) Mass;\n",
		"axiom Box Lot;\nterminal Mass (1, 0);\nLot = Translate(1/0, 0, 0) Mass;\n",
	} {
		g, err := Parse("n.pga", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		ax := []Shape{NewAxiom(Box, Vec3{10, 10, 10}, 1)}
		if _, err := g.Evaluate(ax, Options{}); !errors.Is(err, ErrNonFinite) {
			t.Errorf("%q: Evaluate: %v, want ErrNonFinite", src, err)
		}
		if _, err := g.EvaluateStats(ax, Options{}); !errors.Is(err, ErrNonFinite) {
			t.Errorf("%q: EvaluateStats: %v, want ErrNonFinite", src, err)
		}
	}
}
