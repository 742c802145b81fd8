//go:build cuda

package pga

import "testing"

// rectRoofFaces splits GABLE, SHED and PYRAMID roofs over rectangles of
// several proportions (ridges along X and, swapped, along Y), on lots and
// on the walls of a mass; a face is extruded into a slab and split again.
const rectRoofFaces = `axiom Quad Lot;
terminal Slope (1, 0);
terminal Side (2, 1);
terminal Under (3, 2);
terminal Tile (4, 3);
Lot = SubDiv(X) { 6: Gab | 9: Shd | -1: Pyr };
Gab = SubDiv(Y) { 4: Roof(GABLE, 35) Split | -1: Roof(GABLE, 20) Split };
Shd = Roof(SHED, 15) Split;
Pyr = Extrude(6) CompSplit() { Roof(PYRAMID, 40) Split | Discard() | Roof(GABLE, 30) Split };
Split = CompSplit() { Face | Under | Side };
Face = SetupProjection(XY, 2, 2) ProjectUV() Extrude(0.1) CompSplit() { Slope | Under | Tile };`

// The device splits roofs over rectangles as the CPU does: the same
// terminals (kinds, seeds, frames, sizes, profiles) and the same mesh.
func TestCUDARectRoofSplit(t *testing.T) {
	g, err := Parse("rect.pga", []byte(rectRoofFaces))
	if err != nil {
		t.Fatal(err)
	}
	lots := gridLots(t, 40, 7, 0, 0, 6, 20)
	axioms, err := g.LotAxioms(Quad, lots, 3, 9)
	if err != nil {
		t.Fatal(err)
	}
	p, err := compileGrammar(g)
	if err != nil {
		t.Fatal(err)
	}
	if p.rectFaces < 0 {
		t.Fatal("no faces of roofs over rectangles laid out")
	}
	runEquivalenceOpt(t, g, axioms, Options{}, 0)
	sameArea(t, g, axioms, Options{})
}
