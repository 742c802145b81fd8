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
		rect     bool
	}{
		{"Lot = Roof(GABLE, 30) CompSplit() { T | T | T };", "", true},
		{"Lot = Roof(SHED, 20) CompSplit() { T | T | T };", "", true},
		{"Lot = Extrude(9) CompSplit() { T | T | Wall };\nWall = Roof(PYRAMID, 30) CompSplit() { T | T | T };", "", true},
		{"Lot = Roof(HIP, 30) CompSplit() { T | T | T };", "g.pga:3:21", false},
		{"Lot = Roof(HIP, 30) Top;\nTop = Translate(0, 1, 0) Split;\nSplit = CompSplit() { T | T | T };", "g.pga:5:9", false},
		{"Lot = Roof(HIP, 30) SubDiv(X) { 1: Split | 1: T };\nSplit = CompSplit() { T | T | T };", "g.pga:4:9", false},
		{"Lot = Roof(GABLE, 30) Roof(SHED, 20) CompSplit() { T | T | T };", "g.pga:3:38", false},
		{"Lot = Extrude(9) CompSplit() { Top | T | T };\nTop = Roof(HIP, 30) T;", "", false},
		{"Lot = Extrude(9) CompSplit() { Top | T | Lot2 };\nTop = Roof(HIP, 30) T;\nLot2 = Extrude(1) CompSplit() { T | T | T };", "", false},
	} {
		g, err := Parse("g.pga", []byte(head+c.body))
		if err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		if at, rect := roofSplitAt(g); at != c.at || at == "" && rect != c.rect {
			t.Errorf("%s: roofSplitAt = %q, %v, want %q, %v", c.body, at, rect, c.at, c.rect)
		}
		p, err := compileGrammar(g)
		var ue *UnsupportedError
		if isUE := errors.As(err, &ue); isUE != (c.at != "") || (isUE && !strings.Contains(err.Error(), "(at "+c.at+":")) {
			t.Errorf("%s: compile: %v", c.body, err)
		}
		if err == nil && (p.rectFaces >= 0) != c.rect {
			t.Errorf("%s: rect faces laid out at %d", c.body, p.rectFaces)
		}
	}
}

// On lots that stand on their own polygons the device splits the roofs
// the host built there; a HIP roof over a wall of the mass, over a Box, or
// over a lot that is a rectangle keeps the grammar on the CPU, a GABLE
// roof there does not.
func TestRoofSplitAtFootprints(t *testing.T) {
	const head = "axiom Quad Lot;\nterminal T (1, 0);\n"
	for _, c := range []struct {
		body, at string
		rect     bool
	}{
		{"Lot = Roof(GABLE, 30) CompSplit() { T | T | T };", "", false},
		{"Lot = Roof(GABLE, 30) CompSplit() { T | T | T };", "", true},
		{"Lot = Roof(HIP, 30) CompSplit() { T | T | T };", "f.pga:3:21", true},
		{"Lot = Extrude(9) CompSplit() { Top | T | T };\nTop = Roof(HIP, 30) CompSplit() { T | T | T };", "", false},
		{"Lot = Extrude(9) CompSplit() { T | T | Wall };\nWall = Roof(HIP, 30) CompSplit() { T | T | T };", "f.pga:4:22", false},
		{"Lot = Extrude(9) CompSplit() { T | T | Wall };\nWall = Roof(GABLE, 30) CompSplit() { T | T | T };", "", false},
		{"Lot = Extrude(9) Roof(HIP, 30) CompSplit() { T | T | T };", "f.pga:3:32", false},
	} {
		coords := footprintLots[0].coords
		if c.rect {
			coords = `[[[0,0],[30,0],[30,12],[0,12],[0,0]]]`
		}
		g, _ := footprintAxioms(t, head+c.body, coords)
		if got, _ := roofSplitAt(g); got != c.at {
			t.Errorf("%s (rectangle %v): roofSplitAt = %q, want %q", c.body, c.rect, got, c.at)
		}
	}
}
