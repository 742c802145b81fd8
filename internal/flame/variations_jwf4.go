package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// Small JWildfire plugin variations (see variations_jwf.go for the
// conventions).
//
// Random draws (u = Float64):
//
//	blur_zoom   u1: the zoom 1 + length·u1
//	blur_linear u1: the streak length·u1

// applyJWF4 adds plugin variation id with weight w to s (applyJWF3's rest).
func (s *varState) applyJWF4(id VarID, w float64, r *rng.Stream) {
	p := s.p
	switch id {
	case VarUnpolar: // polar's inverse: (x, y) read as (angle, log radius)
		k := w / math.Pi * 0.5 * math.Exp(s.ty)
		sn, c := math.Sincos(s.tx)
		s.py += k * c
		s.px += k * sn
	case VarIdisc: // Michael Faber's inverted disc
		a := math.Pi / (math.Sqrt(s.tx*s.tx+s.ty*s.ty) + 1)
		rr := math.Atan2(s.ty, s.tx) * (w * (1 / math.Pi))
		sa, ca := math.Sincos(a)
		s.px += rr * ca
		s.py += rr * sa
	case VarLinearT: // FractalDesire's linear with a power per axis
		s.px += sgnPos(s.tx) * math.Pow(math.Abs(s.tx), p[PLinearTPowX]) * w
		s.py += sgnPos(s.ty) * math.Pow(math.Abs(s.ty), p[PLinearTPowY]) * w
	case VarCylinderApo: // Apophysis' cylinder, the cosine into z
		sn, c := math.Sincos(s.tx)
		s.px += w * sn
		s.py += w * s.ty
		s.pz += w * c
	case VarBlurZoom: // Apophysis 7X's zoom blur about (x, −y)
		z := 1 + p[PBlurZoomLength]*r.Float64()
		s.px += w * ((s.tx-p[PBlurZoomX])*z + p[PBlurZoomX])
		s.py += w * ((s.ty+p[PBlurZoomY])*z - p[PBlurZoomY])
	case VarBlurLinear: // Joel Faber's streak along an angle (held to [0, 2π])
		rr := p[PBlurLinearLength] * r.Float64()
		sn, c := math.Sincos(min(max(p[PBlurLinearAngle], 0), 2*math.Pi))
		s.px += w * (s.tx + rr*c)
		s.py += w * (s.ty + rr*sn)
	}
}

// sgnPos is linearT's sign: 1 for positive, else −1 (0 included).
func sgnPos(v float64) float64 {
	if v > 0 {
		return 1
	}
	return -1
}
