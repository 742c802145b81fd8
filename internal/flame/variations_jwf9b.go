package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// More of the ninth set: JWildfire's mcarpet, circleblur, cos2_bs,
// sec2_bs, inflateZ_3 (moves z only), maple_leaf, japanese_maple_leaf,
// disc3d (writes z), lissajous, oscilloscope2, spligon and wdisc.
//
// Random draws (u = Float64), each unconditional:
//
//	circleblur            u1 u2: radius √u1, angle 2π·u2
//	maple_leaf,
//	japanese_maple_leaf   u1 u2: where filled > 0 and filled > u1 the
//	                      radius is scaled by u2 (JWildfire draws u2 only
//	                      then, u1 only where filled > 0)
//	lissajous             u1 u2: t = tmin + (tmax − tmin)·u1, spread u2 − ½

// jwf9bDefaultParams sets JWildfire's defaults for these variations.
func jwf9bDefaultParams(p *Params) {
	p[PMcarpetX], p[PMcarpetY], p[PMcarpetTwist], p[PMcarpetTilt] = 1, 0.75, 0.5, -0.25
	p[PCos2BsX1], p[PCos2BsX2], p[PCos2BsY1], p[PCos2BsY2] = 1, 1, 1, 1
	p[PSec2BsX1], p[PSec2BsX2], p[PSec2BsY1], p[PSec2BsY2] = 1.25, 0.75, 1.5, 0.5
	p[PMapleLeafFilled], p[PJapaneseMapleLeafFilled] = 0.5, 0.15
	p[PDisc3DPi] = math.Pi
	p[PLissajousTmin], p[PLissajousTmax], p[PLissajousA], p[PLissajousB] = -math.Pi, math.Pi, 3, 2
	p[POscilloscope2Separation], p[POscilloscope2Frequencyx], p[POscilloscope2Frequencyy] = 1, math.Pi, math.Pi
	p[POscilloscope2Amplitude], p[POscilloscope2Perturbation] = 1, 1
	p[PSpligonSides], p[PSpligonR], p[PSpligonI] = 3, 1, 1
	jwf9cDefaultParams(p)
}

// applyJWF9b adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF9b(id VarID, w float64, r *rng.Stream) {
	p := s.p
	x, y := s.tx, s.ty
	switch id {
	case VarMcarpet:
		k := w / ((x*x+y*y)/4 + 1)
		s.px += x*k*p[PMcarpetX] + (1-p[PMcarpetTwist]*x*x+y)*w
		s.py += y*k*p[PMcarpetY] + p[PMcarpetTilt]*x*w
	case VarCircleblur:
		rad := math.Sqrt(r.Float64())
		sn, cs := math.Sincos(r.Float64() * 2 * math.Pi)
		s.px += w * cs * rad
		s.py += w * sn * rad
	case VarCos2Bs:
		s.px += w * math.Cos(x*p[PCos2BsX2]) * math.Cosh(y*p[PCos2BsY2])
		s.py -= w * math.Sin(x*p[PCos2BsX1]) * math.Sinh(y*p[PCos2BsY1])
	case VarSec2Bs:
		d := math.Cos(2*x) + math.Cosh(2*y)
		if d == 0 {
			return
		}
		k := w * 2 / d
		s.px += k * math.Cos(x*p[PSec2BsX2]) * math.Cosh(y*p[PSec2BsY2])
		s.py += k * math.Sin(x*p[PSec2BsX1]) * math.Sinh(y*p[PSec2BsY1])
	case VarInflateZ3:
		a := math.Atan2(y, x)
		s.pz += w * 0.2 * (math.Pi - a) * math.Cos(3*a+(y-x))
	case VarMapleLeaf:
		s.mapleLeaf(w, r)
	case VarJapaneseMapleLeaf:
		s.japaneseMapleLeaf(w, r)
	case VarDisc3D:
		rr := math.Sqrt(y*y + x*x + 1e-300)
		pi := p[PDisc3DPi]
		sn, cs := math.Sincos(pi * rr)
		vv := w * math.Atan2(x, y) / (pi + 1e-300)
		s.px += vv * sn
		s.py += vv * cs
		s.pz += vv * rr * math.Cos(s.tz)
	case VarLissajous:
		t := (p[PLissajousTmax]-p[PLissajousTmin])*r.Float64() + p[PLissajousTmin]
		e := p[PLissajousE] * (r.Float64() - 0.5)
		ct := p[PLissajousC] * t
		s.px += w * (math.Sin(p[PLissajousA]*t+p[PLissajousD]) + ct + e)
		s.py += w * (math.Sin(p[PLissajousB]*t) + ct + e)
	case VarOscilloscope2:
		s.oscilloscope2(w)
	case VarSpligon:
		sides := p[PSpligonSides]
		if ftoi(sides) == 0 { // as JWildfire's setParameter
			sides = 1
		}
		th := sides / (2 * math.Pi)
		t := 1/th*math.Floor(math.Atan2(y, x)*th) + math.Pi*p[PSpligonI]/(-2*sides)
		sn, cs := math.Sincos(t)
		s.px += w * (x + cs*p[PSpligonR])
		s.py += w * (y + sn*p[PSpligonR])
	case VarWdisc:
		a := math.Pi / (math.Sqrt(x*x+y*y) + 1)
		rr := math.Atan2(y, x) / math.Pi
		if rr > 0 {
			a = math.Pi - a
		}
		sn, cs := math.Sincos(a)
		s.px += w * rr * cs
		s.py += w * rr * sn
	}
}

// leafRadius is the maple leaves' radius: scaled by the second draw where
// filled > 0 and filled exceeds the first.
func leafRadius(w, filled float64, r *rng.Stream) float64 {
	u1, u2 := r.Float64(), r.Float64()
	if filled > 0 && filled > u1 {
		return w * u2
	}
	return w
}

// mapleLeaf: the maple leaf curve at the point's angle atan2(x, y) − π/2
// (JWildfire's precalculated angle), filled as filled says.
func (s *varState) mapleLeaf(w float64, r *rng.Stream) {
	t := math.Atan2(s.tx, s.ty) - math.Pi/2
	rr := leafRadius(w, s.p[PMapleLeafFilled], r)
	c := math.Cos
	pw := math.Pow
	c6, c30 := c(6*t), c(30*t)
	s6 := math.Sin(6 * t)
	ct := c(t)
	// JWildfire's 1/4·cos²(30t) is Java's integer 1/4, 0: left out.
	lx := (1 + pw(c6, 2) + 1.0/5*pw(c6*c(24*t), 10) + (1.0/9*pw(c30, 12))*(1-pw(s6, 10))) *
		math.Sin(2*t) * (1 - pw(ct, 4)) * (1 - pw(ct, 10)*pw(c(3*t), 2))
	ly := 21.0 / 20 * c(2*t) * (1 - pw(ct, 4) + 1.0/2*pw(ct*c(3*t), 10)) *
		(1 + pw(c6, 2) + 1.0/5*pw(c6*c(18*t), 10) +
			(1.0/4*pw(c30, 4)+1.0/10*pw(c30, 12))*(1-pw(ct, 10)*pw(c(3*t), 2))*(1-pw(s6, 10)))
	s.px += rr * lx
	s.py += rr * ly
}

// japaneseMapleLeaf: the Japanese maple leaf curve at half the point's
// angle atan2(x, y) plus π/2, two thirds the size.
func (s *varState) japaneseMapleLeaf(w float64, r *rng.Stream) {
	t := math.Atan2(s.tx, s.ty)*0.5 + math.Pi/2
	rr := leafRadius(w, s.p[PJapaneseMapleLeafFilled], r) * 0.667
	c := math.Cos
	pw := math.Pow
	c8, c80 := c(8*t), c(80*t)
	s8 := math.Sin(8 * t)
	ct, st := c(t), math.Sin(t)
	lx := (4.0/15 + pw(c8, 2) + 1.0/5*pw(c8*c(24*t), 10) + (1.0/6*pw(c80, 2) + 1.0/15*pw(c80, 10))) *
		(1 - pw(s8, 10)) * math.Sin(2*t) * (1 + st) *
		(1 - pw(ct, 10)*pw(c(3*t), 2) + 1.0/30*pw(ct, 9)*pw(c(5*t), 10))
	ly := (8.0/30 + pw(c8, 2) + 1.0/5*pw(c8*c(24*t), 10) +
		(1.0/6*pw(c80, 2)+1.0/15*pw(c80, 10))*(1-pw(ct, 10)*pw(c(3*t), 2))*(1-pw(s8, 10))) *
		c(2*t) * (1 + st + pw(ct*c(3*t), 10))
	s.px += rr * lx
	s.py += rr * ly
}

// oscilloscope2: DarkBeam's oscilloscope with a perturbed, optionally
// damped wave; points inside the wave are mirrored through the origin.
func (s *varState) oscilloscope2(w float64) {
	p := s.p
	x, y := s.tx, s.ty
	tpf := 2 * math.Pi * p[POscilloscope2Frequencyx]
	pt := p[POscilloscope2Perturbation] * math.Sin(2*math.Pi*p[POscilloscope2Frequencyy]*y)
	t := p[POscilloscope2Amplitude] * math.Cos(tpf*x+pt)
	if d := p[POscilloscope2Damping]; math.Abs(d) > 1e-8 {
		t = p[POscilloscope2Amplitude] * math.Exp(-math.Abs(x)*d) * math.Cos(tpf*x+pt)
	}
	t += p[POscilloscope2Separation]
	if math.Abs(y) <= t {
		w = -w
	}
	s.px += w * x
	s.py += w * y
}
