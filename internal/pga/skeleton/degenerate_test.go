package skeleton

import (
	"math/rand/v2"
	"testing"
)

// histogram is a random orthogonal polygon on integer coordinates: columns
// of random heights standing on y = 0 (collinear vertices merged away).
// Such footprints, common in real cadastre and OSM data, make many
// coincident events: equal wings collapse at the same time, reflex corners
// meet corners head on.
func histogram(r *rand.Rand, cols int) [][2]float64 {
	h := make([]int, cols)
	for i := range h {
		h[i] = 1 + r.IntN(4)
	}
	pts := [][2]float64{{0, 0}, {float64(cols), 0}}
	for i := cols - 1; i >= 0; i-- {
		x := float64(i + 1)
		y := float64(h[i])
		if i == cols-1 || h[i] != h[i+1] {
			pts = append(pts, [2]float64{x, y})
		}
		if i == 0 || h[i] != h[i-1] {
			pts = append(pts, [2]float64{float64(i), y})
		}
	}
	return pts
}

// Orthogonal polygons full of coincident events: the skeleton either meets
// every invariant or is refused with an error, never wrong; and most are
// resolved.
func TestOrthogonalPolygons(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ok, n := 0, 400
	for it := 0; it < n; it++ {
		p := histogram(r, 2+r.IntN(8))
		sk, err := Compute(p, nil, nil)
		if err != nil {
			continue
		}
		ok++
		check(t, sk, nil)
	}
	t.Logf("%d of %d orthogonal polygons resolved", ok, n)
	if ok < n*9/10 {
		t.Errorf("only %d of %d orthogonal polygons resolved", ok, n)
	}
}

// Courtyards whose walls are all the same width close everywhere at once.
func TestCoincidentHoles(t *testing.T) {
	sq := func(x0, y0, x1, y1 float64) [][2]float64 {
		return [][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
	}
	for name, c := range map[string]struct {
		outer [][2]float64
		holes [][][2]float64
	}{
		"centred":    {sq(0, 0, 30, 30), [][][2]float64{sq(10, 10, 20, 20)}},
		"two yards":  {sq(0, 0, 50, 20), [][][2]float64{sq(5, 5, 20, 15), sq(30, 5, 45, 15)}},
		"off centre": {sq(0, 0, 30, 30), [][][2]float64{sq(4, 4, 12, 12)}},
		"diamond":    {sq(0, 0, 20, 20), [][][2]float64{{{10, 6}, {14, 10}, {10, 14}, {6, 10}}}},
		"L yard":     {sq(0, 0, 40, 40), [][][2]float64{{{10, 10}, {10, 30}, {20, 30}, {20, 20}, {30, 20}, {30, 10}}}},
	} {
		sk, err := Compute(c.outer, c.holes, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		check(t, sk, nil)
	}
}

// Footprints from surveys carry vertices on straight edges (collinear
// corners) and corners a hair off straight; neither changes the roof.
func TestCollinearVertices(t *testing.T) {
	for name, c := range map[string]struct {
		p   [][2]float64
		top float64
	}{
		"on edges":   {[][2]float64{{0, 0}, {5, 0}, {10, 0}, {10, 2}, {10, 4}, {6, 4}, {3, 4}, {0, 4}, {0, 1}}, 2},
		"a hair off": {[][2]float64{{0, 0}, {5, 1e-9}, {10, 0}, {10, 4}, {5, 4 - 1e-9}, {0, 4}}, 2},
		"L on edges": {[][2]float64{{0, 0}, {5, 0}, {10, 0}, {10, 4}, {7, 4}, {4, 4}, {4, 7}, {4, 10}, {0, 10}, {0, 5}}, 2},
		"tiny edge":  {[][2]float64{{0, 0}, {10, 0}, {10, 4}, {0.001, 4}, {0, 3.999}}, 2},
	} {
		sk, err := Compute(c.p, nil, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		check(t, sk, nil)
		if got := sk.MaxT(); got > c.top+1e-6 || got < c.top-1e-3 {
			t.Errorf("%s: top %g, want %g", name, got, c.top)
		}
	}
}
