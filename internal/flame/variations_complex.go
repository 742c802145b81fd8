package flame

import "math"

// The complex functions of z = x + iy added to flam3 by cothe: exp, log and
// the circular and hyperbolic functions with their reciprocals. tan, cot,
// tanh and coth use the double-angle forms flam3 uses (sin 2x over
// cos 2x + cosh 2y, ...); sec, csc, sech and csch keep flam3's
// 2/(cos 2a ± cosh 2b) denominators.

// exp: e^z.
func (s *varState) exp(w float64) {
	e := w * exp(s.tx)
	sn, cs := math.Sincos(s.ty)
	s.px += e * cs
	s.py += e * sn
}

// log: ln z (principal branch).
func (s *varState) log(w float64) {
	s.px += w * 0.5 * math.Log(s.sumsq)
	s.py += w * s.atanYX()
}

// sin: sin z = (sin x cosh y, cos x sinh y).
func (s *varState) sin(w float64) {
	sn, cs := math.Sincos(s.tx)
	sh, ch := sinhCosh(s.ty)
	s.px += w * sn * ch
	s.py += w * cs * sh
}

// cos: cos z = (cos x cosh y, −sin x sinh y).
func (s *varState) cos(w float64) {
	sn, cs := math.Sincos(s.tx)
	sh, ch := sinhCosh(s.ty)
	s.px += w * cs * ch
	s.py -= w * sn * sh
}

// tan: tan z = (sin 2x, sinh 2y) / (cos 2x + cosh 2y).
func (s *varState) tan(w float64) {
	sn, cs := math.Sincos(2 * s.tx)
	sh, ch := sinhCosh(2 * s.ty)
	den := 1 / (cs + ch)
	s.px += w * den * sn
	s.py += w * den * sh
}

// sec: 1/cos z = 2·(cos x cosh y, sin x sinh y) / (cos 2x + cosh 2y).
func (s *varState) sec(w float64) {
	sn, cs := math.Sincos(s.tx)
	sh, ch := sinhCosh(s.ty)
	_, ch2 := sinhCosh(2 * s.ty)
	den := 2 / (math.Cos(2*s.tx) + ch2)
	s.px += w * den * cs * ch
	s.py += w * den * sn * sh
}

// csc: 1/sin z = 2·(sin x cosh y, −cos x sinh y) / (cosh 2y − cos 2x).
func (s *varState) csc(w float64) {
	sn, cs := math.Sincos(s.tx)
	sh, ch := sinhCosh(s.ty)
	_, ch2 := sinhCosh(2 * s.ty)
	den := 2 / (ch2 - math.Cos(2*s.tx))
	s.px += w * den * sn * ch
	s.py -= w * den * cs * sh
}

// cot: cot z = (sin 2x, −sinh 2y) / (cosh 2y − cos 2x).
func (s *varState) cot(w float64) {
	sn, cs := math.Sincos(2 * s.tx)
	sh, ch := sinhCosh(2 * s.ty)
	den := 1 / (ch - cs)
	s.px += w * den * sn
	s.py -= w * den * sh
}

// sinh: sinh z = (sinh x cos y, cosh x sin y).
func (s *varState) sinh(w float64) {
	sn, cs := math.Sincos(s.ty)
	sh, ch := sinhCosh(s.tx)
	s.px += w * sh * cs
	s.py += w * ch * sn
}

// cosh: cosh z = (cosh x cos y, sinh x sin y).
func (s *varState) cosh(w float64) {
	sn, cs := math.Sincos(s.ty)
	sh, ch := sinhCosh(s.tx)
	s.px += w * ch * cs
	s.py += w * sh * sn
}

// tanh: tanh z = (sinh 2x, sin 2y) / (cos 2y + cosh 2x).
func (s *varState) tanh(w float64) {
	sn, cs := math.Sincos(2 * s.ty)
	sh, ch := sinhCosh(2 * s.tx)
	den := 1 / (cs + ch)
	s.px += w * den * sh
	s.py += w * den * sn
}

// sech: 1/cosh z = 2·(cos y cosh x, −sin y sinh x) / (cos 2y + cosh 2x).
func (s *varState) sech(w float64) {
	sn, cs := math.Sincos(s.ty)
	sh, ch := sinhCosh(s.tx)
	_, ch2 := sinhCosh(2 * s.tx)
	den := 2 / (math.Cos(2*s.ty) + ch2)
	s.px += w * den * cs * ch
	s.py -= w * den * sn * sh
}

// csch: 1/sinh z = 2·(sinh x cos y, −cosh x sin y) / (cosh 2x − cos 2y).
func (s *varState) csch(w float64) {
	sn, cs := math.Sincos(s.ty)
	sh, ch := sinhCosh(s.tx)
	_, ch2 := sinhCosh(2 * s.tx)
	den := 2 / (ch2 - math.Cos(2*s.ty))
	s.px += w * den * sh * cs
	s.py -= w * den * ch * sn
}

// coth: coth z = (sinh 2x, sin 2y) / (cosh 2x − cos 2y).
func (s *varState) coth(w float64) {
	sn, cs := math.Sincos(2 * s.ty)
	sh, ch := sinhCosh(2 * s.tx)
	den := 1 / (ch - cs)
	s.px += w * den * sh
	s.py += w * den * sn
}
