package pga

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// The slabs the host cuts for the device are the CPU's: for every lot, the
// parts a SubDiv or a Repeat across its polygon gives on the CPU (along X
// and Y of a Quad, along X and Z of a prism, by constants and by the
// lot's attributes, in Repeat's modes) are the device table's, part by
// part (checkCutTable: child number, siblings, branch, seed, footprint,
// size and place), and some slab falls apart into parts.
func TestFootprintSlabTables(t *testing.T) {
	for _, c := range []struct {
		name, rule string
		kind       ShapeKind
	}{
		{"quad along X", "Lot = SubDiv(X) { 6: A | -1: B | 5: C };", Quad},
		{"quad along Y", "Lot = SubDiv(Y) { -1: A | 7: B | -2: C };", Quad},
		{"prism along Z", "Lot = SubDiv(Z) { 5: A | -1: B };", Box},
		{"prism along X, a branch of size 0", "Lot = SubDiv(X) { 10: A | 0: B | 3: C | -1: D };", Box},
		{"by attributes", "Lot = SubDiv(X) { LotAttr(floors, 1) * 3: A | -1: B | LotAttr(none, 4): C };", Quad},
		// Repeat's tiles go on down the chain (branch -1).
		{"tiles along X", "Lot = Repeat(X, 4) A;", Quad},
		{"tiles along Y, anchored to the start", "Lot = Repeat(Y, 5, ANCHOR_TO_START) A;", Quad},
		{"prism tiles along Z by attributes, anchored to the end", "Lot = Repeat(Z, LotAttr(floors, 2) * 2, ANCHOR_TO_END) A;", Box},
		{"tiles a quarter of the extent", "Lot = Repeat(X, -0.25) A;", Quad},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "axiom " + c.kind.String() + " Lot;\nterminal A (1, 0);\nterminal B (2, 1);\nterminal C (3, 2);\nterminal D (4, 3);\n" + c.rule
			pieces, parts := checkCutTable(t, src, c.kind, strings.Contains(c.rule, "Repeat"))
			if parts == 0 {
				t.Error("no slab fell apart into parts: the test does not reach the parts' seeds")
			}
			t.Logf("%d pieces (%d second or later parts)", pieces, parts)
		})
	}
}

// Slabs of drawn sizes (absolute and relative, some landing near the
// lots' corners and courtyards) and tiles of drawn sizes and modes, on
// Quads and prisms: the device table's pieces are still the CPU's.
func TestFootprintSlabTablesDrawn(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 7))
	axes := map[ShapeKind][]string{Quad: {"X", "Y"}, Box: {"X", "Z"}}
	modes := []string{"ADJUST_TO_FILL", "ANCHOR_TO_START", "ANCHOR_TO_END"}
	for i := range 12 {
		kind := []ShapeKind{Quad, Box}[i%2]
		axis := axes[kind][r.IntN(2)]
		var rule string
		if i%3 == 2 {
			rule = fmt.Sprintf("Lot = Repeat(%s, %.2f, %s) A;", axis, 1.5+8*r.Float64(), modes[r.IntN(3)])
		} else {
			var bs []string
			for b := range 2 + r.IntN(3) {
				w := 1 + 9*r.Float64()
				if r.IntN(3) == 0 {
					w = -0.5 - 2*r.Float64()
				}
				bs = append(bs, fmt.Sprintf("%.2f: %c", w, 'A'+b))
			}
			rule = fmt.Sprintf("Lot = SubDiv(%s) { %s };", axis, strings.Join(bs, " | "))
		}
		t.Run(rule, func(t *testing.T) {
			src := "axiom " + kind.String() + " Lot;\nterminal A (1, 0);\nterminal B (2, 1);\nterminal C (3, 2);\nterminal D (4, 3);\n" + rule
			pieces, parts := checkCutTable(t, src, kind, strings.Contains(rule, "Repeat"))
			t.Logf("%d pieces (%d second or later parts)", pieces, parts)
		})
	}
}
