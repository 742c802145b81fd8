package flame

import "math"

// truchet: Tatyana Zabanova's truchet, arcs of the unit tiles of the
// scaled plane, each tile's orientation from a seeded congruence of its
// rounded coordinates; only points on an arc are kept (others add
// nothing), so the weight scales the tiles, not the output. Parameters are
// clamped as JWildfire's init clamps them; Java's round is floor(v + ½).
func (s *varState) truchet(w float64) {
	p := s.p
	extended := min(max(ftoi(p[PTruchetExtended]), 0), 1)
	n := min(max(p[PTruchetExponent], 0.001), 2)
	width := min(max(p[PTruchetArcWidth], 0.001), 1)
	size := min(max(p[PTruchetSize], 0.001), 10)
	onen := 1 / n
	seed := math.Abs(p[PTruchetSeed])
	seed2 := math.Sqrt(seed+seed/2+1e-300) / (seed*0.5 + 1e-300) * 0.25
	rmax := 0.5 * (math.Pow(2, 1/n) - 1) * width
	sr, cr := math.Sincos(-p[PTruchetRotation])
	scale := (cr - sr) / w
	jround := func(v float64) float64 { return math.Floor(v + 0.5) }
	frac := func(v float64) float64 { // v minus its rounding, into [0, 1)
		if d := v - jround(v); d < 0 {
			return 1 + d
		} else {
			return d
		}
	}
	x, y := frac(s.tx*scale), frac(s.ty*scale)
	tile := 0.0
	const modbase, multiplier, offset = 65535.0, 32747.0, 12345.0
	switch {
	case seed == 0:
	case seed == 1:
		tile = 1
	case extended == 0:
		xr, yr := jround(s.tx)*seed2, jround(s.ty)*seed2
		ri := (xr + yr + xr*yr + seed) * seed2 / 2
		tile = math.Mod(math.Mod(ri*multiplier+offset, modbase), 2)
	default:
		xr, yr := jround(s.tx), jround(s.ty)
		niter := min(math.Abs(xr+yr+xr*yr), 1000)
		ri := math.Floor(seed) + niter
		for k := 0.0; k < niter; k++ {
			ri = math.Mod(ri*multiplier+offset, modbase)
		}
		tile = math.Mod(ri, 2)
	}
	dist := func(ax, ay float64) float64 {
		return math.Pow(math.Pow(math.Abs(ax), n)+math.Pow(math.Abs(ay), n), onen)
	}
	var r0, r1 float64
	if (extended == 0 && tile < 1) || (extended == 1 && tile == 1) {
		r0, r1 = dist(x, y), dist(x-1, y-1)
	} else {
		r0, r1 = dist(x-1, y), dist(x, y-1)
	}
	ox, oy := size*(x+math.Floor(s.tx)), size*(y+math.Floor(s.ty))
	if math.Abs(r0-0.5)/rmax < 1 {
		s.px += ox
		s.py += oy
	}
	if math.Abs(r1-0.5)/rmax < 1 {
		s.px += ox
		s.py += oy
	}
}
