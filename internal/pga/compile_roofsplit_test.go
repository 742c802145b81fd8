package pga

import (
	"errors"
	"strings"
	"testing"
)

// A CompSplit that a roof may reach, in its own rule, through a successor
// or a block's branch, keeps the grammar on the CPU; a roof on the top face
// of a CompSplit mass does not.
func TestRoofSplitAt(t *testing.T) {
	const head = "axiom Quad Lot;\nterminal T (1, 0);\n"
	for _, c := range []struct {
		body, at string
	}{
		{"Lot = Roof(GABLE, 30) CompSplit() { T | T | T };", "g.pga:3:23"},
		{"Lot = Roof(HIP, 30) Top;\nTop = Translate(0, 1, 0) Split;\nSplit = CompSplit() { T | T | T };", "g.pga:5:9"},
		{"Lot = Roof(HIP, 30) SubDiv(X) { 1: Split | 1: T };\nSplit = CompSplit() { T | T | T };", "g.pga:4:9"},
		{"Lot = Extrude(9) CompSplit() { Top | T | T };\nTop = Roof(HIP, 30) T;", ""},
		{"Lot = Extrude(9) CompSplit() { Top | T | Lot2 };\nTop = Roof(HIP, 30) T;\nLot2 = Extrude(1) CompSplit() { T | T | T };", ""},
	} {
		g, err := Parse("g.pga", []byte(head+c.body))
		if err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		if got := roofSplitAt(g); got != c.at {
			t.Errorf("%s: roofSplitAt = %q, want %q", c.body, got, c.at)
		}
		_, err = compileGrammar(g)
		var ue *UnsupportedError
		if isUE := errors.As(err, &ue); isUE != (c.at != "") || (isUE && !strings.Contains(err.Error(), "CompSplit of a roof not on a lot's own polygon (at "+c.at)) {
			t.Errorf("%s: compile: %v", c.body, err)
		}
	}
}

// On lots that stand on their own polygons the device splits the roofs
// the host built there; a roof over a wall of the mass, or over a SetAs
// prism, or any roof where some lot is a rectangle, still keeps the
// grammar on the CPU.
func TestRoofSplitAtFootprints(t *testing.T) {
	const head = "axiom Quad Lot;\nterminal T (1, 0);\n"
	for _, c := range []struct {
		body, at string
		rect     bool
	}{
		{"Lot = Roof(GABLE, 30) CompSplit() { T | T | T };", "", false},
		{"Lot = Roof(GABLE, 30) CompSplit() { T | T | T };", "f.pga:3:23", true},
		{"Lot = Extrude(9) CompSplit() { Top | T | T };\nTop = Roof(HIP, 30) CompSplit() { T | T | T };", "", false},
		{"Lot = Extrude(9) CompSplit() { T | T | Wall };\nWall = Roof(HIP, 30) CompSplit() { T | T | T };", "f.pga:4:22", false},
		{"Lot = Extrude(9) Roof(HIP, 30) CompSplit() { T | T | T };", "f.pga:3:32", false},
	} {
		coords := footprintLots[0].coords
		if c.rect {
			coords = `[[[0,0],[30,0],[30,12],[0,12],[0,0]]]`
		}
		g, _ := footprintAxioms(t, head+c.body, coords)
		if got := roofSplitAt(g); got != c.at {
			t.Errorf("%s (rectangle %v): roofSplitAt = %q, want %q", c.body, c.rect, got, c.at)
		}
	}
}
