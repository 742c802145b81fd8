package pga

import (
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// shapeEnv answers expression queries about a shape.
type shapeEnv struct{ s *Shape }

func (e shapeEnv) ShapeSize(a Axis) float64     { return e.s.Size[a] }
func (e shapeEnv) ShapePosition(a Axis) float64 { return e.s.Transform[int(a)*4+3] }
func (e shapeEnv) ShapeRotation(a Axis) float64 { return e.s.Transform.eulerXYZ()[a] }

// ShapeNormal is the world direction of the local +Z axis: the outward
// normal of a face made by CompSplit.
func (e shapeEnv) ShapeNormal(a Axis) float64 { return e.s.Transform[int(a)*4+2] }

// ShapeSeed is a number in [0, 1) hashed from the shape's seed, so small
// axiom seeds still give well spread values.
func (e shapeEnv) ShapeSeed() float64 { return rng.Float64(rng.Hash64(e.s.Seed, seedStream)) }

const seedStream = 0x5EED_5EED

func (e shapeEnv) ShapeCustomAttribute() float64 { return e.s.Attr }

// piece is s cut to length size along axis, centred at offset.
func piece(s Shape, axis Axis, offset, size float64, i int) Shape {
	c := child(s, i)
	var t Vec3
	t[axis] = offset
	c.Transform = s.Transform.Mul(Translation(t))
	c.Size[axis] = size
	return c
}

// subdiv lays the branches out from the low end of axis: positive sizes are
// absolute, negative ones share what the absolute ones leave in proportion
// to their magnitude. Pieces of no extent are dropped.
func (ev *evaluator) subdiv(r *Rule, op *Op, s Shape, depth int) error {
	axis := op.Args[0].Axis
	env := shapeEnv{&s}
	sizes := make([]float64, len(op.Branches))
	var abs, rel float64
	for k, b := range op.Branches {
		w := b.Weight.Eval(env)
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
	left := math.Max(0, s.Size[axis]-abs)
	pos := -s.Size[axis] / 2
	for k, b := range op.Branches {
		w := sizes[k]
		if w < 0 {
			w = left * -w / rel
		}
		if w > 0 {
			if err := ev.sub(r, b.Body, 0, piece(s, axis, pos+w/2, w, k), depth); err != nil {
				return err
			}
		}
		pos += w
	}
	return nil
}

// repeat tiles axis with copies of about the given size, each running the
// rest of the chain. A negative size is a fraction of the extent.
func (ev *evaluator) repeat(r *Rule, c *Chain, at int, s Shape, depth int) error {
	op := c.Ops[at]
	axis := op.Args[0].Axis
	ext := s.Size[axis]
	w := op.Args[1].Expr.Eval(shapeEnv{&s})
	if w < 0 {
		w *= -ext
	}
	mode := AdjustToFill
	if len(op.Args) > 2 {
		mode = op.Args[2].Mode
	}
	if !(w > 0) || !(ext > 0) || math.IsInf(ext, 0) {
		return nil
	}
	nf := math.Floor(ext/w + 1e-9)
	if mode == AdjustToFill && nf < 1 {
		nf = 1
	}
	if nf > float64(ev.opt.MaxShapes) {
		return fmt.Errorf("rule %q: Repeat makes %.0f shapes, more than MaxShapes %d: %w", r.Name, nf, ev.opt.MaxShapes, ErrLimit)
	}
	n := int(nf)
	start := -ext / 2
	switch mode {
	case AdjustToFill:
		w = ext / nf
	case AnchorToEnd:
		start = ext/2 - nf*w
	}
	for k := 0; k < n; k++ {
		if err := ev.sub(r, c, at+1, piece(s, axis, start+(float64(k)+0.5)*w, w, k), depth); err != nil {
			return err
		}
	}
	return nil
}

// compSplit sends the top face to the first branch, the bottom face to the
// second and the four sides (front +Z, right +X, back -Z, left -X) to the
// third. Faces are quads in their local XY plane with +Z pointing out; side
// faces keep Y up. Child indices are 0 top, 1 bottom, 2..5 sides.
func (ev *evaluator) compSplit(r *Rule, op *Op, s Shape, depth int) error {
	if s.Kind == Quad {
		return fmt.Errorf("rule %q: CompSplit needs a Box, found a Quad", r.Name)
	}
	x, y, z := s.Size[0], s.Size[1], s.Size[2]
	faces := [6]struct {
		branch int
		m      Mat4
		w, h   float64
	}{
		{0, Translation(Vec3{0, y / 2, 0}).Mul(RotationX(-90)), x, z},
		{1, Translation(Vec3{0, -y / 2, 0}).Mul(RotationX(90)), x, z},
		{2, Translation(Vec3{0, 0, z / 2}), x, y},
		{2, Translation(Vec3{x / 2, 0, 0}).Mul(RotationY(90)), z, y},
		{2, Translation(Vec3{0, 0, -z / 2}).Mul(RotationY(180)), x, y},
		{2, Translation(Vec3{-x / 2, 0, 0}).Mul(RotationY(-90)), z, y},
	}
	for k, f := range faces {
		c := child(s, k)
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
	env := shapeEnv{&s}
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
	return ev.sub(r, op.Branches[pick].Body, 0, child(s, pick), depth)
}
