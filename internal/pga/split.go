package pga

import (
	"fmt"
	"math"
	"slices"

	"github.com/procgen-dev/procgen/internal/rng"
)

// shapeEnv answers expression queries about a shape.
type shapeEnv struct {
	s  *Shape
	ev *evaluator
}

func (e shapeEnv) ShapeSize(a Axis) float64     { return e.s.Size[a] }
func (e shapeEnv) ShapePosition(a Axis) float64 { return e.s.Transform[int(a)*4+3] }

// ShapeNormal is the world direction of the local +Z axis: the outward
// normal of a face made by CompSplit.
func (e shapeEnv) ShapeNormal(a Axis) float64 { return e.s.Transform[int(a)*4+2] }

// ShapeFrame is OperatorGraph's ShapeRotation(axis, comp): the world
// component comp of the local axis (an element of the rotation).
func (e shapeEnv) ShapeFrame(axis, comp Axis) float64 { return e.s.Transform[int(comp)*4+int(axis)] }

// ShapeSeed is a number in [0, 1) hashed from the shape's seed, so small
// axiom seeds still give well spread values.
func (e shapeEnv) ShapeSeed() float64 { return rng.Float64(rng.Hash64(e.s.Seed, seedStream)) }

const seedStream = 0x5EED_5EED

func (e shapeEnv) ShapeCustomAttribute() float64 { return e.s.Attr }
func (e shapeEnv) ShapeIndex() float64           { return float64(e.s.Index) }
func (e shapeEnv) ShapeSiblings() float64        { return float64(e.s.Siblings) }

func (e shapeEnv) LotAttr(i int, def float64) float64 {
	if v := e.ev.attrs[i]; !math.IsNaN(v) {
		return v
	}
	return def
}

func (e shapeEnv) Query(q QueryKind, group int) float64 {
	return bool01(e.ev.view.query(q, group, e.s))
}

func (e shapeEnv) Related(q QueryKind, link int) float64 {
	if e.ev == nil {
		return 0
	}
	return bool01(e.ev.related(q, link, e.s))
}

// piece is the i-th of n pieces of s: cut to length size along axis,
// centred at offset.
func piece(s Shape, axis Axis, offset, size float64, i, n int) Shape {
	c := child(s, i, n)
	var t Vec3
	t[axis] = offset
	c.Transform = s.Transform.Mul(Translation(t))
	c.Size[axis] = size
	return c
}

// subdiv lays the branches out from the low end of axis: positive sizes are
// absolute, negative ones share what the absolute ones leave in proportion
// to their magnitude. As in OperatorGraph (Subdivide.cuh) every branch whose
// size expression is not 0 gets a piece, also one of no extent (a relative
// piece with nothing left); a branch of size 0 (or NaN) is skipped. Where the
// absolute sizes pass the extent OperatorGraph stops (its dynamic path) or
// makes pieces of negative size (its static one); procgen gives the relative
// pieces no extent.
func (ev *evaluator) subdiv(r *Rule, op *Op, s Shape, depth int) error {
	axis := op.Args[0].Axis
	env := ev.env(&s)
	sizes, emit := subdivSizes(op, s.Size[axis], func(e Expr) float64 { return e.Eval(env) })
	if len(op.Args) > 1 {
		ev.snapSizes(op.Args[1].Group, &s, axis, sizes)
	}
	pos := -s.Size[axis] / 2
	fp := ev.slabFootprint(&s, axis) // split_polygon.go
	for k, b := range op.Branches {
		w := sizes[k]
		var err error
		switch {
		case !emit[k]:
		case fp != nil:
			err = ev.polygonSlab(r, op, b.Body, 0, s, fp, axis, tile{pos + w/2, w}, k, len(sizes), depth)
		default:
			err = ev.sub(r, b.Body, 0, piece(s, axis, pos+w/2, w, k, len(sizes)), depth)
		}
		if err != nil {
			return err
		}
		pos += w
	}
	return nil
}

// subdivSizes is the size of each of op's branches along an extent of ext,
// its weights' values given by weight, and whether it makes a piece.
func subdivSizes(op *Op, ext float64, weight func(Expr) float64) ([]float64, []bool) {
	sizes := make([]float64, len(op.Branches))
	var abs, rel float64
	for k, b := range op.Branches {
		w := weight(b.Weight)
		if math.IsNaN(w) {
			w = 0
		}
		sizes[k] = w
		if w < 0 {
			rel -= w
		} else {
			abs += w
		}
	}
	emit := make([]bool, len(sizes))
	left := math.Max(0, ext-abs)
	for k, w := range sizes {
		emit[k] = w != 0
		if w < 0 {
			sizes[k] = left * -w / rel
		}
	}
	return sizes, emit
}

// snapSizes moves each inner cut of a split to the nearest snap plane of
// group within half the smaller of the two pieces beside it; cuts never
// pass each other.
func (ev *evaluator) snapSizes(group int, s *Shape, axis Axis, sizes []float64) {
	lo := -s.Size[axis] / 2
	cuts := make([]float64, len(sizes)+1)
	cuts[0] = lo
	for k, w := range sizes {
		cuts[k+1] = cuts[k] + w
	}
	moved := slices.Clone(cuts)
	for k := 1; k < len(cuts)-1; k++ {
		reach := math.Min(cuts[k]-cuts[k-1], cuts[k+1]-cuts[k]) / 2
		if t, ok := ev.view.nearestSnap(group, s, axis, cuts[k]); ok && math.Abs(t-cuts[k]) <= reach {
			moved[k] = math.Min(math.Max(t, moved[k-1]), cuts[len(cuts)-1])
		} else {
			moved[k] = math.Max(cuts[k], moved[k-1])
		}
	}
	for k := range sizes {
		sizes[k] = moved[k+1] - moved[k]
	}
}

// repeat tiles axis with copies of about the given size, each running the
// rest of the chain. A negative size is a fraction of the extent. A size
// that is not positive makes nothing (OperatorGraph stops with an error).
func (ev *evaluator) repeat(r *Rule, c *Chain, at int, s Shape, depth int) error {
	op := c.Ops[at]
	axis := op.Args[0].Axis
	ext := s.Size[axis]
	w, mode, ok := repeatSize(op, ext, op.Args[1].Expr.Eval(ev.env(&s)))
	if !ok {
		return nil
	}
	// With a snap group, the planes inside the extent cut it into spans
	// that are tiled one by one, so tiles line up with the planes.
	bounds := []float64{-ext / 2, ext / 2}
	if len(op.Args) > 3 {
		cuts := ev.view.snapCuts(op.Args[3].Group, &s, axis)
		bounds = append(append([]float64{-ext / 2}, cuts...), ext/2)
	}
	var tiles []tile
	for b := 1; b < len(bounds); b++ {
		lo, hi := bounds[b-1], bounds[b]
		n, _, _ := spanTiles(hi-lo, w, mode)
		if n+float64(len(tiles)) > float64(ev.opt.MaxShapes) {
			return fmt.Errorf("rule %q: Repeat makes %.0f shapes, more than MaxShapes %d: %w", r.Name, n, ev.opt.MaxShapes, ErrLimit)
		}
		for k := 0; k < int(n); k++ {
			tiles = append(tiles, spanTile(lo, hi-lo, w, mode, k))
		}
	}
	fp := ev.slabFootprint(&s, axis) // split_polygon.go
	for k, t := range tiles {
		var err error
		if fp != nil {
			err = ev.polygonSlab(r, op, c, at+1, s, fp, axis, t, k, len(tiles), depth)
		} else {
			err = ev.sub(r, c, at+1, piece(s, axis, t.centre, t.size, k, len(tiles)), depth)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// repeatSize is the tile size of Repeat op along an extent ext whose size
// argument is v (a negative one a fraction of the extent) and its mode;
// ok is false where it makes nothing.
func repeatSize(op *Op, ext, v float64) (w float64, mode RepeatMode, ok bool) {
	w = v
	if w < 0 {
		w *= -ext
	}
	mode = AdjustToFill
	if len(op.Args) > 2 {
		mode = op.Args[2].Mode
	}
	ok = w > 0 && ext >= 0 && !math.IsInf(ext, 0) && !math.IsInf(w, 0)
	return w, mode, ok
}

// spanTiles is how many tiles Repeat lays on a span of length span with
// tiles of size w > 0, as OperatorGraph does (Repeat.cuh): ADJUST_TO_FILL
// makes floor(span/w) tiles stretched to fill, and one tile of no extent at
// the low end when not even one fits; the anchored modes make
// ceil(span/w) tiles, the last (ANCHOR_TO_END) or first (ANCHOR_TO_START)
// one short, and one whole tile when the span is empty. whole is the count
// of whole tiles, floor(span/w) up to rounding. Always at least one tile.
func spanTiles(span, w float64, mode RepeatMode) (n, whole float64, short bool) {
	whole = math.Floor(span/w + 1e-9)
	n = whole
	if short = mode != AdjustToFill && span-whole*w > 1e-9*w; short {
		n++
	}
	return math.Max(n, 1), whole, short
}

// spanTile is tile k of a span starting at lo (spanTiles). OperatorGraph
// lays the first tile with the mode's start size, then whole tiles, then
// the end size, so when a single tile is made ANCHOR_TO_END gives it a whole
// tile's size (hanging over the span's high end) and ANCHOR_TO_START the
// rest; an empty span gets one whole tile in both.
func spanTile(lo, span, w float64, mode RepeatMode, k int) tile {
	n, whole, short := spanTiles(span, w, mode)
	if mode == AdjustToFill {
		if whole < 1 {
			return tile{lo, 0}
		}
		tw := span / whole
		return tile{lo + (float64(k)+0.5)*tw, tw}
	}
	rest := span - whole*w
	first := w // the start size: a whole tile, or the rest at the start
	if mode == AnchorToStart && short {
		first = rest
	}
	if k == 0 {
		return tile{lo + first/2, first}
	}
	if mode == AnchorToEnd && short && float64(k) == n-1 {
		return tile{lo + first + float64(k-1)*w + rest/2, rest}
	}
	return tile{lo + first + (float64(k)-0.5)*w, w}
}

type tile struct{ centre, size float64 }

// compSplit splits a Box into its faces as OperatorGraph does: the top
// face (+Y) to the first branch, the bottom face (-Y) to the second and the
// four sides (back -Z, front +Z, left -X, right +X) to the third. Faces are
// quads in their local XY plane with +Z pointing out; side faces keep Y up,
// the top face's Y is the box's -Z. Child indices (and seeds) are 0 top,
// 1 bottom, 2..5 back, front, left, right.
func (ev *evaluator) compSplit(r *Rule, op *Op, s Shape, depth int) error {
	if s.Kind == Quad {
		return fmt.Errorf("rule %q at %s: CompSplit needs a Box, found a Quad", r.Name, op.Pos)
	}
	if fp := ev.g.footprintOf(s.Profile); fp != nil && s.Roof != NoRoof {
		return ev.roofSplit(r, op, s, fp, depth)
	}
	if s.Roof != NoRoof {
		return ev.rectRoofSplit(r, op, s, depth)
	}
	if s.Profile != 0 {
		return ev.prismSplit(r, op, s, depth)
	}
	x, y, z := s.Size[0], s.Size[1], s.Size[2]
	faces := [6]struct {
		branch int
		m      Mat4
		w, h   float64
	}{
		{0, Translation(Vec3{0, y / 2, 0}).Mul(RotationX(-90)), x, z},
		{1, Translation(Vec3{0, -y / 2, 0}).Mul(RotationX(90)), x, z},
		{2, Translation(Vec3{0, 0, -z / 2}).Mul(RotationY(180)), x, y},
		{2, Translation(Vec3{0, 0, z / 2}), x, y},
		{2, Translation(Vec3{-x / 2, 0, 0}).Mul(RotationY(-90)), z, y},
		{2, Translation(Vec3{x / 2, 0, 0}).Mul(RotationY(90)), z, y},
	}
	for k, f := range faces {
		c := child(s, k, len(faces))
		c.Kind = Quad
		c.Transform = s.Transform.Mul(f.m)
		c.Size = Vec3{f.w, f.h, 0}
		if err := ev.sub(r, op.Branches[f.branch].Body, 0, c, depth); err != nil {
			return err
		}
	}
	return nil
}

// random picks one branch with probability proportional to its weight. The
// draw is a hash of the seed expression's value, so RandomRule(ShapeSeed())
// varies per shape while RandomRule(ShapeCustomAttribute()) makes the same
// choice across an axiom. Weights that are not positive never win; when none
// is positive the shape is dropped.
func (ev *evaluator) random(r *Rule, op *Op, s Shape, depth int) error {
	env := ev.env(&s)
	v := op.Args[0].Expr.Eval(env)
	u := rng.Float64(rng.Hash64(math.Float64bits(v), 0))
	ws := make([]float64, len(op.Branches))
	var sum float64
	for k, b := range op.Branches {
		if w := b.Weight.Eval(env); w > 0 && !math.IsInf(w, 0) {
			ws[k] = w
			sum += w
		}
	}
	if !(sum > 0) {
		return nil
	}
	u *= sum
	pick := -1
	for k, w := range ws {
		if w <= 0 {
			continue
		}
		pick = k
		if u < w {
			break
		}
		u -= w
	}
	return ev.sub(r, op.Branches[pick].Body, 0, reseed(s, pick), depth)
}
