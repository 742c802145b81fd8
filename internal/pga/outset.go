package pga

import "github.com/procgen-dev/procgen/internal/pga/skeleton"

// Offset with a negative distance grows the shape by e = -d on every side,
// as CGA's offset does with a positive one (OperatorGraph's Offset only
// insets, and procgen keeps its sign for insets). The grown shape goes to
// the first branch (child 0), the ring between the shape's outline and the
// grown one to the second: on a rectangle the strips front, right, back,
// left (children 1 to 4; front and back run across the corners: ops.go's
// offsetBands), on a lot's polygon one strip per edge (child k+e). Unlike CGA's
// border faces, which it turns clockwise so that inside plus border is
// the original as signed areas, the ring's faces face up as every other
// piece does, so that extruding them builds a wall, a kerb or a pavement.

// outsetCut is Offset(-e) of footprint fp sized sx by sy: the grown
// polygon (in pieces where holes close or new ones form, children
// 0..k-1) to the first branch, each edge's strip of the outside's
// skeleton (child k+e, edges numbered outer ring first) to the second.
func outsetCut(fp *footprint, sx, sy, e float64) (polygonCut, error) {
	rings := scaledRings(fp, sx, sy)
	grown, strips, err := skeleton.Outset(rings[0], rings[1:], e)
	if err != nil {
		return polygonCut{}, err
	}
	return cutOf(pieceSet{grown, 0, 0}, pieceSet{edgePolys(strips, nil), len(grown), 1}), nil
}
