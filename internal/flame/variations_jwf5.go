package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// Wave, heart, disc and polar variations of JWildfire's plugin set (see
// variations_jwf.go for the conventions). They are 2D except octagon,
// which reads and writes z.
//
// Random draws (u = Float64):
//
//	npolar u1: root k = trunc(u1·(2³¹−1)) mod |n|, turned by k·2π/n

// jwf5DefaultParams sets JWildfire's defaults for these variations.
func jwf5DefaultParams(p *Params) {
	p[PWaves2bFreqx], p[PWaves2bFreqy], p[PWaves2bPwx], p[PWaves2bPwy] = 1.5, 2.5, 1, 1.5
	p[PWaves2bScalex], p[PWaves2bScaleinfx], p[PWaves2bScaley], p[PWaves2bScaleinfy] = 2, 1, 0.75, 1.5
	p[PWaves2bUnity], p[PWaves2bJacok] = 1, 0.25
	p[PWaves3WfScalex], p[PWaves3WfScaley] = 0.25, 0.5
	p[PWaves3WfFreqx], p[PWaves3WfFreqy] = math.Pi/2, math.Pi/4
	p[PWaves3WfUseCosX] = 1
	p[PWaves22Scalex], p[PWaves22Scaley], p[PWaves22Freqx], p[PWaves22Freqy] = 0.05, 0.05, 7, 13
	p[PWaves22Powerx], p[PWaves22Powery] = 2, 2
	p[PWaves3Scalex], p[PWaves3Scaley], p[PWaves3Freqx], p[PWaves3Freqy] = 0.05, 0.05, 7, 13
	p[PWaves3SyFreq] = 2
	p[PWaves4Scalex], p[PWaves4Scaley], p[PWaves4Freqx], p[PWaves4Freqy] = 0.05, 0.05, 7, 13
	p[PWaves4Yfact] = 0.1
	p[PFdiscAshift], p[PFdiscRshift], p[PFdiscTerm1] = 1, 1, 1
	p[POctagonMode] = 1
	p[PNpolarN] = 1
	jwf6DefaultParams(p)
}

// applyJWF5 adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF5(id VarID, w float64, r *rng.Stream) {
	p := s.p
	switch id {
	case VarWaves2b:
		s.waves2b(w)
	case VarWaves3Wf: // waves2_wf with the wave squared
		dx, dy := jwfDamping(p[PWaves3WfDampx]), jwfDamping(p[PWaves3WfDampy])
		fx, fy := math.Sin, math.Sin
		if ftoi(p[PWaves3WfUseCosX]) == 1 {
			fx = math.Cos
		}
		if ftoi(p[PWaves3WfUseCosY]) == 1 {
			fy = math.Cos
		}
		vx, vy := fx(s.ty*p[PWaves3WfFreqx]), fy(s.tx*p[PWaves3WfFreqy])
		s.px += w * (s.tx + dx*p[PWaves3WfScalex]*vx*vx) * dx
		s.py += w * (s.ty + dy*p[PWaves3WfScaley]*vy*vy) * dy
	case VarWaves22:
		s.waves22(w)
	case VarWaves3: // Tatyana Zabanova's waves whose amplitude itself waves
		ax := 0.5 * p[PWaves3Scalex] * (1 + math.Sin(s.ty*p[PWaves3SxFreq]))
		ay := 0.5 * p[PWaves3Scaley] * (1 + math.Sin(s.tx*p[PWaves3SyFreq]))
		s.px += w * (s.tx + math.Sin(s.ty*p[PWaves3Freqx])*ax)
		s.py += w * (s.ty + math.Sin(s.tx*p[PWaves3Freqy])*ay)
	case VarWaves4:
		s.waves4(w)
	case VarXheart:
		s.xheart(w)
	case VarFdisc: // Apophysis 7X's disc with shifts and four weighted terms
		a := 2 * math.Pi / (s.sqrt + p[PFdiscAshift])
		k := w * (math.Atan2(s.ty, s.tx)/math.Pi + p[PFdiscRshift]) * 0.5
		kx, ky := k*math.Cos(a+p[PFdiscXshift]), k*math.Sin(a+p[PFdiscYshift])
		t1, t2, t3, t4 := p[PFdiscTerm1], p[PFdiscTerm2], p[PFdiscTerm3], p[PFdiscTerm4]
		s.px += t1*kx + t2*s.tx*kx + t3*s.tx*k + t4*s.tx
		s.py += t1*ky + t2*s.ty*ky + t3*s.ty*k + t4*s.ty
	case VarOctagon:
		s.octagon(w)
	case VarNpolar:
		s.npolar(w, r)
	}
}

// jwfDamping is JWildfire's wave damping: exp(d), or none for d near 0.
func jwfDamping(d float64) float64 {
	if math.Abs(d) < 1e-8 {
		return 1
	}
	return math.Exp(d)
}

// waves2b: dark-beam's waves2 with a power of the coordinate inside the
// sine and an amplitude that goes from scale at 0 to scaleinf far out; a
// power near 0 swaps the sine for Jacobi's sn (parameter jacok), a small
// negative one for the Bessel function J1.
func (s *varState) waves2b(w float64) {
	p := s.p
	unity := p[PWaves2bUnity]
	div := func(q, d float64) float64 { // JWildfire's safediv
		if d < 1e-10 {
			return 1 / d
		}
		return q / d
	}
	ax := div(unity, unity+s.tx*s.tx)*(p[PWaves2bScalex]-p[PWaves2bScaleinfx]) + p[PWaves2bScaleinfx]
	ay := div(unity, unity+s.ty*s.ty)*(p[PWaves2bScaley]-p[PWaves2bScaleinfy]) + p[PWaves2bScaleinfy]
	k := min(max(p[PWaves2bJacok], -1), 1)
	wave := func(v, pw, freq float64) float64 {
		pw = min(max(pw, -10), 10)
		switch {
		case pw >= 0 && pw < 1e-4:
			return jacobiSn(v*freq, k)
		case pw < 0 && pw > -1e-4:
			return math.J1(v * freq)
		}
		sg := 1.0
		if v < 0 {
			sg = -1
		}
		return math.Sin(sg * math.Pow(math.Abs(v)+1e-10, pw) * freq)
	}
	s.px += w * (s.tx + ax*wave(s.ty, p[PWaves2bPwx], p[PWaves2bFreqx]))
	s.py += w * (s.ty + ay*wave(s.tx, p[PWaves2bPwy], p[PWaves2bFreqy]))
}

// jacobiSn is Jacobi's elliptic sn(u | 1−mc) by the descending Landen
// (arithmetic-geometric mean) scale, as waves2b evaluates it: at most 8
// steps, stopping when the means agree to 3·10⁻⁴ relative; mc < 0 is
// brought into range by the imaginary-modulus transform, and mc = 0 is
// tanh.
func jacobiSn(u, mc float64) float64 {
	if mc == 0 {
		return math.Tanh(u)
	}
	neg := mc < 0
	d := 1.0
	if neg {
		d = 1 - mc
		mc = -mc / d
		d = math.Sqrt(d)
		u *= d
	}
	var am, gm [8]float64 // the arithmetic and geometric means of each step
	a, c := 1.0, 0.0
	last := 0
	for i := range am {
		last = i
		am[i] = a
		mc = math.Sqrt(mc)
		gm[i] = mc
		c = 0.5 * (a + mc)
		if math.Abs(a-mc) <= 3e-4*a {
			break
		}
		mc *= a
		a = c
	}
	sn, cn := math.Sincos(u * c)
	if sn != 0 {
		// Back down the scale from c·cot(u·c); sn is ±1/√(c²+1) at the end.
		a = cn / sn
		c *= a
		dn := 1.0
		for i := last; i >= 0; i-- {
			b := am[i]
			a *= c
			c *= dn
			dn = (gm[i] + a) / (b + a)
			a = c / b
		}
		a = 1 / math.Sqrt(c*c+1)
		if sn < 0 {
			sn = -a
		} else {
			sn = a
		}
	}
	if neg {
		sn /= d
	}
	return sn
}

// waves22: Tatyana Zabanova's waves with the sine raised to a whole power,
// or its half-lifted form (1 + sin)/2 for mode 1.
func (s *varState) waves22(w float64) {
	p := s.p
	wave := func(v, freq, mode, pw float64) float64 {
		sn := math.Sin(v * freq)
		if math.Trunc(min(max(mode, 0), 1)) >= 0.5 {
			sn = 0.5 * (1 + sn)
		}
		return math.Pow(sn, math.Trunc(pw))
	}
	s.px += w * (s.tx + wave(s.ty, p[PWaves22Freqx], p[PWaves22Modex], p[PWaves22Powerx])*p[PWaves22Scalex])
	s.py += w * (s.ty + wave(s.tx, p[PWaves22Freqy], p[PWaves22Modey], p[PWaves22Powery])*p[PWaves22Scaley])
}

// waves4: Tatyana Zabanova's waves whose x amplitude is a pseudo-random
// value per wave band (the shader idiom fract(sin(k)·43758.5453)), or its
// 0/1 threshold with cont 1.
func (s *varState) waves4(w float64) {
	p := s.p
	band := math.Floor(s.ty * p[PWaves4Freqx] / (2 * math.Pi))
	a := math.Sin(band*12.9898+band*78.233+1+s.ty*0.001*p[PWaves4Yfact]) * 43758.5453
	a -= math.Trunc(a)
	if math.Trunc(min(max(p[PWaves4Cont], 0), 1)) == 1 {
		if a > 0.5 {
			a = 1
		} else {
			a = 0
		}
	}
	s.px += w * (s.tx + math.Sin(s.ty*p[PWaves4Freqx])*a*a*p[PWaves4Scalex])
	s.py += w * (s.ty + math.Sin(s.tx*p[PWaves4Freqy])*p[PWaves4Scaley])
}

// xheart: xyrus02's heart: the bubble-like map 4/(r²+4) with y stretched
// by 6 + 2·ratio, turned by π/4·(1 + angle/2), and mirrored in y where the
// result has x ≤ 0.
func (s *varState) xheart(w float64) {
	p := s.p
	sa, ca := math.Sincos(math.Pi/4 + 0.5*math.Pi/4*p[PXheartAngle])
	r24 := s.sumsq + 4
	bx, by := 4/r24*s.tx, (6+2*p[PXheartRatio])/r24*s.ty
	x := ca*bx - sa*by
	y := sa*bx + ca*by
	s.px += w * x
	if x > 0 {
		s.py += w * y
	} else {
		s.py -= w * y
	}
}

// octagon: FracFx's octagon: the point scaled by a factor from its quartic
// norm r = x⁴ + y⁴ + 2z² and its octahedral norm t = |x| + |y| + 2√z (|z|
// for modes above 1), chosen by mode and by which side of w/2 r (t for
// modes 5, 6) lies; some branches also push the point out by (x, y, z).
func (s *varState) octagon(w float64) {
	p := s.p
	x, y, z := s.tx, s.ty, s.tz
	mode := min(max(ftoi(p[POctagonMode]), 0), 6)
	r := x*x*x*x + y*y*y*y + 2*z*z
	if r == 0 {
		r = 1e-300
	}
	zz := z
	if mode > 1 {
		zz = math.Abs(z)
	}
	t := math.Abs(x) + math.Abs(y) + 2*math.Sqrt(zz)
	if t == 0 {
		t = 1e-300
	}
	var m float64
	splits := false
	in := r <= w/2
	if mode >= 5 {
		in = t <= w/2
	}
	switch mode {
	case 0:
		m, splits = 1/r, in
		if in {
			m = 1 + 1/t
		}
	case 1:
		splits = true
		switch {
		case in:
			m = 1 + 1/t
		case w >= 0:
			m = 1/r + 1/t
		default:
			m = 1 + 1/r
		}
	case 2, 6:
		m, splits = 1+1/r, in
		if in {
			m = 1 + 1/t
		}
	case 3, 5:
		m, splits = 1/r, in
		if in {
			m = 1 / t
		}
	case 4:
		m, splits = 1/r, in
	}
	s.px += w * m * x
	s.py += w * m * y
	s.pz += w * m * z
	if splits {
		s.px += w * (x + signNonNeg(x)*p[POctagonX])
		s.py += w * (y + signNonNeg(y)*p[POctagonY])
		s.pz += w * (z + signNonNeg(z)*p[POctagonZ])
	}
}

// signNonNeg is 1 for v ≥ 0 (−0 included), else −1.
func signNonNeg(v float64) float64 {
	if v >= 0 {
		return 1
	}
	return -1
}

// npolar: Zy0rg's n-th root taken of the point (odd parity) or of its
// polar image (even parity), which is mapped back from polar coordinates.
func (s *varState) npolar(w float64, r *rng.Stream) {
	p := s.p
	n := ftoi(p[PNpolarN])
	if n == 0 {
		n = 1
	}
	parity := ftoi(p[PNpolarParity])
	odd := math.Mod(math.Abs(parity), 2) != 0
	v := w / math.Pi
	x, y := s.tx, s.ty
	if !odd {
		x, y = v*math.Atan2(s.tx, s.ty), v/2*math.Log(s.sumsq)
	}
	k := float64(int64(r.Float64()*math.MaxInt32) % int64(math.Abs(n)))
	a := (math.Atan2(y, x) + 2*math.Pi*k) / n
	rr := w * math.Pow(x*x+y*y, 1/n/2)
	if odd {
		rr *= parity
	}
	sa, ca := math.Sincos(a)
	ca *= rr
	sa *= rr
	if odd {
		s.px += ca
		s.py += sa
		return
	}
	s.px += v / 2 * math.Log(ca*ca+sa*sa)
	s.py += v * math.Atan2(ca, sa)
}
