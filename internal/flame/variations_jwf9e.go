package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// More of the ninth set, small JWildfire maps: cardioid, checks,
// blur_circle, flipcircle, flipy, invpolar, secq and tanhq (quaternion
// functions of (x, y, z)), sph3D, square3D, squarize, sigmoid, shift,
// twoface, tancos, whitney_umbrella, rays2, petal, triangle and cone.
// secq, tanhq, sph3D, square3D, whitney_umbrella, triangle and cone write
// z. rays2 and triangle replace the sum, as JWildfire's assign.
//
// Random draws (u = Float64), each unconditional:
//
//	checks      u1 u2: the x and y jitter (rnd·u)
//	blur_circle u1 u2: a point of the square [−1, 1]², wrapped to the disc
//	square3D    u1 u2 u3: a point of the unit cube about 0
//	triangle    u1 u2: a uniform point of the triangle
//	cone        u1: branch trunc(weight·u1)

// jwf9eDefaultParams sets JWildfire's defaults for these variations.
func jwf9eDefaultParams(p *Params) {
	p[PCardioidA] = 1
	p[PChecksX], p[PChecksY], p[PChecksSize], p[PChecksRnd] = 3, 3, 1, 0.5
	p[PSph3DX], p[PSph3DY], p[PSph3DZ] = 0.75, 1, 0.5
	p[PSigmoidShiftx], p[PSigmoidShifty] = 1, 1
	p[PShiftShiftX], p[PShiftShiftY], p[PShiftAngle] = 0.1, 0.06, 12.25
	p[PTriangleX1], p[PTriangleY1], p[PTriangleX2], p[PTriangleY2] = -0.2, -0.1, 0.2, -0.1
	p[PTriangleX3], p[PTriangleY3] = 0.2, 0.1
	p[PConeRadius1], p[PConeRadius2], p[PConeSize1], p[PConeSize2] = 0.5, 1, 0.5, 2
	p[PConeYwave], p[PConeXwave], p[PConeHeight], p[PConeWarp], p[PConeWeight] = 1, 1, 1, 1, 2
	jwf9fDefaultParams(p)
}

// applyJWF9e adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF9e(id VarID, w float64, r *rng.Stream) {
	p := s.p
	x, y, z := s.tx, s.ty, s.tz
	switch id {
	case VarCardioid:
		a := math.Atan2(y, x)
		rr := w * math.Sqrt(x*x+y*y+math.Sin(a*p[PCardioidA])+1)
		s.px += rr * math.Cos(a)
		s.py += rr * math.Sin(a)
	case VarChecks:
		s.checks(w, r)
	case VarBlurCircle:
		u, v := 2*r.Float64()-1, 2*r.Float64()-1
		side, perim := squareRing(u, v)
		sn, cs := math.Sincos(math.Pi/4*perim/side - math.Pi/4)
		s.px += w * side * cs
		s.py += w * side * sn
	case VarFlipcircle:
		if x*x+y*y > w*w {
			s.py += w * y
		} else {
			s.py -= w * y
		}
		s.px += w * x
	case VarFlipy:
		if x > 0 {
			s.py -= w * y
		} else {
			s.py += w * y
		}
		s.px += w * x
	case VarInvpolar:
		ny := 1 + y
		s.px += w * ny * math.Sin(x*math.Pi)
		s.py += w * ny * math.Cos(x*math.Pi)
	case VarSecq:
		av := math.Hypot(y, z)
		sn, cs := math.Sincos(-x)
		ni := w / (x*x + y*y + z*z)
		c := ni * sn * math.Sinh(av) / av
		s.px += cs * math.Cosh(av) * ni
		s.py -= c * y
		s.pz -= c * z
	case VarTanhq:
		av := math.Hypot(y, z)
		sysz := y*y + z*z
		ni := w / (x*x + sysz)
		sn, cs := math.Sincos(av)
		sh, ch := math.Sinh(x), math.Cosh(x)
		c, b := ch*sn/av, sh*sn/av
		stcv, ctcv := sh*cs, ch*cs
		s.px += (stcv*ctcv + c*b*sysz) * ni
		s.py += (-stcv*b*y + c*y*ctcv) * ni
		s.pz += (-stcv*b*z + c*z*ctcv) * ni
	case VarSph3D: // z is scaled by the x factor, as JWildfire's (sph3D_z is unused there)
		xx, yy, zz := p[PSph3DX]*x, p[PSph3DY]*y, p[PSph3DX]*z
		k := w / (xx*xx + yy*yy + zz*zz + 1e-29)
		s.px += x * k
		s.py += y * k
		s.pz += z * k
	case VarSquare3D:
		s.px += w * (r.Float64() - 0.5)
		s.py += w * (r.Float64() - 0.5)
		s.pz += w * (r.Float64() - 0.5)
	case VarSquarize:
		s.squarize(w)
	case VarSigmoid:
		s.sigmoid(w)
	case VarShift:
		sn, cs := math.Sincos(p[PShiftAngle] / 180 * math.Pi)
		s.px += w * (x + cs*p[PShiftShiftX] - sn*p[PShiftShiftY])
		s.py += w * (y - cs*p[PShiftShiftY] - sn*p[PShiftShiftX])
	case VarTwoface:
		k := w
		if x > 0 {
			k /= x*x + y*y
		}
		s.px += k * x
		s.py += k * y
	case VarTancos:
		d1 := 1e-300 + x*x + y*y
		d2 := w / d1
		s.px += d2 * math.Tanh(d1) * 2 * x
		s.py += d2 * math.Cos(d1) * 2 * y
	case VarWhitneyUmbrella:
		s.px += w * x * y
		s.py += w * x
		s.pz += w * y * y
	case VarRays2:
		t := x*x + y*y
		u := 1 / math.Cos((t+1e-300)*math.Tan(1/t+1e-300))
		s.px = w / 10 * u * t / x
		s.py = w / 10 * u * t / y
	case VarPetal:
		cx, cy := math.Cos(x), math.Cos(y)
		bx := cx * cy * (cx * cy) * (cx * cy)
		sxy := math.Sin(x) * cy
		s.px += w * cx * bx
		s.py += w * cx * (sxy * sxy * sxy)
	case VarTriangle:
		r1 := math.Sqrt(r.Float64())
		r2 := r.Float64()
		a, b, c := 1-r1, r1*(1-r2), r2*r1
		s.px = w * (a*p[PTriangleX1] + b*p[PTriangleX2] + c*p[PTriangleX3])
		s.py = w * (a*p[PTriangleY1] + b*p[PTriangleY2] + c*p[PTriangleY3])
		s.pz = w * (a*p[PTriangleZ1] + b*p[PTriangleZ2] + c*p[PTriangleZ3])
	case VarCone:
		rr := w / math.Sqrt(x*x*p[PConeWarp]+y*y+p[PConeSize1]) * p[PConeSize2]
		xx := math.Atan2(x, y)*p[PConeRadius1] + math.Pi*math.Trunc(p[PConeWeight]*r.Float64())*p[PConeRadius2]
		s.px += rr * math.Cos(xx*p[PConeXwave])
		s.py += rr * math.Sin(xx*p[PConeYwave])
		s.pz += rr * p[PConeHeight]
	}
}

// squareRing gives the square ring of (x, y) about 0 (its half side) and
// the point's place along it, 0 to 8 sides from the positive x axis, as
// circlize2 and blur_circle measure it.
func squareRing(x, y float64) (side, perim float64) {
	ax, ay := math.Abs(x), math.Abs(y)
	if ax >= ay {
		if x >= ay {
			return ax, ax + y
		}
		return ax, 5*ax - y
	}
	if y >= ax {
		return ay, 3*ay - x
	}
	return ay, 7*ay + x
}

// checks: a checkerboard of cells of the given size, the point moved by
// (−x, −y) plus x jitter on even cells and by (x, y) plus y jitter on odd
// ones. Java's rint rounds half to even.
func (s *varState) checks(w float64, r *rng.Stream) {
	p := s.p
	cs := 1 / (p[PChecksSize] + 1e-8)
	isXY := math.RoundToEven(s.tx*cs) + math.RoundToEven(s.ty*cs)
	rnx, rny := p[PChecksRnd]*r.Float64(), p[PChecksRnd]*r.Float64()
	dx, dy := p[PChecksX], p[PChecksY]+rny
	if math.Mod(isXY, 2) == 0 {
		dx, dy = -p[PChecksX]+rnx, -p[PChecksY]
	}
	s.px += w * (s.tx + dx)
	s.py += w * (s.ty + dy)
}

// squarize: the circle of radius |p| unrolled onto the square of the same
// half side.
func (s *varState) squarize(w float64) {
	sq := s.sqrt
	a := math.Atan2(s.ty, s.tx)
	if a < 0 {
		a += 2 * math.Pi
	}
	pp := 4 * sq * a / math.Pi
	switch {
	case pp <= sq:
		s.px += w * sq
		s.py += w * pp
	case pp <= 3*sq:
		s.px += w * (2*sq - pp)
		s.py += w * sq
	case pp <= 5*sq:
		s.px -= w * sq
		s.py += w * (4*sq - pp)
	case pp <= 7*sq:
		s.px -= w * (6*sq - pp)
		s.py -= w * sq
	default:
		s.px += w * sq
		s.py -= w * (8*sq - pp)
	}
}

// sigmoid: the logistic function on each axis, steepness from shiftx and
// shifty (inverted, with their sign kept, between −1 and 1); |w| scales.
func (s *varState) sigmoid(w float64) {
	axis := func(shift float64) (sh, a float64) {
		a = 1
		if shift < 1 && shift > -1 {
			if shift == 0 {
				return -5 * 1e-300, 1
			}
			if shift < 0 {
				a = -1
			}
			shift = 1 / shift
		}
		return -5 * shift, a
	}
	sx, ax := axis(s.p[PSigmoidShiftx])
	sy, ay := axis(s.p[PSigmoidShifty])
	vv := math.Abs(w)
	c0 := ax / (1 + math.Exp(sx*s.tx))
	c1 := ay / (1 + math.Exp(sy*s.ty))
	s.px += vv * 2 * (c0 - 0.5)
	s.py += vv * 2 * (c1 - 0.5)
}
