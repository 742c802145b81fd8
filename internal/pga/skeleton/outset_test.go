package skeleton

import (
	"math"
	"testing"
)

// Outset's grown polygon is Offset(-d)'s, and its strips lie outside the
// polygon edge by edge and tile the grown polygon with it.
func TestOutset(t *testing.T) {
	rect := [][2]float64{{0, 0}, {10, 0}, {10, 4}, {0, 4}}
	l := [][2]float64{{0, 0}, {10, 0}, {10, 4}, {4, 4}, {4, 10}, {0, 10}}
	u := [][2]float64{{0, 0}, {10, 0}, {10, 10}, {7, 10}, {7, 3}, {3, 3}, {3, 10}, {0, 10}}
	outer := [][2]float64{{0, 0}, {12, 0}, {12, 10}, {0, 10}}
	cee := [][2]float64{{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 6}, {2, 6}, {2, 8}, {8, 8}, {8, 2}, {2, 2}, {2, 4}, {0, 4}}
	hole := [][][2]float64{{{4, 4}, {4, 6}, {8, 6}, {8, 4}}} // clockwise
	for _, c := range []struct {
		name          string
		outer         [][2]float64
		holes         [][][2]float64
		d             float64
		pieces, holeN int
		area          float64
		strips        int // edges with a strip
	}{
		{"rect", rect, nil, 1, 1, 0, 12 * 6, 4},
		{"L", l, nil, 1, 1, 0, 12*6 + 6*6, 6},
		// The U's arms grow together across its 4 m slot and fill it
		// (its area is Offset's).
		{"U fills", u, nil, 3, 1, 0, 0, 8},
		// A C whose 2 m mouth closes at 1 m keeps a hole of its cavity.
		{"C closes", cee, nil, 1.5, 1, 1, 0, 12},
		{"hole shrinks", outer, hole, 0.5, 1, 1, 13*11 - 3*1, 8},
		// A hole 2 m wide closes at 1 m: its long edges' strips meet, its
		// short edges' are triangles.
		{"hole closes", outer, hole, 1.5, 1, 0, 15 * 13, 8},
	} {
		ps, strips, err := Outset(c.outer, c.holes, c.d)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		h := 0
		for _, p := range ps {
			h += len(p.Holes)
		}
		ref, err := Offset(c.outer, c.holes, -c.d)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(polysArea(ps)-polysArea(ref)) > 1e-9 {
			t.Errorf("%s: grown area %g, Offset's %g", c.name, polysArea(ps), polysArea(ref))
		}
		if len(ps) != c.pieces || h != c.holeN || c.area > 0 && math.Abs(polysArea(ps)-c.area) > 1e-9 {
			t.Errorf("%s: %d pieces, %d holes, area %g; want %d, %d, %g", c.name, len(ps), h, polysArea(ps), c.pieces, c.holeN, c.area)
		}
		orig := area(orient(c.outer, true))
		for _, r := range c.holes {
			orig += area(orient(r, false))
		}
		sum, n := orig, 0
		rings := append([][][2]float64{orient(c.outer, true)}, c.holes...)
		for e, st := range strips {
			if st == nil {
				continue
			}
			n++
			sum += area(st)
			// The strip holds its edge: both end points are its corners.
			a, b := edgeEnds(rings, e)
			if !hasCorner(st, a) || !hasCorner(st, b) {
				t.Errorf("%s: strip %d %v does not hold edge %v-%v", c.name, e, st, a, b)
			}
		}
		if n != c.strips || math.Abs(sum-polysArea(ps)) > 1e-9 {
			t.Errorf("%s: %d strips; polygon and strips cover %g of the grown %g", c.name, n, sum, polysArea(ps))
		}
	}
}

// edgeEnds is edge e's end points, edges numbered ring after ring.
func edgeEnds(rings [][][2]float64, e int) ([2]float64, [2]float64) {
	for _, r := range rings {
		if e < len(r) {
			return r[e], r[(e+1)%len(r)]
		}
		e -= len(r)
	}
	panic("no such edge")
}

func hasCorner(ring [][2]float64, p [2]float64) bool {
	for _, q := range ring {
		if math.Hypot(q[0]-p[0], q[1]-p[1]) < 1e-9 {
			return true
		}
	}
	return false
}

func TestOutsetRefusesBadDistances(t *testing.T) {
	rect := [][2]float64{{0, 0}, {10, 0}, {10, 4}, {0, 4}}
	for _, d := range []float64{0, -1, math.Inf(1), math.NaN()} {
		if _, _, err := Outset(rect, nil, d); err == nil {
			t.Errorf("Outset(%g) gave no error", d)
		}
	}
}
