package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// maurerRose (Gregg Helt's maurer_rose, JWildfire's): the Maurer rose of
// the rose curve r = cos(k·θ) + c, k = kn/kd: the point's angle, times the
// number of turns the line_count lines of line_offset_degrees make, picks
// the line between two successive steps of the curve. Each call draws a
// point of that line, of its end points, or of the curve itself, in the
// proportions show_lines : show_points : show_curve, each jittered by its
// thickness (in hundredths). JWildfire draws the place along the line from
// Java's Math.random, not the flame's generator; here from the stream.
func (s *varState) maurerRose(w float64, r *rng.Stream) {
	p := s.p
	u1, u2, u3, u4 := r.Float64(), r.Float64(), r.Float64(), r.Float64()
	k, c := p[PMaurerRoseKn]/p[PMaurerRoseKd], p[PMaurerRoseC]
	curve := func(th float64) (float64, float64) {
		rr := math.Cos(k*th) + c
		return rr * math.Cos(th), rr * math.Sin(th)
	}
	step := 2 * math.Pi * (p[PMaurerRoseLineOffsetDegrees] / 360)
	cycles := p[PMaurerRoseLineCount] * step / (2 * math.Pi)
	sl, sp, sc := p[PMaurerRoseShowLines], p[PMaurerRoseShowPoints], p[PMaurerRoseShowCurve]
	sum := sl + sp + sc
	lineTh, pointTh, halfTh := sl/sum, sl/sum+sp/sum, sl/sum+sp/sum/2
	t := cycles * math.Atan2(s.ty, s.tx)
	th1 := math.Floor(t/step) * step
	x1, y1 := curve(th1)
	x2, y2 := curve(th1 + step)
	var ox, oy float64
	switch {
	case u1 < lineTh:
		xd, yd := x2-x1, y2-y1
		m := yd / xd
		xo := u4 * math.Sqrt(xd*xd+yd*yd) / math.Sqrt(1+m*m)
		if x2 < x1 {
			xo = -xo
		}
		yo := math.Abs(m * xo)
		if y2 < y1 {
			yo = -yo
		}
		if lt := p[PMaurerRoseLineThickness] / 100; lt != 0 {
			xo += (u2 - 0.5) * lt
			yo += (u3 - 0.5) * lt
		}
		ox, oy = x1+xo, y1+yo
	case u1 <= pointTh:
		var xo, yo float64
		if pt := p[PMaurerRosePointThickness] / 100; pt != 0 {
			sn, cs := math.Sincos(u3 * 2 * math.Pi)
			xo, yo = u2*pt*cs, u2*pt*sn
		}
		ox, oy = x2+xo, y2+yo
		if u1 <= halfTh {
			ox, oy = x1+xo, y1+yo
		}
	default:
		ox, oy = curve(t)
		if ct := p[PMaurerRoseCurveThickness] / 100; ct != 0 {
			ox += (u2 - 0.5) * ct
			oy += (u3 - 0.5) * ct
		}
	}
	s.px += w * ox
	s.py += w * oy
}

// pRose3D (Larry Berlin's, JWildfire's): the polar rose of k petals and
// length l drawn at the point's angle, lifted in z by a blend of waves of
// the point's radius (opt, opt3 pick and blend them), ripples along the
// rim (f, wigsc, offset) and dist; with opt or opt3 negative, a share
// transp² of the points (half of those draws) go to a reflection below,
// scaled by refSc in x and y and by z2 in z.
func (s *varState) pRose3D(w float64, r *rng.Stream) {
	p := s.p
	ghostPrep, side := r.Float64(), r.Float64()
	length, petals, k := p[PPRose3DL], p[PPRose3DK], p[PPRose3DK]
	smooth12, smooth3 := min(math.Abs(p[PPRose3DOpt]), 2), min(math.Abs(p[PPRose3DOpt3]), 1)
	opScale, wagScale, curveScale := math.Abs(p[PPRose3DOptSc]), p[PPRose3DWagsc], p[PPRose3DSrvsc]
	rad := math.Hypot(s.tx, s.ty)
	// The curves read l before a zero l becomes 10⁻⁶, as JWildfire's.
	c1, c2, c3 := rad/length, (rad/length)*(rad/length), (rad-length*0.5)/length
	c4 := c2 * c2
	th := math.Atan2(s.ty, s.tx)
	optDir := math.Copysign(1, p[PPRose3DOpt])
	if p[PPRose3DOpt3] < 0 {
		optDir = -1
	}
	if length == 0 {
		length = 1e-6
	}
	if math.Abs(petals) < 1e-4 {
		petals = math.Copysign(1e-4, k)
	}
	cycle := 2 * math.Pi / k
	if k == 0 {
		cycle = 2 * math.Pi / (k + 1e-6)
	}
	wig := th/cycle*p[PPRose3DF]*2*math.Pi*0.5 + p[PPRose3DOffset]*cycle
	wag2 := math.Sin(c2*math.Pi*opScale) + wagScale*0.4*rad + curveScale*0.5*math.Cos(c3*math.Pi)
	wag := math.Sin(c1*math.Pi*opScale) + wagScale*0.4*rad + curveScale*0.5*math.Cos(c3*math.Pi)
	wag3 := math.Sin(c4*math.Pi*opScale) + wagScale*rad*rad*0.4 + curveScale*0.5*math.Sin(c2*math.Pi)
	if optDir < 0 { // the two curve terms swap
		wag = math.Sin(c1*math.Pi*opScale) + wagScale*0.4*rad + curveScale*0.5*math.Sin(c2*math.Pi)
		wag3 = math.Sin(c4*math.Pi*opScale) + wagScale*rad*rad*0.4 + curveScale*0.5*math.Cos(c3*math.Pi)
	}
	wag12 := wag
	if smooth12 > 1 {
		wag12 = wag2*(smooth12-1) + wag*(2-smooth12)
	}
	waggle := wag12
	if smooth3 > 0 {
		waggle = wag12*(1-smooth3) + wag3*smooth3
	}
	ghost := p[PPRose3DTransp] * p[PPRose3DTransp]
	if optDir > 0 {
		ghost = 0
	}
	rr := length * math.Cos(petals*th+p[PPRose3DC])
	ripple := rad * 0.5 * rad * 0.5 * math.Sin(wig) * p[PPRose3DWigsc] * 0.5
	sth, cth := math.Sincos(th)
	if ghostPrep < ghost && side < 0.5 { // the reflection
		s.px += w * 0.5 * p[PPRose3DRefSc] * rr * cth
		s.py += w * 0.5 * p[PPRose3DRefSc] * rr * sth
		s.pz += w * -0.5 * (p[PPRose3DZ2]*waggle + ripple + p[PPRose3DDist])
		return
	}
	s.px += w * 0.5 * rr * cth
	s.py += w * 0.5 * rr * sth
	s.pz += w * 0.5 * (p[PPRose3DZ1]*waggle + ripple + p[PPRose3DDist])
}

// sattractorJs (Jesus Sosa's sattractor_js, JWildfire's): an IFS of 2·m
// maps about the m-th roots of unity (cos, sin of 2πl/m = a, b): halve
// the point and move it to the root, or turn it by the root plus x²
// times the root's perpendicular; then halve.
func (s *varState) sattractorJs(w float64, r *rng.Stream) {
	m := min(max(javaInt(s.p[PSattractorJsM]), 2), 12)
	l := javaInt(r.Float64()*m) + 1
	b, a := math.Sincos(2 * math.Pi * l / m)
	x, y := s.tx, s.ty
	if r.Float64() < 0.5 {
		x, y = x/2+a, y/2+b
	} else {
		x, y = x*a+y*b+x*x*b, y*a-x*b+x*x*a
	}
	s.px += w * x / 2
	s.py += w * y / 2
}
