package pga

import (
	"errors"
	"fmt"
	"math"
)

// roofSplit is CompSplit of a roof on a lot's own polygon, as CGA's comp(f)
// on a roof: each slope to the first branch (top), the underside to the
// second (bottom), each vertical face (a gable, a shed's wall) to the third
// (side). Every face is a Quad on a polygon of its own, framed with X along
// its first edge (a slope's or a gable's eave, level), Z out of the roof
// and Y = Z × X (up the slope). Children are numbered in face order, the
// underside last.
//
// A face whose first edge is level has the same polygon, in the unit square
// of its bounding rectangle, at every height of the roof: raising the roof
// only stretches the face along its Y. So its profile is the one the roof
// gives at unit slope (faceProfiles), the same numbers whatever the
// roof's height, which is what lets the device take the faces' profiles
// from the host (compile_footsplit.go); only the frame, the centre and the
// size come from the roof as it stands. A face without a level first edge
// (a shed's slope) is cut at the roof's height.
func (ev *evaluator) roofSplit(r *Rule, op *Op, s Shape, fp *footprint, depth int) error {
	fail := func(err error) error {
		return &LotOpError{Lot: int(s.Lot), Err: fmt.Errorf("rule %q at %s: CompSplit of a %s roof on the lot's polygon: %w", r.Name, op.Pos, s.Roof, err)}
	}
	roof, err := footprintRoof(fp, s.Roof, s.Size[0], s.Size[1])
	if err != nil {
		return fail(err)
	}
	var profs []faceProfile
	if s.Size[2] > 0 {
		if profs, err = ev.g.faceProfiles(roof); err != nil {
			return fail(err)
		}
	}
	sd := roof.solid(s.Size[2])
	n := len(roof.parts) + 1
	for i, part := range roof.parts {
		var c Shape
		var ok bool
		if profs != nil && profs[i].level {
			c, ok = faceAt(s, sd.corners, part.rings, profs[i].prof, i, n)
		} else {
			c, ok, err = ev.facePiece(s, sd.corners, part.rings, i, n)
			if err != nil {
				return fail(err)
			}
		}
		if !ok {
			continue
		}
		branch := 0
		if part.side {
			branch = 2
		}
		if err := ev.sub(r, op.Branches[branch].Body, 0, c, depth); err != nil {
			return err
		}
	}
	// The underside seen from below: the footprint mirrored in v, as the
	// bottom cap of a prism.
	prof, err := ev.g.dyn.add(mirrorRings(fp.rings))
	if err != nil {
		return fail(err)
	}
	b := child(s, n-1, n)
	b.Kind, b.Roof, b.Profile = Quad, NoRoof, prof
	b.Transform = s.Transform.Mul(Translation(Vec3{0, 0, -s.Size[2] / 2})).Mul(RotationX(180))
	b.Size = Vec3{s.Size[0], s.Size[1], 0}
	return ev.sub(r, op.Branches[1].Body, 0, b, depth)
}

// faceProfile is a roof face's profile as the roof gives it at unit
// slope (0 for a face of no extent there), and whether the face's first
// edge is level, so that the profile holds at every height.
type faceProfile struct {
	prof  int32
	level bool
}

// faceProfiles registers the profile of each of roof's faces (its parts)
// at unit slope.
func (g *Grammar) faceProfiles(roof *polyRoof) ([]faceProfile, error) {
	sd := roof.solid(roof.top())
	out := make([]faceProfile, len(roof.parts))
	for i, part := range roof.parts {
		ring := part.rings[0]
		out[i].level = roof.h[ring[0]] == roof.h[ring[1]]
		_, _, _, _, flat := faceFrame(sd.corners, part.rings)
		prof, _, _, ok, err := g.piece(flat)
		if err != nil {
			return nil, err
		}
		if ok {
			out[i].prof = prof
		}
	}
	return out, nil
}

// faceAt is child i of n of roof s: the planar face through corners rings
// as a Quad on profile prof (0: none, no child), its size and centre those
// of its outer ring's bounding rectangle in the face's frame (as
// Grammar.piece gives them); ok is false where the face has no extent.
func faceAt(s Shape, corners []Vec3, rings [][]int, prof int32, i, n int) (Shape, bool) {
	o, ex, ey, ez, flat := faceFrame(corners, rings[:1])
	lo, hi := ringBox(flat[0])
	w, h := hi[0]-lo[0], hi[1]-lo[1]
	if prof == 0 || !(w > 0 && h > 0) {
		return Shape{}, false
	}
	c := [2]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2}
	return placeFace(s, o, ex, ey, ez, prof, c, [2]float64{w, h}, i, n), true
}

// facePiece is child i of n of roof s: the planar face through corners
// rings (the outer ring first) as a Quad on its own polygon.
func (ev *evaluator) facePiece(s Shape, corners []Vec3, rings [][]int, i, n int) (Shape, bool, error) {
	o, ex, ey, ez, flat := faceFrame(corners, rings)
	prof, c, size, ok, err := ev.g.piece(flat)
	if !ok || err != nil {
		return Shape{}, false, err
	}
	return placeFace(s, o, ex, ey, ez, prof, c, size, i, n), true, nil
}

// faceFrame frames the planar face through corners rings: o its first
// corner, X along its first edge, Z its Newell normal, Y = Z × X; flat
// is each ring's corners in that X and Y.
func faceFrame(corners []Vec3, rings [][]int) (o, ex, ey, ez Vec3, flat [][][2]float64) {
	o = corners[rings[0][0]]
	ex = minus3(corners[rings[0][1]], o)
	if l := math.Sqrt(dot(ex, ex)); l > 0 {
		ex = Vec3{ex[0] / l, ex[1] / l, ex[2] / l}
	}
	ez = newell(corners, rings[0])
	ey = cross3(ez, ex)
	flat = make([][][2]float64, len(rings))
	for k, ring := range rings {
		q := make([][2]float64, len(ring))
		for j, c := range ring {
			d := minus3(corners[c], o)
			q[j] = [2]float64{dot(d, ex), dot(d, ey)}
		}
		flat[k] = q
	}
	return o, ex, ey, ez, flat
}

// placeFace is child i of n of s: a Quad on profile prof, centred at c in
// the face's frame (o, ex, ey, ez) and of that size.
func placeFace(s Shape, o, ex, ey, ez Vec3, prof int32, c, size [2]float64, i, n int) Shape {
	p := Vec3{o[0] + c[0]*ex[0] + c[1]*ey[0], o[1] + c[0]*ex[1] + c[1]*ey[1], o[2] + c[0]*ex[2] + c[1]*ey[2]}
	frame := Mat4{ex[0], ey[0], ez[0], p[0], ex[1], ey[1], ez[1], p[1], ex[2], ey[2], ez[2], p[2], 0, 0, 0, 1}
	ch := child(s, i, n)
	ch.Kind, ch.Roof, ch.Profile = Quad, NoRoof, prof
	ch.Transform = s.Transform.Mul(frame)
	ch.Size = Vec3{size[0], size[1], 0}
	return ch
}

func minus3(a, b Vec3) Vec3 { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// rectRoofSplit is CompSplit of a roof over a rectangle (roofSolid), as
// roofSplit does on a lot's polygon: each slope to the first branch, the
// underside (a plain rectangle facing down) to the second, each vertical
// face (a gable, a shed's back wall and sides) to the third. Every face but
// the underside is a Quad on a polygon of its own, framed with X along its
// eave; children are numbered in roofSolid's face order, the underside
// last. The faces of a GABLE, SHED or PYRAMID roof have the same polygons,
// in their bounding rectangles' unit squares, at every size
// (rectFaceProfiles), which is what lets the device split them too.
func (ev *evaluator) rectRoofSplit(r *Rule, op *Op, s Shape, depth int) error {
	fail := func(err error) error {
		return fmt.Errorf("rule %q at %s: CompSplit of a %s roof: %w", r.Name, op.Pos, s.Roof, err)
	}
	sd := roofSolid(s.Roof, s.Size[0]/2, s.Size[1]/2, s.Size[2]/2)
	faces := sd.faces[1:] // face 0 is the base
	n := len(faces) + 1
	var profs []int32
	var err error
	if rectFacesFit(s.Size) {
		if profs, err = ev.g.rectFaceProfiles(s.Roof); err != nil {
			return fail(err)
		}
	}
	for i, f := range faces {
		var c Shape
		var ok bool
		if profs != nil {
			c, ok = faceAt(s, sd.corners, [][]int{f}, profs[i], i, n)
		} else if c, ok, err = ev.facePiece(s, sd.corners, [][]int{f}, i, n); err != nil {
			return fail(err)
		}
		if !ok {
			continue
		}
		branch := 0
		if math.Abs(newell(sd.corners, f)[2]) < 1e-9 {
			branch = 2
		}
		if err := ev.sub(r, op.Branches[branch].Body, 0, c, depth); err != nil {
			return err
		}
	}
	b := child(s, n-1, n)
	b.Kind, b.Roof = Quad, NoRoof
	b.Transform = s.Transform.Mul(Translation(Vec3{0, 0, -s.Size[2] / 2})).Mul(RotationX(180))
	b.Size = Vec3{s.Size[0], s.Size[1], 0}
	return ev.sub(r, op.Branches[1].Body, 0, b, depth)
}

// rectFaceProfiles is the profiles of the faces of a roof of kind over a
// rectangle as roofSolid gives them at one size (2 by 1 by 1), the same
// at every size for GABLE (rectangles, isosceles gables), SHED
// (rectangles, right-angled sides) and PYRAMID (isosceles triangles): each
// face's first edge is level and the shape of its polygon does not depend
// on the roof's proportions (0 for a face of no extent). nil for a HIP
// roof, whose slopes are trapezoids as long as the ridge. They are
// registered in the grammar's footprint store the first time a kind is
// asked for, and kept there.
func (g *Grammar) rectFaceProfiles(kind RoofKind) ([]int32, error) {
	if kind == Hip {
		return nil, nil
	}
	if g.dyn == nil {
		return nil, errors.New("no footprint store (LotAxioms makes it)")
	}
	c := &g.dyn.rect[kind]
	c.once.Do(func() {
		sd := roofSolid(kind, 1, 0.5, 0.5)
		faces := sd.faces[1:]
		c.profs = make([]int32, len(faces))
		for i, f := range faces {
			_, _, _, _, flat := faceFrame(sd.corners, [][]int{f})
			prof, _, _, ok, err := g.piece(flat)
			if err != nil {
				c.profs, c.err = nil, err
				return
			}
			if ok {
				c.profs[i] = prof
			}
		}
	})
	return c.profs, c.err
}

// rectFacesFit says whether a roof of size over a rectangle takes its
// faces' profiles from rectFaceProfiles: every size is finite and none
// negative (a face of no extent gives no child either way); else the CPU
// cuts them at the roof's own size and the device refuses.
func rectFacesFit(size Vec3) bool {
	return size[0] >= 0 && size[1] >= 0 && size[2] >= 0 && !math.IsInf(size[0]+size[1]+size[2], 0)
}
