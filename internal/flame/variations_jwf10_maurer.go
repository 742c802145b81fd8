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
