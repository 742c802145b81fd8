package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// More of the ninth set: JWildfire's chrysanthemum (a rose curve drawn by
// t), lazyTravis (the square rings spun inside and outside the square of
// half side w), joukowski (the Joukowski map and its inverse), and
// Fractorium's gnarly (bwraps' cells twisted by the log of the radius).
//
// Random draws (u = Float64): chrysanthemum u1: t = 21π·u1.

// jwf9jDefaultParams sets JWildfire's and Fractorium's defaults.
func jwf9jDefaultParams(p *Params) {
	p[PLazyTravisSpinIn], p[PLazyTravisSpinOut], p[PLazyTravisSpace] = 1, 0.5, math.Pi/2
	p[PJoukowskiP1] = 2.5
	p[PGnarlyCellsize], p[PGnarlyTwist] = 1, 1
	jwf10DefaultParams(p)
}

// applyJWF9j adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF9j(id VarID, w float64, r *rng.Stream) {
	switch id {
	case VarChrysanthemum:
		u := 21 * math.Pi * r.Float64()
		p4 := math.Sin(17 * u / 3)
		p8 := math.Sin(2*math.Cos(3*u) - 28*u)
		p42, p82 := p4*p4, p8*p8
		p84 := p82 * p82
		rr := (5*(1+math.Sin(11*u/5)) - 4*p42*p42*p84*p84) * w * 0.1
		sn, cs := math.Sincos(u)
		s.px += rr * cs
		s.py += rr * sn
	case VarLazyTravis:
		s.lazyTravis(w)
	case VarJoukowski:
		s.joukowski(w)
	case VarGnarly:
		s.gnarly(w)
	}
}

// lazyTravis: points outside the square of half side |w| move along their
// square ring by spin_out (and out by space), those inside by spin_in.
func (s *varState) lazyTravis(w float64) {
	p := s.p
	x, y := s.tx, s.ty
	ax, ay := math.Abs(x), math.Abs(y)
	outside := ax > w || ay > w
	spin := 4 * p[PLazyTravisSpinIn]
	if outside {
		spin = 4 * p[PLazyTravisSpinOut]
	}
	var side, perim float64
	if ax > ay {
		side = ax
		if x > 0 {
			perim = side + y
		} else {
			perim = 5*side - y
		}
	} else {
		side = ay
		if y > 0 {
			perim = 3*side - x
		} else {
			perim = 7*side + x
		}
	}
	perim = math.Mod(perim+side*spin, side*8)
	if !outside {
		switch {
		case perim <= 2*side:
			s.px += w * side
			s.py -= w * (side - perim)
		case perim <= 4*side:
			s.px += w * (3*side - perim)
			s.py += w * side
		case perim <= 6*side:
			s.px -= w * side
			s.py += w * (5*side - perim)
		default:
			s.px -= w * (7*side - perim)
			s.py -= w * side
		}
		return
	}
	sp := p[PLazyTravisSpace]
	var x2, y2 float64
	switch {
	case perim <= 2*side:
		x2, y2 = side+sp, -(side - perim)
		y2 += y2 / side * sp
	case perim <= 4*side:
		x2, y2 = 3*side-perim, side+sp
		x2 += x2 / side * sp
	case perim <= 6*side:
		x2, y2 = -(side + sp), 5*side-perim
		y2 += y2 / side * sp
	default:
		x2, y2 = -(7*side - perim), -(side + sp)
		x2 += x2 / side * sp
	}
	s.px += w * x2
	s.py += w * y2
}

// joukowski: the Joukowski map z + z0 + P1²/(z + z0) with z0 = (−P2, 0.2),
// or (inverse 1) its inverse branch farther from the origin.
func (s *varState) joukowski(w float64) {
	p := s.p
	p1 := p[PJoukowskiP1]
	z0 := complex(-p[PJoukowskiP2], 0.2)
	z := complex(s.tx, s.ty)
	var out complex128
	if min(max(math.Trunc(p[PJoukowskiInverse]), 0), 1) == 0 {
		zz := z + z0
		d := real(zz)*real(zz) + imag(zz)*imag(zz) // JWildfire's cdiv of p1² by zz
		out = zz + complex(p1*p1*real(zz)/d, -p1*p1*imag(zz)/d)
	} else {
		q := z*z/4 - complex(p1*p1, 0)
		m := math.Hypot(real(q), imag(q))
		sq := complex(math.Sqrt((m+real(q))*0.5), math.Sqrt((m-real(q))*0.5)*signum(imag(q)))
		r1, r2 := z/2+sq-z0, z/2-sq-z0
		out = r2
		if math.Hypot(real(r1), imag(r1)) > math.Hypot(real(r2), imag(r2)) {
			out = r1
		}
	}
	s.px += w * real(out)
	s.py += w * imag(out)
}

// signum is Java's Math.signum: −1, 0 or 1.
func signum(v float64) float64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return v
}

// gnarly: Fractorium's gnarly, the point twisted about its cell's centre
// by twist·log(r²/R²) inside the cell's disc of radius R = cellsize/2.
func (s *varState) gnarly(w float64) {
	p := s.p
	vx, vy := s.tx, s.ty
	if cs := p[PGnarlyCellsize]; cs != 0 {
		r2 := zeps(0.25 * cs * cs)
		cx := (math.Floor(vx/cs) + 0.5) * cs
		cy := (math.Floor(vy/cs) + 0.5) * cs
		lx, ly := vx-cx, vy-cy
		if d := lx*lx + ly*ly; d <= r2 {
			sn, c := math.Sincos(p[PGnarlyTwist] * math.Log(d/r2))
			vx = cx + c*lx + sn*ly
			vy = cy - sn*lx + c*ly
		}
	}
	s.px += w * vx
	s.py += w * vy
}
