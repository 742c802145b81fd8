package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// More of the ninth set: Neil Slater's hexes (JWildfire's, which
// Fractorium files use too), a hexagonal Voronoi cell map with power,
// scale and rotation inside each cell, and Xyrus02's falloff3 (JWildfire's;
// reads and writes z; its colour blur mul_c is not applied: a positive one
// is reported as not honoured).
//
// Random draws (u = Float64): falloff3 u1..u4, the x, y, z and colour
// scatter u − ½.

// jwf9iDefaultParams sets JWildfire's defaults for these variations.
func jwf9iDefaultParams(p *Params) {
	p[PHexesCellsize], p[PHexesPower], p[PHexesRotate], p[PHexesScale] = 1, 1, 0.166, 1
	p[PFalloff3BlurStrength], p[PFalloff3MinDistance], p[PFalloff3MulX], p[PFalloff3MulY] = 1, 0.5, 1, 1
	jwf9jDefaultParams(p)
}

// applyJWF9i adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF9i(id VarID, w float64, r *rng.Stream) {
	switch id {
	case VarHexes:
		s.hexes(w)
	case VarFalloff3:
		s.falloff3(w, r)
	}
}

// The hexagonal grid: hexagon coordinates from cartesian (hexFromXY, over
// the cell size) and back (hexToXY, times it).
const (
	hexA, hexB, hexC, hexD = 1.0 / 3, 1.7320508075688772935 / 3, -1.0 / 3, 1.7320508075688772935 / 3
	cartA, cartB, cartC    = 1.5, -1.5, 1.7320508075688772935 / 2
)

func hexCentre(hx, hy, size float64) [2]float64 {
	return [2]float64{(cartA*hx + cartB*hy) * size, (cartC*hx + cartC*hy) * size}
}

// voronoiRatio is JWildfire's vratio: where u lies between the cells of
// q and p (1 on their shared edge).
func voronoiRatio(p, q [2]float64, u [2]float64) float64 {
	dx, dy := p[0]-q[0], p[1]-q[1]
	if dx == 0 && dy == 0 {
		return 1
	}
	return 2 * ((u[0]-q[0])*dx + (u[1]-q[1])*dy) / (dx*dx + dy*dy)
}

// voronoiDist is JWildfire's voronoi: the largest ratio of u towards any
// of pts but pts[q] (1 on the cell's edge, 0 at its centre).
func voronoiDist(pts [][2]float64, q int, u [2]float64) float64 {
	m := -1e100
	for i := range pts {
		if i != q {
			m = max(m, voronoiRatio(pts[i], pts[q], u))
		}
	}
	return m
}

// hexes maps the point within its hexagonal cell: distance from the
// centre to the power, scaled, and turned by rotate turns, blending the
// turned and unturned distances between 0.5 and 0.8 of the way out.
func (s *varState) hexes(w float64) {
	p := s.p
	size := p[PHexesCellsize]
	if size == 0 {
		return
	}
	u := [2]float64{s.tx, s.ty}
	hx := math.Floor((hexA*u[0] + hexB*u[1]) / size)
	hy := math.Floor((hexC*u[0] + hexD*u[1]) / size)
	var nine [9][2]float64
	i := 0
	for di := -1.0; di < 2; di++ {
		for dj := -1.0; dj < 2; dj++ {
			nine[i] = hexCentre(hx+di, hy+dj, size)
			i++
		}
	}
	best, q := 1e100, 0
	for k, c := range nine {
		if d2 := (c[0]-u[0])*(c[0]-u[0]) + (c[1]-u[1])*(c[1]-u[1]); d2 < best {
			best, q = d2, k
		}
	}
	hx += float64(q/3 - 1)
	hy += float64(q%3 - 1)
	pts := [][2]float64{hexCentre(hx, hy, size), hexCentre(hx, hy+1, size), hexCentre(hx+1, hy+1, size),
		hexCentre(hx+1, hy, size), hexCentre(hx, hy-1, size), hexCentre(hx-1, hy-1, size), hexCentre(hx-1, hy, size)}
	l1 := voronoiDist(pts, 0, u)
	dx, dy := u[0]-pts[0][0], u[1]-pts[0][1]
	trgL := math.Pow(l1+1e-100, p[PHexesPower]) * p[PHexesScale]
	rs, rc := math.Sincos(p[PHexesRotate] * 2 * math.Pi)
	vx := dx*rc + dy*rs
	vy := -dx*rs + dy*rc
	l2 := voronoiDist(pts, 0, [2]float64{vx + pts[0][0], vy + pts[0][1]})
	l := max(l1, l2)
	var k float64
	switch {
	case l < 0.5:
		k = trgL / l1
	case l > 0.8:
		k = trgL / l2
	default:
		k = (trgL/l1*(0.8-l) + trgL/l2*(l-0.5)) / 0.3
	}
	s.px += w * (vx*k + pts[0][0])
	s.py += w * (vy*k + pts[0][1])
}

// falloff3: a blur that grows with the distance (circle or square) from
// the centre beyond min_distance: gaussian (type 0, a random spherical
// offset), radial (1, in spherical coordinates, alpha adding spin) or
// logarithmic (2). Parameters are held to JWildfire's ranges.
func (s *varState) falloff3(w float64, r *rng.Stream) {
	p := s.p
	rx, ry, rz := r.Float64()-0.5, r.Float64()-0.5, r.Float64()-0.5
	r.Float64() // the colour's
	unit := func(v float64) float64 { return min(max(v, 0), 1) }
	mx, my, mz := unit(p[PFalloff3MulX]), unit(p[PFalloff3MulY]), unit(p[PFalloff3MulZ])
	x, y, z := s.tx, s.ty, s.tz
	cx, cy, cz := p[PFalloff3CenterX], p[PFalloff3CenterY], p[PFalloff3CenterZ]
	radius := math.Sqrt((x-cx)*(x-cx) + (y-cy)*(y-cy) + (z-cz)*(z-cz))
	if min(max(ftoi(p[PFalloff3BlurShape]), 0), 1) == 1 {
		radius = max(math.Abs(x-cx), math.Abs(y-cy), math.Abs(z-cz))
	}
	rmax := 0.04 * max(p[PFalloff3BlurStrength], 1e-6)
	d := max(radius, 0)
	if min(max(ftoi(p[PFalloff3InvertDistance]), 0), 1) != 0 {
		d = max(1-radius, 0)
	}
	dist := max((d-max(p[PFalloff3MinDistance], 0))*rmax, 0)
	alpha := p[PFalloff3Alpha]
	var ox, oy, oz float64
	switch min(max(ftoi(p[PFalloff3BlurType]), 0), 2) {
	case 0:
		ss, sc := math.Sincos(dist * ry * 2 * math.Pi)
		ps, pc := math.Sincos(dist * rz * math.Pi)
		rad := dist * rx
		ox, oy, oz = x+mx*rad*sc*pc, y+my*rad*sc*ps, z+mz*rad*ss
	case 1:
		ox, oy, oz = x, y, z
		if x != 0 || y != 0 || z != 0 {
			rin := math.Sqrt(x*x + y*y + z*z)
			a := my*dist + alpha*dist/math.Sqrt(rmax)
			ss, sc := math.Sincos(math.Asin(z/rin) + mz*dist*rz)
			ps, pc := math.Sincos(math.Atan2(y, x) + a*ry)
			rr := rin + mx*rx*dist
			ox, oy, oz = rr*sc*pc, rr*sc*ps, rr*ss
		}
	default:
		coeff := dist
		if rmax > 1e-8 {
			coeff = dist + alpha*(falloff3LogMap(dist)-dist)
		}
		ox = x + falloff3LogMap(mx)*falloff3LogScale(rx)*coeff
		oy = y + falloff3LogMap(my)*falloff3LogScale(ry)*coeff
		oz = z + falloff3LogMap(mz)*falloff3LogScale(rz)*coeff
	}
	s.px += ox * w
	s.py += oy * w
	s.pz += oz * w
}

// falloff3LogScale and falloff3LogMap are falloff3's logarithmic shaping
// (JWildfire's log_scale and log_map; the sign of 0 counts as +).
func falloff3LogScale(v float64) float64 {
	if v == 0 {
		return 0
	}
	return math.Log((math.Abs(v)+1)*math.E) * falloff3Sign(v) / math.E
}

func falloff3LogMap(v float64) float64 {
	if v == 0 {
		return 0
	}
	return (math.E + math.Log(v*math.E)) / 4 * falloff3Sign(v)
}

func falloff3Sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}
