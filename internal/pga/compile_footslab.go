package pga

// SubDiv across a lot's own polygon on the device takes slabs the host cut
// before it ran, as Offset and Setback take their pieces
// (compile_footcut.go): for every footprint a shape may stand on when it
// meets the SubDiv, at the footprint's size, with the branches' sizes on
// that lot (constants, or made of the lot's attributes: lotExpr). Each
// part of each slab is a piece, framed and registered as the CPU frames
// and registers it (polygonSlab), so the terminals carry the CPU's
// profile numbers and seeds.

// slabCut is SubDiv op on footprint fp sized sx by sy, its branches'
// sizes read on a lot whose values are vals: every part of the polygon ∩
// each slab, child and branch k for slab k, among one child per branch.
// A cut along X is the same for a Quad and a prism; along Y it is a
// Quad's (whose other ground axis is Y), along Z a prism's (-Z).
func slabCut(fp *footprint, sx, sy float64, op *Op, vals lotValues) (polygonCut, error) {
	axis := op.Args[0].Axis
	ext, vSign := sx, 1.0
	switch axis {
	case AxisY:
		ext = sy
	case AxisZ:
		ext, vSign = sy, -1
	}
	sizes, emit := subdivSizes(op, ext, func(e Expr) float64 {
		v, _ := lotExpr(e, vals)
		return v
	})
	cut := polygonCut{n: len(sizes)}
	pos := -ext / 2
	for k, w := range sizes {
		if emit[k] {
			parts, err := footprintSlab(fp, sx, sy, axis == AxisX, vSign, tile{pos + w/2, w})
			if err != nil {
				return cut, err
			}
			for j, p := range parts {
				cut.pieces = append(cut.pieces, cutPiece{rings: p, child: k, branch: k, part: j})
			}
		}
		pos += w
	}
	return cut, nil
}

// slabAcross says whether SubDiv op cuts across the polygon of a shape in
// footprint state st (compile_footprint.go) that stands on one: along X
// for a Quad or a prism, along Y for a Quad, along Z for a prism.
func slabAcross(op *Op, st uint8) bool {
	if op.Kind != OpSubDiv {
		return false
	}
	switch op.Args[0].Axis {
	case AxisX:
		return st&(onQuad|onBox) != 0
	case AxisY:
		return st&onQuad != 0
	}
	return st&onBox != 0
}

// slabSizesKnown says whether the host knows each of op's branch sizes on
// every lot before the device runs (lotExpr), "" when it does, else why
// not.
func slabSizesKnown(op *Op) string {
	if len(op.Args) > 1 {
		return "slabs snapped to planes of the context"
	}
	for _, b := range op.Branches {
		if _, ok := lotExpr(b.Weight, lotValues{}); !ok {
			return "slabs whose sizes are neither constants nor made of a lot's attributes"
		}
	}
	return ""
}
