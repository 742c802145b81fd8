package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The variations that draw random numbers (julia, the classic one, is in
// variations_classic.go). The order of draws is part of the contract with
// the CUDA twin: see "Random draws" in variations.go before changing any.

// noise: u2·(x cos 2πu1, y sin 2πu1).
func (s *varState) noise(w float64, r *rng.Stream) {
	sn, cs := math.Sincos(r.Float64() * 2 * math.Pi)
	k := w * r.Float64()
	s.px += s.tx * k * cs
	s.py += s.ty * k * sn
}

// julian: r^(dist/power)·(cos, sin) of (φ + 2πk)/power, k = trunc(|power|·u).
func (s *varState) julian(w float64, r *rng.Stream) {
	p := s.p
	k := math.Trunc(p[PJulianRn] * r.Float64())
	a := (s.atanYX() + 2*math.Pi*k) / p[PJulianPower]
	m := w * powNonNeg(s.sumsq, p[PJulianCn])
	sa, ca := math.Sincos(a)
	s.px += m * ca
	s.py += m * sa
}

// juliascope: julian with φ mirrored on odd branches.
func (s *varState) juliascope(w float64, r *rng.Stream) {
	p := s.p
	k := math.Trunc(p[PJuliascopeRn] * r.Float64())
	var a float64
	if int64(k)&1 == 0 {
		a = (2*math.Pi*k + s.atanYX()) / p[PJuliascopePower]
	} else {
		a = (2*math.Pi*k - s.atanYX()) / p[PJuliascopePower]
	}
	sa, ca := math.Sincos(a)
	m := w * powNonNeg(s.sumsq, p[PJuliascopeCn])
	s.px += m * ca
	s.py += m * sa
}

// blur: a random point of the disc of radius w (uniform in radius, not in
// area, as flam3 has it).
func (s *varState) blur(w float64, r *rng.Stream) {
	sn, cs := math.Sincos(r.Float64() * 2 * math.Pi)
	k := w * r.Float64()
	s.px += k * cs
	s.py += k * sn
}

// gaussian4 is flam3's pseudo-Gaussian: the sum of four uniforms, centred.
func gaussian4(r *rng.Stream) float64 {
	g := r.Float64() + r.Float64()
	g += r.Float64()
	g += r.Float64()
	return g - 2
}

// gaussian_blur: a random direction, a pseudo-Gaussian length.
func (s *varState) gaussianBlur(w float64, r *rng.Stream) {
	sn, cs := math.Sincos(r.Float64() * 2 * math.Pi)
	k := w * gaussian4(r)
	s.px += k * cs
	s.py += k * sn
}

// radial_blur: spin by spinvar·g about the origin and zoom by zoomvar·g,
// where g is pseudo-Gaussian; (x, y) is replaced, not added to, at g = 0.
func (s *varState) radialBlur(w float64, r *rng.Stream) {
	g := w * gaussian4(r)
	sa, ca := math.Sincos(s.atanYX() + s.p[PRadialBlurSpinvar]*g)
	rz := s.p[PRadialBlurZoomvar]*g - 1
	s.px += s.sqrt*ca + rz*s.tx
	s.py += s.sqrt*sa + rz*s.ty
}

// pie: a random point of a random slice of the unit disc.
func (s *varState) pie(w float64, r *rng.Stream) {
	p := s.p
	slices := p[PPieSlices]
	sl := math.Trunc(r.Float64()*slices + 0.5)
	a := p[PPieRotation] + 2*math.Pi*(sl+r.Float64()*p[PPieThickness])/slices
	k := w * r.Float64()
	sa, ca := math.Sincos(a)
	s.px += k * ca
	s.py += k * sa
}

// arch: (sin, sin²/cos) of u·w·π (weight used non-linearly, as in flam3).
func (s *varState) arch(w float64, r *rng.Stream) {
	sn, cs := math.Sincos(r.Float64() * w * math.Pi)
	s.px += w * sn
	s.py += w * (sn * sn) / cs
}

// square: a uniform point of the unit square.
func (s *varState) square(w float64, r *rng.Stream) {
	s.px += w * (r.Float64() - 0.5)
	s.py += w * (r.Float64() - 0.5)
}

// rays: w·tan(w·u·π)·w/(r²+EPS)·(cos x, sin y).
func (s *varState) rays(w float64, r *rng.Stream) {
	a := w * r.Float64() * math.Pi
	k := w / (s.sumsq + flam3Eps)
	t := w * math.Tan(a) * k
	s.px += t * math.Cos(s.tx)
	s.py += t * math.Sin(s.ty)
}

// blade: x·(cos + sin, cos − sin) of u·w·r.
func (s *varState) blade(w float64, r *rng.Stream) {
	sn, cs := math.Sincos(r.Float64() * w * s.sqrt)
	s.px += w * s.tx * (cs + sn)
	s.py += w * s.tx * (cs - sn)
}

// twintrian: x·(d, d − π sin) with d = log10(sin²) + cos of u·w·r; a bad
// d becomes −30 as in flam3.
func (s *varState) twintrian(w float64, r *rng.Stream) {
	sn, cs := math.Sincos(r.Float64() * w * s.sqrt)
	d := math.Log10(sn*sn) + cs
	if badValue(d) {
		d = -30
	}
	s.px += w * s.tx * d
	s.py += w * s.tx * (d - sn*math.Pi)
}

// super_shape: Gielis' superformula radius, blended with a random radius by
// super_shape_rnd (one draw even when rnd is 0).
func (s *varState) superShape(w float64, r *rng.Stream) {
	p := s.p
	st, ct := math.Sincos(p[PSuperShapePm4]*s.atanYX() + math.Pi/4)
	t1 := powNonNeg(math.Abs(ct), p[PSuperShapeN2])
	t2 := powNonNeg(math.Abs(st), p[PSuperShapeN3])
	rnd := p[PSuperShapeRnd]
	k := w * ((rnd*r.Float64() + (1-rnd)*s.sqrt) - p[PSuperShapeHoles]) *
		powNonNeg(t1+t2, p[PSuperShapePneg1N1]) / s.sqrt
	s.px += k * s.tx
	s.py += k * s.ty
}

// flower: (u − holes)·cos(petals·φ) along the direction of (x, y).
func (s *varState) flower(w float64, r *rng.Stream) {
	p := s.p
	k := w * (r.Float64() - p[PFlowerHoles]) * math.Cos(p[PFlowerPetals]*s.atanYX()) / s.sqrt
	s.px += k * s.tx
	s.py += k * s.ty
}

// conic: (u − holes)·e/(1 + e cos φ) along the direction of (x, y).
func (s *varState) conic(w float64, r *rng.Stream) {
	p := s.p
	e := p[PConicEccentricity]
	ct := s.tx / s.sqrt
	k := w * (r.Float64() - p[PConicHoles]) * e / (1 + e*ct) / s.sqrt
	s.px += k * s.tx
	s.py += k * s.ty
}

// parabola: (height·sin² r·u1, width·cos r·u2).
func (s *varState) parabola(w float64, r *rng.Stream) {
	sr, cr := math.Sincos(s.sqrt)
	s.px += s.p[PParabolaHeight] * w * sr * sr * r.Float64()
	s.py += s.p[PParabolaWidth] * w * cr * r.Float64()
}

// boarders: squeeze each unit cell towards its centre, and push a quarter
// of the points out to the cell border.
func (s *varState) boarders(w float64, r *rng.Stream) {
	rx := math.RoundToEven(s.tx)
	ry := math.RoundToEven(s.ty)
	ox := s.tx - rx
	oy := s.ty - ry
	if r.Float64() >= 0.75 {
		s.px += w * (ox*0.5 + rx)
		s.py += w * (oy*0.5 + ry)
		return
	}
	if math.Abs(ox) >= math.Abs(oy) {
		if ox >= 0 {
			s.px += w * (ox*0.5 + rx + 0.25)
			s.py += w * (oy*0.5 + ry + 0.25*oy/ox)
		} else {
			s.px += w * (ox*0.5 + rx - 0.25)
			s.py += w * (oy*0.5 + ry - 0.25*oy/ox)
		}
		return
	}
	if oy >= 0 {
		s.py += w * (oy*0.5 + ry + 0.25)
		s.px += w * (ox*0.5 + rx + ox/oy*0.25)
	} else {
		s.py += w * (oy*0.5 + ry - 0.25)
		s.px += w * (ox*0.5 + rx - ox/oy*0.25)
	}
}

// cpow: z^((r + i·i)/power) on a random one of power branches.
func (s *varState) cpow(w float64, r *rng.Stream) {
	p := s.p
	a := s.atanYX()
	lnr := 0.5 * math.Log(s.sumsq)
	pw := p[PCpowPower]
	va := 2 * math.Pi / pw
	vc := p[PCpowR] / pw
	vd := p[PCpowI] / pw
	ang := vc*a + vd*lnr + va*math.Floor(pw*r.Float64())
	m := w * math.Exp(vc*lnr-vd*a)
	sa, ca := math.Sincos(ang)
	s.px += m * ca
	s.py += m * sa
}

// preBlur moves (tx, ty) by a pseudo-Gaussian step in a random direction
// before the other variations see it (flam3's only pre-variation).
func (s *varState) preBlur(w float64, r *rng.Stream) {
	g := w * gaussian4(r)
	sa, ca := math.Sincos(r.Float64() * 2 * math.Pi)
	s.tx += g * ca
	s.ty += g * sa
}

// wedge_julia: julian folded into count wedges separated by angle.
func (s *varState) wedgeJulia(w float64, r *rng.Stream) {
	p := s.p
	m := w * powNonNeg(s.sumsq, p[PWedgeJuliaCn])
	k := math.Trunc(p[PWedgeJuliaRn] * r.Float64())
	a := (s.atanYX() + 2*math.Pi*k) / p[PWedgeJuliaPower]
	c := math.Floor((p[PWedgeJuliaCount]*a + math.Pi) * (0.5 / math.Pi))
	a = a*p[PWedgeJuliaCf] + c*p[PWedgeJuliaAngle]
	sa, ca := math.Sincos(a)
	s.px += m * ca
	s.py += m * sa
}
