package pga

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// checkTriangulation asserts what any triangulation of a polygon with holes
// must satisfy: the triangles wind counter-clockwise with positive area,
// their areas add up to the polygon's, each lies inside it (its centroid is
// in the polygon and none of its edges crosses a ring), and there are
// n + 2h - 2 of them less any collinear corners dropped.
func checkTriangulation(t *testing.T, name string, rings [][][2]float64, tris [][3]int) {
	t.Helper()
	var pts [][2]float64
	want := 0.0
	for r, p := range rings {
		pts = append(pts, p...)
		want += ringArea(p) / 2
		if (ringArea(p) > 0) != (r == 0) {
			t.Fatalf("%s: ring %d wound the wrong way", name, r)
		}
	}
	if max := len(pts) + 2*(len(rings)-1) - 2; len(tris) > max || len(tris) < max/2 {
		t.Errorf("%s: %d triangles, want at most %d", name, len(tris), max)
	}
	got := 0.0
	for _, tr := range tris {
		a, b, c := pts[tr[0]], pts[tr[1]], pts[tr[2]]
		area := cross(a, b, c) / 2
		if !(area > 0) {
			t.Fatalf("%s: triangle %v has area %g: not counter-clockwise", name, tr, area)
		}
		got += area
		centroid := [2]float64{(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3}
		if !insidePolygon(rings, centroid) {
			t.Fatalf("%s: triangle %v (centroid %v) lies outside the polygon", name, tr, centroid)
		}
		for _, e := range [][2][2]float64{{a, b}, {b, c}, {c, a}} {
			for _, p := range rings {
				for i := range p {
					q0, q1 := p[i], p[(i+1)%len(p)]
					if properCross(e[0], e[1], q0, q1) {
						t.Fatalf("%s: triangle %v edge %v crosses ring edge %v-%v", name, tr, e, q0, q1)
					}
				}
			}
		}
	}
	if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
		t.Errorf("%s: triangles cover %.12g, polygon area %.12g", name, got, want)
	}
}

// properCross reports whether segments ab and cd cross at a point interior
// to both.
func properCross(a, b, c, d [2]float64) bool {
	d1, d2 := cross(c, d, a), cross(c, d, b)
	d3, d4 := cross(a, b, c), cross(a, b, d)
	const e = 1e-12
	return (d1 > e && d2 < -e || d1 < -e && d2 > e) && (d3 > e && d4 < -e || d3 < -e && d4 > e)
}

func square(x0, y0, x1, y1 float64) [][2]float64 {
	return [][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
}

func TestTriangulateShapes(t *testing.T) {
	for _, c := range []struct {
		name  string
		rings [][][2]float64
	}{
		{"triangle", [][][2]float64{{{0, 0}, {1, 0}, {0, 1}}}},
		{"L", [][][2]float64{{{0, 0}, {30, 0}, {30, 12}, {12, 12}, {12, 30}, {0, 30}}}},
		{"U", [][][2]float64{{{0, 0}, {24, 0}, {24, 24}, {16, 24}, {16, 8}, {8, 8}, {8, 24}, {0, 24}}}},
		{"collinear", [][][2]float64{{{0, 0}, {5, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 5}}}},
		{"comb", [][][2]float64{{{0, 0}, {10, 0}, {10, 5}, {9, 5}, {9, 1}, {8, 1}, {8, 5}, {7, 5}, {7, 1}, {6, 1}, {6, 5}, {0, 5}}}},
		{"courtyard", [][][2]float64{square(0, 0, 30, 30), reverse(square(8, 8, 22, 22))}},
		{"two courtyards", [][][2]float64{square(0, 0, 40, 20), reverse(square(4, 4, 16, 16)), reverse(square(24, 4, 36, 16))}},
		{"aligned holes", [][][2]float64{square(0, 0, 30, 10), reverse(square(2, 2, 8, 8)), reverse(square(12, 2, 18, 8)), reverse(square(22, 2, 28, 8))}},
		{"hole in an L", [][][2]float64{{{0, 0}, {30, 0}, {30, 12}, {12, 12}, {12, 30}, {0, 30}}, reverse(square(3, 3, 9, 9)), reverse(square(18, 3, 26, 9))}},
		{"triangle hole", [][][2]float64{square(0, 0, 10, 10), {{5, 2}, {3, 8}, {7, 8}}}},
	} {
		tris, err := triangulate(c.rings)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkTriangulation(t, c.name, c.rings, tris)
	}
}

func reverse(p [][2]float64) [][2]float64 {
	q := make([][2]float64, len(p))
	for i, v := range p {
		q[len(p)-1-i] = v
	}
	return q
}

// Random star-shaped polygons (radii drawn at sorted angles) with small
// square holes near the centre: concave at many corners, up to 6 holes.
func TestTriangulateRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 1))
	checked := 0
	for trial := 0; trial < 300; trial++ {
		n := 3 + r.IntN(40)
		outer := make([][2]float64, n)
		for i := range outer {
			a := 2 * math.Pi * (float64(i) + 0.8*r.Float64()) / float64(n)
			rad := 10 + 20*r.Float64()
			outer[i] = [2]float64{rad * math.Cos(a), rad * math.Sin(a)}
		}
		rings := [][][2]float64{outer}
		for h := r.IntN(7); h > 0; h-- {
			x, y, s := -6+12*r.Float64(), -6+12*r.Float64(), 0.3+r.Float64()
			hole := reverse(square(x, y, x+s, y+s))
			if checkRings(append(rings, hole)) == nil {
				rings = append(rings, hole)
			}
		}
		if err := checkRings(rings); err != nil {
			t.Fatalf("trial %d: generator made a bad polygon: %v", trial, err)
		}
		tris, err := triangulate(rings)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		checkTriangulation(t, fmt.Sprintf("trial %d", trial), rings, tris)
		if len(rings) > 2 {
			checked++
		}
	}
	if checked < 100 { // anti-vacuity: most trials must have holes
		t.Fatalf("only %d trials with two or more holes", checked)
	}
}

func TestParseLotsConcaveAndHoles(t *testing.T) {
	lots, err := ParseLots("l.geojson", collection(
		polygon(`"L"`, `{}`, `[[[0,0],[30,0],[30,12],[12,12],[12,30],[0,30],[0,0]]]`),
		polygon(`"c"`, `{}`, `[[[0,0],[30,0],[30,30],[0,30],[0,0]],[[8,8],[8,22],[22,22],[22,8],[8,8]]]`),
	))
	if err != nil {
		t.Fatal(err)
	}
	if len(lots[0].Polygon) != 6 || lots[0].Holes != nil || len(lots[1].Holes) != 1 || len(lots[1].Holes[0]) != 4 {
		t.Fatalf("lots %+v", lots)
	}
	if !needsFootprint(lots[0]) || !needsFootprint(lots[1]) {
		t.Fatal("concave and holed lots must stand on their footprint")
	}
}

func TestParseLotsRingErrors(t *testing.T) {
	outer := `[[0,0],[30,0],[30,30],[0,30],[0,0]]`
	ok := polygon(`"ok"`, `{}`, `[[[0,0],[1,0],[1,1],[0,1],[0,0]]]`)
	for _, c := range []struct{ name, coords, want string }{
		{"bow tie", `[[[0,0],[1,1],[1,0],[0,1],[0,0]]]`, "self-intersecting: edges 0 and 2 cross"},
		{"figure eight", `[[[0,0],[2,0],[2,2],[4,2],[4,4],[2,4],[2,2],[0,2],[0,0]]]`, "self-intersecting: edges 1 and 5 cross"},
		{"spike", `[[[0,0],[10,0],[10,10],[10,14],[10,12],[0,10],[0,0]]]`, "doubles back on itself at vertex 3"},
		{"hole repeats a vertex", `[` + outer + `,[[30,30],[20,25],[25,20],[30,30]]]`, "hole 1 (ring 1) vertex 0 repeats outer ring vertex 2"},
		{"hole outside", `[` + outer + `,[[40,0],[40,5],[45,5],[40,0]]]`, "hole 1 (ring 1) lies outside the outer ring"},
		{"hole crossing", `[` + outer + `,[[20,10],[20,20],[40,20],[40,10],[20,10]]]`, "hole 1 (ring 1) edge 1 crosses or touches outer ring edge 1"},
		{"hole touching", `[` + outer + `,[[0,10],[5,20],[5,10],[0,10]]]`, "hole 1 (ring 1) edge 0 crosses or touches outer ring edge 3"},
		{"holes nested", `[` + outer + `,[[5,5],[5,25],[25,25],[25,5],[5,5]],[[10,10],[10,20],[20,20],[20,10],[10,10]]]`, "hole 1 (ring 1) and hole 2 (ring 2) lie one inside the other"},
		{"holes crossing", `[` + outer + `,[[5,5],[5,15],[15,15],[15,5],[5,5]],[[10,10],[10,20],[20,20],[20,10],[10,10]]]`, "hole 2 (ring 2) edge"},
		{"hole not closed", `[` + outer + `,[[5,5],[5,15],[15,15]]]`, "hole 1 (ring 1): ring not closed"},
		{"hole degenerate", `[` + outer + `,[[5,5],[6,6],[7,7],[5,5]]]`, "hole 1 (ring 1): zero area"},
		{"hole self-intersecting", `[` + outer + `,[[5,5],[10,10],[10,5],[5,10],[5,5]]]`, "hole 1 (ring 1): self-intersecting"},
	} {
		_, err := ParseLots("l.geojson", collection(ok, polygon(`"x7"`, `{}`, c.coords)))
		var le *LotError
		if !errors.As(err, &le) || le.Index != 1 || !strings.Contains(err.Error(), c.want) ||
			!strings.HasPrefix(err.Error(), `l.geojson: feature 1 (id "x7"): `) {
			t.Errorf("%s: %v, want feature 1 (id \"x7\") and %q", c.name, err, c.want)
		}
	}
}

// Every lot ParseLots accepts must become a footprint: triangulated with its
// area, or kept as the convex polygon it is.
func FuzzParseLotRings(f *testing.F) {
	for _, s := range []string{
		`[[[0,0],[30,0],[30,12],[12,12],[12,30],[0,30],[0,0]]]`,
		`[[[0,0],[30,0],[30,30],[0,30],[0,0]],[[8,8],[8,22],[22,22],[22,8],[8,8]]]`,
		`[[[0,0],[1,1],[1,0],[0,1],[0,0]]]`,
		`[[[0,0],[10,0],[10,10],[10,14],[10,12],[0,10],[0,0]]]`,
		`[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[1,2],[2,2],[2,1],[1,1]],[[2.5,2.5],[2.5,3],[3,3],[2.5,2.5]]]`,
		`[[[0,0],[1e-9,0],[1e-9,1e-9],[0,0]]]`,
		`[[[1e300,0],[-1e300,1],[0,1e300],[1e300,0]]]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, coords string) {
		lots, err := ParseLots("f.geojson", collection(polygon(`1`, `{}`, coords)))
		if err != nil {
			return
		}
		l := lots[0]
		if !needsFootprint(l) {
			return
		}
		g := &Grammar{Profiles: [][][2]float64{nil}}
		p, err := g.addFootprint(l)
		if err != nil {
			t.Fatalf("accepted lot %s does not triangulate: %v", coords, err)
		}
		fp := g.footprintOf(p)
		area := 0.0
		for _, tr := range fp.tris {
			var pts [][2]float64
			for _, r := range fp.rings {
				pts = append(pts, r...)
			}
			area += cross(pts[tr[0]], pts[tr[1]], pts[tr[2]]) / 2
		}
		want := 0.0
		for _, r := range fp.rings {
			want += ringArea(r) / 2
		}
		if math.Abs(area-want) > 1e-6*math.Max(1, want) {
			t.Fatalf("lot %s: triangles cover %g of %g", coords, area, want)
		}
	})
}

// A convex lot that is not a rectangle (a trapezoid, a triangle) stands on
// its polygon: its bounding rectangle would reach outside it. Rectangles,
// rotated or not, keep the rectangle.
func TestNonRectangularLotsNeedFootprint(t *testing.T) {
	c, s := math.Cos(0.3), math.Sin(0.3)
	rot := func(x, y float64) [2]float64 { return [2]float64{x*c - y*s + 500000, x*s + y*c + 4e6} }
	for _, tc := range []struct {
		name string
		ring [][2]float64
		want bool
	}{
		{"rectangle", [][2]float64{{0, 0}, {18, 0}, {18, 24}, {0, 24}}, false},
		{"rotated rectangle far from the origin", [][2]float64{rot(0, 0), rot(18, 0), rot(18, 24), rot(0, 24)}, false},
		{"trapezoid (town.geojson's lot 3)", [][2]float64{{44, 0}, {64, 2}, {62, 26}, {44, 24}}, true},
		{"triangle", [][2]float64{{0, 0}, {30, 0}, {0, 20}}, true},
	} {
		if got := needsFootprint(Lot{Polygon: tc.ring}); got != tc.want {
			t.Errorf("%s: needs its footprint %v, want %v", tc.name, got, tc.want)
		}
	}
}
