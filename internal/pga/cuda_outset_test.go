//go:build cuda

package pga

import "testing"

// Offset with negative distances (outsets) on Quads and Boxes, mixed with
// insets drawn per lot, builds the CPU's terminals and mesh on the device.
func TestCUDAEquivalenceOutset(t *testing.T) {
	src := `axiom Quad Lot;
terminal Yard (1, 0);
terminal Walk (2, 1);
terminal Wall (3, 2);
terminal Kerb (4, 3);
Lot = Offset(-1.5) { Grown | Walk };
Grown = Offset(2 - 4 * ShapeSeed()) { Block | Yard };
Block = Extrude(6) Offset(-0.5 * ShapeSeed()) { Wall | Kerb };
`
	g, err := Parse("outset.pga", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	axioms := LotAxioms(g.Axioms[0].Kind, gridLots(t, 400, 11, 0, 0, 9, 30), 5, 0)
	runEquivalence(t, g, axioms, 0)
}
