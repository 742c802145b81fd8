package pga

import (
	"fmt"
	"math"
	"testing"
)

// CompSplit of a roof on a lot's own polygon, or on a rectangle, gives its
// slopes (top), its underside (bottom) and its gables and walls (side) as
// Quads: together they close up into the roof's solid (every edge, by
// position, run once each way, the volume the roof's), slopes face up,
// sides stand vertical and the underside faces down.
func TestRoofSplit(t *testing.T) {
	// Lots 4 and 5 are a rectangle and a square: they stand on their
	// rectangle, whose roof (roofSolid) CompSplit cuts the same way.
	lots := []string{footprintLots[0].coords, footprintLots[1].coords, footprintLots[2].coords, footprintLots[3].coords,
		`[[[0,0],[30,0],[30,12],[0,12],[0,0]]]`, `[[[0,0],[16,0],[16,16],[0,16],[0,0]]]`}
	for _, c := range []struct {
		lot     int
		kind    RoofKind
		t, s, b int
	}{
		{0, Hip, 6, 0, 1},
		{0, Gable, 4, 2, 1},
		{0, Shed, 1, 5, 1}, // the L's shed rises from its front: walls on all but that edge
		{1, Hip, 8, 0, 1},
		{1, Shed, 1, 7, 1},
		{3, Gable, 6, 2, 1},
		{3, Hip, 8, 0, 1},
		{4, Gable, 2, 2, 1},
		{4, Hip, 4, 0, 1},
		{4, Shed, 1, 3, 1},
		{4, Pyramid, 4, 0, 1},
		{5, Hip, 4, 0, 1}, // a square's hip roof is a pyramid
		{5, Gable, 2, 2, 1},
	} {
		coords := lots[c.lot]
		name := fmt.Sprintf("lot %d %s", c.lot, c.kind)
		src := fmt.Sprintf("axiom Quad Lot;\nterminal T (1, 0);\nterminal B (2, 0);\nterminal S (3, 0);\nLot = Roof(%s, 30) Split;\nSplit = CompSplit() { T | B | S };", c.kind)
		g, axioms := footprintAxioms(t, src, coords)
		ts, err := g.Evaluate(axioms, Options{Workers: 1})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		count := map[string]int{}
		var corners []Vec3
		var faces [][]int
		for i := range ts {
			k := g.TermName(&ts[i])
			count[k]++
			cs, fs, ns := g.worldSolid(&ts[i].Shape)
			for j, f := range fs {
				q := make([]int, len(f))
				for m, v := range f {
					q[m] = len(corners) + v
				}
				faces = append(faces, q)
				up := ns[j][1] // world Y is up on a lot
				switch {
				case k == "T" && up <= 0, k == "B" && up > -0.999, k == "S" && math.Abs(up) > 1e-9:
					t.Fatalf("%s: a %s face with normal %v", name, k, ns[j])
				}
			}
			corners = append(corners, cs...)
		}
		if count["T"] != c.t || count["S"] != c.s || count["B"] != c.b {
			t.Fatalf("%s: %v, want T %d S %d B %d", name, count, c.t, c.s, c.b)
		}
		// weld corners by position so the pieces' shared edges meet
		key := map[[3]int64]int{}
		for i, p := range corners {
			k := [3]int64{int64(math.Round(p[0] * 1e6)), int64(math.Round(p[1] * 1e6)), int64(math.Round(p[2] * 1e6))}
			if j, ok := key[k]; ok {
				corners[i] = corners[j]
				for _, f := range faces {
					for m := range f {
						if f[m] == i {
							f[m] = j
						}
					}
				}
			} else {
				key[k] = i
			}
		}
		vol := closedVolume(t, name, corners, faces)
		g2, axioms2 := footprintAxioms(t, fmt.Sprintf("axiom Quad Lot;\nterminal R (4, 0);\nLot = Roof(%s, 30) R;", c.kind), coords)
		ts2, err := g2.Evaluate(axioms2, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		c2, f2, _ := g2.worldSolid(&ts2[0].Shape)
		if want := closedVolume(t, name+" whole", c2, f2); math.Abs(vol-want) > 1e-6*want {
			t.Fatalf("%s: pieces enclose %g m³, the roof %g", name, vol, want)
		}
	}
}
