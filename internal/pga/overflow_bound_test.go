package pga

import (
	"math"
	"math/rand"
	"testing"
)

// TestOutsideBoundAgreesWithCorners: outside's shortcut (a box, quad or
// roof within its half-diagonal of its centre) never changes whether a
// terminal reaches more than tol outside its lot, nor by how much when it
// does: random boxes, quads and roofs, turned and placed about a
// pentagonal lot, against the corner-by-corner distance (tol -Inf).
func TestOutsideBoundAgreesWithCorners(t *testing.T) {
	g := &Grammar{}
	lots := []Lot{{Polygon: [][2]float64{{0, 0}, {20, 0}, {24, 12}, {10, 20}, {-4, 12}}}}
	edges := lotEdges(lots)
	rng := rand.New(rand.NewSource(3))
	shortcuts := 0
	for i := 0; i < 20000; i++ {
		s := TerminalShape{}
		s.Kind = []ShapeKind{Box, Quad}[rng.Intn(2)]
		if rng.Intn(4) == 0 {
			s.Kind, s.Roof = Box, RoofKind(1+rng.Intn(4))
		}
		s.Size = Vec3{rng.Float64() * 8, rng.Float64() * 8, rng.Float64() * 8}
		s.Transform = Translation(Vec3{rng.Float64()*40 - 10, rng.Float64() * 5, -(rng.Float64()*40 - 10)}).Mul(
			Rotation(rng.Float64()*360, rng.Float64()*360, rng.Float64()*360))
		exact := g.outside(&s, edges, math.Inf(-1))
		for _, tol := range []float64{0, 0.5, 3} {
			got := g.outside(&s, edges, tol)
			if (got > tol) != (exact > tol) || (got > tol && got != exact) {
				t.Fatalf("shape %d %+v, tol %g: outside %g, corner by corner %g", i, s.Shape, tol, got, exact)
			}
			if got != exact {
				shortcuts++
			}
		}
	}
	if shortcuts == 0 {
		t.Fatal("the shortcut never applied")
	}
}
