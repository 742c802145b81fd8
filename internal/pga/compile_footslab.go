package pga

import "fmt"

// SubDiv and Repeat across a lot's own polygon on the device take slabs
// the host cut before it ran, as Offset and Setback take their pieces
// (compile_footcut.go): for every footprint a shape may stand on when it
// meets the op, at the footprint's size, with the sizes on that lot
// (constants, or made of the lot's attributes and size: hostExpr). Each part of each
// slab is a piece, framed and registered as the CPU frames and registers
// it (polygonSlab), so the terminals carry the CPU's profile numbers and
// seeds. A SubDiv's pieces go to their slab's branch, a Repeat's go on
// with the rest of its chain (branch -1).

// maxSlabTiles is the most tiles the host cuts a footprint into for one
// Repeat; a grammar that asks for more runs on the CPU.
const maxSlabTiles = 1 << 16

// slabCut is SubDiv or Repeat op on footprint fp sized env.sx by env.sy,
// its sizes read on a lot whose values are env.vals: every part of the polygon ∩
// each slab, child k (and branch k for a SubDiv) for slab k, among one
// child per branch or tile. A cut along X is the same for a Quad and a
// prism; along Y it is a Quad's (whose other ground axis is Y), along Z a
// prism's (-Z).
func slabCut(fp *footprint, op *Op, env cutEnv) (polygonCut, error) {
	sx, sy := env.sx, env.sy
	axis := op.Args[0].Axis
	ext, vSign := sx, 1.0
	switch axis {
	case AxisY:
		ext = sy
	case AxisZ:
		ext, vSign = sy, -1
	}
	read := func(e Expr) float64 {
		v, _ := hostExpr(e, env, allAxes)
		return v
	}
	type slab struct {
		t             tile
		child, branch int
	}
	var slabs []slab
	var cut polygonCut
	if op.Kind == OpRepeat {
		if w, mode, ok := repeatSize(op, ext, read(op.Args[1].Expr)); ok {
			n, _, _ := spanTiles(ext, w, mode)
			if n > maxSlabTiles {
				return cut, fmt.Errorf("%.0f tiles, more than the %d the host cuts a polygon into", n, maxSlabTiles)
			}
			for k := range int(n) {
				slabs = append(slabs, slab{spanTile(-ext/2, ext, w, mode, k), k, -1})
			}
		}
		cut.n = len(slabs)
	} else {
		sizes, emit := subdivSizes(op, ext, read)
		pos := -ext / 2
		for k, w := range sizes {
			if emit[k] {
				slabs = append(slabs, slab{tile{pos + w/2, w}, k, k})
			}
			pos += w
		}
		cut.n = len(sizes)
	}
	for _, sl := range slabs {
		parts, err := footprintSlab(fp, sx, sy, axis == AxisX, vSign, sl.t)
		if err != nil {
			return cut, err
		}
		for j, p := range parts {
			cut.pieces = append(cut.pieces, cutPiece{rings: p, child: sl.child, branch: sl.branch, part: j})
		}
	}
	return cut, nil
}

// slabAcross says whether SubDiv or Repeat op cuts across the polygon of
// a shape in footprint state st (compile_footprint.go) that stands on
// one: along X for a Quad or a prism, along Y for a Quad, along Z for a
// prism.
func slabAcross(op *Op, st footState) bool {
	if op.Kind != OpSubDiv && op.Kind != OpRepeat {
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

// slabState is the state of the slabs' parts SubDiv or Repeat op cuts of
// a shape in state st (slabAcross): a cut deeper; along Y or Z, a shape of
// the other kind splits along its height and stays whole as it was.
func slabState(op *Op, st footState) footState {
	cut := cutOnce(st)
	if op.Args[0].Axis != AxisX && st&onQuad != 0 && st&onBox != 0 {
		cut |= st
	}
	return cut
}

// slabSizesKnown says whether the host knows op's sizes on every lot
// before the device runs (hostExpr, on shapes in state st), "" when it
// does, else why not.
func slabSizesKnown(op *Op, st footState) string {
	if op.Kind == OpRepeat {
		if len(op.Args) > 3 {
			return "tiles snapped to planes of the context"
		}
		if _, ok := hostExpr(op.Args[1].Expr, cutEnv{}, knownAxes(st)); !ok {
			return "tiles whose size is not made of constants, a lot's attributes and its size in the polygon's plane"
		}
		return ""
	}
	if len(op.Args) > 1 {
		return "slabs snapped to planes of the context"
	}
	for _, b := range op.Branches {
		if _, ok := hostExpr(b.Weight, cutEnv{}, knownAxes(st)); !ok {
			return "slabs whose sizes are not made of constants, a lot's attributes and its size in the polygon's plane"
		}
	}
	return ""
}
