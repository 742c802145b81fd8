package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// More of the ninth set: Brad Stefanov's "_bs" variants of cothe's complex
// functions (csc2_bs, cosh2_bs, cot2_bs, coth2_bs, sech2_bs, sinh2_bs,
// tan2_bs, tanh2_bs, exp2_bs: each sine, cosine, sinh, cosh taking its own
// frequency x1, x2, y1, y2) and Larry Berlin's inflateZ_1, _4, _5, _6,
// which move z only. Where JWildfire returns on a zero denominator, the
// variation adds nothing.
//
// Random draws (u = Float64): inflateZ_4 u1: u1 < ½ negates.

// jwf9dDefaultParams sets JWildfire's defaults for these variations.
func jwf9dDefaultParams(p *Params) {
	for _, d := range []struct {
		first          ParamID
		x1, x2, y1, y2 float64
	}{
		{PCsc2BsX1, 1, 1, 1, 1}, {PCosh2BsX1, 1, 1, 1, 1}, {PCot2BsX1, 2, 2, 2, 2}, {PCoth2BsX1, 2, 2, 2, 2},
		{PSech2BsX1, 1.25, 0.75, 1.5, 0.75}, {PSinh2BsX1, 1, 1, 1, 1}, {PTan2BsX1, 2, 2, 2, 2}, {PTanh2BsX1, 2, 2, 2, 2},
	} {
		p[d.first], p[d.first+1], p[d.first+2], p[d.first+3] = d.x1, d.x2, d.y1, d.y2
	}
	p[PExp2BsX1], p[PExp2BsY1], p[PExp2BsY2] = 1, 1, 1
	jwf9eDefaultParams(p)
}

// bsFirst is the first parameter (x1) of each "_bs" variation with four.
func bsFirst(id VarID) ParamID {
	switch id {
	case VarCsc2Bs:
		return PCsc2BsX1
	case VarCosh2Bs:
		return PCosh2BsX1
	case VarCot2Bs:
		return PCot2BsX1
	case VarCoth2Bs:
		return PCoth2BsX1
	case VarSech2Bs:
		return PSech2BsX1
	case VarSinh2Bs:
		return PSinh2BsX1
	case VarTan2Bs:
		return PTan2BsX1
	}
	return PTanh2BsX1
}

// applyJWF9d adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF9d(id VarID, w float64, r *rng.Stream) {
	x, y := s.tx, s.ty
	switch id {
	case VarCsc2Bs, VarCosh2Bs, VarCot2Bs, VarCoth2Bs, VarSech2Bs, VarSinh2Bs, VarTan2Bs, VarTanh2Bs:
		s.bs2(id, w)
	case VarExp2Bs:
		p := s.p
		e := math.Exp(x * p[PExp2BsX1])
		s.px += w * e * math.Cos(y*p[PExp2BsY2])
		s.py += w * e * math.Sin(y*p[PExp2BsY1])
	case VarInflateZ1:
		s.pz += w * (math.Sin(math.Atan2(y, x)) - 2*y)
	case VarInflateZ4:
		v := math.Pi/2 - math.Atan2(y, x)
		if r.Float64() < 0.5 {
			v = -v
		}
		s.pz += w * v * 0.25
	case VarInflateZ5:
		s.pz += w * math.Cos(math.Pi/2-math.Atan2(y, x)) / 2
	case VarInflateZ6:
		a := math.Atan2(y, x)
		s.pz += w * (1.5 - math.Acos(math.Sin(a)*a*math.Sin(y-x)*0.5))
	}
}

// bs2 is the "_bs" complex functions with four frequencies. The
// trigonometric functions take x for the circular and y for the
// hyperbolic ones (csc, cot, sech, tan: as their flam3 namesakes), or the
// other way round (cosh, coth, sinh, tanh), as JWildfire's.
func (s *varState) bs2(id VarID, w float64) {
	p := s.p
	f := bsFirst(id)
	x1, x2, y1, y2 := p[f], p[f+1], p[f+2], p[f+3]
	x, y := s.tx, s.ty
	switch id {
	case VarCsc2Bs:
		d := math.Cosh(2*y) - math.Cos(2*x)
		if d == 0 {
			return
		}
		k := w * 2 / d
		s.px += k * math.Sin(x*x1) * math.Cosh(y*y2)
		s.py -= k * math.Cos(x*x2) * math.Sinh(y*y1)
	case VarCosh2Bs:
		s.px += w * math.Cosh(x*x2) * math.Cos(y*y2)
		s.py += w * math.Sinh(x*x1) * math.Sin(y*y1)
	case VarCot2Bs: // no guard in JWildfire
		k := w / (math.Cosh(y2*y) - math.Cos(x2*x))
		s.px += k * math.Sin(x1*x)
		s.py += k * -1 * math.Sinh(y1*y)
	case VarCoth2Bs:
		d := math.Cosh(x2*x) - math.Cos(y2*y)
		if d == 0 {
			return
		}
		s.px += w / d * math.Sinh(x1*x)
		s.py += w / d * math.Sin(y1*y)
	case VarSech2Bs:
		d := math.Cos(2*y) + math.Cosh(2*x)
		if d == 0 {
			return
		}
		k := w * 2 / d
		s.px += k * math.Cos(y*y2) * math.Cosh(x*x2)
		s.py -= k * math.Sin(y*y1) * math.Sinh(x*x1)
	case VarSinh2Bs:
		s.px += w * math.Sinh(x*x1) * math.Cos(y*y2)
		s.py += w * math.Cosh(x*x2) * math.Sin(y*y1)
	case VarTan2Bs:
		d := math.Cos(x2*x) + math.Cosh(y2*y)
		if d == 0 {
			return
		}
		s.px += w / d * math.Sin(x1*x)
		s.py += w / d * math.Sinh(y1*y)
	case VarTanh2Bs:
		d := math.Cos(y2*y) + math.Cosh(x2*x)
		if d == 0 {
			return
		}
		s.px += w / d * math.Sinh(x1*x)
		s.py += w / d * math.Sin(y1*y)
	}
}
