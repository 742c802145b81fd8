package pga

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// splitLots are lots beyond footprintLots whose cuts meet the polygon's
// vertices: a triangle (convex, not its rectangle), a square with a diamond
// courtyard whose corners lie on cuts, the L with a collinear point where a
// cut runs, and a square with a V notch whose tip lies on a cut.
var splitLots = []struct {
	coords string
	area   float64
}{
	{`[[[0,0],[20,0],[0,20],[0,0]]]`, 200},
	{`[[[0,0],[30,0],[30,30],[0,30],[0,0]],[[15,5],[25,15],[15,25],[5,15],[15,5]]]`, 700},
	{`[[[0,0],[12,0],[30,0],[30,12],[12,12],[12,30],[0,30],[0,0]]]`, 576},
	{`[[[0,0],[20,0],[20,20],[10,10],[0,20],[0,0]]]`, 300},
}

// splitCase is a split of a lot: SubDiv with absolute sizes (filling the
// extent) or Repeat(axis, w), along X or the lot's other ground axis (a
// Quad's Y, an extruded prism's Z: its slabs run the other way).
type splitCase struct {
	coords string
	area   float64
	ground bool      // along the second ground axis, not X
	sizes  []float64 // SubDiv's; nil: Repeat
	w      float64   // Repeat's
	parts  []int     // parts per slab on a Quad (nil: not checked)
}

func (c splitCase) op(kind ShapeKind) string {
	axis, sizes := "X", c.sizes
	if c.ground && kind == Box {
		axis, sizes = "Z", slices.Clone(sizes)
		slices.Reverse(sizes)
	} else if c.ground {
		axis = "Y"
	}
	op := fmt.Sprintf("Repeat(%s, %g) P", axis, c.w)
	if sizes != nil {
		br := make([]string, len(sizes))
		for k, w := range sizes {
			br[k] = fmt.Sprintf("%g: P", w)
		}
		op = fmt.Sprintf("SubDiv(%s) { %s }", axis, strings.Join(br, " | "))
	}
	if kind == Box {
		return "Extrude(9) " + op
	}
	return op
}

// slabs is where the case's slabs lie along the cut axis of a parent of
// extent ext, from its low end; Repeat adjusts its tiles to fill.
func (c splitCase) slabs(kind ShapeKind, ext float64) [][2]float64 {
	sizes := c.sizes
	if sizes == nil {
		n := math.Floor(ext/c.w + 1e-9)
		for range int(n) {
			sizes = append(sizes, ext/n)
		}
	} else if c.ground && kind == Box {
		sizes = slices.Clone(sizes)
		slices.Reverse(sizes)
	}
	out := make([][2]float64, len(sizes))
	lo := -ext / 2
	for k, w := range sizes {
		out[k] = [2]float64{lo, lo + w}
		lo += w
	}
	return out
}

func splitCases() []splitCase {
	L, court, cw, U := footprintLots[0], footprintLots[1], footprintLots[2], footprintLots[3]
	cs := []splitCase{
		// The L (x 0..30, arm 12 wide): cut at its inner corner, and across
		// both arms as one L-shaped piece.
		{coords: L.coords, area: L.area, sizes: []float64{12, 18}, parts: []int{1, 1}},
		{coords: L.coords, area: L.area, ground: true, sizes: []float64{6, 12, 12}, parts: []int{1, 1, 1}},
		{coords: L.coords, area: L.area, w: 5, parts: []int{1, 1, 1, 1, 1, 1}},
		// The courtyard (x 40..70, hole x 48..62, y 8..22): the hole whole in
		// the middle slab, cut along its edges (two parts beside it), cut
		// through it (a C each side, no hole).
		{coords: court.coords, area: court.area, sizes: []float64{5, 20, 5}, parts: []int{1, 1, 1}},
		{coords: court.coords, area: court.area, sizes: []float64{8, 14, 8}, parts: []int{1, 2, 1}},
		{coords: court.coords, area: court.area, ground: true, sizes: []float64{8, 14, 8}, parts: []int{1, 2, 1}},
		{coords: court.coords, area: court.area, sizes: []float64{15, 15}, parts: []int{1, 1}},
		{coords: court.coords, area: court.area, ground: true, w: 10, parts: []int{1, 2, 1}},
		{coords: cw.coords, area: cw.area, ground: true, sizes: []float64{10, 10, 10}, parts: []int{1, 2, 1}},
		{coords: cw.coords, area: cw.area, w: 7},
		// The U (x 80..104, arms 8 wide, notch down to y 8): its arms apart.
		{coords: U.coords, area: U.area, ground: true, sizes: []float64{12, 12}, parts: []int{1, 2}},
		{coords: U.coords, area: U.area, ground: true, w: 6, parts: []int{1, 1, 2, 2}},
		{coords: U.coords, area: U.area, w: 8, parts: []int{1, 1, 1}},
		{coords: U.coords, area: U.area, sizes: []float64{3, 18, 3}, parts: []int{1, 1, 1}},
	}
	tri, diamond, collinear, notch := splitLots[0], splitLots[1], splitLots[2], splitLots[3]
	return append(cs,
		splitCase{coords: tri.coords, area: tri.area, w: 3},
		splitCase{coords: tri.coords, area: tri.area, ground: true, w: 4},
		// Cuts through the diamond's corners: each side a C; a cut touching
		// its left corner leaves the courtyard in the right slab.
		splitCase{coords: diamond.coords, area: diamond.area, sizes: []float64{15, 15}, parts: []int{1, 1}},
		splitCase{coords: diamond.coords, area: diamond.area, sizes: []float64{5, 25}, parts: []int{1, 1}},
		splitCase{coords: diamond.coords, area: diamond.area, ground: true, sizes: []float64{5, 10, 10, 5}, parts: []int{1, 2, 2, 1}},
		splitCase{coords: collinear.coords, area: collinear.area, sizes: []float64{12, 18}, parts: []int{1, 1}},
		splitCase{coords: collinear.coords, area: collinear.area, ground: true, sizes: []float64{12, 18}, parts: []int{1, 1}},
		// The notch's tip on the cut: two triangles touching at it.
		splitCase{coords: notch.coords, area: notch.area, ground: true, sizes: []float64{10, 10}, parts: []int{1, 2}},
		splitCase{coords: notch.coords, area: notch.area, sizes: []float64{10, 10}, parts: []int{1, 1}},
	)
}

// SubDiv and Repeat on a lot's polygon, on the lot and on its extrusion:
// the pieces' areas (prisms: volumes over the height) add up to the lot's,
// every piece lies in its slab and in the lot, each slab gives the parts
// the geometry says (numbered by slab, seeds all different), and 4 workers
// give what 1 does.
func TestPolygonSplit(t *testing.T) {
	checked := 0
	for _, c := range splitCases() {
		for _, kind := range []ShapeKind{Quad, Box} {
			name := fmt.Sprintf("%s %s", c.coords, c.op(kind))
			parent := splitParent(t, c.coords, kind)
			g, axioms := footprintAxioms(t, "axiom Quad Lot;\nterminal P (1, 0);\nLot = "+c.op(kind)+";", c.coords)
			ts, err := g.Evaluate(axioms, Options{Workers: 1})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			axis := AxisX
			if c.ground {
				axis, _ = groundAxes(&parent)
			}
			slabs := c.slabs(kind, parent.Size[axis])
			dir, origin := parent.Transform.direction(unitAxis(axis)), pos(TerminalShape{Shape: parent})
			lot := lotRingsOf(t, c.coords)
			parts := make([]int, len(slabs))
			seeds := map[uint64]bool{}
			total := 0.0
			for i := range ts {
				s := &ts[i]
				if int(s.Siblings) != len(slabs) || s.Index < 0 || int(s.Index) >= len(slabs) {
					t.Fatalf("%s: piece %d index %d of %d, want %d slabs", name, i, s.Index, s.Siblings, len(slabs))
				}
				parts[s.Index]++
				seeds[s.Seed] = true
				corners, faces, _ := g.worldSolid(&s.Shape)
				if kind == Quad {
					total += faceArea(corners, faces)
				} else {
					total += closedVolume(t, name, corners, faces) / 9
				}
				sl := slabs[s.Index]
				for _, p := range corners {
					if x := dot(sub3(p, origin), dir); x < sl[0]-1e-9 || x > sl[1]+1e-9 {
						t.Fatalf("%s: piece %d (slab %d, %v) has a corner at %g", name, i, s.Index, sl, x)
					}
				}
				insideLot(t, name, lot, corners, faces)
			}
			if math.Abs(total-c.area) > 1e-9*c.area {
				t.Errorf("%s: pieces add up to %.12g m², lot %g", name, total, c.area)
			}
			if len(seeds) != len(ts) {
				t.Errorf("%s: %d seeds for %d pieces", name, len(seeds), len(ts))
			}
			want := slices.Clone(c.parts)
			if c.ground && kind == Box {
				slices.Reverse(want)
			}
			if want != nil && !slices.Equal(parts, want) {
				t.Errorf("%s: parts per slab %v, want %v", name, parts, want)
			}
			ts4, err := g.Evaluate(axioms, Options{Workers: 4})
			if err != nil {
				t.Fatal(err)
			}
			if len(ts4) != len(ts) {
				t.Fatalf("%s: 4 workers: %d pieces, 1 worker %d", name, len(ts4), len(ts))
			}
			for i := range ts {
				if ts4[i].Shape != ts[i].Shape {
					t.Fatalf("%s: piece %d differs on 4 workers", name, i)
				}
			}
			checked++
		}
	}
	if checked != 2*len(splitCases()) {
		t.Fatalf("checked %d cases", checked)
	}
}

// splitParent is the shape a case's split cuts: the lot, or its prism.
func splitParent(t *testing.T, coords string, kind ShapeKind) Shape {
	t.Helper()
	src := "axiom Quad Lot;\nterminal P (1, 0);\nLot = P;"
	if kind == Box {
		src = "axiom Quad Lot;\nterminal P (1, 0);\nLot = Extrude(9) P;"
	}
	g, axioms := footprintAxioms(t, src, coords)
	ts, err := g.Evaluate(axioms, Options{Workers: 1})
	if err != nil || len(ts) != 1 {
		t.Fatalf("parent: %d shapes, %v", len(ts), err)
	}
	return ts[0].Shape
}

func unitAxis(a Axis) Vec3 {
	var v Vec3
	v[a] = 1
	return v
}

func lotRingsOf(t *testing.T, coords string) [][][2]float64 {
	t.Helper()
	lots, err := ParseLots("f.geojson", collection(polygon(`1`, `{}`, coords)))
	if err != nil {
		t.Fatal(err)
	}
	return append([][][2]float64{lots[0].Polygon}, lots[0].Holes...)
}

// insideLot checks that every triangle of a piece's ground faces (a Quad's
// faces, a prism's caps) has its centroid inside the lot: world (x, -z) is
// the lot's (x, y).
func insideLot(t *testing.T, name string, lot [][][2]float64, corners []Vec3, faces [][]int) {
	t.Helper()
	for _, f := range faces {
		for i := 1; i+1 < len(f); i++ {
			a, b, d := corners[f[0]], corners[f[i]], corners[f[i+1]]
			if n := crossV(sub3(b, a), sub3(d, a)); math.Abs(n[1]) < 1e-9*math.Sqrt(dot(n, n)) || math.Sqrt(dot(n, n)) < 1e-12 {
				continue // a prism's wall
			}
			cx, cz := (a[0]+b[0]+d[0])/3, (a[2]+b[2]+d[2])/3
			if !insidePolygon(lot, [2]float64{cx, -cz}) {
				t.Fatalf("%s: a triangle's centroid (%g, %g) lies outside the lot", name, cx, -cz)
			}
		}
	}
}

// clipHalf on its own: a vertex a rounding error off the cut counts as on
// it (no sliver piece), and the parts' points on the cut lie on it exactly.
func TestClipHalfRounding(t *testing.T) {
	l := [][][2]float64{{{0, 0}, {30, 0}, {30, 12}, {12 + 1e-14, 12}, {12 - 1e-14, 30}, {0, 30}}}
	for _, sign := range []float64{1, -1} {
		parts, err := clipHalf(l, 0, sign, 12, 1e-9*30)
		if err != nil {
			t.Fatal(err)
		}
		if len(parts) != 1 || len(parts[0]) != 1 || len(parts[0][0]) != 4 {
			t.Fatalf("sign %g: parts %v, want one rectangle", sign, parts)
		}
		on := 0
		for _, p := range parts[0][0] {
			if p[0] == 12 {
				on++
			}
		}
		if on != 2 {
			t.Errorf("sign %g: %d points on the cut in %v, want 2", sign, on, parts[0][0])
		}
	}
}

// slabParts on every test lot, turned by several angles (so coordinates
// are not round), cut at every vertex and at random places along both
// axes: no error, the slabs' parts add up to the polygon's area, lie in
// their slabs, and triangulate into triangles of that area (so each part
// is a polygon a footprint accepts).
func TestSlabPartsCutAtVertices(t *testing.T) {
	var lots []string
	for _, l := range footprintLots {
		lots = append(lots, l.coords)
	}
	for _, l := range splitLots {
		lots = append(lots, l.coords)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for _, coords := range lots {
		for _, deg := range []float64{0, 17, 45, 90, 123, 200 * rnd.Float64(), 360 * rnd.Float64()} {
			rings := turnedRings(lotRingsOf(t, coords), deg*math.Pi/180)
			want := 0.0
			for _, r := range rings {
				want += ringArea(r) / 2
			}
			for a := 0; a < 2; a++ {
				var cuts []float64
				for _, r := range rings {
					for _, p := range r {
						cuts = append(cuts, p[a], p[a]+(rnd.Float64()-0.5)*1e-12)
					}
				}
				lo, hi := slices.Min(cuts), slices.Max(cuts)
				for range 5 {
					cuts = append(cuts, lo+(hi-lo)*rnd.Float64())
				}
				slices.Sort(cuts)
				cuts = slices.Compact(cuts)
				got := 0.0
				for k := 1; k < len(cuts); k++ {
					parts, err := slabParts(rings, a, cuts[k-1], cuts[k], 1e-9*(hi-lo))
					if err != nil {
						t.Fatalf("%s turned %g°, axis %d, slab %g..%g: %v", coords, deg, a, cuts[k-1], cuts[k], err)
					}
					for _, p := range parts {
						got += partArea(t, p, a, cuts[k-1], cuts[k])
						checked++
					}
				}
				if math.Abs(got-want) > 1e-9*want {
					t.Errorf("%s turned %g°, axis %d: parts add up to %.12g, polygon %.12g", coords, deg, a, got, want)
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d parts checked", checked)
	}
}

// turnedRings is rings turned by angle about the origin, outer ring
// counter-clockwise and holes clockwise.
func turnedRings(rings [][][2]float64, angle float64) [][][2]float64 {
	c, s := math.Cos(angle), math.Sin(angle)
	out := make([][][2]float64, len(rings))
	for k, r := range rings {
		q := make([][2]float64, len(r))
		for i, p := range r {
			q[i] = [2]float64{c*p[0] - s*p[1], s*p[0] + c*p[1]}
		}
		out[k] = q
	}
	return orientRings(out)
}

// partArea checks that part p lies within lo..hi along a and triangulates
// into triangles of its area, and returns that area.
func partArea(t *testing.T, p [][][2]float64, a int, lo, hi float64) float64 {
	t.Helper()
	area, pts := 0.0, [][2]float64(nil)
	for k, r := range p {
		if (ringArea(r) > 0) != (k == 0) {
			t.Fatalf("ring %d of %v wound the wrong way", k, p)
		}
		area += ringArea(r) / 2
		for _, q := range r {
			if q[a] < lo || q[a] > hi {
				t.Fatalf("part %v leaves its slab %g..%g", p, lo, hi)
			}
		}
		pts = append(pts, r...)
	}
	tris, err := triangulate(p)
	if err != nil {
		t.Fatalf("part %v: %v", p, err)
	}
	tri := 0.0
	for _, x := range tris {
		tri += cross(pts[x[0]], pts[x[1]], pts[x[2]]) / 2
	}
	if math.Abs(tri-area) > 1e-9*math.Max(area, 1) {
		t.Fatalf("part %v: area %g, its triangles %g", p, area, tri)
	}
	return area
}

// A snapped SubDiv on the L lot (x 0..30, its upright arm 12 wide) moves
// its cut from 11 m to the snap line at 13 m and then cuts the polygon
// there: the part left of it is an L of 13·12 + 12·18 m², the rest a
// rectangle of 17·12 m².
func TestPolygonSplitSnapped(t *testing.T) {
	src := `axiom Quad Lot;
terminal P Q (1,0);
Lot = Replicate() { SubDiv(X) { 13: SnapLines(X, cuts) Discard() | -1: Discard() } | B };
phase 2;
B = SubDiv(X, cuts) { 11: P | -1: Q };`
	g, axioms := footprintAxioms(t, src, footprintLots[0].coords)
	ts, err := g.Evaluate(axioms, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	areas := map[string]float64{}
	for i := range ts {
		corners, faces, _ := g.worldSolid(&ts[i].Shape)
		areas[g.TermName(&ts[i])] += faceArea(corners, faces)
	}
	if len(ts) != 2 || math.Abs(areas["P"]-(13*12+12*18)) > 1e-9 || math.Abs(areas["Q"]-17*12) > 1e-9 {
		t.Errorf("%d pieces, areas %v; want P %d, Q %d", len(ts), areas, 13*12+12*18, 17*12)
	}
}

// Cutting an extruded lot along its height keeps the whole polygon in each
// slab: floors 3 and 6 m high with the lot's area.
func TestPolygonSplitHeight(t *testing.T) {
	for _, lot := range footprintLots {
		g, axioms := footprintAxioms(t, "axiom Quad Lot;\nterminal P (1, 0);\nLot = Extrude(9) SubDiv(Y) { 3: P | 6: P };", lot.coords)
		ts, err := g.Evaluate(axioms, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(ts) != 2 {
			t.Fatalf("%s: %d floors", lot.coords, len(ts))
		}
		for i, h := range []float64{3, 6} {
			corners, faces, _ := g.worldSolid(&ts[i].Shape)
			if v := closedVolume(t, lot.coords, corners, faces); math.Abs(v-h*lot.area) > 1e-9*v {
				t.Errorf("%s: floor %d volume %g, want %g", lot.coords, i, v, h*lot.area)
			}
		}
	}
}
