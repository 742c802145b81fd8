package pga

import (
	"errors"
	"fmt"
	"math"
)

// prismSplit splits a right prism (a Box with a profile) as OperatorGraph
// does: the +Y cap to the first branch, the -Y cap to the second, one
// rectangle per profile edge to the third. Profile point (u, v) of the unit
// square sits at local (u·x, ±y/2, -v·z). Caps are Quads framed as a Box's
// (top: RotationX(-90), bottom: RotationX(90)) carrying the profile, the
// bottom one mirrored in v (as seen from below). Side i is the edge from
// point i-1 to point i: local X along the edge, Y along the prism's +Y, Z
// pointing out. Child indices: 0 top, 1 bottom, 2+i side i. A lot
// footprint's holes follow its outer ring, their sides facing into the hole.
func (ev *evaluator) prismSplit(r *Rule, op *Op, s Shape, depth int) error {
	rings := ev.g.profileRings(s.Profile)
	n := 2
	for _, ring := range rings {
		n += len(ring)
	}
	x, y, z := s.Size[0], s.Size[1], s.Size[2]
	top := child(s, 0, n)
	top.Kind = Quad
	top.Transform = s.Transform.Mul(Translation(Vec3{0, y / 2, 0})).Mul(RotationX(-90))
	top.Size = Vec3{x, z, 0}
	if err := ev.sub(r, op.Branches[0].Body, 0, top, depth); err != nil {
		return err
	}
	bottom := child(s, 1, n)
	bottom.Kind = Quad
	bottom.Profile = s.Profile + 1
	bottom.Transform = s.Transform.Mul(Translation(Vec3{0, -y / 2, 0})).Mul(RotationX(90))
	bottom.Size = Vec3{x, z, 0}
	if err := ev.sub(r, op.Branches[1].Body, 0, bottom, depth); err != nil {
		return err
	}
	side := 2
	for _, pts := range rings {
		for i, q := range pts {
			p := pts[(i+len(pts)-1)%len(pts)]
			ax, az := p[0]*x, -p[1]*z
			dx, dz := q[0]*x-ax, -q[1]*z-az
			l := math.Hypot(dx, dz)
			side++
			if l == 0 {
				continue
			}
			dx, dz = dx/l, dz/l
			frame := Mat4{dx, 0, -dz, ax + dx*l/2, 0, 1, 0, 0, dz, 0, dx, az + dz*l/2, 0, 0, 0, 1}
			c := child(s, side-1, n)
			c.Kind, c.Profile = Quad, 0
			c.Transform = s.Transform.Mul(frame)
			c.Size = Vec3{l, y, 0}
			if err := ev.sub(r, op.Branches[2].Body, 0, c, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// front is the local axis and sign of a footprint's street side: -Y of a
// Quad lying on its lot, +Z of a Box standing on it (the lot frames of
// LotAxiom). The footprint's other ground axis is X in both.
func front(s *Shape) (axis Axis, sign float64, err error) {
	if s.Profile != 0 || s.Roof != NoRoof {
		return 0, 0, errors.New("needs a rectangular Quad or Box")
	}
	if s.Kind == Quad {
		return AxisY, -1, nil
	}
	return AxisZ, 1, nil
}

// setback cuts a strip of depth d off the street side of a footprint: the
// strip to the first branch (child 0), the rest to the second (child 1).
func (ev *evaluator) setback(r *Rule, op *Op, s Shape, depth int) error {
	if fp := ev.g.footprintOf(s.Profile); fp != nil && s.Roof == NoRoof {
		return ev.setbackPolygon(r, op, s, fp, depth)
	}
	axis, sign, err := front(&s)
	if err != nil {
		return fmt.Errorf("rule %q at %s: Setback %w", r.Name, op.Pos, err)
	}
	d := op.Args[0].Expr.Eval(ev.env(&s))
	ext := s.Size[axis]
	d = math.Min(math.Max(d, 0), ext)
	if d > 0 {
		if err := ev.sub(r, op.Branches[0].Body, 0, piece(s, axis, sign*(ext-d)/2, d, 0, 2), depth); err != nil {
			return err
		}
	}
	if rest := ext - d; rest > 0 {
		return ev.sub(r, op.Branches[1].Body, 0, piece(s, axis, -sign*d/2, rest, 1, 2), depth)
	}
	return nil
}

// offset insets a footprint by d on every side: the inner rectangle to the
// first branch (child 0), the border strips to the second: front, right,
// back, left (children 1 to 4). Strips of no extent are dropped. A
// negative d grows it (outset.go); 0, NaN and -Inf leave it as it is.
func (ev *evaluator) offset(r *Rule, op *Op, s Shape, depth int) error {
	if fp := ev.g.footprintOf(s.Profile); fp != nil && s.Roof == NoRoof {
		return ev.offsetPolygon(r, op, s, fp, depth)
	}
	axis, sign, err := front(&s)
	if err != nil {
		return fmt.Errorf("rule %q at %s: Offset %w", r.Name, op.Pos, err)
	}
	d := op.Args[0].Expr.Eval(ev.env(&s))
	if !(d > 0) && !(d < 0 && !math.IsInf(d, -1)) {
		return ev.sub(r, op.Branches[0].Body, 0, child(s, 0, 5), depth)
	}
	b := offsetBands(s.Size[AxisX], s.Size[axis], d)
	if b.iw > 0 && b.ih > 0 {
		inner := piece(piece(s, AxisX, 0, b.iw, 0, 5), axis, 0, b.ih, 0, 5)
		if err := ev.sub(r, op.Branches[0].Body, 0, inner, depth); err != nil {
			return err
		}
	}
	fore := piece(s, axis, sign*b.fc, b.th, 1, 5)
	back := piece(s, axis, -sign*b.fc, b.th, 3, 5)
	fore.Size[AxisX], back.Size[AxisX] = b.fw, b.fw
	strips := []Shape{
		fore,
		piece(piece(s, AxisX, b.xc, b.tw, 2, 5), axis, 0, b.sl, 2, 5),
		back,
		piece(piece(s, AxisX, -b.xc, b.tw, 4, 5), axis, 0, b.sl, 4, 5),
	}
	for _, c := range strips {
		if c.Size[AxisX] > 0 && c.Size[axis] > 0 {
			if err := ev.sub(r, op.Branches[1].Body, 0, c, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// bands is how Offset cuts a w x h rectangle: the inner (or grown)
// rectangle iw x ih; the front and back strips th deep and fw wide, their
// centres fc from the middle; the right and left strips tw wide and sl
// long, their centres xc from it.
type bands struct{ iw, ih, fc, th, fw, xc, tw, sl float64 }

// offsetBands is Offset(d)'s bands: an inset by d (at most to the middle)
// for d > 0, an outset by -d for d < 0, where front and back run across
// the corners. cuda/pga_outputs.cuh cuts the same.
func offsetBands(w, h, d float64) bands {
	if d < 0 {
		e := -d
		return bands{iw: w + 2*e, ih: h + 2*e, fc: (h + e) / 2, th: e, fw: w + 2*e, xc: (w + e) / 2, tw: e, sl: h}
	}
	dw, dh := math.Min(d, w/2), math.Min(d, h/2)
	return bands{iw: w - 2*dw, ih: h - 2*dh, fc: (h - dh) / 2, th: dh, fw: w, xc: (w - dw) / 2, tw: dw, sl: h - 2*dh}
}

// roof turns a flat footprint (a rectangular Quad, +Z up) into a roof solid
// whose slopes rise at angle degrees: a Box of the footprint's size with
// the roof's height along local Z, standing on the footprint. Gable and hip
// ridges run along the longer side; a shed rises across the shorter one,
// from the -Y (or -X) edge; a pyramid rises to the centre.
func roof(s *Shape, kind RoofKind, angle float64) error {
	if s.Kind != Quad || s.Profile != 0 {
		//lint:ignore ST1005 Roof is the grammar operation's name, as in the CUDA backend's message
		return errors.New("Roof needs a rectangular Quad (a footprint or a top face)")
	}
	if !(angle > 0 && angle < 90) {
		//lint:ignore ST1005 Roof is the grammar operation's name
		return fmt.Errorf("Roof angle %g: want degrees between 0 and 90", angle)
	}
	short := math.Min(s.Size[0], s.Size[1])
	run := short / 2
	if kind == Shed {
		run = short
	}
	h := math.Tan(angle*math.Pi/180) * run
	s.Transform = s.Transform.Mul(Translation(Vec3{0, 0, h / 2}))
	s.Kind, s.Roof, s.Size[2] = Box, kind, h
	return nil
}

// extrude turns a Quad (or a polygon) into a Box (or a right prism) as
// OperatorGraph's Extrude does: the solid's local +Y is the face's normal
// (+Z), its +Z the face's -Y, its size (x, h, y), and it is centred on the
// face, half of it behind. A Box only takes the new height along Y.
func extrude(s *Shape, h float64) {
	if s.Kind == Quad {
		s.Transform = s.Transform.Mul(RotationX(90))
		s.Kind = Box
		s.Size = Vec3{s.Size[0], h, s.Size[1]}
		return
	}
	s.Size[1] = h
}
