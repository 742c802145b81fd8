package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// JWildfire's symmetry post variations, post_axis_symmetry_wf and
// post_point_symmetry_wf (priority 1: they read the sum of the xform's
// variations and replace it). procgen reads them as post_ stages of
// axis_symmetry_wf and point_symmetry_wf (variations_stage.go), which run
// on that sum and replace it; the stage passes (tx, ty, tz) in and takes
// (px, py, pz) out. Their colour shifts move the point's palette
// coordinate, which a variation here cannot: the parser reports a non-zero
// shift as not honoured (colourShiftParams).
//
// Random draws (u = Float64):
//
//	axis_symmetry_wf  u1: u1 < ½ keeps the side, else mirrors
//	point_symmetry_wf u1: turn k = trunc(u1·order) of order
//
// Used without the post_ prefix (a name JWildfire does not have) they add
// the same map of the affine output to the sum.

// jwf7DefaultParams sets JWildfire's defaults for these variations.
func jwf7DefaultParams(p *Params) {
	p[PAxisSymmetryWfCentreX], p[PAxisSymmetryWfCentreY], p[PAxisSymmetryWfCentreZ] = 0.25, 0.5, 0.5
	p[PAxisSymmetryWfRotation] = 30
	p[PPointSymmetryWfCentreX], p[PPointSymmetryWfCentreY], p[PPointSymmetryWfOrder] = 0.25, 0.5, 3
	jwf8DefaultParams(p)
}

// colourShiftParams are the parameters of variation id that shift colour.
func colourShiftParams(id VarID) []ParamID {
	switch id {
	case VarAxisSymmetryWf:
		return paramRange(PAxisSymmetryWfX1colorshift, PAxisSymmetryWfZ2colorshift)
	case VarPointSymmetryWf:
		return []ParamID{PPointSymmetryWfColorshift}
	}
	return nil
}

// applyJWF7 adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF7(id VarID, w float64, r *rng.Stream) {
	switch id {
	case VarAxisSymmetryWf:
		s.axisSymmetry(w, r)
	case VarPointSymmetryWf: // a turn by one of order angles about the centre
		p := s.p
		cx, cy := p[PPointSymmetryWfCentreX], p[PPointSymmetryWfCentreY]
		order := max(ftoi(p[PPointSymmetryWfOrder]), 1)
		k := math.Trunc(r.Float64() * order)
		sn, cs := math.Sincos(k * 2 * math.Pi / order)
		dx, dy := (s.tx-cx)*w, (s.ty-cy)*w
		s.px += cx + dx*cs + dy*sn
		s.py += cy + dy*cs - dx*sn
		s.pz += s.tz
	}
}

// axisSymmetry mirrors the point in the axis through the centre (x = cx
// for axis 0, y = cy for 1, z = cz for 2), both copies moved w/2 apart
// and turned by ±rotation degrees about the centre. The z axis turns
// about (cx, cy) in x and z, as JWildfire's does.
func (s *varState) axisSymmetry(w float64, r *rng.Stream) {
	p := s.p
	u := r.Float64()
	x, y, z := s.tx, s.ty, s.tz
	if math.Abs(w) <= 1e-8 { // JWildfire leaves the point alone
		s.px, s.py, s.pz = s.px+x, s.py+y, s.pz+z
		return
	}
	cx, cy, cz := p[PAxisSymmetryWfCentreX], p[PAxisSymmetryWfCentreY], p[PAxisSymmetryWfCentreZ]
	a := p[PAxisSymmetryWfRotation] * 2 * math.Pi / 180 / 2
	rotate := math.Abs(a) > 1e-8
	sn, cs := math.Sin(a), math.Cos(a)
	half := w / 2
	axis := min(max(ftoi(p[PAxisSymmetryWfAxis]), 0), 2)
	// (ax, ay) is the coordinate pair the mirror works in: (x, y) or (x, z).
	ax, ay, c1, c2 := x, y, cx, cy
	if axis == 2 {
		ay, c2 = z, cz
	}
	keep := u < 0.5
	switch axis {
	case 0:
		if keep {
			ax = cx + (x - cx) + half
		} else {
			ax = cx - (x - cx) - half
		}
	default:
		if keep {
			ay = c2 + (ay - c2) + half
		} else {
			ay = c2 - (ay - c2) - half
		}
	}
	if rotate {
		dx, dy := ax-c1, ay-c2
		if axis == 2 { // JWildfire turns z about centre_y
			c2 = cy
		}
		if keep {
			ax, ay = c1+dx*cs+dy*sn, c2+dy*cs-dx*sn
		} else {
			ax, ay = c1+dx*cs-dy*sn, c2+dy*cs+dx*sn
		}
	}
	if axis == 2 {
		s.px, s.py, s.pz = s.px+ax, s.py+y, s.pz+ay
		return
	}
	s.px, s.py, s.pz = s.px+ax, s.py+ay, s.pz+z
}
