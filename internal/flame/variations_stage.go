package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// Fractorium's pre_ and post_ stages (its Xform::Apply; Apophysis 7X
// writes the same names): an xform may carry any variation as pre_NAME,
// applied to the affine output before the regular variations see it, or as
// post_NAME, applied to their sum before the post affine. Stage terms apply
// one after another in document order, each reading the point the previous
// one left. A stage variation replaces the point with its output, except
// those whose output does not involve the point (the blurs and a few
// others: Fractorium's ASSIGNTYPE_SUM), which add their output to it. A 2D
// variation that replaces the point keeps its z (Fractorium's DefaultZ).
// An xform with stage terms but no regular variation passes the affine
// output through as a linear would (Fractorium assigns the point directly).
//
// Stage terms run in the z-carrying loop only (xformUses3D), so genomes
// without them keep today's 2D loop unchanged; on the GPU the flame3d
// family runs them (gpu_stages.go), and refuses by name a stage of a
// variation the kernels lack.
// A stage variation shares its parameters with the regular variation of the
// same name (parse_ext.go refuses a stage whose parameters differ).

// StageTerm is one variation of an xform's pre or post stage.
type StageTerm struct {
	Post   bool // post_ stage (after the regular variations); else pre_
	ID     VarID
	Weight float64
}

// Name is the stage term's XML name, e.g. pre_sineblur.
func (t StageTerm) Name() string {
	if t.Post {
		return "post_" + VarNames[t.ID]
	}
	return "pre_" + VarNames[t.ID]
}

// stageSums reports whether a stage variation adds its output to the point
// rather than replacing the point with it (Fractorium's ASSIGNTYPE_SUM):
// those whose output does not depend on the point.
func stageSums(id VarID) bool {
	switch id {
	case VarBlur, VarGaussianBlur, VarPie, VarArch, VarSquare, VarBlur3D, VarZtranslate, VarSineblur:
		return true
	}
	return false
}

// stage applies one stage term to the point (x, y, z) with the xform's
// affine c and parameters p.
func stage(t StageTerm, x, y, z float64, c *Affine, p *Params, r *rng.Stream) (float64, float64, float64) {
	if t.ID == VarFlatten { // flatten is not a sum term (compiledXform zeroes z)
		return x, y, 0
	}
	s := varState{tx: x, ty: y, tz: z, c: c, p: p}
	s.sumsq = x*x + y*y
	s.sqrt = math.Sqrt(s.sumsq)
	s.apply(t.ID, t.Weight, r)
	if stageSums(t.ID) {
		return x + s.px, y + s.py, z + s.pz
	}
	if !uses3D(t.ID) {
		s.pz = z
	}
	return s.px, s.py, s.pz
}

// mixStages interpolates xform i's stage terms over the keyframes cpi with
// coefficients c: where every keyframe has the same stage terms in the
// same order, their weights are mixed as the regular variations' are;
// otherwise the stage terms of the keyframe with the largest coefficient
// are taken whole (flam3's interpolation knows no stages to follow).
func mixStages(cpi []aligned, i int, c []float64) []StageTerm {
	first := cpi[0].xf[i].Stages
	same := true
	for k := range cpi {
		st := cpi[k].xf[i].Stages
		same = same && len(st) == len(first)
		for j := 0; same && j < len(st); j++ {
			same = st[j].ID == first[j].ID && st[j].Post == first[j].Post
		}
	}
	if !same {
		best := 0
		for k := range c {
			if c[k] > c[best] {
				best = k
			}
		}
		return cpi[best].xf[i].Stages
	}
	if len(first) == 0 {
		return nil
	}
	out := make([]StageTerm, len(first))
	for j := range first {
		out[j] = first[j]
		out[j].Weight = 0
		for k := range cpi {
			out[j].Weight += c[k] * cpi[k].xf[i].Stages[j].Weight
		}
	}
	return out
}
