package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// nBlur: FractalDesire's nBlur as JWildfire has it, a blur that fills a
// regular polygon of numEdges sides (its circumcircle with circumCircle),
// optionally with a hole (ratioHole of the radius) and with radial stripes
// (numStripes per edge, negative for the complementary pattern, their
// width ratio ratioStripes), the point's angle drawn denser towards the
// corners by highlightEdges. The input point is not read.
//
// JWildfire's exactCalc draws points until one lands in the polygon's
// ring, an unbounded number of draws; procgen has a fixed number of draws
// per variation, so exactCalc is read as 0 and reported as not honoured
// (unhonouredParam).

// nblurShape is what JWildfire's init derives from the parameters.
type nblurShape struct {
	edges                     int
	stripes, neg              bool
	ratio, ratioComp          float64
	hole                      float64
	circum, equal             bool
	mid, angStripes, angStart float64
	tan90m2, sina, cosa       float64
	speed1, speed2            float64
	maxStripes                int
	at1, at2                  float64
	scale                     float64 // adjustToLinear's widening
}

func newNblurShape(p *Params) nblurShape {
	var t nblurShape
	t.edges = max(int(ftoi(p[PNBlurNumEdges])), 3)
	stripes := int(ftoi(p[PNBlurNumStripes]))
	t.stripes, t.neg = stripes != 0, stripes < 0
	stripes = max(stripes, -stripes)
	t.ratio = min(max(p[PNBlurRatioStripes], 0), 2)
	t.hole = min(max(p[PNBlurRatioHole], 0), 1)
	t.circum = ftoi(p[PNBlurCircumCircle]) >= 1
	t.equal = ftoi(p[PNBlurEqualBlur]) >= 1
	highlight := max(p[PNBlurHighlightEdges], 0.1)
	if t.circum {
		highlight = 0.1
	}
	n := float64(t.edges)
	t.mid = 2 * math.Pi / n
	if t.stripes {
		t.angStripes = t.mid / float64(2*stripes)
		t.angStart = t.angStripes / 2
		t.ratioComp = 2 - t.ratio
	}
	t.tan90m2 = math.Tan(math.Pi/2 + t.mid/2)
	t.sina, t.cosa = math.Sincos(t.mid / 2)
	t.speed1, t.speed2 = t.ratioComp*t.angStart, t.ratio*t.angStart
	t.maxStripes = 2 * stripes
	t.at1 = 13 / math.Pow(n, 1.3) * highlight
	if t.neg {
		t.at1 = 7.5 / math.Pow(n, 1.3) * highlight
	}
	t.at2 = 2 * math.Atan(t.at1/-2)
	t.scale = 1
	if ftoi(p[PNBlurAdjustToLinear]) >= 1 {
		k := math.Floor(n / 2)
		if t.edges%4 == 0 {
			k = n/2 - 1
		}
		t.scale = 2 / math.Sqrt(2-2*math.Cos(t.mid*k))
	}
	return t
}

func (s *varState) nblur(w float64, r *rng.Stream) {
	t := newNblurShape(s.p)
	u1, u2, u3, u4 := r.Float64(), r.Float64(), r.Float64(), r.Float64()
	k := float64(int64(u2*32767) % int64(t.edges))
	ang := (math.Atan(t.at1*(u1-0.5))/t.at2 + 0.5 + k) * t.mid
	mem := ang
	for ang > t.mid {
		ang -= t.mid
	}
	if t.stripes {
		ang, mem = t.stripe(ang, mem)
	}
	x, y := math.Sincos(mem)
	xt := t.tan90m2 / (t.tan90m2 - math.Tan(ang))
	yt := xt * math.Tan(ang)
	outer := math.Sqrt(xt*xt + yt*yt)
	radius := func(u float64) float64 {
		if t.equal {
			return math.Sqrt(u)
		}
		return u
	}
	rr := radius(u3)
	if !t.circum {
		rr *= outer
	}
	inner := t.hole * outer
	if rr < inner {
		if t.circum {
			rr = inner + radius(u4)*(1-inner+1e-300)
		} else {
			rr = inner + radius(u4)*(outer-inner)
		}
	}
	x, y = x*rr, y*rr
	w *= t.scale
	s.px += w * (t.cosa*x - t.sina*y)
	s.py += w * (t.sina*x + t.cosa*y)
}

// stripe moves the angle ang (within one edge; mem is the full angle) by
// the radial stripes: odd stripes (even ones for a negative count) are
// skipped, the others widened or narrowed by the ratio. It returns both.
func (t *nblurShape) stripe(ang, mem float64) (float64, float64) {
	tmp, count := t.angStart, 0
	for ang > tmp {
		tmp += t.angStripes
		if tmp > t.mid {
			tmp = t.mid
		}
		count++
	}
	if tmp != t.mid {
		tmp -= t.angStart
	}
	ratio, sp2, skip := t.ratio, t.speed2, count%2 != 0
	if t.neg { // the complementary pattern: ratios and parity swapped
		ratio, sp2, skip = t.ratioComp, t.speed1, count%2 == 0
	}
	if skip {
		if ang > tmp && (!t.neg || count != t.maxStripes) {
			ang, mem = ang+t.angStart, mem+t.angStart
			tmp += t.angStripes
			count++
		} else {
			ang, mem = ang-t.angStart, mem-t.angStart
			tmp -= t.angStripes
			count--
		}
	}
	if kept := count%2 == 0; kept == t.neg { // in a skipped stripe still
		return ang, mem
	}
	switch {
	case ratio > 1:
		if ang > tmp && count != t.maxStripes {
			mem = mem - ang + tmp + (ang-tmp)/t.angStart*ratio*t.angStart
		} else {
			mem = mem - ang + tmp - (tmp-ang)/t.angStart*ratio*t.angStart
		}
		ang = tmp + (ang-tmp)/t.angStart*ratio*t.angStart
	case ratio < 1:
		den := t.angStart - sp2
		if math.Abs(ang-tmp) > sp2 && count != t.maxStripes {
			if ang-tmp > sp2 {
				q := (ang - (tmp + sp2)) * sp2 / den
				mem = mem - ang + tmp + q
				ang = tmp + q
			}
			if tmp-ang > sp2 {
				q := (tmp - sp2 - ang) * sp2 / den
				mem = mem - ang + tmp - q
				ang = tmp - q
			}
		}
		if count == t.maxStripes {
			if t.neg {
				tmp = t.mid
			}
			if tmp-ang > sp2 {
				q := (tmp - sp2 - ang) * sp2 / den
				mem = mem - ang + tmp - q
				ang = tmp - q
			}
		}
	}
	return ang, mem
}
