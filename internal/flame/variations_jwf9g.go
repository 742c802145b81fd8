package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// More of the ninth set: JWildfire's superShape3d, eMotion, hypertile3D2,
// cubic3D, collideoscope and asteria, and Fractorium's falloff, rotate_y,
// rotate_z, rblur, sphereblur, bcircle and Spherical3D, which Fractorium
// files use (as pre_ and post_ stages in the corpus). superShape3d,
// hypertile3D2, cubic3D, falloff, rotate_y, rotate_z, sphereblur and
// Spherical3D read or write z. cubic3D replaces the sum with a blend of
// it and the point, as JWildfire's; rotate_y replaces the sum's y and
// rotate_z its z with the point's, as Fractorium's do as regular
// variations (the weight is their angle, in quarter turns).
//
// Random draws (u = Float64), each unconditional:
//
//	superShape3d u1 u2 u3: rho, phi, and phi's sign from trunc(u3·(2³¹−1)) mod 2
//	hypertile3D2 u1: turn by trunc(u1·(2³¹−1)) tiles
//	cubic3D      u1: corner trunc(8·u1)
//	asteria      u1: inside both shapes, linear where u1 > 0.35 (JWildfire
//	             draws only there)
//	falloff      u1 u2 u3: the three scatter factors u − ½
//	rblur        u1 u2: the x and y blur
//	sphereblur   u1 u2 u3: azimuth, polar angle, radius
//	bcircle      u1: the border's radius (Fractorium draws only there)

// jwf9gDefaultParams sets JWildfire's and Fractorium's defaults for these
// variations.
func jwf9gDefaultParams(p *Params) {
	p[PSuperShape3dRho], p[PSuperShape3dPhi], p[PSuperShape3dM1], p[PSuperShape3dM2] = 9.9, 2.5, 6, 3
	for q := PSuperShape3dA1; q <= PSuperShape3dN32; q++ {
		p[q] = 1
	}
	p[PHypertile3D2P], p[PHypertile3D2Q] = 3, 7
	p[PCubic3DXpand], p[PCubic3DStyle] = 0.25, 1
	p[PCollideoscopeA], p[PCollideoscopeNum] = 0.2, 1
	p[PFalloffFrScatter], p[PFalloffFrMindist], p[PFalloffFrMulX], p[PFalloffFrMulY] = 1, 0.5, 1, 1
	p[PFalloffFrBoxpow] = 2
	p[PRblurStrength], p[PRblurOffset] = 1, 1
	p[PSphereblurPower] = 1
	p[PBcircleScale] = 1
	jwf9hDefaultParams(p)
}

// applyJWF9g adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF9g(id VarID, w float64, r *rng.Stream) {
	p := s.p
	x, y, z := s.tx, s.ty, s.tz
	switch id {
	case VarSuperShape3d:
		s.superShape3d(w, r)
	case VarEMotion:
		s.eMotion(w)
	case VarHypertile3D2:
		s.hypertile3D2(w, r)
	case VarCubic3D:
		s.cubic3D(w, r)
	case VarCollideoscope:
		s.collideoscope(w)
	case VarAsteria:
		s.asteria(w, r)
	case VarFalloffFr:
		s.falloffFr(w, r)
	case VarRotateY:
		sn, cs := math.Sincos(w * math.Pi / 2)
		s.px += cs*x - sn*z
		s.py = y
		s.pz += sn*x + cs*z
	case VarRotateZ:
		sn, cs := math.Sincos(w * math.Pi / 2)
		s.px += sn*y + cs*x
		s.py += cs*y - sn*x
		s.pz = z
	case VarRblur:
		rr := max(math.Hypot(x-p[PRblurCenterX], y-p[PRblurCenterY])-p[PRblurOffset], 0) * 2 * p[PRblurStrength]
		s.px += w * (x + (r.Float64()-0.5)*rr)
		s.py += w * (y + (r.Float64()-0.5)*rr)
	case VarSphereblur:
		power := max(p[PSphereblurPower], 0)
		sn, cs := math.Sincos(r.Float64() * 2 * math.Pi)
		sz, cz := math.Sincos(math.Acos(r.Float64()*2 - 1))
		u := r.Float64()
		if power != 1 {
			u = math.Exp(math.Log(u) * power)
		}
		rr := w * math.Exp(math.Log(math.Acos(u*2-1)/math.Pi)/1.5)
		s.px += rr * cs * sz
		s.py += rr * sn * sz
		s.pz += rr * cz
	case VarBcircle:
		bx, by := x*p[PBcircleScale], y*p[PBcircleScale]
		u := r.Float64()
		if math.Hypot(bx, by) <= 1 {
			s.px += w * bx
			s.py += w * by
		} else if bw := math.Abs(p[PBcircleBorderwidth]); bw != 0 {
			sn, cs := math.Sincos(math.Atan2(by, bx))
			k := w * (0.2*bw*u + 1)
			s.px += k * cs
			s.py += k * sn
		}
	case VarSpherical3DFr:
		k := w / zeps(x*x+y*y+z*z)
		s.px += k * x
		s.py += k * y
		s.pz += k * z
	}
}

// superShape3d: Gielis' superformula in both angles of a sphere (or a
// torus, toroidmap 1).
func (s *varState) superShape3d(w float64, r *rng.Stream) {
	p := s.p
	rho1 := r.Float64() * p[PSuperShape3dRho] * (2 / math.Pi)
	phi1 := r.Float64() * p[PSuperShape3dPhi] * (2 / math.Pi)
	if int64(r.Float64()*math.MaxInt32)%2 == 1 {
		phi1 = -phi1
	}
	term := func(ang, m, a, b, n1, n2, n3 float64) float64 {
		ms, mc := math.Sincos(m / 4 * ang)
		pr := math.Pow(math.Abs(1/a), n2)*math.Pow(math.Abs(mc), n2) + math.Pow(math.Abs(1/b), n3)*math.Pow(math.Abs(ms), n3)
		return math.Pow(pr, -1/n1)
	}
	r1 := term(rho1, p[PSuperShape3dM1], p[PSuperShape3dA1], p[PSuperShape3dB1], p[PSuperShape3dN11],
		p[PSuperShape3dN21], p[PSuperShape3dN31]) + p[PSuperShape3dSpiral]*rho1
	r2 := term(phi1, p[PSuperShape3dM2], p[PSuperShape3dA2], p[PSuperShape3dB2], p[PSuperShape3dN12],
		p[PSuperShape3dN22], p[PSuperShape3dN32])
	sr, cr := math.Sincos(rho1)
	sp, cp := math.Sincos(phi1)
	if ftoi(p[PSuperShape3dToroidmap]) == 1 {
		s.px += w * cr * (r1 + r2*cp)
		s.py += w * sr * (r1 + r2*cp)
	} else {
		s.px += w * r1 * cr * r2 * cp
		s.py += w * r1 * sr * r2 * cp
	}
	s.pz += w * r2 * sp
}

// eMotion: Michael Faber's eMotion, a move along and turn around the
// confocal ellipses of elliptic coordinates.
func (s *varState) eMotion(w float64) {
	p := s.p
	x, y := s.tx, s.ty
	mu, nu := elliptic(x, y*y+x*x+1, y < 0)
	if nu < 0 {
		mu += p[PEMotionMove]
	} else {
		mu -= p[PEMotionMove]
	}
	if mu <= 0 {
		mu, nu = -mu, -nu
	}
	nu += p[PEMotionRotate]
	s.px += w * math.Cosh(mu) * math.Cos(nu)
	s.py += w * math.Sinh(mu) * math.Sin(nu)
}

// hypertile3D2: hypertile3D's Möbius step centred on the x axis, turned
// by a random number of tiles.
func (s *varState) hypertile3D2(w float64, r *rng.Stream) {
	p := s.p
	pa := 2 * math.Pi / max(ftoi(p[PHypertile3D2P]), 3)
	qa := 2 * math.Pi / max(ftoi(p[PHypertile3D2Q]), 3)
	cx := -(math.Cos(pa) - 1) / (math.Cos(pa) + math.Cos(qa))
	if cx > 0 {
		cx = 1 / math.Sqrt(1+cx)
	} else {
		cx = 1
	}
	x, y, z := s.tx, s.ty, s.tz
	r2 := x*x + y*y + z*z
	hx := x*(1+cx*cx) - cx*(-r2-1)
	hy := y * (1 - cx*cx)
	vr := w / (cx*cx*r2 + 2*cx*x + 1)
	sn, cs := math.Sincos(math.Trunc(r.Float64()*math.MaxInt32) * pa)
	s.px += vr * (hx*cs + hy*sn)
	s.py += vr * (hy*cs - hx*sn)
	s.pz += vr * z * (1 - cx*cx)
}

// cubic3D: Larry Berlin's cubic3D, the sum pulled towards one of the
// eight corners (±w/2 on each axis) of a cube, blended with the point.
func (s *varState) cubic3D(w float64, r *rng.Stream) {
	p := s.p
	node := math.Trunc(r.Float64() * 8)
	lattd := w * 0.5
	fill := p[PCubic3DXpand] * 0.5
	if math.Abs(p[PCubic3DXpand]) > 1 {
		fill = math.Sqrt(p[PCubic3DXpand]) * 0.5
	}
	smooth := 1.0
	if math.Abs(w) <= 0.5 {
		smooth = w * 2
	}
	st := p[PCubic3DStyle]
	switch {
	case st > 1:
		st = 1 + (st-1)*0.25
	case st < -1:
		st = (st+1)*0.25 - 1
	}
	ex := 1 - st*(1-math.Cos(math.Atan2(s.tx, s.tz)))
	wy := 1 - st*(1-math.Sin(math.Atan2(s.ty, s.tz)))
	zn := 1 - st*(1-(ex+wy)/2)
	if st > 1 {
		zn = 1 - st*(1-(ex+wy)/2*st)
	}
	sx, sy, sz := lattd, lattd, lattd
	if node >= 4 {
		sx = -lattd
	}
	if math.Mod(node, 2) == 1 {
		sy = -lattd
	}
	if node == 2 || node == 3 || node == 6 || node == 7 {
		sz = -lattd
	}
	blend := func(sum, pt, e, corner float64) float64 {
		return sum - smooth*(1-fill)*sum*e + pt*smooth*fill*e + corner
	}
	s.px = blend(s.px, s.tx, ex, sx)
	s.py = blend(s.py, s.ty, wy, sy)
	s.pz = blend(s.pz, s.tz, zn, sz)
}

// collideoscope: Michael Faber's collideoscope, a kaleidoscope of num
// mirrored sectors shifted by a.
func (s *varState) collideoscope(w float64) {
	p := s.p
	num := max(ftoi(p[PCollideoscopeNum]), 1)
	a0 := min(max(p[PCollideoscopeA], 0), 1)
	knPi, piKn := num/math.Pi, math.Pi/num
	kaKn := math.Pi * a0 / num
	a := math.Atan2(s.ty, s.tx)
	rr := w * s.sqrt
	if a >= 0 {
		alt := math.Trunc(a * knPi)
		if math.Mod(alt, 2) == 0 {
			a = alt*piKn + math.Mod(kaKn+a, piKn)
		} else {
			a = alt*piKn + math.Mod(-kaKn+a, piKn)
		}
	} else {
		alt := math.Trunc(-a * knPi)
		if math.Mod(alt, 2) != 0 {
			a = -(alt*piKn + math.Mod(-kaKn-a, piKn))
		} else {
			a = -(alt*piKn + math.Mod(kaKn-a, piKn))
		}
	}
	sn, cs := math.Sincos(a)
	s.px += rr * cs
	s.py += rr * sn
}

// asteria: DarkBeam's asteria, linear inside the unit disc and an
// astroid-like bend outside it (turned by alpha half turns).
func (s *varState) asteria(w float64, r *rng.Stream) {
	x0, y0 := w*s.tx, w*s.ty
	rr := x0*x0 + y0*y0
	ax, ay := math.Abs(x0)-1, math.Abs(y0)-1
	in1 := rr < 1
	u := r.Float64()
	if in1 && math.Sqrt(ay*ay+ax*ax) < 1 {
		in1 = u > 0.35
	} else {
		in1 = !in1
	}
	if in1 {
		s.px += x0
		s.py += y0
		return
	}
	sa, ca := math.Sincos(math.Pi * s.p[PAsteriaAlpha])
	xx := x0*ca - y0*sa
	yy := x0*sa + y0*ca
	nx := xx / math.Sqrt(1-yy*yy) * (1 - math.Sqrt(1-(1-math.Abs(yy))*(1-math.Abs(yy))))
	s.px += nx*ca + yy*sa
	s.py += -nx*sa + yy*ca
}

// falloffFr: Fractorium's falloff (Xyrus02's), a blur growing with the
// distance from (x0, y0, z0): type 0 linear, 1 radial, 2 box; parameters
// held to Fractorium's ranges.
func (s *varState) falloffFr(w float64, r *rng.Stream) {
	p := s.p
	ax, ay, az := r.Float64()-0.5, r.Float64()-0.5, r.Float64()-0.5
	x, y, z := s.tx, s.ty, s.tz
	unit := func(v float64) float64 { return min(max(v, 0), 1) }
	mx, my, mz := unit(p[PFalloffFrMulX]), unit(p[PFalloffFrMulY]), unit(p[PFalloffFrMulZ])
	dist := math.Sqrt((x-p[PFalloffFrX0])*(x-p[PFalloffFrX0]) + (y-p[PFalloffFrY0])*(y-p[PFalloffFrY0]) +
		(z-p[PFalloffFrZ0])*(z-p[PFalloffFrZ0]))
	d := max(dist, 0)
	if min(max(ftoi(p[PFalloffFrInvert]), 0), 1) != 0 {
		d = max(1-dist, 0)
	}
	rs := max((d-max(p[PFalloffFrMindist], 0))*0.04*max(p[PFalloffFrScatter], 0x1p-52), 0)
	switch min(max(ftoi(p[PFalloffFrType]), 0), 2) {
	case 0:
		s.px += w * (x + mx*ax*rs)
		s.py += w * (y + my*ay*rs)
		s.pz += w * (z + mz*az*rs)
	case 1:
		rad := dist + mx*ax*rs
		phi := math.Atan2(y, x) + my*ay*rs
		asz := 0.0
		if dist != 0 {
			asz = z / dist
		}
		sg, cg := math.Sincos(math.Asin(asz) + mz*az*rs)
		sp, cp := math.Sincos(phi)
		s.px += rad * cg * w * cp
		s.py += rad * cg * w * sp
		s.pz += rad * sg * w
	default:
		scale := min(max(rs, 0), 0.9) + 0.1
		denom := 1 / scale
		bp := min(max(ftoi(p[PFalloffFrBoxpow]), 2), 32)
		box := func(v, a, m float64) float64 {
			return w*(v+(math.Floor(v*denom)+scale*a-v)*m*rs) + m*math.Pow(a, bp)*rs*denom
		}
		s.px += box(x, ax, mx)
		s.py += box(y, ay, my)
		s.pz += box(z, az, mz)
	}
}
