package pga

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Lots may be any simple polygon with holes (OpenStreetMap footprints and
// cadastre parcels mostly are). This file checks such polygons and cuts
// them into triangles; footprint.go turns them into shapes.

// ringArea is twice the signed area of a ring: positive counter-clockwise.
func ringArea(p [][2]float64) float64 {
	a := 0.0
	for i := range p {
		q := p[(i+1)%len(p)]
		a += p[i][0]*q[1] - q[0]*p[i][1]
	}
	return a
}

// ringBox is ring's bounding box.
func ringBox(ring [][2]float64) (lo, hi [2]float64) {
	lo, hi = [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, v := range ring {
		for a := range 2 {
			lo[a], hi[a] = math.Min(lo[a], v[a]), math.Max(hi[a], v[a])
		}
	}
	return lo, hi
}

// ringName is how errors name ring r of a polygon.
func ringName(r int) string {
	if r == 0 {
		return "outer ring"
	}
	return fmt.Sprintf("hole %d (ring %d)", r, r)
}

// checkRings checks that rings, each simple as validRing leaves them, form
// a simple polygon with holes: no vertex repeats, no two rings touch, every
// hole lies strictly inside the outer ring and outside every other hole.
func checkRings(rings [][][2]float64) error {
	seen := map[[2]float64][2]int{}
	for r, p := range rings {
		for j, v := range p {
			if w, ok := seen[v]; ok {
				return fmt.Errorf("%s vertex %d repeats %s vertex %d", ringName(r), j, ringName(w[0]), w[1])
			}
			seen[v] = [2]int{r, j}
		}
	}
	for r := 1; r < len(rings); r++ {
		for s := 0; s < r; s++ {
			if i, j, ok := ringsMeet(rings[s], rings[r]); ok {
				return fmt.Errorf("%s edge %d crosses or touches %s edge %d", ringName(r), j, ringName(s), i)
			}
		}
		// No edges meet, so one vertex tells on which side the ring lies.
		if !insideRing(rings[0], rings[r][0]) {
			return fmt.Errorf("%s lies outside the outer ring", ringName(r))
		}
		for s := 1; s < r; s++ {
			if insideRing(rings[s], rings[r][0]) || insideRing(rings[r], rings[s][0]) {
				return fmt.Errorf("%s and %s lie one inside the other", ringName(s), ringName(r))
			}
		}
	}
	return nil
}

// ringsMeet finds an edge of a and an edge of b that touch or cross.
func ringsMeet(a, b [][2]float64) (int, int, bool) {
	for i := range a {
		for j := range b {
			if segmentsMeet(a[i], a[(i+1)%len(a)], b[j], b[(j+1)%len(b)]) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

// insideRing reports whether p lies inside ring (even-odd crossing rule);
// points on the boundary may go either way.
func insideRing(ring [][2]float64, p [2]float64) bool {
	in := false
	for i, a := range ring {
		b := ring[(i+1)%len(ring)]
		if (a[1] > p[1]) != (b[1] > p[1]) {
			x := a[0] + (p[1]-a[1])*(b[0]-a[0])/(b[1]-a[1])
			if p[0] < x {
				in = !in
			}
		}
	}
	return in
}

// insidePolygon reports whether p lies inside the outer ring and outside
// every hole.
func insidePolygon(rings [][][2]float64, p [2]float64) bool {
	if !insideRing(rings[0], p) {
		return false
	}
	for _, h := range rings[1:] {
		if insideRing(h, p) {
			return false
		}
	}
	return true
}

// spike finds a vertex where ring p turns back along the line it came
// (within eps, twice the area below which a corner counts as collinear).
func spike(p [][2]float64, eps float64) (int, bool) {
	n := len(p)
	for j := range p {
		a, b, c := p[(j+n-1)%n], p[j], p[(j+1)%n]
		if math.Abs(cross(a, b, c)) <= eps && (b[0]-a[0])*(c[0]-b[0])+(b[1]-a[1])*(c[1]-b[1]) < 0 {
			return j, true
		}
	}
	return 0, false
}

// orientRings returns copies of rings with the outer ring counter-clockwise
// and the holes clockwise, the orientation triangulate expects.
func orientRings(rings [][][2]float64) [][][2]float64 {
	out := make([][][2]float64, len(rings))
	for r, p := range rings {
		q := append([][2]float64(nil), p...)
		if (ringArea(q) > 0) != (r == 0) {
			for i, j := 0, len(q)-1; i < j; i, j = i+1, j-1 {
				q[i], q[j] = q[j], q[i]
			}
		}
		out[r] = q
	}
	return out
}

var errNoEar = errors.New("triangulate: no ear found (the polygon is not simple)")

// triangulate cuts a simple polygon with holes (outer ring counter-clockwise,
// holes clockwise, as orientRings makes them) into counter-clockwise
// triangles of indices into the rings' vertices numbered one ring after
// another. It is ear clipping with holes: each hole is joined to the outer
// boundary by a bridge, two coincident edges from its rightmost vertex to
// the nearest vertex it can see, which makes one ring that touches itself
// only along the bridges; that ring is then clipped ear by ear. A polygon
// of n vertices and h holes gives n + 2h - 2 triangles, less one for each
// collinear corner clipping drops. Cost O(n²) for the bridges and up to O(n³)
// for clipping, fine for lots of at most maxLotVertices vertices.
func triangulate(rings [][][2]float64) ([][3]int, error) {
	var pts [][2]float64
	start := make([]int, len(rings))
	for r, p := range rings {
		start[r] = len(pts)
		pts = append(pts, p...)
	}
	ring := make([]int, len(rings[0]))
	for i := range ring {
		ring[i] = i
	}
	// Holes by their rightmost vertex, rightmost first, so a bridge never
	// has to cross a hole not yet joined.
	order := make([]int, 0, len(rings)-1)
	for r := 1; r < len(rings); r++ {
		order = append(order, r)
	}
	right := func(r int) int {
		best := start[r]
		for i := start[r]; i < start[r]+len(rings[r]); i++ {
			if pts[i][0] > pts[best][0] || pts[i][0] == pts[best][0] && pts[i][1] < pts[best][1] {
				best = i
			}
		}
		return best
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && pts[right(order[j])][0] > pts[right(order[j-1])][0]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	var bridges [][2]int
	for _, r := range order {
		m := right(r)
		k, err := bridgeTo(pts, ring, rings, start, bridges, m)
		if err != nil {
			return nil, err
		}
		n := len(rings[r])
		loop := make([]int, 0, n+2)
		for i := 0; i <= n; i++ {
			loop = append(loop, start[r]+(m-start[r]+i)%n)
		}
		loop = append(loop, ring[k])
		ring = append(ring[:k+1], append(loop, ring[k+1:]...)...)
		bridges = append(bridges, [2]int{m, ring[k]})
	}
	return clipEars(pts, ring)
}

// bridgeTo picks the position in ring of the vertex nearest to pts[m] that
// m sees: the segment between them crosses no edge of any ring nor an
// earlier bridge, and leaves the vertex into the polygon's inside.
func bridgeTo(pts [][2]float64, ring []int, rings [][][2]float64, start []int, bridges [][2]int, m int) (int, error) {
	best, bestD := -1, math.Inf(1)
	mp := pts[m]
	for k, v := range ring {
		d := math.Hypot(pts[v][0]-mp[0], pts[v][1]-mp[1])
		if d >= bestD || d == 0 || !inCone(pts, ring, k, mp) {
			continue
		}
		if blocked(pts, rings, start, bridges, m, v) {
			continue
		}
		best, bestD = k, d
	}
	if best < 0 {
		return 0, errors.New("triangulate: a hole sees no vertex of the outer boundary")
	}
	return best, nil
}

// inCone reports whether the direction from ring[k] to p lies inside the
// polygon's angle at that corner (the inside is on the left of the ring).
func inCone(pts [][2]float64, ring []int, k int, p [2]float64) bool {
	n := len(ring)
	a, b, c := pts[ring[(k+n-1)%n]], pts[ring[k]], pts[ring[(k+1)%n]]
	if cross(a, b, c) >= 0 { // convex corner: p left of both edges
		return cross(a, b, p) > 0 && cross(b, c, p) > 0
	}
	return !(cross(a, b, p) <= 0 && cross(b, c, p) <= 0)
}

// blocked reports whether the segment m-v crosses an edge of a ring or an
// earlier bridge anywhere but at its own ends.
func blocked(pts [][2]float64, rings [][][2]float64, start []int, bridges [][2]int, m, v int) bool {
	a, b := pts[m], pts[v]
	hit := func(i, j int) bool {
		if i == m || j == m || i == v || j == v || pts[i] == a || pts[i] == b || pts[j] == a || pts[j] == b {
			return false
		}
		return segmentsMeet(a, b, pts[i], pts[j])
	}
	for r, p := range rings {
		for i := range p {
			if hit(start[r]+i, start[r]+(i+1)%len(p)) {
				return true
			}
		}
	}
	for _, br := range bridges {
		if hit(br[0], br[1]) {
			return true
		}
	}
	return false
}

// clipEars triangulates the counter-clockwise ring of vertex indices. A
// ring of fewer than three (a roof's face of two corners, where the
// skeleton meets an edge a rounding long) has no area and no triangles.
func clipEars(pts [][2]float64, ring []int) ([][3]int, error) {
	if len(ring) < 3 {
		return nil, nil
	}
	idx := append([]int(nil), ring...)
	tris := make([][3]int, 0, len(idx))
	for len(idx) > 3 {
		k, drop := findEar(pts, idx)
		if k < 0 {
			return nil, errNoEar
		}
		n := len(idx)
		if !drop {
			tris = append(tris, [3]int{idx[(k+n-1)%n], idx[k], idx[(k+1)%n]})
		}
		idx = append(idx[:k], idx[k+1:]...)
	}
	if cross(pts[idx[0]], pts[idx[1]], pts[idx[2]]) > 0 {
		tris = append(tris, [3]int{idx[0], idx[1], idx[2]})
	}
	return tris, nil
}

// findEar returns the position of an ear of idx, or of a collinear corner
// to drop (drop true, no triangle), or -1. An ear is a convex corner whose
// triangle holds no other vertex of the ring, on its edges included;
// vertices at the same place as the corner's (the two ends of a bridge)
// do not count.
func findEar(pts [][2]float64, idx []int) (int, bool) {
	n := len(idx)
	for k := range idx {
		a, b, c := pts[idx[(k+n-1)%n]], pts[idx[k]], pts[idx[(k+1)%n]]
		if cross(a, b, c) <= 0 {
			continue
		}
		ear := true
		for _, m := range idx {
			p := pts[m]
			if p == a || p == b || p == c {
				continue
			}
			if cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0 {
				ear = false
				break
			}
		}
		if ear {
			return k, false
		}
	}
	for k := range idx {
		a, b, c := pts[idx[(k+n-1)%n]], pts[idx[k]], pts[idx[(k+1)%n]]
		if cross(a, b, c) == 0 {
			return k, true
		}
	}
	return -1, false
}

// lotRings checks a GeoJSON polygon's rings (the outer ring, then holes)
// and sets l's Polygon and Holes. Errors name the ring and the vertex.
func lotRings(l *Lot, rings [][][]float64) error {
	clean := make([][][2]float64, len(rings))
	total := 0
	for r, ring := range rings {
		pts, err := validRing(ring)
		if err != nil {
			if len(rings) > 1 {
				return fmt.Errorf("%s: %w", ringName(r), err)
			}
			return err
		}
		if total += len(pts); total > maxLotVertices {
			return fmt.Errorf("%d vertices in %d rings, more than the %d a lot may have", total, r+1, maxLotVertices)
		}
		clean[r] = pts
	}
	if err := checkRings(clean); err != nil {
		return err
	}
	l.Polygon = clean[0]
	if len(clean) > 1 {
		l.Holes = clean[1:]
	}
	return nil
}

// overflowRing is the ring Overflows measures a lot against: its polygon,
// or for a concave or holed lot the convex hull of its outer ring. The
// measure is the largest distance outside an edge's line, which only means
// "outside" for a convex ring; so on such lots a building reaching into a
// notch or a courtyard is not reported.
func overflowRing(l Lot) [][2]float64 {
	if !needsFootprint(l) {
		return l.Polygon
	}
	return convexHull(l.Polygon)
}

// convexHull is the counter-clockwise convex hull of pts (monotone chain).
func convexHull(pts [][2]float64) [][2]float64 {
	p := append([][2]float64(nil), pts...)
	slices.SortFunc(p, func(a, b [2]float64) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	})
	h := make([][2]float64, 0, 2*len(p))
	for pass := 0; pass < 2; pass++ {
		base := len(h)
		for _, q := range p {
			for len(h) >= base+2 && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
				h = h[:len(h)-1]
			}
			h = append(h, q)
		}
		h = h[:len(h)-1] // the last point starts the other chain
		slices.Reverse(p)
	}
	return h
}
