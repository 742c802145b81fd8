package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// More of JWildfire's plugin variations, next in order of use in the
// artists' corpus (see variations_jwf.go for the conventions: JWildfire's
// semantics, z through varState.tz and pz, preserve_z off).
//
// Random draws (u = Float64):
//
//	hypertile1, hypertile2 u1: k = trunc(u1·(2³¹−1)), JWildfire's
//	                           random(Integer.MAX_VALUE); the tile turn is
//	                           k·2π/p (an angle that large is what
//	                           JWildfire takes the sine of, so it is kept)

// jwfMaxInt is Java's Integer.MAX_VALUE, the bound hypertile draws under.
const jwfMaxInt = math.MaxInt32

// jwf2DefaultParams sets JWildfire's defaults for these variations.
func jwf2DefaultParams(p *Params) {
	p[PAffine3DScaleX], p[PAffine3DScaleY], p[PAffine3DScaleZ] = 1, 1, 1
	p[PHypertile2P], p[PHypertile2Q] = 3, 7
	p[PHypertile1P], p[PHypertile1Q] = 3, 7
}

// jwf2Precalc derives what JWildfire's init and setParameter compute.
func jwf2Precalc(p *Params) {
	const deg = math.Pi / 180
	p[PAffine3DSinX], p[PAffine3DCosX] = math.Sincos(p[PAffine3DRotateX] * deg)
	p[PAffine3DSinY], p[PAffine3DCosY] = math.Sincos(p[PAffine3DRotateY] * deg)
	p[PAffine3DSinZ], p[PAffine3DCosZ] = math.Sincos(p[PAffine3DRotateZ] * deg)
	p[PHypertile2Pa], p[PHypertile2R] = hypertileConsts(p[PHypertile2P], p[PHypertile2Q])
	p[PHypertile1Pa], p[PHypertile1R] = hypertileConsts(p[PHypertile1P], p[PHypertile1Q])
}

// hypertileConsts returns the tile turn 2π/p and the disc radius of
// Zueuk's hyperbolic {p, q} tiling; p and q are rounded as JWildfire's
// FTOI and held at 3 or more, as its setParameter does.
func hypertileConsts(pv, qv float64) (pa, r float64) {
	pn, qn := max(ftoi(pv), 3), max(ftoi(qv), 3)
	pa = 2 * math.Pi / pn
	cp := math.Cos(2 * math.Pi / pn)
	r2 := 1 - (cp-1)/(cp+math.Cos(2*math.Pi/qn))
	if r2 > 0 {
		return pa, 1 / math.Sqrt(r2)
	}
	return pa, 1
}

// applyJWF2 adds plugin variation id with weight w to s (applyJWF's rest).
func (s *varState) applyJWF2(id VarID, w float64, r *rng.Stream) {
	switch id {
	case VarAffine3D:
		s.affine3D(w)
	case VarHypertile2:
		s.hypertile2(w, r)
	case VarHypertile1:
		s.hypertile1(w, r)
	}
}

// affine3D: scale, shear, rotate (about x, then y, then z; degrees) and
// translate the point in 3D. With no shear this is JWildfire's shear-free
// formula (its shear terms are then zero).
func (s *varState) affine3D(w float64) {
	p := s.p
	x := p[PAffine3DScaleX] * s.tx
	y := p[PAffine3DScaleY] * s.ty
	z := p[PAffine3DScaleZ] * s.tz
	u := x + p[PAffine3DShearXY]*y + p[PAffine3DShearXZ]*z
	v := p[PAffine3DShearYX]*x + y + p[PAffine3DShearYZ]*z
	t := p[PAffine3DShearZX]*x + p[PAffine3DShearZY]*y + z
	sx, cx := p[PAffine3DSinX], p[PAffine3DCosX]
	sy, cy := p[PAffine3DSinY], p[PAffine3DCosY]
	sz, cz := p[PAffine3DSinZ], p[PAffine3DCosZ]
	a := sx*v + cx*t // about x
	b := cx*v - sx*t
	c := cy*u + sy*a // about y
	s.px += w * (cz*c - sz*b + p[PAffine3DTranslateX])
	s.py += w * (sz*c + cz*b + p[PAffine3DTranslateY])
	s.pz += w * (-sy*u + cy*a + p[PAffine3DTranslateZ])
}

// hypertile2: a Möbius map of the disc onto one of its {p, q} tiles,
// turned by a random multiple of 2π/p after the map.
func (s *varState) hypertile2(w float64, r *rng.Stream) {
	rr := s.p[PHypertile2R]
	a, b := s.tx+rr, s.ty
	c, d := rr*s.tx+1, rr*s.ty
	x, y := a*c+b*d, b*c-a*d
	k := w / (c*c + d*d)
	sa, ca := math.Sincos(s.p[PHypertile2Pa] * math.Trunc(r.Float64()*jwfMaxInt))
	s.px += k * (x*ca + y*sa)
	s.py += k * (y*ca - x*sa)
}

// hypertile1: the same tiling, the random turn taken inside the map.
func (s *varState) hypertile1(w float64, r *rng.Stream) {
	sa, ca := math.Sincos(math.Trunc(r.Float64()*jwfMaxInt) * s.p[PHypertile1Pa])
	rr := s.p[PHypertile1R]
	re, im := rr*ca, rr*sa
	a, b := s.tx+re, s.ty-im
	c, d := re*s.tx-im*s.ty+1, re*s.ty+im*s.tx
	k := w / (c*c + d*d)
	s.px += k * (a*c + b*d)
	s.py += k * (b*c - a*d)
}
