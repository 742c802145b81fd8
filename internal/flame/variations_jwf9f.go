package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// More of the ninth set: JWildfire's pow_block, loonie2, hypershift,
// ennepers2, eScale, pyramid, line, sphericalN, lozi and henon (their
// maps, applied to the point: no state between points), cpow3 and
// hypertile3D. ennepers2, pyramid, line and hypertile3D write z.
//
// Random draws (u = Float64), each unconditional:
//
//	pow_block   u1: root branch floor(u1·denominator)
//	line        u1: the distance along the line, w·u1
//	sphericalN  u1: branch floor(u1·power)
//	cpow3       u1 u2 u3 u4: the spread test, the sign, the branch count
//	            from log u3, the divisor's branch floor(u4·divisor)

// jwf9fDefaultParams sets JWildfire's defaults for these variations.
func jwf9fDefaultParams(p *Params) {
	// pow_block's numerator and denominator are random in JWildfire (in
	// [2, 7) and [1, 4)); the middles here. Its files set them.
	p[PPowBlockNumerator], p[PPowBlockDenominator], p[PPowBlockRoot] = 4.5, 2.5, 1
	p[PPowBlockCorrectn], p[PPowBlockCorrectd] = 1, 1
	p[PLoonie2Sides], p[PLoonie2Star], p[PLoonie2Circle] = 4, 0.15, 0.25
	p[PHypershiftShift], p[PHypershiftStretch] = 2, 1
	p[PEnnepers2A], p[PEnnepers2B], p[PEnnepers2C] = 1, 0.3333, 0.075
	p[PEScaleScale] = 1
	p[PSphericalNPower], p[PSphericalNDist] = 3, 1
	p[PLoziA], p[PLoziB], p[PLoziC] = 0.5, 1, 1
	p[PHenonA], p[PHenonB], p[PHenonC] = 0.5, 1, 1
	p[PCpow3R], p[PCpow3D], p[PCpow3Divisor], p[PCpow3Spread] = 1, 1, 1, 1
	p[PHypertile3DP], p[PHypertile3DQ] = 3, 7
	jwf9gDefaultParams(p)
}

// applyJWF9f adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF9f(id VarID, w float64, r *rng.Stream) {
	p := s.p
	x, y, z := s.tx, s.ty, s.tz
	switch id {
	case VarPowBlock:
		s.powBlock(w, r)
	case VarLoonie2:
		s.loonie2(w)
	case VarHypershift:
		sh := p[PHypershiftShift]
		rad := 1 / (x*x + y*y)
		hx, hy := rad*x+sh, rad*y
		rad = w * (1 - sh*sh) / (hx*hx + hy*hy)
		s.px += rad*hx + sh
		s.py += rad * hy * p[PHypershiftStretch]
	case VarEnnepers2:
		a, b, c := p[PEnnepers2A], p[PEnnepers2B], p[PEnnepers2C]
		r2 := 1 / (x*x + y*y)
		dxy := a*x*(a*x) - b*y*(b*y)
		s.px += w * x * (a*a - dxy*r2 - c*math.Sqrt(math.Abs(x)))
		s.py += w * y * (b*b - dxy*r2 - c*math.Sqrt(math.Abs(y)))
		s.pz += w * dxy * 0.5 * math.Sqrt(r2)
	case VarEScale:
		s.eScale(w)
	case VarPyramid:
		cx, cy, cz := x*x*x, y*y*y, math.Abs(z*z*z)
		k := w / (math.Abs(cx) + math.Abs(cy) + cz + 1e-9)
		s.px += cx * k
		s.py += cy * k
		s.pz += cz * k
	case VarLine:
		d, ph := p[PLineDelta]*math.Pi, p[PLinePhi]*math.Pi
		ux, uy, uz := math.Cos(d)*math.Cos(ph), math.Sin(d)*math.Cos(ph), math.Sin(ph)
		n := math.Sqrt(ux*ux + uy*uy + uz*uz)
		t := r.Float64() * w
		s.px += ux / n * t
		s.py += uy / n * t
		s.pz += uz / n * t
	case VarSphericalN:
		rr := math.Pow(s.sqrt, p[PSphericalNDist])
		k := math.Floor(p[PSphericalNPower] * r.Float64())
		sn, cs := math.Sincos(math.Atan2(y, x) + k*2*math.Pi/math.Floor(p[PSphericalNPower]))
		if rr > 1e-300 {
			s.px += w * cs / rr
			s.py += w * sn / rr
		}
	case VarLozi:
		s.px += (p[PLoziC] - p[PLoziA]*math.Abs(x) + y) * w
		s.py += p[PLoziB] * x * w
	case VarHenon:
		s.px += (p[PHenonC] - p[PHenonA]*x*x + y) * w
		s.py += p[PHenonB] * x * w
	case VarCpow3:
		s.cpow3(w, r)
	case VarHypertile3D:
		s.hypertile3D(w)
	}
}

// powBlock: a rational power numerator/denominator of the point with
// root's share of the denominator's branches.
func (s *varState) powBlock(w float64, r *rng.Stream) {
	p := s.p
	num, den := p[PPowBlockNumerator], p[PPowBlockDenominator]
	power := den * p[PPowBlockCorrectn] * 1 / (math.Abs(p[PPowBlockCorrectd]) + 1e-300)
	if math.Abs(power) <= 1e-300 {
		power = 1e-300
	}
	power = num * 0.5 / power
	deneps := den
	if math.Abs(deneps) <= 1e-300 {
		deneps = 1e-300
	}
	deneps = 1 / deneps
	r2 := math.Pow(s.sumsq, power) * w
	ran := (math.Atan2(s.ty, s.tx)*deneps + p[PPowBlockRoot]*2*math.Pi*math.Floor(r.Float64()*den)*deneps) * num
	s.px += r2 * math.Cos(ran)
	s.py += r2 * math.Sin(ran)
}

// loonie2: loonie inside a star-polygon-circle blend of radius |w| (sides
// 1 to 50, star and circle in [−1, 1], as JWildfire's setParameter
// clamps).
func (s *varState) loonie2(w float64) {
	p := s.p
	sides := min(max(ftoi(p[PLoonie2Sides]), 1), 50)
	star := min(max(p[PLoonie2Star], -1), 1)
	circ := min(max(p[PLoonie2Circle], -1), 1)
	sqrvvar := w * w
	sa, ca := math.Sincos(2 * math.Pi / sides)
	ss, cs := math.Sincos(-math.Pi / 2 * star)
	sc, cc := math.Sincos(math.Pi / 2 * circ)
	xrt, yrt := s.tx, s.ty
	r2 := xrt*cs + math.Abs(yrt)*ss
	circle := s.sqrt
	i := 0.0
	for ; i < sides-1; i++ {
		xrt, yrt = xrt*ca-yrt*sa, xrt*sa+yrt*ca
		r2 = max(r2, xrt*cs+math.Abs(yrt)*ss)
	}
	r2 = r2*cc + circle*sc
	if i > 1 {
		r2 *= r2
	} else {
		r2 = math.Abs(r2) * r2
	}
	k := w
	switch {
	case r2 > 0 && r2 < sqrvvar:
		k = w * math.Sqrt(math.Abs(sqrvvar/r2-1))
	case r2 < 0:
		k = w / math.Sqrt(math.Abs(sqrvvar/r2)-1)
	}
	s.px += k * s.tx
	s.py += k * s.ty
}

// eScale: Michael Faber's eScale, a scale and turn in elliptic
// coordinates.
func (s *varState) eScale(w float64) {
	p := s.p
	x, y := s.tx, s.ty
	mu, nu := elliptic(x, y*y+x*x+1, y < 0)
	sc, ang := p[PEScaleScale], p[PEScaleAngle]
	mu *= sc
	nu = math.Mod(math.Mod(sc*(nu+math.Pi+ang), 2*math.Pi*sc)-ang-sc*math.Pi, 2*math.Pi)
	if nu > math.Pi {
		nu -= 2 * math.Pi
	}
	if nu < -math.Pi {
		nu += 2 * math.Pi
	}
	s.px += w * math.Cosh(mu) * math.Cos(nu)
	s.py += w * math.Sinh(mu) * math.Sin(nu)
}

// cpow3: a complex power z^(r·e^(iθ)) with θ from d, its branches spread
// as JWildfire's cpow3 draws them. Java's round is floor(v + ½).
func (s *varState) cpow3(w float64, r *rng.Stream) {
	p := s.p
	div, d := p[PCpow3Divisor], p[PCpow3D]
	ld := math.Log(d)
	if d < 0 {
		ld = -math.Log(-d)
	}
	pa := math.Atan2(ld*p[PCpow3R], 2*math.Pi)
	tc := math.Cos(pa) * p[PCpow3R] * math.Cos(pa) / div
	td := math.Cos(pa) * p[PCpow3R] * math.Sin(pa) / div
	coeff := 0.0
	if td != 0 {
		coeff = -0.095 * p[PCpow3Spread] / td
	}
	a := math.Atan2(s.ty, s.tx)
	if a < 0 {
		a += 2 * math.Pi
	}
	if math.Cos(a/2) < r.Float64()*2-1 {
		a -= 2 * math.Pi
	}
	turn := -2 * math.Pi
	if r.Float64() < 0.5 {
		turn = 2 * math.Pi
	}
	a += turn * math.Floor(math.Log(r.Float64())*coeff+0.5)
	lnr2 := math.Log(s.sumsq)
	rr := w * math.Exp(tc/2*lnr2-td*a)
	th := tc*a + td/2*lnr2 + 2*math.Pi/div*math.Floor(div*r.Float64())
	s.px += rr * math.Cos(th)
	s.py += rr * math.Sin(th)
}

// hypertile3D: hypertile's Möbius step of the {p, q} tiling in 3D (p, q
// at least 3, n at least 0, rounded as JWildfire's setParameter does).
func (s *varState) hypertile3D(w float64) {
	p := s.p
	pa := 2 * math.Pi / max(ftoi(p[PHypertile3DP]), 3)
	qa := 2 * math.Pi / max(ftoi(p[PHypertile3DQ]), 3)
	rr := -(math.Cos(pa) - 1) / (math.Cos(pa) + math.Cos(qa))
	if rr > 0 {
		rr = 1 / math.Sqrt(1+rr)
	} else {
		rr = 1
	}
	sn, cs := math.Sincos(max(ftoi(p[PHypertile3DN]), 0) * pa)
	cx, cy := rr*cs, rr*sn
	c2 := cx*cx + cy*cy
	x, y, z := s.tx, s.ty, s.tz
	r2 := x*x + y*y + z*z
	x2cx, y2cy := 2*cx*x, 2*cy*y
	d := w / (c2*r2 + x2cx - y2cy + 1)
	s.px += d * (x*(1+cx*cx-cy*cy) - cx*(y2cy-r2-1))
	s.py += d * (y*(1+cy*cy-cx*cx) + cy*(-x2cx-r2-1))
	s.pz += d * (z * (1 - cy*cy - cx*cx))
}
