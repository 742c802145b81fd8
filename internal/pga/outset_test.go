package pga

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/pga/skeleton"
)

// Offset(-e) on a rectangle grows it by e on every side: the grown
// rectangle to the first branch, the strips front (-Y), right, back, left
// to the second, front and back across the corners.
func TestOffsetOutsetRectangle(t *testing.T) {
	src := "axiom Quad A;\nterminal I B (1,0);\nA = Offset(-1.5) { I | B };"
	g, ts := evalSrc(t, src, []Shape{NewAxiom(Quad, Vec3{10, 6, 0}, 1)}, Options{})
	in, border := byNameOf(g, ts, "I"), byNameOf(g, ts, "B")
	if len(in) != 1 || !near(in[0].Size[0], 13) || !near(in[0].Size[1], 9) || !near(pos(in[0])[0], 0) || !near(pos(in[0])[1], 0) {
		t.Fatalf("grown %+v, want one 13 x 9 at the centre", in)
	}
	want := []struct{ w, h, x, y float64 }{{13, 1.5, 0, -3.75}, {1.5, 6, 5.75, 0}, {13, 1.5, 0, 3.75}, {1.5, 6, -5.75, 0}}
	if len(border) != len(want) {
		t.Fatalf("%d border strips, want %d", len(border), len(want))
	}
	area := 60.0
	for i, w := range want {
		b := border[i]
		if !near(b.Size[0], w.w) || !near(b.Size[1], w.h) || !near(pos(b)[0], w.x) || !near(pos(b)[1], w.y) || b.Index != int32(i+1) || b.Siblings != 5 {
			t.Errorf("strip %d: %v at %v (child %d of %d), want %gx%g at (%g, %g), child %d of 5", i, b.Size, pos(b), b.Index, b.Siblings, w.w, w.h, w.x, w.y, i+1)
		}
		area += b.Size[0] * b.Size[1]
	}
	if !near(area, 13*9) {
		t.Errorf("the rectangle and its strips cover %g m², want %g", area, 13.0*9)
	}
	// 0 and -Inf leave the shape as it is; NaN too.
	for _, d := range []string{"0", "-1 / 0", "0 / 0"} {
		g, ts := evalSrc(t, "axiom Quad A;\nterminal I B (1,0);\nA = Offset("+d+") { I | B };", []Shape{NewAxiom(Quad, Vec3{10, 6, 0}, 1)}, Options{})
		if in := byNameOf(g, ts, "I"); len(ts) != 1 || len(in) != 1 || !near(in[0].Size[0], 10) {
			t.Errorf("Offset(%s): %+v, want the shape as it is", d, ts)
		}
	}
}

// Offset(-e) on the concave and holed lots: the grown pieces have the area
// of skeleton.Offset(-e)'s polygons, every edge has a strip outside the
// lot, and the lot and the strips tile the grown polygon, on Quads and
// prisms alike.
func TestPolygonOutset(t *testing.T) {
	for _, c := range []struct {
		lot int
		e   float64
	}{{0, 2}, {1, 2}, {1, 8}, {3, 2}, {3, 5}} {
		lot := footprintLots[c.lot]
		for _, kind := range []ShapeKind{Quad, Box} {
			g, _, ts, areas := offsetLot(t, lot.coords, kind, -c.e)
			var inArea, borderArea float64
			strips := 0
			for i, a := range areas {
				if g.TermName(&ts[i]) == "In" {
					inArea += a
				} else {
					borderArea += a
					strips++
				}
			}
			want := grownArea(t, lot.coords, c.e)
			if math.Abs(inArea-want) > 1e-6 || math.Abs(lot.area+borderArea-want) > 1e-6 || strips != lot.edges {
				t.Errorf("lot %d %v e %g: grown %g m², lot and %d strips %g m²; want %g and %d strips",
					c.lot, kind, c.e, inArea, strips, lot.area+borderArea, want, lot.edges)
			}
		}
	}
}

// grownArea is the area of the lot's polygon (GeoJSON rings) grown by e.
func grownArea(t *testing.T, coords string, e float64) float64 {
	t.Helper()
	lots, err := ParseLots("f.geojson", collection(polygon(`1`, `{}`, coords)))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := skeleton.Offset(lots[0].Polygon, lots[0].Holes, -e)
	if err != nil {
		t.Fatal(err)
	}
	a := 0.0 // twice the area
	for _, p := range ps {
		a += ringArea(p.Outer)
		for _, h := range p.Holes {
			a += ringArea(h)
		}
	}
	return a / 2
}
