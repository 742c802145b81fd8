package pga

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/pga/skeleton"
)

// Offset with a negative distance grows the shape by e = -d on every side,
// as CGA's offset does with a positive one (OperatorGraph's Offset only
// insets, and procgen keeps its sign for insets). The grown shape goes to
// the first branch (child 0), the ring between the shape's outline and the
// grown one to the second: on a rectangle the strips front, right, back,
// left (children 1 to 4; front and back take the corners, as the inset's
// do), on a lot's polygon one strip per edge (child k+e). Unlike CGA's
// border faces, which it turns clockwise so that inside plus border is
// the original as signed areas, the ring's faces face up as every other
// piece does, so that extruding them builds a wall, a kerb or a pavement.

// outsetRect is Offset(-e) on a rectangular Quad or Box.
func (ev *evaluator) outsetRect(r *Rule, op *Op, s Shape, axis Axis, sign, e float64, depth int) error {
	w, h := s.Size[AxisX], s.Size[axis]
	grown := piece(piece(s, AxisX, 0, w+2*e, 0, 5), axis, 0, h+2*e, 0, 5)
	if err := ev.sub(r, op.Branches[0].Body, 0, grown, depth); err != nil {
		return err
	}
	front := piece(s, axis, sign*(h+e)/2, e, 1, 5)
	front.Size[AxisX] = w + 2*e
	back := piece(s, axis, -sign*(h+e)/2, e, 3, 5)
	back.Size[AxisX] = w + 2*e
	right := piece(s, AxisX, (w+e)/2, e, 2, 5)
	left := piece(s, AxisX, -(w+e)/2, e, 4, 5)
	for _, c := range []Shape{front, right, back, left} {
		if c.Size[AxisX] > 0 && c.Size[axis] > 0 {
			if err := ev.sub(r, op.Branches[1].Body, 0, c, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// outsetPolygon is Offset(-e) on a shape standing on footprint fp: the
// grown polygon (in pieces where holes close or new ones form, children
// 0..k-1) to the first branch, each edge's strip of the outside's
// skeleton (child k+e, edges numbered outer ring first) to the second.
func (ev *evaluator) outsetPolygon(r *Rule, op *Op, s Shape, fp *footprint, e float64, depth int) error {
	vAxis, vSign := groundAxes(&s)
	rings := scaledRings(fp, s.Size[AxisX], s.Size[vAxis])
	grown, strips, err := skeleton.Outset(rings[0], rings[1:], e)
	if err != nil {
		return &LotOpError{Lot: int(s.Lot), Err: fmt.Errorf("rule %q at %s: Offset on the lot's polygon: %w", r.Name, op.Pos, err)}
	}
	n := len(grown) + len(strips)
	return ev.emitPieces(r, op, s, vAxis, vSign, []pieceSet{
		{grown, 0, op.Branches[0].Body}, {edgePolys(strips, nil), len(grown), op.Branches[1].Body}}, n, depth, "Offset")
}
