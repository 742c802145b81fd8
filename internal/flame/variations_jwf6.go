package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// JWildfire's synth (slobo777's Synth v2; see variations_jwf.go for the
// conventions): a wave function synth_value(t) built from a base a and up
// to five layered waveforms b..f, each sine, cosine, square, saw, triangle,
// concave, convex, n-gon or inverse n-gon, skewed, at a frequency and
// phase, and added, multiplied, maxed or minned into the running value,
// then mixed with 1; one of 27 modes uses it to bend the point (a radius
// by the angle, a coordinate by the other, a blur's shape, ...), scaling
// the radius linearly or through a quadratic Bézier map (smooth 1).
//
// Random draws (u = Float64): synth always draws four, u1..u4, and each
// mode uses the first few in JWildfire's order:
//
//	mode 2 (blur legacy) radius (u1+u2+0.002·u3)/2.002, angle 2π·u4−π
//	mode 3 (blur)        radius (u1+u2)/2, angle 2π·u3−π
//	mode 4 (zigzag)      y 1+0.1·(u1+u2−1)·power, x 2·asin(2·u3−1)
//	mode 12 (ring)       radius 1+0.1·(u1+u2−1)·power, angle 2π·u3−π
//	mode 13 (ring 2)     angle 2π·u1−π, radius u2^power
//	mode 1004 (julia)    u1 < ½ adds π to the half angle

// synthEps is JWildfire's SMALL_EPSILON, synth's EPS.
const synthEps = 1e-300

// jwf6DefaultParams sets JWildfire's defaults for these variations.
func jwf6DefaultParams(p *Params) {
	p[PSynthA], p[PSynthMode], p[PSynthPower], p[PSynthMix] = 1, 3, -2, 1
	for k := range ParamID(synthLayers) {
		p[PSynthBFrq+6*k] = 1
	}
	jwf7DefaultParams(p)
}

// synthValue is JWildfire's synth_value: the layered wave at t. A layer of
// unknown type reuses the previous layer's wave value (0 before any), as
// JWildfire's one shared variable does.
func (s *varState) synthValue(t float64) float64 {
	p := s.p
	a := p[PSynthA]
	v, wave := a, 0.0
	for k := range ParamID(synthLayers) {
		amp := p[PSynthB+6*k]
		if amp == 0 {
			continue
		}
		frq := p[PSynthBFrq+6*k]
		y := (p[PSynthBPhs+6*k] + t*frq) / (2 * math.Pi)
		y -= math.Floor(y)
		if skew := p[PSynthBSkew+6*k]; skew != 0 {
			z := 0.5 + 0.5*skew
			if y > z {
				y = 0.5 + 0.5*(y-z)/(1-z+synthEps)
			} else {
				y = 0.5 - 0.5*(z-y)/(z+synthEps)
			}
		}
		wave = synthWave(ftoi(p[PSynthBType+6*k]), y, frq, wave)
		switch ftoi(p[PSynthBLayer+6*k]) {
		case 0:
			v += amp * wave
		case 1:
			v *= 1 + amp*wave
		case 2:
			if z := a + amp*wave; !(v > z) {
				v = z
			}
		case 3:
			if z := a + amp*wave; !(v < z) {
				v = z
			}
		}
	}
	mix := p[PSynthMix]
	return v*mix + (1 - mix)
}

// synthWave is waveform typ at phase y in [0, 1); prev is returned for an
// unknown type.
func synthWave(typ, y, frq, prev float64) float64 {
	switch typ {
	case 0:
		return math.Sin(y * 2 * math.Pi)
	case 1:
		return math.Cos(y * 2 * math.Pi)
	case 2:
		if y > 0.5 {
			return 1
		}
		return -1
	case 3:
		return 1 - 2*y
	case 4:
		if y > 0.5 {
			return 3 - 4*y
		}
		return 2*y - 1
	case 5:
		return 8*(y-0.5)*(y-0.5) - 1
	case 6:
		return 2*math.Sqrt(y) - 1
	case 7: // n-gon: the secant of the angle within a side
		return 1/(math.Cos((y-0.5)*(2*math.Pi/frq))+synthEps) - 1
	case 8:
		z := math.Cos((y - 0.5) * (2 * math.Pi / frq))
		return z / (1 + synthEps - z)
	}
	return prev
}

// synthScale is JWildfire's interpolate: x scaled by m, linearly or (smooth
// 1) through synthBezier.
func synthScale(x, m, smooth float64) float64 {
	if smooth == 1 {
		return synthBezier(x, m)
	}
	return x * m
}

// synthBezier is JWildfire's bezier_quad_map: y = m at x = 1, joining y = x
// again beyond L = max(2−m, 2m) by quadratic Bézier arcs, odd in x and m.
func synthBezier(x, m float64) float64 {
	sg := 1.0
	if m < 0 {
		m, sg = -m, -1
	}
	if x < 0 {
		x, sg = -x, -sg
	}
	im := 1e10
	if m > 1e-10 {
		im = 1 / m
	}
	l := 2 * m
	if 2-m > l {
		l = 2 - m
	}
	switch {
	case x > l || m == 1:
		return sg * x
	case m < 1 && x <= 1: // control points (0,0), (m,m), (1,m)
		t := x
		if (m-0.5)*(m-0.5) > 1e-10 {
			t = (-m + math.Sqrt(m*m+(1-2*m)*x)) / (1 - 2*m)
		}
		return sg * (x + (m-1)*t*t)
	case m > 1 && x <= 1: // (0,0), (1/m,1/m), (1,m)
		t := x
		if (m-2)*(m-2) > 1e-10 {
			t = (-im + math.Sqrt(im*im+(1-2*im)*x)) / (1 - 2*im)
		}
		return sg * (x + (m-1)*t*t)
	case m < 1: // (1,m), (1,1), (L,L)
		t := math.Sqrt((x - 1) / (l - 1))
		return sg * (x + (m-1)*t*t + 2*(1-m)*t + (m - 1))
	}
	// (1,m), (m,m), (L,L)
	t := (1 - m) + math.Sqrt((m-1)*(m-1)+(x-1))
	return sg * (x + (m-1)*t*t - 2*(m-1)*t + (m - 1))
}

// synthSinCos is JWildfire's synthsincos: sin and cos of t, multiplied by
// the wave (smooth 0) or mixed with it (smooth 1).
func (s *varState) synthSinCos(t, smooth float64) (sn, cs float64) {
	sn, cs = math.Sin(t), math.Cos(t)
	switch smooth {
	case 0:
		sn *= s.synthValue(t)
		cs *= s.synthValue(t + math.Pi/2)
	case 1:
		mix := s.p[PSynthMix]
		sn = (1-mix)*sn + (s.synthValue(t) - 1)
		cs = (1-mix)*cs + (s.synthValue(t+math.Pi/2) - 1)
	}
	return sn, cs
}

// synth adds synth's mode with weight w to s.
func (s *varState) synth(w float64, r *rng.Stream) {
	var u [4]float64
	for i := range u {
		u[i] = r.Float64()
	}
	p := s.p
	mode, power, smooth := ftoi(p[PSynthMode]), p[PSynthPower], ftoi(p[PSynthSmooth])
	vx, vy := s.tx, s.ty
	switch mode {
	case 0, 1, 5, 19: // a radius scaled by the wave of the angle
		s.synthRadial(w, mode, power, smooth)
	case 2, 3, 4, 12, 13:
		s.synthBlur(w, mode, power, smooth, &u)
	case 6: // x by the wave of y
		s.px += w * synthScale(vx, s.synthValue(vy), smooth)
		s.py += w * vy
	case 7:
		s.px += w * vx
		s.py += w * synthScale(vy, s.synthValue(vx), smooth)
	case 8:
		s.px += w * synthScale(vx, s.synthValue(vy), smooth)
		s.py += w * synthScale(vy, s.synthValue(vx), smooth)
	case 9:
		s.px += w * (vx + s.synthValue(vy) - 1)
		s.py += w * vy
	case 10:
		s.px += w * vx
		s.py += w * (vy + s.synthValue(vx) - 1)
	case 11:
		s.px += w * (vx + s.synthValue(vy) - 1)
		s.py += w * (vy + s.synthValue(vx) - 1)
	case 14, 15, 16:
		s.synthShift(w, mode, power)
	case 17: // y mirrored in the wave of x
		s.px += w * vx
		s.py += w * (2*(s.synthValue(vx)-1) - vy)
	case 18:
		mu, rad := s.synthValue(vx)-1, s.synthValue(vy)-1
		s.px += w * (2*rad - vx)
		s.py += w * (2*mu - vy)
	default:
		s.synthLegacy(w, mode, power, smooth, u[0])
	}
}

// synthRadial is synth's modes 0 (spherical), 1 (bubble), 5 (raw circle)
// and 19 (spherical 2): the point's radius, reshaped, scaled by the wave of
// its angle atan2(x, y).
func (s *varState) synthRadial(w, mode, power, smooth float64) {
	theta := s.atanXY()
	var rad float64
	switch mode {
	case 0:
		rad = powNonNeg(s.sumsq+synthEps, (power+1)/2)
	case 1:
		rad = s.sqrt / (s.sumsq/4 + 1)
	default:
		rad = s.sqrt
	}
	rad = synthScale(rad, s.synthValue(theta), smooth)
	if mode == 19 {
		rad = math.Pow(rad, power) // the scaled radius may be negative
	}
	s.px += w * rad * math.Sin(theta)
	s.py += w * rad * math.Cos(theta)
}

// synthBlur is synth's blur modes, which ignore the point.
func (s *varState) synthBlur(w, mode, power, smooth float64, u *[4]float64) {
	var rad, theta float64
	switch mode {
	case 2: // the legacy blur scales its own vector
		rad = (u[0] + u[1] + 0.002*u[2]) / 2.002
		theta = 2*math.Pi*u[3] - math.Pi
		vx, vy := rad*math.Sin(theta), rad*math.Cos(theta)
		rad = w * synthScale(powNonNeg(rad*rad+synthEps, power/2), s.synthValue(theta), smooth)
		s.px += vx * rad
		s.py += vy * rad
		return
	case 3:
		rad = 0.5 * (u[0] + u[1])
		theta = 2*math.Pi*u[2] - math.Pi
		rad = synthScale(powNonNeg(rad*rad+synthEps, -power/2), s.synthValue(theta), smooth)
	case 4: // a zigzag line: x from the angle, y the ring's radius
		vy := 1 + 0.1*(u[0]+u[1]-1)*power
		theta = 2 * math.Asin((u[2]-0.5)*2)
		vy = synthScale(vy, s.synthValue(theta), smooth)
		s.px += w * (theta / math.Pi)
		s.py += w * (vy - 1)
		return
	case 12:
		rad = 1 + 0.1*(u[0]+u[1]-1)*power
		theta = 2*math.Pi*u[2] - math.Pi
		rad = synthScale(rad, s.synthValue(theta), smooth)
	case 13:
		theta = 2*math.Pi*u[0] - math.Pi
		rad = s.synthValue(theta) + 0.1*powNonNeg(u[1]+synthEps, power)
	}
	s.px += w * rad * math.Sin(theta)
	s.py += w * rad * math.Cos(theta)
}

// synthShift is synth's modes 14 (shift and stretch), 15 (shift along the
// tangent) and 16 (shift the angle): the wave of r^power moves the point.
func (s *varState) synthShift(w, mode, power float64) {
	rad := powNonNeg(s.sumsq+synthEps, power/2)
	if mode == 15 {
		theta := s.atanXY()
		mu := s.synthValue(rad) - 1
		s.px += w * (s.tx + mu*math.Cos(theta))
		s.py += w * (s.ty - mu*math.Sin(theta))
		return
	}
	theta := s.atanXY() - 1 + s.synthValue(rad)
	if mode == 16 {
		rad = s.sqrt
	}
	s.px += w * rad * math.Sin(theta)
	s.py += w * rad * math.Cos(theta)
}

// synthLegacy is synth's modes 1001..1007 (JWildfire's "failed
// experiments", still selectable): classic variations with the wave in
// their sine and cosine. Disc (1005) replaces the sum of the variations
// before it rather than adding, as JWildfire's does. Other modes add
// nothing.
func (s *varState) synthLegacy(w, mode, power, smooth, u1 float64) {
	vx, vy := s.tx, s.ty
	switch mode {
	case 1001:
		mix := s.p[PSynthMix]
		s.px += w * (s.synthValue(vx) - 1 + (1-mix)*math.Sin(vx))
		s.py += w * (s.synthValue(vy) - 1 + (1-mix)*math.Sin(vy))
	case 1002:
		sn, cs := s.synthSinCos(powNonNeg(s.sumsq+synthEps, power/2), smooth)
		s.px += w * (sn*vx - cs*vy)
		s.py += w * (cs*vx + sn*vy)
	case 1003:
		rad := powNonNeg(s.sumsq+synthEps, power/2)
		sn, cs := s.synthSinCos(s.atanXY(), smooth)
		s.px += w * sn / rad
		s.py += w * cs * rad
	case 1004:
		rad := powNonNeg(s.sumsq+synthEps, power/4)
		theta := s.atanXY() / 2
		if u1 < 0.5 {
			theta += math.Pi
		}
		sn, cs := s.synthSinCos(theta, smooth)
		s.px += w * rad * cs
		s.py += w * rad * sn
	case 1005:
		theta := s.atanXY() / math.Pi
		sn, cs := s.synthSinCos(math.Pi*powNonNeg(s.sumsq+synthEps, power/2), smooth)
		s.px = w * sn * theta
		s.py = w * cs * theta
	case 1006:
		rad := s.sqrt
		mu := power*power + synthEps
		rad += -2*mu*javaInt((rad+mu)/(2*mu)) + rad*(1-mu)
		sn, cs := s.synthSinCos(s.atanXY(), smooth)
		s.px += w * sn * rad
		s.py += w * cs * rad
	case 1007:
		rad := powNonNeg(s.sumsq+synthEps, power/2)
		sn, _ := s.synthSinCos(vx, smooth)
		s.px += w * rad * sn
		s.py += w * rad * vy
	}
}

// javaInt is Java's (int) cast: truncation, saturated to the int range
// (synth's rings mode meets huge quotients when power is 0), NaN to 0.
func javaInt(v float64) float64 {
	switch {
	case v != v:
		return 0
	case v >= math.MaxInt32:
		return math.MaxInt32
	case v <= math.MinInt32:
		return math.MinInt32
	}
	return math.Trunc(v)
}
