package pga

import (
	"math"

	"github.com/procgen-dev/procgen/internal/pga/skeleton"
)

// What Offset and Setback make of a lot's own polygon is worked out apart
// from the shape that stands on it: from the footprint, its size and the
// distance. The CPU evaluator cuts each shape as it comes
// (offset_polygon.go); the CUDA backend cuts every lot's footprint once, at
// the lot's size, before the device runs (compile_footcut.go). Both then
// frame the same pieces the same way (Grammar.piece).

// cutPiece is one polygon a cut makes: its rings (metres in the
// footprint's plane, outer ring first), its child number and the branch
// it goes to.
type cutPiece struct {
	rings         [][][2]float64
	child, branch int
	part          int // a slab's part (slabCut): 0, or j > 0 for a seed keyed apart
}

// polygonCut is what a cut makes of a footprint: pieces, in the order their
// branches get them, among n children; or, when whole, the shape itself
// as child wholeChild of n, to branch wholeBranch.
type polygonCut struct {
	pieces                  []cutPiece
	n                       int
	whole                   bool
	wholeChild, wholeBranch int
}

// offsetCut is Offset(d) of footprint fp sized sx by sy: the inset pieces
// to the first branch (children 0..k-1), the border strips to the second
// (child k+e for edge e, rings' edges numbered outer ring first); for
// d < 0 the outset (outsetCut); for 0, NaN and -Inf the shape whole, as
// child 0 of 1 to the first branch.
func offsetCut(fp *footprint, sx, sy, d float64) (polygonCut, error) {
	if d < 0 && !math.IsInf(d, -1) {
		return outsetCut(fp, sx, sy, -d)
	}
	if !(d > 0) {
		return polygonCut{n: 1, whole: true}, nil
	}
	rings := scaledRings(fp, sx, sy)
	inner, strips, err := skeleton.Inset(rings[0], rings[1:], nil, d)
	if err != nil {
		return polygonCut{}, err
	}
	return cutOf(pieceSet{inner, 0, 0}, pieceSet{edgePolys(strips, nil), len(inner), 1}), nil
}

// pieceSet is polygons that go to one branch as children first, first+1...
type pieceSet struct {
	polys  []skeleton.Polygon
	first  int
	branch int
}

// cutOf is the cut made of sets: their polygons in order (nil ones left
// out, their child numbers kept), among as many children as the sets span.
func cutOf(sets ...pieceSet) polygonCut {
	var c polygonCut
	for _, set := range sets {
		c.n = max(c.n, set.first+len(set.polys))
		for i, p := range set.polys {
			if p.Outer == nil {
				continue
			}
			c.pieces = append(c.pieces, cutPiece{rings: append([][][2]float64{p.Outer}, p.Holes...), child: set.first + i, branch: set.branch})
		}
	}
	return c
}

// edgePolys is the strips of the edges keep allows (all for nil) as
// polygons, nil polygons where an edge has none (their child numbers stay
// the edge's).
func edgePolys(strips [][][2]float64, keep func(e int) bool) []skeleton.Polygon {
	out := make([]skeleton.Polygon, len(strips))
	for e, st := range strips {
		if st != nil && (keep == nil || keep(e)) {
			out[e] = skeleton.Polygon{Outer: st}
		}
	}
	return out
}

// stillEdge is the speed of the edges a setback does not move: slow enough
// that their strips (its width times d) are far below float32's resolution
// of the output.
const stillEdge = 1e-9

// setbackCut is Setback(d) of footprint fp sized sx by sy, as CGA's
// setback on its street side: the outer ring's edges facing the front
// (outward normals within 45° of the footprint's -v, else the one facing
// it most) move in by d while the others stay, by the weighted straight
// skeleton. Their strips go to the first branch (child e for edge e), the
// rest of the polygon, in one piece or more, to the second (children from
// the number of edges on). For d not above 0 the shape goes on whole, as
// child 1 of 2 to the second branch.
func setbackCut(fp *footprint, sx, sy, d float64) (polygonCut, error) {
	if !(d > 0) {
		return polygonCut{n: 2, whole: true, wholeChild: 1, wholeBranch: 1}, nil
	}
	rings := scaledRings(fp, sx, sy)
	outer := rings[0]
	var weights []float64
	best, bestX := 0, math.Inf(-1)
	front := 0
	for _, ring := range rings {
		for i, p := range ring {
			q := ring[(i+1)%len(ring)]
			dx := (q[0] - p[0]) / math.Hypot(q[0]-p[0], q[1]-p[1])
			w := stillEdge
			if len(weights) < len(outer) {
				if dx > math.Sqrt(0.5) {
					w, front = 1, front+1
				}
				if dx > bestX {
					best, bestX = i, dx
				}
			}
			weights = append(weights, w)
		}
	}
	if front == 0 {
		weights[best] = 1
	}
	inner, strips, err := skeleton.Inset(outer, rings[1:], weights, d)
	if err != nil {
		return polygonCut{}, err
	}
	return cutOf(pieceSet{edgePolys(strips, func(e int) bool { return weights[e] == 1 }), 0, 0},
		pieceSet{inner, len(strips), 1}), nil
}
