package mesh

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTriangulate: concave polygons (a notched leaf, a star, random
// star-shaped ones) become n-2 triangles of the polygon's orientation whose
// areas add up to the polygon's; degenerate ones do not fail.
func TestTriangulate(t *testing.T) {
	shoelace := func(p [][3]float32) float64 {
		var a float64
		for i := range p {
			q, r := p[i], p[(i+1)%len(p)]
			a += float64(q[0])*float64(r[1]) - float64(r[0])*float64(q[1])
		}
		return a / 2
	}
	star := func(n int, rin float64, rng *rand.Rand) [][3]float32 {
		var p [][3]float32
		for i := range 2 * n {
			r := 1.0
			if i%2 == 1 {
				r = rin
			}
			if rng != nil {
				r *= 0.5 + rng.Float64()
			}
			s, c := math.Sincos(math.Pi * float64(i) / float64(n))
			p = append(p, [3]float32{float32(r * c), float32(r * s), 0})
		}
		return p
	}
	cases := [][][3]float32{
		{{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {1, 1, 0}, {0, 2, 0}},            // notched
		{{0, 0, 0}, {3, 0, 0}, {3, 1, 0}, {1, 1, 0}, {1, 3, 0}, {0, 3, 0}}, // L
		star(5, 0.4, nil),
		star(12, 0.2, nil),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		cases = append(cases, star(3+rng.IntN(20), 0.3, rng))
	}
	for ci, p := range cases {
		tris := earClip(nil, p, vec3{0, 0, 1}, iota32(len(p), 0))
		if len(tris) != 3*(len(p)-2) {
			t.Fatalf("case %d: %d indices for %d vertices", ci, len(tris), len(p))
		}
		var sum float64
		for k := 0; k < len(tris); k += 3 {
			tri := [][3]float32{p[tris[k]], p[tris[k+1]], p[tris[k+2]]}
			a := shoelace(tri)
			if a < -1e-9 {
				t.Fatalf("case %d: triangle %v turns the other way", ci, tris[k:k+3])
			}
			sum += a
		}
		if want := shoelace(p); math.Abs(sum-want) > 1e-5*math.Abs(want) {
			t.Fatalf("case %d: triangles cover %v, the polygon %v", ci, sum, want)
		}
	}
	// Collinear and repeated points: no panic, n-2 triangles.
	for _, p := range [][][3]float32{{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}}, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}} {
		if tris := earClip(nil, p, vec3{0, 0, 1}, iota32(len(p), 5)); len(tris) != 3*(len(p)-2) {
			t.Fatalf("degenerate: %v", tris)
		}
	}
}

// iota32 is base, base+1, ... base+n-1.
func iota32(n, base int) []int32 {
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(base + i)
	}
	return ids
}
