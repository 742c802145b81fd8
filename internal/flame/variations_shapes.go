package flame

import "math"

// Deterministic variations from flam3 2006-2008 and the Apophysis plugin
// pack, ngon to oscilloscope in VarID order. The random ones of that range
// are in variations_stochastic.go.

// ngon: pulls (x, y) towards a regular polygon of sides corners.
func (s *varState) ngon(w float64) {
	p := s.p
	rf := powNonNeg(s.sumsq, p[PNgonPower]/2)
	theta := s.atanYX()
	b := 2 * math.Pi / p[PNgonSides]
	phi := theta - b*math.Floor(theta/b)
	if phi > b/2 {
		phi -= b
	}
	amp := p[PNgonCorners]*(1/(math.Cos(phi)+flam3Eps)-1) + p[PNgonCircle]
	amp /= rf + flam3Eps
	s.px += w * s.tx * amp
	s.py += w * s.ty * amp
}

// curl: z / (1 + c1·z + c2·z²) in complex terms.
func (s *varState) curl(w float64) {
	c1, c2 := s.p[PCurlC1], s.p[PCurlC2]
	re := 1 + c1*s.tx + c2*(s.tx*s.tx-s.ty*s.ty)
	im := c1*s.ty + 2*c2*s.tx*s.ty
	k := w / (re*re + im*im)
	s.px += (s.tx*re + s.ty*im) * k
	s.py += (s.ty*re - s.tx*im) * k
}

// rectangles: reflects each coordinate inside cells of size (rx, ry); a
// zero size leaves that coordinate alone.
func (s *varState) rectangles(w float64) {
	if rx := s.p[PRectanglesX]; rx == 0 {
		s.px += w * s.tx
	} else {
		s.px += w * ((2*math.Floor(s.tx/rx)+1)*rx - s.tx)
	}
	if ry := s.p[PRectanglesY]; ry == 0 {
		s.py += w * s.ty
	} else {
		s.py += w * ((2*math.Floor(s.ty/ry)+1)*ry - s.ty)
	}
}

// tangent: (sin x / cos y, tan y).
func (s *varState) tangent(w float64) {
	s.px += w * math.Sin(s.tx) / math.Cos(s.ty)
	s.py += w * math.Tan(s.ty)
}

// secant2: (x, sec(w·r) ∓ 1) (weight used non-linearly, as in flam3).
func (s *varState) secant2(w float64) {
	cr := math.Cos(w * s.sqrt)
	icr := 1 / cr
	s.px += w * s.tx
	if cr < 0 {
		s.py += w * (icr + 1)
	} else {
		s.py += w * (icr - 1)
	}
}

// cross: (x, y) / |x² − y²|.
func (s *varState) cross(w float64) {
	q := s.tx*s.tx - s.ty*s.ty
	k := w * math.Sqrt(1/(q*q+flam3Eps))
	s.px += s.tx * k
	s.py += s.ty * k
}

// disc2: disc with a rotation and a twist (precalculated sin/cos adds).
func (s *varState) disc2(w float64) {
	p := s.p
	sn, cs := math.Sincos(p[PDisc2Timespi] * (s.tx + s.ty))
	k := w * s.atanXY() / math.Pi
	s.px += (sn + p[PDisc2Cosadd]) * k
	s.py += (cs + p[PDisc2Sinadd]) * k
}

// bent2: bent with its own factors for negative x and y.
func (s *varState) bent2(w float64) {
	nx, ny := s.tx, s.ty
	if nx < 0 {
		nx *= s.p[PBent2X]
	}
	if ny < 0 {
		ny *= s.p[PBent2Y]
	}
	s.px += w * nx
	s.py += w * ny
}

// bipolar: bipolar coordinates, the angle shifted and wrapped to ±π/2.
func (s *varState) bipolar(w float64) {
	t := s.sumsq + 1
	x2 := 2 * s.tx
	y := 0.5*math.Atan2(2*s.ty, s.sumsq-1) - math.Pi/2*s.p[PBipolarShift]
	if y > math.Pi/2 {
		y = -math.Pi/2 + math.Mod(y+math.Pi/2, math.Pi)
	} else if y < -math.Pi/2 {
		y = math.Pi/2 - math.Mod(math.Pi/2-y, math.Pi)
	}
	s.px += w * 0.25 * (2 / math.Pi) * math.Log((t+x2)/(t-x2))
	s.py += w * (2 / math.Pi) * y
}

// butterfly: 4/√(3π)·√(|xy|/(x²+4y²))·(x, 2y).
func (s *varState) butterfly(w float64) {
	wx := w * 1.3029400317411197908970256609023
	y2 := 2 * s.ty
	k := wx * math.Sqrt(math.Abs(s.ty*s.tx)/(flam3Eps+s.tx*s.tx+y2*y2))
	s.px += k * s.tx
	s.py += k * y2
}

// cell: moves each cell of a grid of size cell_size into one quadrant,
// interleaving the four quadrants, and flips y.
func (s *varState) cell(w float64) {
	size := s.p[PCellSize]
	inv := 1 / size
	x := math.Floor(s.tx * inv)
	y := math.Floor(s.ty * inv)
	dx := s.tx - x*size
	dy := s.ty - y*size
	if y >= 0 {
		y *= 2
	} else {
		y = -(2*y + 1)
	}
	if x >= 0 {
		x *= 2
	} else {
		x = -(2*x + 1)
	}
	s.px += w * (dx + x*size)
	s.py -= w * (dy + y*size)
}

// curve: Gaussian bumps, (x + xamp·e^(−y²/xlen²), y + yamp·e^(−x²/ylen²)).
func (s *varState) curve(w float64) {
	p := s.p
	xl := p[PCurveXlength] * p[PCurveXlength]
	yl := p[PCurveYlength] * p[PCurveYlength]
	if xl < 1e-20 {
		xl = 1e-20
	}
	if yl < 1e-20 {
		yl = 1e-20
	}
	s.px += w * (s.tx + p[PCurveXamp]*math.Exp(-s.ty*s.ty/xl))
	s.py += w * (s.ty + p[PCurveYamp]*math.Exp(-s.tx*s.tx/yl))
}

// edisc: elliptic coordinates mapped back through cosh/cos, scaled by
// flam3's 1/11.57034632.
func (s *varState) edisc(w float64) {
	tmp := s.sumsq + 1
	tmp2 := 2 * s.tx
	xmax := (math.Sqrt(tmp+tmp2) + math.Sqrt(tmp-tmp2)) * 0.5
	a1 := math.Log(xmax + math.Sqrt(xmax-1))
	a2 := -math.Acos(s.tx / xmax)
	k := w / 11.57034632
	snv, csv := math.Sincos(a1)
	snhu, cshu := sinhCosh(a2)
	if s.ty > 0 {
		snv = -snv
	}
	s.px += k * cshu * csv
	s.py += k * snhu * snv
}

// elliptic: elliptic coordinates (μ, ν) of (x, y), scaled by 2/π.
func (s *varState) elliptic(w float64) {
	k := w / (math.Pi / 2)
	angle, lg := ellipticParts(s.tx, s.sumsq, false)
	s.px += k * angle
	if s.ty > 0 {
		s.py += k * lg
	} else {
		s.py -= k * lg
	}
}

// ellipticParts are elliptic's two coordinates before their scale and
// sign: the angle atan2(a, √(1−a²)) and log(xmax + √(xmax−1)), with the
// square roots clamped as flam3 clamps them (below 0) or, with jwf, as
// JWildfire's EllipticFunc does (below SMALL_EPSILON: sqrtSafe). elliptic
// and JWildfire's modes 0 and 1 (ellipticMode) share them.
func ellipticParts(x, sumsq float64, jwf bool) (angle, lg float64) {
	tmp := sumsq + 1
	x2 := 2 * x
	xmax := 0.5 * (math.Sqrt(tmp+x2) + math.Sqrt(tmp-x2))
	a := x / xmax
	sq := sqrtNonNeg
	if jwf {
		sq = sqrtSafe
	}
	return math.Atan2(a, sq(1-a*a)), math.Log(xmax + sq(xmax-1))
}

// sqrtNonNeg is flam3's clamped square root: 0 below 0.
func sqrtNonNeg(x float64) float64 {
	if x < 0 {
		return 0
	}
	return math.Sqrt(x)
}

// escher: z^((1 + e^(iβ))/2), the Droste/Escher spiral.
func (s *varState) escher(w float64) {
	a := s.atanYX()
	lnr := 0.5 * math.Log(s.sumsq)
	seb, ceb := math.Sincos(s.p[PEscherBeta])
	vc := 0.5 * (1 + ceb)
	vd := 0.5 * seb
	m := w * math.Exp(vc*lnr-vd*a)
	sn, cn := math.Sincos(vc*a + vd*lnr)
	s.px += m * cn
	s.py += m * sn
}

// foci: (sinh x, sin y) / (cosh x − cos y), with flam3's halved exponentials.
func (s *varState) foci(w float64) {
	expx := math.Exp(s.tx) * 0.5
	expnx := 0.25 / expx
	sn, cn := math.Sincos(s.ty)
	k := w / (expx + expnx - cn)
	s.px += k * (expx - expnx)
	s.py += k * sn
}

// lazysusan: spins the disc of radius w about (x, −y) and pushes the rest
// outwards by space.
func (s *varState) lazysusan(w float64) {
	p := s.p
	lx, ly := p[PLazysusanX], p[PLazysusanY]
	x := s.tx - lx
	y := s.ty + ly
	r := math.Sqrt(x*x + y*y)
	if r < w {
		a := math.Atan2(y, x) + p[PLazysusanSpin] + p[PLazysusanTwist]*(w-r)
		sa, ca := math.Sincos(a)
		r *= w
		s.px += r*ca + lx
		s.py += r*sa - ly
	} else {
		k := w * (1 + p[PLazysusanSpace]/r)
		s.px += k*x + lx
		s.py += k*y - ly
	}
}

// loonie: inside the circle of radius w, (x, y)·√(w²/r² − 1); outside, w·(x, y).
func (s *varState) loonie(w float64) {
	w2 := w * w
	if s.sumsq < w2 {
		k := w * math.Sqrt(w2/s.sumsq-1)
		s.px += k * s.tx
		s.py += k * s.ty
	} else {
		s.px += w * s.tx
		s.py += w * s.ty
	}
}

// modulus: wraps each coordinate into [−m, m].
func (s *varState) modulus(w float64) {
	mx, my := s.p[PModulusX], s.p[PModulusY]
	s.px += w * wrapModulus(s.tx, mx)
	s.py += w * wrapModulus(s.ty, my)
}

func wrapModulus(v, m float64) float64 {
	switch {
	case v > m:
		return -m + math.Mod(v+m, 2*m)
	case v < -m:
		return m - math.Mod(m-v, 2*m)
	}
	return v
}

// oscilloscope: flips y inside a (damped) cosine band.
func (s *varState) oscilloscope(w float64) {
	p := s.p
	tpf := 2 * math.Pi * p[POscilloscopeFrequency]
	amp, damp := p[POscilloscopeAmplitude], p[POscilloscopeDamping]
	var t float64
	if damp == 0 {
		t = amp*math.Cos(tpf*s.tx) + p[POscilloscopeSeparation]
	} else {
		t = amp*math.Exp(-math.Abs(s.tx)*damp)*math.Cos(tpf*s.tx) + p[POscilloscopeSeparation]
	}
	s.px += w * s.tx
	if math.Abs(s.ty) <= t {
		s.py -= w * s.ty
	} else {
		s.py += w * s.ty
	}
}
