package pga

import (
	"fmt"
	"math"
	"testing"
)

// faceArea is the area of a solid's faces (a Quad's: its polygon's).
func faceArea(corners []Vec3, faces [][]int) float64 {
	a := 0.0
	for _, f := range faces {
		for i := 1; i+1 < len(f); i++ {
			p, q, r := corners[f[0]], corners[f[i]], corners[f[i+1]]
			c := crossV(Vec3{q[0] - p[0], q[1] - p[1], q[2] - p[2]}, Vec3{r[0] - p[0], r[1] - p[1], r[2] - p[2]})
			a += math.Sqrt(dot(c, c)) / 2
		}
	}
	return a
}

// offsetLot runs Offset(d) { In | B } on the lot's polygon (GeoJSON
// rings) as a Quad, or on its 9 m prism, on one worker, and returns each
// terminal's area on the ground (a prism piece's volume over its height).
func offsetLot(t *testing.T, coords string, kind ShapeKind, d float64) (*Grammar, []Shape, []TerminalShape, []float64) {
	t.Helper()
	op := fmt.Sprintf("Offset(%g) { In | B }", d)
	if kind == Box {
		op = "Extrude(9) " + op
	}
	g, axioms := footprintAxioms(t, "axiom Quad Lot;\nterminal In (1, 0);\nterminal B (2, 0);\nLot = "+op+";", coords)
	ts, err := g.Evaluate(axioms, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	areas := make([]float64, len(ts))
	for i := range ts {
		corners, faces, _ := g.worldSolid(&ts[i].Shape)
		if kind == Quad {
			areas[i] = faceArea(corners, faces)
		} else {
			areas[i] = closedVolume(t, "piece", corners, faces) / 9
		}
	}
	return g, axioms, ts, areas
}

// Offset on the concave and holed lots: the inside and the border strips
// tile the lot (their areas add up to its area), the inside has the area of
// the mitred inset, prisms offset into prisms of the same volume, and the
// same grammar gives the same pieces on any number of workers.
func TestPolygonOffset(t *testing.T) {
	for _, c := range []struct {
		lot    int
		d      float64
		inside int
		area   float64 // of the inside
	}{
		{0, 2, 1, 26*8 + 8*18},
		{1, 2, 1, 26*26 - 18*18},
		{1, 4.5, 0, 0},
		{3, 2, 1, 20*4 + 2*4*16},
	} {
		lot := footprintLots[c.lot]
		for _, kind := range []ShapeKind{Quad, Box} {
			g, axioms, ts, areas := offsetLot(t, lot.coords, kind, c.d)
			in, total, inArea := 0, 0.0, 0.0
			for i, a := range areas {
				total += a
				if g.TermName(&ts[i]) == "In" {
					in++
					inArea += a
				}
			}
			if in != c.inside || math.Abs(inArea-c.area) > 1e-6 || math.Abs(total-lot.area) > 1e-6 {
				t.Errorf("lot %d %v d %g: %d inside of %g m², all %g m²; want %d of %g, all %g", c.lot, kind, c.d, in, inArea, total, c.inside, c.area, lot.area)
			}
			ts4, err := g.Evaluate(axioms, Options{Workers: 4})
			if err != nil {
				t.Fatal(err)
			}
			if len(ts4) != len(ts) {
				t.Fatalf("4 workers: %d terminals, 1 worker %d", len(ts4), len(ts))
			}
			for i := range ts {
				if ts4[i].Shape != ts[i].Shape {
					t.Fatalf("terminal %d differs on 4 workers", i)
				}
			}
		}
	}
}

func footprintAxioms(t *testing.T, src, coords string) (*Grammar, []Shape) {
	t.Helper()
	g, err := Parse("f.pga", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	lots, err := ParseLots("f.geojson", collection(polygon(`1`, `{}`, coords)))
	if err != nil {
		t.Fatal(err)
	}
	axioms, err := g.LotAxioms(Quad, lots, 1, 9)
	if err != nil {
		t.Fatal(err)
	}
	return g, axioms
}

// Setback on the concave and holed lots cuts a strip d deep off the edges
// facing the street (the lot frame's -Y, Extrude's +Z) and leaves the rest:
// the pieces tile the lot, on a Quad and on a prism alike.
func TestPolygonSetback(t *testing.T) {
	for i, lot := range footprintLots {
		for _, op := range []string{"Setback(2) { F | R }", "Extrude(9) Setback(2) { F | R }"} {
			g, axioms := footprintAxioms(t, "axiom Quad Lot;\nterminal F (1, 0);\nterminal R (2, 0);\nLot = "+op+";", lot.coords)
			ts, err := g.Evaluate(axioms, Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			areas := map[string]float64{}
			for k := range ts {
				corners, faces, _ := g.worldSolid(&ts[k].Shape)
				if ts[k].Kind == Quad {
					areas[g.TermName(&ts[k])] += faceArea(corners, faces)
				} else {
					areas[g.TermName(&ts[k])] += closedVolume(t, "piece", corners, faces) / 9
				}
			}
			// Every lot here has a 30 m or 24 m street edge and no other
			// edge facing the street.
			street := map[int]float64{0: 30, 1: 30, 2: 30, 3: 24}[i]
			if math.Abs(areas["F"]-2*street) > 1e-6 || math.Abs(areas["F"]+areas["R"]-lot.area) > 1e-5 {
				t.Errorf("lot %d %s: front %g m², rest %g m²; want %g and %g", i, op, areas["F"], areas["R"], 2*street, lot.area-2*street)
			}
		}
	}
}
