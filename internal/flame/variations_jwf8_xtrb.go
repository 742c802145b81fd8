package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// xtrbShape is what JWildfire's xtrb derives from its parameters once (its
// init): a triangle with angles 0.047 + a and 0.047 + b (radians) about an
// incircle of the given radius, its sides, heights and their ratios.
type xtrbShape struct {
	radius, width, w1, w2, w3 float64
	sinC, cosC                float64
	ab, ac, ba, bc, ca, cb    float64
	ha, hb, hc                float64
	s2a, s2b, s2c             float64
	s2bc, s2ab, s2ac          float64
	power, absN, cN           float64
}

func newXtrbShape(p *Params) xtrbShape {
	var t xtrbShape
	t.radius, t.width = p[PXtrbRadius], p[PXtrbWidth]
	t.power = ftoi(p[PXtrbPower])
	angB, angC := 0.047+p[PXtrbA], 0.047+p[PXtrbB]
	angA := math.Pi - angB - angC
	tanA, tanB, tanC := math.Tan(angA/2), math.Tan(angB/2), math.Tan(angC/2)
	t.sinC, t.cosC = math.Sincos(angC)
	a := t.radius * (tanC + tanB)
	b := t.radius * (tanC + tanA)
	c := t.radius * (tanB + tanA)
	t.w1, t.w2, t.w3 = 1-t.width, 2*t.width, 1-t.width*t.width
	s2 := t.radius * (a + b + c) // twice the area
	t.ha, t.hb, t.hc = s2/a/6, s2/b/6, s2/c/6
	t.ab, t.ac, t.ba, t.bc, t.ca, t.cb = a/b, a/c, b/a, b/c, c/a, c/b
	t.s2a, t.s2b, t.s2c = 6*t.ha, 6*t.hb, 6*t.hc
	t.s2bc, t.s2ab, t.s2ac = s2/(b+c)/6, s2/(a+b)/6, s2/(a+c)/6
	t.absN = math.Trunc(math.Abs(t.power))
	t.cN = p[PXtrbDist] / t.power / 2
	return t
}

// xtrb: Xyrus02's xtrb as JWildfire has it. The point goes to trilinear
// coordinates (distances from two sides of the triangle), is folded into
// one cell of the triangle tiling, mapped inside the hexagon around that
// cell's centre (plainly scaled by width, or bent towards the centre; u1
// picks), unfolded, and leaves as a random one of |power| power-th roots.
// The weight scales twice, as in JWildfire.
func (s *varState) xtrb(w float64, r *rng.Stream) {
	t := newXtrbShape(s.p)
	al := s.ty + t.radius
	be := s.tx*t.sinC - s.ty*t.cosC + t.radius
	m, n := math.Floor(al/t.s2a), math.Floor(be/t.s2b)
	oa, ob := al-m*t.s2a, be-n*t.s2b
	og := t.s2c - t.ac*oa - t.bc*ob
	u := r.Float64()
	if og > 0 {
		al, be = t.hex(oa, ob, og, u)
	} else {
		al, be = t.hex(t.s2a-oa, t.s2b-ob, -og, u)
		al, be = t.s2a-al, t.s2b-be
	}
	al += m * t.s2a
	be += n * t.s2b
	inx := (be - t.radius + (al-t.radius)*t.cosC) / t.sinC
	iny := al - t.radius
	k := 0.0
	if t.absN >= 1 { // JWildfire divides by zero for a power of 0
		k = float64(int64(r.Float64()*math.MaxInt32) % int64(t.absN))
	} else {
		r.Float64()
	}
	a := (math.Atan2(iny, inx) + 2*math.Pi*k) / t.power
	rr := w * math.Pow(inx*inx+iny*iny, t.cN)
	sn, cs := math.Sincos(a)
	s.px += w * rr * cs
	s.py += w * rr * sn
}

// hex maps the trilinear offsets (al, be, ga) within one cell: u at or
// above 1 − width² scales towards the nearest corner by width, otherwise
// the point is bent towards the hexagon's centre.
func (t *xtrbShape) hex(al, be, ga, u float64) (float64, float64) {
	plain := u >= t.w3
	wd, w1, w2 := t.width, t.w1, t.w2
	if be < al {
		switch {
		case ga < be:
			de, g := wd*be, wd*ga
			if !plain {
				g = w1*ga + w2*t.hc*ga/be
				de = w1*be + w2*t.s2ab*(3-ga/be)
			}
			return t.s2a - t.ba*de - t.ca*g, de
		case ga < al:
			g, de := wd*ga, wd*be
			if !plain {
				de = w1*be + w2*t.hb*be/ga
				g = w1*ga + w2*t.s2ac*(3-be/ga)
			}
			return t.s2a - t.ba*de - t.ca*g, de
		}
		if plain {
			return wd * al, wd * be
		}
		return w1*al + w2*t.s2ac*(3-be/al), w1*be + w2*t.hb*be/al
	}
	switch {
	case ga < al:
		de, g := wd*al, wd*ga
		if !plain {
			g = w1*ga + w2*t.hc*ga/al
			de = w1*al + w2*t.s2ab*(3-ga/al)
		}
		return de, t.s2b - t.ab*de - t.cb*g
	case ga < be:
		g, de := wd*ga, wd*al
		if !plain {
			de = w1*al + w2*t.ha*al/ga
			g = w1*ga + w2*t.s2bc*(3-al/ga)
		}
		return de, t.s2b - t.ab*de - t.cb*g
	}
	if plain {
		return wd * al, wd * be
	}
	return w1*al + w2*t.ha*al/be, w1*be + w2*t.s2bc*(3-al/be)
}
