package skeleton

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// check verifies the invariants every skeleton must meet: each face starts
// with its edge, is simple, lies in its edge's sloped plane (a node's
// distance to the edge's line is speed·T), faces tile the polygon, and no
// node rises above its distance to the polygon's boundary (the
// inscribed-circle bound).
func check(t *testing.T, sk *Skeleton, weights []float64) {
	t.Helper()
	var edges [][2][2]float64
	for _, r := range sk.Rings {
		for i, p := range r {
			edges = append(edges, [2][2]float64{p, r[(i+1)%len(r)]})
		}
	}
	scale := 0.0
	for _, e := range edges {
		scale = math.Max(scale, math.Max(math.Abs(e[0][0])+math.Abs(e[0][1]), 1))
	}
	tol := 1e-7 * scale
	if len(sk.Faces) != len(edges) {
		t.Fatalf("%d faces for %d edges", len(sk.Faces), len(edges))
	}
	total, want := 0.0, 0.0
	for _, r := range sk.Rings {
		want += area(r)
	}
	for _, f := range sk.Faces {
		e := edges[f.Edge]
		if sk.Nodes[f.Nodes[0]].P != e[0] || sk.Nodes[f.Nodes[1]].P != e[1] {
			t.Fatalf("face %d does not start with its edge", f.Edge)
		}
		w := 1.0
		if weights != nil {
			w = weights[f.Edge]
		}
		d := [2]float64{e[1][0] - e[0][0], e[1][1] - e[0][1]}
		l := math.Hypot(d[0], d[1])
		for _, k := range f.Nodes {
			n := sk.Nodes[k]
			h := (d[0]*(n.P[1]-e[0][1]) - d[1]*(n.P[0]-e[0][0])) / l
			if math.Abs(h-w*n.T) > tol {
				t.Fatalf("face %d: node %v at distance %g from its edge's line, want %g (not planar)", f.Edge, n, h, w*n.T)
			}
		}
		a := nodeArea(sk.Nodes, f.Nodes)
		if a <= 0 {
			t.Fatalf("face %d has area %g", f.Edge, a)
		}
		total += a
		if !simple(sk.Nodes, f.Nodes, tol) {
			t.Fatalf("face %d is not simple: %v", f.Edge, f.Nodes)
		}
	}
	if math.Abs(total-want) > 1e-9*want {
		t.Fatalf("faces cover %g, polygon %g", total, want)
	}
	covered(t, sk)
	if weights != nil {
		return
	}
	for _, n := range sk.Nodes {
		b := math.Inf(1)
		for _, e := range edges {
			b = math.Min(b, segDist(n.P, e[0], e[1]))
		}
		if n.T > b+tol {
			t.Fatalf("node %v rises above its distance %g to the boundary", n, b)
		}
	}
}

// covered checks that sample points of the polygon lie in exactly one
// face, and points outside it in none (areas adding up alone would let an
// overlap hide a gap).
func covered(t *testing.T, sk *Skeleton) {
	t.Helper()
	lo, hi := sk.Rings[0][0], sk.Rings[0][0]
	for _, p := range sk.Rings[0] {
		lo = [2]float64{math.Min(lo[0], p[0]), math.Min(lo[1], p[1])}
		hi = [2]float64{math.Max(hi[0], p[0]), math.Max(hi[1], p[1])}
	}
	r := rand.New(rand.NewPCG(uint64(len(sk.Nodes)), 1))
	for k := 0; k < 300; k++ {
		p := [2]float64{lo[0] + (hi[0]-lo[0])*r.Float64(), lo[1] + (hi[1]-lo[1])*r.Float64()}
		in := 0
		for _, ring := range sk.Rings {
			if Inside(p, ring) {
				in++
			}
		}
		n := 0
		for _, f := range sk.Faces {
			ring := make([][2]float64, len(f.Nodes))
			for i, k := range f.Nodes {
				ring[i] = sk.Nodes[k].P
			}
			if Inside(p, ring) {
				n++
			}
		}
		if want := in % 2; n != want {
			t.Fatalf("point %v lies in %d faces, want %d", p, n, want)
		}
	}
}

func segDist(p, a, b [2]float64) float64 {
	d := [2]float64{b[0] - a[0], b[1] - a[1]}
	u := ((p[0]-a[0])*d[0] + (p[1]-a[1])*d[1]) / (d[0]*d[0] + d[1]*d[1])
	u = math.Max(0, math.Min(1, u))
	return dist(p, [2]float64{a[0] + u*d[0], a[1] + u*d[1]})
}

// simple reports whether no two non-adjacent sides of polygon f cross.
func simple(nodes []Node, f []int, tol float64) bool {
	n := len(f)
	cross := func(o, a, b [2]float64) float64 { return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0]) }
	for i := 0; i < n; i++ {
		for j := i + 2; j < n; j++ {
			if i == 0 && j == n-1 {
				continue
			}
			a, b := nodes[f[i]].P, nodes[f[(i+1)%n]].P
			c, d := nodes[f[j]].P, nodes[f[(j+1)%n]].P
			if cross(a, b, c)*cross(a, b, d) < -tol && cross(c, d, a)*cross(c, d, b) < -tol {
				return false
			}
		}
	}
	return true
}

func ridge(sk *Skeleton) float64 {
	l := 0.0
	top := sk.MaxT()
	for _, a := range sk.Arcs {
		p, q := sk.Nodes[a.From], sk.Nodes[a.To]
		if math.Abs(p.T-top) < 1e-9 && math.Abs(q.T-top) < 1e-9 {
			l += dist(p.P, q.P)
		}
	}
	return l
}

func TestRectangleHipRidge(t *testing.T) {
	for _, c := range []struct{ l, w float64 }{{10, 4}, {7, 6.5}, {3, 1}} {
		sk, err := Compute([][2]float64{{0, 0}, {c.l, 0}, {c.l, c.w}, {0, c.w}}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		check(t, sk, nil)
		if got := ridge(sk); math.Abs(got-(c.l-c.w)) > 1e-9 {
			t.Errorf("%gx%g: ridge %g, want %g", c.l, c.w, got, c.l-c.w)
		}
		if got := sk.MaxT(); math.Abs(got-c.w/2) > 1e-12 {
			t.Errorf("%gx%g: top %g, want %g", c.l, c.w, got, c.w/2)
		}
	}
}

func TestSquarePyramidApex(t *testing.T) {
	sk, err := Compute([][2]float64{{-3, -3}, {3, -3}, {3, 3}, {-3, 3}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	check(t, sk, nil)
	top := sk.Nodes[len(sk.Nodes)-1]
	if dist(top.P, [2]float64{}) > 1e-12 || math.Abs(top.T-3) > 1e-12 {
		t.Fatalf("apex %v, want (0,0) at 3", top)
	}
	// a 30° roof on it rises half the side times tan 30°
	if h := sk.MaxT() * math.Tan(math.Pi/6); math.Abs(h-3*math.Tan(math.Pi/6)) > 1e-12 {
		t.Fatalf("height %g", h)
	}
	for _, f := range sk.Faces {
		if len(f.Nodes) != 3 {
			t.Fatalf("face %d has %d nodes, want a triangle", f.Edge, len(f.Nodes))
		}
	}
}

func TestLShape(t *testing.T) {
	l := [][2]float64{{0, 0}, {10, 0}, {10, 4}, {4, 4}, {4, 10}, {0, 10}}
	sk, err := Compute(l, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	check(t, sk, nil)
	if got := sk.MaxT(); math.Abs(got-2) > 1e-12 {
		t.Fatalf("top %g, want 2 (half the wings' width)", got)
	}
	// the reflex corner's arc runs along the diagonal to (2, 2)
	found := false
	for _, a := range sk.Arcs {
		if sk.Nodes[a.From].P == l[3] && dist(sk.Nodes[a.To].P, [2]float64{2, 2}) < 1e-12 {
			found = true
		}
	}
	if !found {
		t.Fatalf("no valley from the reflex corner to (2,2): %v", sk.Arcs)
	}
}

func TestHole(t *testing.T) {
	outer := [][2]float64{{0, 0}, {12, 0}, {12, 10}, {0, 10}}
	hole := [][2]float64{{4, 4}, {8, 4}, {8, 6}, {4, 6}}
	sk, err := Compute(outer, [][][2]float64{hole}, nil)
	if err != nil {
		t.Fatal(err)
	}
	check(t, sk, nil)
	if got := sk.MaxT(); math.Abs(got-2) > 1e-12 {
		t.Fatalf("top %g, want 2 (the ring around the courtyard is 4 wide)", got)
	}
}

func regular(n int, r float64) [][2]float64 {
	p := make([][2]float64, n)
	for i := range p {
		a := 2 * math.Pi * float64(i) / float64(n)
		p[i] = [2]float64{r * math.Cos(a), r * math.Sin(a)}
	}
	return p
}

func TestRegularPolygons(t *testing.T) {
	for n := 3; n <= 24; n++ {
		sk, err := Compute(regular(n, 5), nil, nil)
		if err != nil {
			t.Fatalf("%d-gon: %v", n, err)
		}
		check(t, sk, nil)
		apothem := 5 * math.Cos(math.Pi/float64(n))
		if got := sk.MaxT(); math.Abs(got-apothem) > 1e-9 {
			t.Errorf("%d-gon: top %g, want the apothem %g", n, got, apothem)
		}
	}
}

func TestWeighted(t *testing.T) {
	w := []float64{1, 2, 1, 2}
	sk, err := Compute([][2]float64{{0, 0}, {10, 0}, {10, 6}, {0, 6}}, nil, w)
	if err != nil {
		t.Fatal(err)
	}
	check(t, sk, w)
	if got := sk.MaxT(); math.Abs(got-2.5) > 1e-12 {
		t.Fatalf("top %g, want 2.5 (the ends, twice as fast, meet first)", got)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		outer [][2]float64
		w     []float64
		want  string
	}{
		{[][2]float64{{0, 0}, {1, 0}}, nil, "2 vertices"},
		{[][2]float64{{0, 0}, {1, 0}, {1, 0}, {0, 1}}, nil, "coincide"},
		{[][2]float64{{0, 0}, {1, 0}, {0, 1}}, []float64{1, 0, 1}, "weight 0"},
		{[][2]float64{{0, 0}, {1, 0}, {0, math.NaN()}}, nil, "not finite"},
	} {
		_, err := Compute(c.outer, nil, c.w)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.outer, err, c.want)
		}
	}
}

// star is a random star-shaped polygon around c: simple by construction.
func star(r *rand.Rand, n int, c [2]float64, lo, hi float64) [][2]float64 {
	angles := make([]float64, n)
	for i := range angles {
		angles[i] = (float64(i) + 0.1 + 0.8*r.Float64()) * 2 * math.Pi / float64(n)
	}
	p := make([][2]float64, n)
	for i, a := range angles {
		rad := lo + (hi-lo)*r.Float64()
		p[i] = [2]float64{c[0] + rad*math.Cos(a), c[1] + rad*math.Sin(a)}
	}
	return p
}

// starHole is a random hole that lies inside every star of 8 or more
// corners at radii 4 to 10 (their gaps are under 1.41 rad, so they hold
// the disc of radius 4·cos(0.71) > 3 around the origin).
func starHole(r *rand.Rand, n int) [][2]float64 {
	return star(r, n, [2]float64{0.5, -0.3}, 0.5, 2)
}

func FuzzSkeleton(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42, 1234} {
		f.Add(s, uint8(7), false)
		f.Add(s, uint8(12), true)
	}
	f.Fuzz(func(t *testing.T, seed uint64, n uint8, hole bool) {
		r := rand.New(rand.NewPCG(seed, 7))
		k := 3 + int(n)%30
		var holes [][][2]float64
		if hole {
			k = 8 + int(n)%30
		}
		outer := star(r, k, [2]float64{}, 4, 10)
		if hole {
			holes = append(holes, starHole(r, 3+int(n)%7))
		}
		sk, err := Compute(outer, holes, nil)
		if err != nil {
			// Random polygons have no coincident events; an error here is a bug.
			t.Fatalf("seed %d n %d hole %v: %v", seed, k, hole, err)
		}
		check(t, sk, nil)
	})
}

// Symmetric shapes make coincident events (several reflex corners reaching
// one point at once); they resolve into a skeleton that meets every
// invariant.
func TestCoincidentEvents(t *testing.T) {
	for name, p := range map[string][][2]float64{
		"plus":   {{2, 0}, {4, 0}, {4, 2}, {6, 2}, {6, 4}, {4, 4}, {4, 6}, {2, 6}, {2, 4}, {0, 4}, {0, 2}, {2, 2}},
		"U":      {{0, 0}, {9, 0}, {9, 9}, {6, 9}, {6, 3}, {3, 3}, {3, 9}, {0, 9}},
		"H":      {{0, 0}, {3, 0}, {3, 3}, {6, 3}, {6, 0}, {9, 0}, {9, 9}, {6, 9}, {6, 6}, {3, 6}, {3, 9}, {0, 9}},
		"T":      {{0, 6}, {3, 6}, {3, 0}, {6, 0}, {6, 6}, {9, 6}, {9, 9}, {0, 9}},
		"comb":   {{0, 0}, {10, 0}, {10, 5}, {8, 5}, {8, 2}, {6, 2}, {6, 5}, {4, 5}, {4, 2}, {2, 2}, {2, 5}, {0, 5}},
		"stairs": {{0, 0}, {6, 0}, {6, 2}, {4, 2}, {4, 4}, {2, 4}, {2, 6}, {0, 6}},
	} {
		sk, err := Compute(p, nil, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		check(t, sk, nil)
	}
}
