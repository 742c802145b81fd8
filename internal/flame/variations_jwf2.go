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
//	boarders2              u1: the border branch when u1 < cr
//	julian2                u1: root k = trunc(u1·(2³¹−1)) mod |power| (drawn
//	                           also where power is 0, which maps to nothing)
//	juliac                 u1: turn fmod(trunc(u1·(2³¹−1)), re)

// jwfMaxInt is Java's Integer.MAX_VALUE, the bound hypertile draws under.
const jwfMaxInt = math.MaxInt32

// jwf2DefaultParams sets JWildfire's defaults for these variations.
func jwf2DefaultParams(p *Params) {
	p[PAffine3DScaleX], p[PAffine3DScaleY], p[PAffine3DScaleZ] = 1, 1, 1
	p[PHypertile2P], p[PHypertile2Q] = 3, 7
	p[PHypertile1P], p[PHypertile1Q] = 3, 7
	p[PBwraps7Cellsize], p[PBwraps7Gain] = 1, 2
	p[PBoarders2C], p[PBoarders2Left], p[PBoarders2Right] = 0.4, 0.65, 0.35
	// julian2's power and juliac's re are random in JWildfire when unset
	// (every file it writes sets them): 2 and 2.5 here.
	p[PJulian2Power], p[PJulian2Dist], p[PJulian2A], p[PJulian2D] = 2, 1, 1, 1
	p[PJuliacRe], p[PJuliacIm], p[PJuliacDist] = 2.5, 0.5, 1
	jwf3DefaultParams(p)
}

// jwf2Precalc derives what JWildfire's init and setParameter compute.
func jwf2Precalc(p *Params) {
	const deg = math.Pi / 180
	p[PAffine3DSinX], p[PAffine3DCosX] = math.Sincos(p[PAffine3DRotateX] * deg)
	p[PAffine3DSinY], p[PAffine3DCosY] = math.Sincos(p[PAffine3DRotateY] * deg)
	p[PAffine3DSinZ], p[PAffine3DCosZ] = math.Sincos(p[PAffine3DRotateZ] * deg)
	p[PHypertile2Pa], p[PHypertile2R] = hypertileConsts(p[PHypertile2P], p[PHypertile2Q])
	p[PHypertile1Pa], p[PHypertile1R] = hypertileConsts(p[PHypertile1P], p[PHypertile1Q])
	bwraps7Precalc(p)
	n := ftoi(p[PJulian2Power])
	p[PJulian2AbsN] = math.Abs(n)
	p[PJulian2CN] = p[PJulian2Dist] / n * 0.5
	jwf3Precalc(p)
	nz := func(v float64) float64 { // JWildfire's init: zero becomes its EPSILON
		if v = math.Abs(v); v == 0 {
			return 1e-8
		}
		return v
	}
	c := nz(p[PBoarders2C])
	p[PBoarders2Cc] = c
	p[PBoarders2Cl] = c * nz(p[PBoarders2Left])
	p[PBoarders2Cr] = c + c*nz(p[PBoarders2Right])
}

// bwraps7Precalc derives the bubble radius² and the distortion factors.
func bwraps7Precalc(p *Params) {
	cs, sp, g := p[PBwraps7Cellsize], p[PBwraps7Space], p[PBwraps7Gain]
	radius := 0.5 * (cs / (1 + sp*sp))
	g2 := g*g + 1e-6
	mb := g2 * radius
	if mb > 2 {
		mb = 1 // larger bubbles curve round the back
	} else {
		mb *= 1 / (mb*mb/4 + 1)
	}
	p[PBwraps7G2] = g2
	p[PBwraps7R2] = radius * radius
	p[PBwraps7Rfactor] = radius / mb
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

// applyJWF2 adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF2(id VarID, w float64, r *rng.Stream) {
	switch id {
	case VarAffine3D:
		s.affine3D(w)
	case VarHypertile2:
		s.hypertile2(w, r)
	case VarHypertile1:
		s.hypertile1(w, r)
	case VarBwraps7:
		s.bwraps7(w)
	case VarBoarders2:
		s.boarders2(w, r)
	case VarJulian2:
		s.julian2(w, r)
	case VarJuliac:
		s.juliac(w, r)
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

// bwraps7: slobo777's bubble wrap: a grid of cells, each with a bubble
// that magnifies and twists what falls inside it; linear elsewhere.
func (s *varState) bwraps7(w float64) {
	p := s.p
	vx, vy := s.tx, s.ty
	cs := p[PBwraps7Cellsize]
	if math.Abs(cs) < 1e-300 {
		s.px += w * vx
		s.py += w * vy
		return
	}
	cx := (math.Floor(vx/cs) + 0.5) * cs
	cy := (math.Floor(vy/cs) + 0.5) * cs
	lx, ly := vx-cx, vy-cy
	r2 := p[PBwraps7R2]
	if lx*lx+ly*ly > r2 {
		s.px += w * vx
		s.py += w * vy
		return
	}
	lx *= p[PBwraps7G2]
	ly *= p[PBwraps7G2]
	k := p[PBwraps7Rfactor] / ((lx*lx+ly*ly)/4 + 1)
	lx *= k
	ly *= k
	f := (lx*lx + ly*ly) / r2 // 0 at the centre, 1 at the rim
	sn, c := math.Sincos(p[PBwraps7InnerTwist]*(1-f) + p[PBwraps7OuterTwist]*f)
	s.px += w * (cx + c*lx + sn*ly)
	s.py += w * (cy - sn*lx + c*ly)
}

// boarders2: Xyrus02's boarders with a settable cell scale and border
// widths: each unit cell shrunk by c, a share of the points pushed out to
// the border along the cell's diagonal sectors.
func (s *varState) boarders2(w float64, r *rng.Stream) {
	p := s.p
	c, cl := p[PBoarders2Cc], p[PBoarders2Cl]
	rx, ry := math.RoundToEven(s.tx), math.RoundToEven(s.ty)
	ox, oy := s.tx-rx, s.ty-ry
	bx, by := ox*c+rx, oy*c+ry
	if r.Float64() >= p[PBoarders2Cr] {
		s.px += w * bx
		s.py += w * by
		return
	}
	if math.Abs(ox) >= math.Abs(oy) {
		if ox >= 0 {
			s.px += w * (bx + cl)
			s.py += w * (by + cl*oy/ox)
		} else {
			s.px += w * (bx - cl)
			s.py += w * (by - cl*oy/ox)
		}
		return
	}
	if oy >= 0 {
		s.py += w * (by + cl)
		s.px += w * (bx + ox/oy*cl)
	} else {
		s.py += w * (by - cl)
		s.px += w * (bx - ox/oy*cl)
	}
}

// julian2: Xyrus02's julian of the point through its own affine map
// (a b c d e f, as x' = a·x + b·y + e, y' = c·x + d·y + f).
func (s *varState) julian2(w float64, r *rng.Stream) {
	p := s.p
	k := math.Trunc(r.Float64() * jwfMaxInt)
	n := ftoi(p[PJulian2Power])
	if n == 0 {
		return
	}
	x := p[PJulian2A]*s.tx + p[PJulian2B]*s.ty + p[PJulian2E]
	y := p[PJulian2C]*s.tx + p[PJulian2D]*s.ty + p[PJulian2F]
	a := (math.Atan2(y, x) + 2*math.Pi*math.Mod(k, p[PJulian2AbsN])) / n
	rr := w * math.Pow(x*x+y*y, p[PJulian2CN])
	sa, ca := math.Sincos(a)
	s.px += rr * ca
	s.py += rr * sa
}

// juliac: David Young's julia with a complex power 1/re + i·im/100.
func (s *varState) juliac(w float64, r *rng.Stream) {
	p := s.p
	k := math.Trunc(r.Float64() * jwfMaxInt)
	re := 1 / (p[PJuliacRe] + 1e-300)
	im := p[PJuliacIm] / 100
	arg := math.Atan2(s.ty, s.tx) + math.Mod(k, p[PJuliacRe])*2*math.Pi
	lnmod := p[PJuliacDist] * 0.5 * math.Log(s.tx*s.tx+s.ty*s.ty)
	sa, ca := math.Sincos(arg*re + lnmod*im)
	m := math.Exp(lnmod*re - arg*im)
	s.px += w * m * ca
	s.py += w * m * sa
}
