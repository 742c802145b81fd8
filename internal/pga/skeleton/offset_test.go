package skeleton

import (
	"math"
	"math/rand/v2"
	"testing"
)

func polysArea(ps []Polygon) float64 {
	a := 0.0
	for _, p := range ps {
		a += area(p.Outer)
		for _, h := range p.Holes {
			a += area(h)
		}
	}
	return a
}

func TestOffset(t *testing.T) {
	rect := [][2]float64{{0, 0}, {10, 0}, {10, 4}, {0, 4}}
	l := [][2]float64{{0, 0}, {10, 0}, {10, 4}, {4, 4}, {4, 10}, {0, 10}}
	outer := [][2]float64{{0, 0}, {12, 0}, {12, 10}, {0, 10}}
	hole := [][][2]float64{{{4, 4}, {8, 4}, {8, 6}, {4, 6}}}
	for _, c := range []struct {
		name   string
		outer  [][2]float64
		holes  [][][2]float64
		d      float64
		pieces int
		holesN int
		area   float64
	}{
		{"rect inset", rect, nil, 1, 1, 0, 8 * 2},
		{"rect gone", rect, nil, 2.5, 0, 0, 0},
		{"rect outset", rect, nil, -1, 1, 0, 12 * 6},
		{"L inset", l, nil, 1, 1, 0, 8*2 + 2*6},
		{"L outset", l, nil, -1, 1, 0, 12*6 + 6*6},
		{"hole inset", outer, hole, 1, 1, 1, 10*8 - 6*4},
		{"hole closes", outer, hole, -1.5, 1, 0, 15 * 13},
		{"hole shrinks", outer, hole, -0.5, 1, 1, 13*11 - 3*1},
	} {
		ps, err := Offset(c.outer, c.holes, c.d)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		h := 0
		for _, p := range ps {
			h += len(p.Holes)
		}
		if len(ps) != c.pieces || h != c.holesN || math.Abs(polysArea(ps)-c.area) > 1e-9 {
			t.Errorf("%s: %d pieces, %d holes, area %g; want %d, %d, %g", c.name, len(ps), h, polysArea(ps), c.pieces, c.holesN, c.area)
		}
	}
}

// A dumbbell's inset parts in two where its neck is narrower than twice
// the distance.
func TestOffsetSplits(t *testing.T) {
	p := [][2]float64{{0, 0}, {4, 0}, {4, 1.5}, {6, 1.5}, {6, 0}, {10, 0}, {10, 4}, {6, 4}, {6, 2.5}, {4, 2.5}, {4, 4}, {0, 4}}
	ps, err := Offset(p, nil, 0.75)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 {
		t.Fatalf("%d pieces, want 2", len(ps))
	}
}

// The inset and the border strips tile the polygon, for random polygons
// with and without holes.
func TestBorderTiles(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	for it := 0; it < 200; it++ {
		outer := star(r, 8+r.IntN(20), [2]float64{}, 4, 10)
		var holes [][][2]float64
		if it%2 == 1 {
			holes = append(holes, starHole(r, 3+r.IntN(6)))
		}
		sk, err := Compute(outer, holes, nil)
		if err != nil {
			t.Fatal(err)
		}
		d := r.Float64() * sk.MaxT() * 1.2
		ps, err := Offset(outer, holes, d)
		if err != nil {
			t.Fatal(err)
		}
		total := polysArea(ps)
		for _, b := range sk.Border(d) {
			total += area(b)
		}
		want := 0.0
		for _, ring := range sk.Rings {
			want += area(ring)
		}
		if math.Abs(total-want) > 1e-7*want {
			t.Fatalf("it %d d %g: inset and border cover %g, polygon %g", it, d, total, want)
		}
	}
}

// Inset's strips are the full skeleton's faces below d (Border), and with
// weights that keep all but one edge still it cuts a strip off that edge
// alone (a setback).
func TestInset(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	for it := 0; it < 100; it++ {
		outer := orient(star(r, 8+r.IntN(12), [2]float64{}, 4, 10), true)
		var holes [][][2]float64
		if it%2 == 1 {
			holes = append(holes, orient(starHole(r, 3+r.IntN(6)), false))
		}
		sk, err := Compute(outer, holes, nil)
		if err != nil {
			t.Fatal(err)
		}
		d := r.Float64() * sk.MaxT() * 1.2
		ps, strips, err := Inset(outer, holes, nil, d)
		if err != nil {
			t.Fatalf("it %d: %v", it, err)
		}
		border := sk.Border(d)
		for e := range strips {
			if math.Abs(area(strips[e])-area(border[e])) > 1e-7*area(border[e])+1e-12 {
				t.Fatalf("it %d edge %d: strip %g, border %g", it, e, area(strips[e]), area(border[e]))
			}
		}
		want, _ := Offset(outer, holes, d)
		if math.Abs(polysArea(ps)-polysArea(want)) > 1e-9*(1+polysArea(want)) {
			t.Fatalf("it %d: inset %g, offset %g", it, polysArea(ps), polysArea(want))
		}
	}
	w := []float64{1, 1e-9, 1e-9, 1e-9, 1e-9, 1e-9}
	l := [][2]float64{{0, 0}, {10, 0}, {10, 4}, {4, 4}, {4, 10}, {0, 10}}
	ps, strips, err := Inset(l, nil, w, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || math.Abs(area(strips[0])-15) > 1e-6 || math.Abs(polysArea(ps)-(64-15)) > 1e-6 {
		t.Fatalf("setback: %d pieces of %g, front strip %g; want 1 of 49, 15", len(ps), polysArea(ps), area(strips[0]))
	}
	if _, _, err := Inset(orient(l, false), nil, w, 1); err == nil {
		t.Fatal("a clockwise outer ring with weights: no error")
	}
}
