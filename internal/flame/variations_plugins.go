package flame

import "math"

// Deterministic variations of the later Apophysis plugin pack (polar2 to
// waves2) and the last three flam3 added (auger, flux, mobius).

// polar2: (θ/π, ln r²/2π) with θ = atan2(x, y).
func (s *varState) polar2(w float64) {
	k := w / math.Pi
	s.px += k * s.atanXY()
	s.py += k / 2 * math.Log(s.sumsq)
}

// popcorn2: popcorn with its own amplitudes and frequency.
func (s *varState) popcorn2(w float64) {
	p := s.p
	c := p[PPopcorn2C]
	s.px += w * (s.tx + p[PPopcorn2X]*math.Sin(math.Tan(s.ty*c)))
	s.py += w * (s.ty + p[PPopcorn2Y]*math.Sin(math.Tan(s.tx*c)))
}

// scry: (x, y) / (r·(r² + 1/w)) (weight used non-linearly, as in flam3).
func (s *varState) scry(w float64) {
	k := 1 / (s.sqrt * (s.sumsq + 1/(w+flam3Eps)))
	s.px += s.tx * k
	s.py += s.ty * k
}

// separation: pushes the half planes apart by √(v² + sep²).
func (s *varState) separation(w float64) {
	p := s.p
	sx, sy := p[PSeparationX], p[PSeparationY]
	if s.tx > 0 {
		s.px += w * (math.Sqrt(s.tx*s.tx+sx*sx) - s.tx*p[PSeparationXinside])
	} else {
		s.px -= w * (math.Sqrt(s.tx*s.tx+sx*sx) + s.tx*p[PSeparationXinside])
	}
	if s.ty > 0 {
		s.py += w * (math.Sqrt(s.ty*s.ty+sy*sy) - s.ty*p[PSeparationYinside])
	} else {
		s.py -= w * (math.Sqrt(s.ty*s.ty+sy*sy) + s.ty*p[PSeparationYinside])
	}
}

// split: flips y in bands of x and x in bands of y.
func (s *varState) split(w float64) {
	if math.Cos(s.tx*s.p[PSplitXsize]*math.Pi) >= 0 {
		s.py += w * s.ty
	} else {
		s.py -= w * s.ty
	}
	if math.Cos(s.ty*s.p[PSplitYsize]*math.Pi) >= 0 {
		s.px += w * s.tx
	} else {
		s.px -= w * s.tx
	}
}

// splits: moves the half planes apart by (splits_x, splits_y).
func (s *varState) splits(w float64) {
	if s.tx >= 0 {
		s.px += w * (s.tx + s.p[PSplitsX])
	} else {
		s.px += w * (s.tx - s.p[PSplitsX])
	}
	if s.ty >= 0 {
		s.py += w * (s.ty + s.p[PSplitsY])
	} else {
		s.py += w * (s.ty - s.p[PSplitsY])
	}
}

// stripes: squeezes unit columns by space and bends them by warp.
func (s *varState) stripes(w float64) {
	rx := math.Floor(s.tx + 0.5)
	ox := s.tx - rx
	s.px += w * (ox*(1-s.p[PStripesSpace]) + rx)
	s.py += w * (s.ty + ox*ox*s.p[PStripesWarp])
}

// wedgeFold splits the angle a into count sectors and opens a gap of angle
// between them, as wedge and wedge_sph do.
func wedgeFold(a, count, angle float64) float64 {
	c := math.Floor((count*a + math.Pi) * (0.5 / math.Pi))
	comp := 1 - angle*count*(0.5/math.Pi)
	return a*comp + c*angle
}

// wedge: the plane cut into count wedges, spread apart, with a hole and swirl.
func (s *varState) wedge(w float64) {
	p := s.p
	r := s.sqrt
	a := wedgeFold(s.atanYX()+p[PWedgeSwirl]*r, p[PWedgeCount], p[PWedgeAngle])
	sa, ca := math.Sincos(a)
	k := w * (r + p[PWedgeHole])
	s.px += k * ca
	s.py += k * sa
}

// wedge_sph: wedge of the spherical inversion (radius 1/r).
func (s *varState) wedgeSph(w float64) {
	p := s.p
	r := 1 / (s.sqrt + flam3Eps)
	a := wedgeFold(s.atanYX()+p[PWedgeSphSwirl]*r, p[PWedgeSphCount], p[PWedgeSphAngle])
	sa, ca := math.Sincos(a)
	k := w * (r + p[PWedgeSphHole])
	s.px += k * ca
	s.py += k * sa
}

// whorl: rotation by inside/(w−r) within radius w and outside/(w−r) beyond
// (weight used non-linearly, as in flam3).
func (s *varState) whorl(w float64) {
	r := s.sqrt
	var a float64
	if r < w {
		a = s.atanYX() + s.p[PWhorlInside]/(w-r)
	} else {
		a = s.atanYX() + s.p[PWhorlOutside]/(w-r)
	}
	sa, ca := math.Sincos(a)
	s.px += w * r * ca
	s.py += w * r * sa
}

// waves2: (x + sx·sin(fx·y), y + sy·sin(fy·x)).
func (s *varState) waves2(w float64) {
	p := s.p
	s.px += w * (s.tx + p[PWaves2Scalex]*math.Sin(s.ty*p[PWaves2Freqx]))
	s.py += w * (s.ty + p[PWaves2Scaley]*math.Sin(s.tx*p[PWaves2Freqy]))
}

// auger: sine displacement of each axis by the other, x symmetrised by sym.
func (s *varState) auger(w float64) {
	p := s.p
	freq, aw, scale := p[PAugerFreq], p[PAugerWeight], p[PAugerScale]
	sx := math.Sin(freq * s.tx)
	sy := math.Sin(freq * s.ty)
	dy := s.ty + aw*(scale*sx/2+math.Abs(s.ty)*sx)
	dx := s.tx + aw*(scale*sy/2+math.Abs(s.tx)*sy)
	s.px += w * (s.tx + p[PAugerSym]*(dx-s.tx))
	s.py += w * dy
}

// flux: the field lines between two charges at ±w.
func (s *varState) flux(w float64) {
	xpw := s.tx + w
	xmw := s.tx - w
	y2 := s.ty * s.ty
	avgr := w * (2 + s.p[PFluxSpread]) * math.Sqrt(math.Sqrt(y2+xpw*xpw)/math.Sqrt(y2+xmw*xmw))
	avga := (math.Atan2(s.ty, xmw) - math.Atan2(s.ty, xpw)) * 0.5
	sa, ca := math.Sincos(avga)
	s.px += avgr * ca
	s.py += avgr * sa
}

// mobius: (a·z + b) / (c·z + d) with complex a, b, c, d.
func (s *varState) mobius(w float64) {
	p := s.p
	reU := p[PMobiusReA]*s.tx - p[PMobiusImA]*s.ty + p[PMobiusReB]
	imU := p[PMobiusReA]*s.ty + p[PMobiusImA]*s.tx + p[PMobiusImB]
	reV := p[PMobiusReC]*s.tx - p[PMobiusImC]*s.ty + p[PMobiusReD]
	imV := p[PMobiusReC]*s.ty + p[PMobiusImC]*s.tx + p[PMobiusImD]
	k := w / (reV*reV + imV*imV)
	s.px += k * (reU*reV + imU*imV)
	s.py += k * (imU*reV - reU*imV)
}
