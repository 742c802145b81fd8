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
//	tile_log    u1 u2: the side from u1, the tile offset round(±spread·log u2)
//	starblur    u1 u2: the spike and place along it from u1, the radius √u2
//	waffle      u1..u5: the kind of cell edge from u1 (of 5), then the draws
//	                  JWildfire makes for that kind in its order (up to 4;
//	                  the rest unused); random(n) is trunc(u·n)

// applyJWF4 adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
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
	case VarWaves2Radial:
		s.waves2Radial(w)
	case VarStarblur:
		s.starblur(w, r)
	case VarBubble2: // FracFx's bubble with a scale per axis, z pushed out
		x, y, z := s.tx, s.ty, s.tz
		k := w / ((x*x+y*y+z*z)/4 + 1)
		s.px += x * k * p[PBubble2X]
		s.py += y * k * p[PBubble2Y]
		if z >= 0 {
			s.pz += w * (z + p[PBubble2Z])
		} else {
			s.pz += w * (z - p[PBubble2Z])
		}
		s.pz += z * k * p[PBubble2Z]
	case VarWaffle:
		s.waffle(w, r)
	case VarWaves2Wf: // waves2 with a choice of cosine and a damping
		dx, dy := p[PWaves2WfDampingX], p[PWaves2WfDampingY]
		fx, fy := math.Sin, math.Sin
		if ftoi(p[PWaves2WfUseCosX]) == 1 {
			fx = math.Cos
		}
		if ftoi(p[PWaves2WfUseCosY]) == 1 {
			fy = math.Cos
		}
		s.px += w * (s.tx + dx*p[PWaves2WfScalex]*fx(s.ty*p[PWaves2WfFreqx])) * dx
		s.py += w * (s.ty + dy*p[PWaves2WfScaley]*fy(s.tx*p[PWaves2WfFreqy])) * dy
	case VarTileLog: // Zy0rg's tiles: a whole-number shift, log-distributed (z scaled too)
		x := -p[PTileLogSpread]
		if r.Float64() < 0.5 {
			x = p[PTileLogSpread]
		}
		s.px += w * (s.tx + math.Floor(x*math.Log(r.Float64())+0.5))
		s.py += w * s.ty
		s.pz += w * s.tz
	}
}

// waves2Radial: Tatyana Zabanova's waves2 that fade in between the radii
// null and distance.
func (s *varState) waves2Radial(w float64) {
	p := s.p
	x0, y0 := s.tx, s.ty
	dist := math.Sqrt(x0*x0 + y0*y0)
	f := 1.0
	if dist < p[PWaves2RadialDistance] {
		f = (dist - p[PWaves2RadialNull]) / (p[PWaves2RadialDistance] - p[PWaves2RadialNull])
	}
	if dist < p[PWaves2RadialNull] {
		f = 0
	}
	s.px += w * (x0 + f*math.Sin(y0*p[PWaves2RadialFreqx])*p[PWaves2RadialScalex])
	s.py += w * (y0 + f*math.Sin(x0*p[PWaves2RadialFreqy])*p[PWaves2RadialScaley])
}

// sgnPos is linearT's sign: 1 for positive, else −1 (0 included).
func sgnPos(v float64) float64 {
	if v > 0 {
		return 1
	}
	return -1
}

// starblur: Zy0rg's star-shaped blur of power spikes.
func (s *varState) starblur(w float64, r *rng.Stream) {
	p := s.p
	pw := ftoi(p[PStarblurPower])
	alpha, length := p[PStarblurAlpha], p[PStarblurLength]
	f := r.Float64() * pw * 2
	spike := math.Trunc(f)
	f -= spike
	x := f * length
	z := math.Sqrt(1 + x*x - 2*x*math.Cos(alpha))
	k := int64(spike)
	turn := 2 * math.Pi / pw * float64(k/2)
	if k%2 == 0 {
		spike = turn + math.Asin(math.Sin(alpha)*x/z)
	} else {
		spike = turn - math.Asin(math.Sin(alpha)*x/z)
	}
	z *= math.Sqrt(r.Float64())
	sa, ca := math.Sincos(spike - math.Pi/2)
	s.px += w * z * ca
	s.py += w * z * sa
}

// waffle: Jed Kelsey's waffle: points on a grid of slices×slices cell
// edges of the given thicknesses, rotated.
func (s *varState) waffle(w float64, r *rng.Stream) {
	p := s.p
	var u [5]float64
	for i := range u {
		u[i] = r.Float64()
	}
	n := ftoi(p[PWaffleSlices])
	xt, yt := p[PWaffleXthickness], p[PWaffleYthickness]
	k := 1
	next := func() float64 { k++; return u[k-1] }
	cell := func() float64 { return float64(int32(next() * n)) } // JWildfire's random(slices)
	var a, rr float64
	switch int32(u[0] * 5) {
	case 0:
		a = (cell() + next()*xt) / n
		rr = (cell() + next()*yt) / n
	case 1:
		a = (cell() + next()) / n
		rr = (cell() + yt) / n
	case 2:
		a = (cell() + xt) / n
		rr = (cell() + next()) / n
	case 3:
		a = next()
		rr = (cell() + yt + next()*(1-yt)) / n
	case 4:
		a = (cell() + xt + next()*(1-xt)) / n
		rr = next()
	}
	sn, c := math.Sincos(p[PWaffleRotation])
	vc, vs := w*c, w*sn
	s.px += vc*a + vs*rr
	s.py += -vs*a + vc*rr
}
