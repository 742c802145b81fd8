package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The classic variations of the flam3 paper and flam3 up to 2006 (VarID 0
// to 30). Each adds its weighted contribution to (s.px, s.py). The comments
// give the published formula; flam3's EPS guards are kept where it has them.

// linear: (x, y).
func (s *varState) linear(w float64) {
	s.px += w * s.tx
	s.py += w * s.ty
}

// sinusoidal: (sin x, sin y).
func (s *varState) sinusoidal(w float64) {
	s.px += w * math.Sin(s.tx)
	s.py += w * math.Sin(s.ty)
}

// spherical: (x, y) / r².
func (s *varState) spherical(w float64) {
	k := w / (s.sumsq + flam3Eps)
	s.px += k * s.tx
	s.py += k * s.ty
}

// swirl: (x sin r² − y cos r², x cos r² + y sin r²).
func (s *varState) swirl(w float64) {
	c1, c2 := math.Sincos(s.sumsq)
	s.px += w * (c1*s.tx - c2*s.ty)
	s.py += w * (c2*s.tx + c1*s.ty)
}

// horseshoe: ((x−y)(x+y), 2xy) / r.
func (s *varState) horseshoe(w float64) {
	k := w / (s.sqrt + flam3Eps)
	s.px += (s.tx - s.ty) * (s.tx + s.ty) * k
	s.py += 2 * s.tx * s.ty * k
}

// polar: (θ/π, r − 1) with θ = atan2(x, y).
func (s *varState) polar(w float64) {
	s.px += w * s.atanXY() * (1 / math.Pi)
	s.py += w * (s.sqrt - 1)
}

// handkerchief: r·(sin(θ+r), cos(θ−r)).
func (s *varState) handkerchief(w float64) {
	a, r := s.atanXY(), s.sqrt
	s.px += w * r * math.Sin(a+r)
	s.py += w * r * math.Cos(a-r)
}

// heart: r·(sin θr, −cos θr).
func (s *varState) heart(w float64) {
	sa, ca := math.Sincos(s.sqrt * s.atanXY())
	k := w * s.sqrt
	s.px += k * sa
	s.py -= k * ca
}

// disc: θ/π·(sin πr, cos πr).
func (s *varState) disc(w float64) {
	a := s.atanXY() * (1 / math.Pi)
	sr, cr := math.Sincos(math.Pi * s.sqrt)
	s.px += w * sr * a
	s.py += w * cr * a
}

// spiral: (cos θ + sin r, sin θ − cos r) / r.
func (s *varState) spiral(w float64) {
	sina, cosa := s.angles()
	r := s.sqrt + flam3Eps
	k := w / r
	sr, cr := math.Sincos(r)
	s.px += k * (cosa + sr)
	s.py += k * (sina - cr)
}

// hyperbolic: (sin θ / r, r cos θ).
func (s *varState) hyperbolic(w float64) {
	sina, cosa := s.angles()
	r := s.sqrt + flam3Eps
	s.px += w * sina / r
	s.py += w * cosa * r
}

// diamond: (sin θ cos r, cos θ sin r).
func (s *varState) diamond(w float64) {
	sina, cosa := s.angles()
	sr, cr := math.Sincos(s.sqrt)
	s.px += w * sina * cr
	s.py += w * cosa * sr
}

// ex: r·(p0³ + p1³, p0³ − p1³) with p0 = sin(θ+r), p1 = cos(θ−r).
func (s *varState) ex(w float64) {
	a, r := s.atanXY(), s.sqrt
	n0 := math.Sin(a + r)
	n1 := math.Cos(a - r)
	m0 := n0 * n0 * n0 * r
	m1 := n1 * n1 * n1 * r
	s.px += w * (m0 + m1)
	s.py += w * (m0 - m1)
}

// julia: √r·(cos Ω, sin Ω), Ω = θ/2 + π·bit.
func (s *varState) julia(w float64, r *rng.Stream) {
	a := 0.5 * s.atanXY()
	if r.Uint64()&1 != 0 {
		a += math.Pi
	}
	k := w * math.Sqrt(s.sqrt)
	sa, ca := math.Sincos(a)
	s.px += k * ca
	s.py += k * sa
}

// bent: x doubled where negative, y halved where negative.
func (s *varState) bent(w float64) {
	nx, ny := s.tx, s.ty
	if nx < 0 {
		nx *= 2
	}
	if ny < 0 {
		ny /= 2
	}
	s.px += w * nx
	s.py += w * ny
}

// waves: (x + b·sin(y/e²), y + e·sin(x/f²)) with the affine coefficients
// (flam3's c[1][0], c[1][1] and the precalculated 1/(c[2][·]²+EPS)).
func (s *varState) waves(w float64) {
	nx := s.tx + s.c[2]*math.Sin(s.ty*s.p[PWavesDx2])
	ny := s.ty + s.c[3]*math.Sin(s.tx*s.p[PWavesDy2])
	s.px += w * nx
	s.py += w * ny
}

// fisheye: 2/(r+1)·(y, x) — flam3 swaps the axes.
func (s *varState) fisheye(w float64) {
	k := 2 * w / (s.sqrt + 1)
	s.px += k * s.ty
	s.py += k * s.tx
}

// popcorn: (x + e·sin(tan 3y), y + f·sin(tan 3x)) with the affine offsets.
func (s *varState) popcorn(w float64) {
	dx := math.Tan(3 * s.ty)
	dy := math.Tan(3 * s.tx)
	s.px += w * (s.tx + s.c[4]*math.Sin(dx))
	s.py += w * (s.ty + s.c[5]*math.Sin(dy))
}

// exponential: e^(x−1)·(cos πy, sin πy).
func (s *varState) exponential(w float64) {
	k := w * exp(s.tx-1)
	sdy, cdy := math.Sincos(math.Pi * s.ty)
	s.px += k * cdy
	s.py += k * sdy
}

// power: r^(sin θ)·(cos θ, sin θ).
func (s *varState) power(w float64) {
	sina, cosa := s.angles()
	k := w * powNonNeg(s.sqrt, sina)
	s.px += k * cosa
	s.py += k * sina
}

// cosine: (cos πx cosh y, −sin πx sinh y).
func (s *varState) cosine(w float64) {
	sa, ca := math.Sincos(s.tx * math.Pi)
	sh, ch := sinhCosh(s.ty)
	s.px += w * ca * ch
	s.py -= w * sa * sh
}

// rings: ((r+c²) mod 2c² − c² + r(1−c²))·(cos θ, sin θ), c = affine e.
func (s *varState) rings(w float64) {
	sina, cosa := s.angles()
	dx := s.c[4]*s.c[4] + flam3Eps
	r := s.sqrt
	k := w * (math.Mod(r+dx, 2*dx) - dx + r*(1-dx))
	s.px += k * cosa
	s.py += k * sina
}

// fan: r·(cos, sin) of θ ± t/2, t = π(c²+EPS), c, f the affine offsets.
func (s *varState) fan(w float64) {
	dx := math.Pi * (s.c[4]*s.c[4] + flam3Eps)
	dy := s.c[5]
	dx2 := 0.5 * dx
	a := s.atanXY()
	if math.Mod(a+dy, dx) > dx2 {
		a -= dx2
	} else {
		a += dx2
	}
	k := w * s.sqrt
	sa, ca := math.Sincos(a)
	s.px += k * ca
	s.py += k * sa
}

// blob: r·(low + (high−low)·(½ + ½ sin(waves·θ)))·(sin θ, cos θ).
func (s *varState) blob(w float64) {
	sina, cosa := s.angles()
	p := s.p
	lo := p[PBlobLow]
	r := s.sqrt * (lo + (p[PBlobHigh]-lo)*(0.5+0.5*math.Sin(p[PBlobWaves]*s.atanXY())))
	s.px += w * sina * r
	s.py += w * cosa * r
}

// pdj: (sin ay − cos bx, sin cx − cos dy).
func (s *varState) pdj(w float64) {
	p := s.p
	nx1 := math.Cos(p[PPdjB] * s.tx)
	nx2 := math.Sin(p[PPdjC] * s.tx)
	ny1 := math.Sin(p[PPdjA] * s.ty)
	ny2 := math.Cos(p[PPdjD] * s.ty)
	s.px += w * (ny1 - nx1)
	s.py += w * (nx2 - ny2)
}

// fan2: fan with its own parameters, and (sin, cos) as flam3 has it.
func (s *varState) fan2(w float64) {
	dy := s.p[PFan2Y]
	fx := s.p[PFan2X]
	dx := math.Pi * (fx*fx + flam3Eps)
	dx2 := 0.5 * dx
	a := s.atanXY()
	t := a + dy - dx*math.Trunc((a+dy)/dx)
	if t > dx2 {
		a -= dx2
	} else {
		a += dx2
	}
	k := w * s.sqrt
	sa, ca := math.Sincos(a)
	s.px += k * sa
	s.py += k * ca
}

// rings2: flam3's rings2, r' = r − 2c·trunc((r+c)/2c) + r(1−c), c = val²+EPS.
func (s *varState) rings2(w float64) {
	sina, cosa := s.angles()
	v := s.p[PRings2Val]
	dx := v*v + flam3Eps
	r := s.sqrt
	r += -2*dx*math.Trunc((r+dx)/(2*dx)) + r*(1-dx)
	s.px += w * sina * r
	s.py += w * cosa * r
}

// eyefish: 2/(r+1)·(x, y).
func (s *varState) eyefish(w float64) {
	k := 2 * w / (s.sqrt + 1)
	s.px += k * s.tx
	s.py += k * s.ty
}

// bubble: 4/(r²+4)·(x, y).
func (s *varState) bubble(w float64) {
	k := w / (0.25*s.sumsq + 1)
	s.px += k * s.tx
	s.py += k * s.ty
}

// cylinder: (sin x, y).
func (s *varState) cylinder(w float64) {
	s.px += w * math.Sin(s.tx)
	s.py += w * s.ty
}

// perspective: d/(d − y sin φ)·(x, y cos φ), φ = angle·π/2.
func (s *varState) perspective(w float64) {
	d := s.p[PPerspectiveDist]
	t := 1 / (d - s.ty*s.p[PPerspVsin])
	s.px += w * d * s.tx * t
	s.py += w * s.p[PPerspVfcos] * s.ty * t
}

// sinhCosh returns sinh x and cosh x from one exponential; near 0 through
// expm1, so that sinh keeps its relative accuracy.
func sinhCosh(x float64) (sh, ch float64) {
	if math.Abs(x) < 0.5 {
		em := math.Expm1(x)
		q := em / (em + 1)
		return 0.5 * (em + q), 1 + 0.5*em*q
	}
	e := exp(x)
	ei := 1 / e
	return 0.5 * (e - ei), 0.5 * (e + ei)
}
