package pga

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomLot is a random star-shaped lot of n corners (with a hole when
// hole is set) as GeoJSON coordinates, metres, around (50, 50).
func randomLot(r *rand.Rand, n int, hole bool) string {
	ring := func(n int, lo, hi float64, cx, cy float64, cw bool) string {
		var b strings.Builder
		b.WriteString("[")
		pts := make([][2]float64, n)
		for i := range pts {
			a := (float64(i) + 0.1 + 0.8*r.Float64()) * 2 * math.Pi / float64(n)
			rad := lo + (hi-lo)*r.Float64()
			pts[i] = [2]float64{cx + rad*math.Cos(a), cy + rad*math.Sin(a)}
		}
		if cw {
			for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
				pts[i], pts[j] = pts[j], pts[i]
			}
		}
		for _, p := range append(pts, pts[0]) {
			fmt.Fprintf(&b, "[%.6f,%.6f],", p[0], p[1])
		}
		return strings.TrimSuffix(b.String(), ",") + "]"
	}
	s := "[" + ring(n, 12, 30, 50, 50, false)
	if hole {
		s += "," + ring(3+r.IntN(5), 2, 6, 51, 49, true)
	}
	return s + "]"
}

// Random concave lots, with and without a courtyard: hip roofs are closed
// solids with every slope at the angle; gable roofs are closed with slopes
// and vertical gables (ends that cannot take one stay hips), or refused
// where no end can; offsets and setbacks tile the lot.
func TestRandomPolygonRoofs(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 8))
	gables := 0
	for it := 0; it < 60; it++ {
		hole := it%3 == 2
		n := 5 + r.IntN(20)
		if hole {
			n = 10 + r.IntN(15)
		}
		coords := randomLot(r, n, hole)
		for _, kind := range []RoofKind{Hip, Gable} {
			src := fmt.Sprintf("axiom Quad Lot;\nterminal R (1, 0);\nLot = Roof(%s, 40) R;", kind)
			g, axioms := footprintAxioms(t, src, coords)
			ts, err := g.Evaluate(axioms, Options{Workers: 1})
			if err != nil {
				if kind == Gable && strings.Contains(err.Error(), "GABLE: no") {
					continue
				}
				t.Fatalf("it %d %s: %v\n%s", it, kind, err, coords)
			}
			if kind == Gable {
				gables++
			}
			sd := g.solid(&ts[0].Shape)
			if v := closedVolume(t, fmt.Sprintf("it %d %s", it, kind), sd.corners, sd.faces); v <= 0 {
				t.Fatalf("it %d %s: volume %g", it, kind, v)
			}
			for _, f := range sd.faces {
				up := newell(sd.corners, f)[2]
				if up > -0.999 && math.Abs(up-math.Cos(40*math.Pi/180)) > 1e-6 && (kind == Hip || math.Abs(up) > 1e-6) {
					t.Fatalf("it %d %s: a face with normal z %g", it, kind, up)
				}
			}
		}
		for _, op := range []string{"Offset(3) { A | B }", "Setback(4) { A | B }"} {
			g, axioms := footprintAxioms(t, "axiom Quad Lot;\nterminal A (1, 0);\nterminal B (2, 0);\nLot = "+op+";", coords)
			ts, err := g.Evaluate(axioms, Options{Workers: 1})
			if err != nil {
				t.Fatalf("it %d %s: %v", it, op, err)
			}
			sum := 0.0
			for i := range ts {
				c, f, _ := g.worldSolid(&ts[i].Shape)
				sum += faceArea(c, f)
			}
			whole := 0.0
			for i := range axioms {
				c, f, _ := g.worldSolid(&axioms[i])
				whole += faceArea(c, f)
			}
			if math.Abs(sum-whole) > 1e-6*whole {
				t.Fatalf("it %d %s: pieces %g m², lot %g m²", it, op, sum, whole)
			}
		}
	}
	t.Logf("%d of 60 random lots took a gable roof", gables)
	if gables == 0 {
		t.Error("no random lot took a gable roof")
	}
}
