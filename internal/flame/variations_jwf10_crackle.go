package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// crackle (Neil Slater's, JWildfire's and Fractorium's): a random point of
// a bell-shaped disc of radius about 1 is placed in the Voronoi cell of a
// square grid of cell size cellsize/2 whose centres a simplex noise
// displaces by distort (slice z of the noise), and pulled towards the
// cell's centre by its Voronoi distance L to the power, times scale.
//
// Random draws (u = Float64): u1..u3 the radius (u1+u2)/2 + (u3−½)/4,
// u4 the angle 2π·u4 (measured from y, as JWildfire's sin/cos order).
//
// JWildfire keeps the centres of the 21×21 cells about the origin in a
// cache; they are computed here each time (the same numbers), and without
// distort the noise is not evaluated.

// crackleCentre is crackle's centre of grid cell (x, y) at slice z, scale
// s and distortion d.
func crackleCentre(x, y int32, z, s, d float64) [2]float64 {
	fx, fy := float64(x), float64(y)
	if d == 0 {
		return [2]float64{fx * s, fy * s}
	}
	// The noise is sampled far enough apart per axis not to correlate (x
	// and y swapped on purpose, as the plugin does).
	nx := simplexNoise3(fx*2.5, fy*2.5, z*2.5)
	ny := simplexNoise3(fy*2.5+30.2, fx*2.5-12.1, z*2.5+19.8)
	return [2]float64{(fx + d*nx) * s, (fy + d*ny) * s}
}

// crackle adds the variation (see above) with weight w.
func (s *varState) crackle(w float64, r *rng.Stream) {
	p := s.p
	u1, u2, u3, u4 := r.Float64(), r.Float64(), r.Float64(), r.Float64()
	cs := p[PCrackleCellsize]
	if cs == 0 { // no cells: nothing
		return
	}
	sc := cs / 2
	z, d := p[PCrackleZ], p[PCrackleDistort]
	u := [2]float64{s.tx, s.ty} // weight 0: the colour-only form reads the point
	if w != 0 {
		blur := (u1+u2)/2 + (u3-0.5)/4
		sn, c := math.Sincos(2 * math.Pi * u4)
		u = [2]float64{blur * sn, blur * c}
	}
	xc, yc := int32(javaInt(math.Floor(u[0]/sc))), int32(javaInt(math.Floor(u[1]/sc)))
	var pts [9][2]float64
	fill := func() {
		for i := range pts {
			pts[i] = crackleCentre(xc+int32(i/3)-1, yc+int32(i%3)-1, z, sc, d)
		}
	}
	fill()
	// The displaced centres can make a neighbour the closest: recentre on
	// it so that its cell is surrounded.
	if q := closestPoint(pts[:], u); q != 4 {
		xc += int32(q/3) - 1
		yc += int32(q%3) - 1
		fill()
	}
	l := voronoiDist(pts[:], 4, u)
	k := math.Pow(l+1e-100, p[PCracklePower]) * p[PCrackleScale] / (l + 1e-100)
	s.px += w * ((u[0]-pts[4][0])*k + pts[4][0])
	s.py += w * ((u[1]-pts[4][1])*k + pts[4][1])
}

// closestPoint is JWildfire's closest: the index of the point of pts
// nearest u (the first of equals).
func closestPoint(pts [][2]float64, u [2]float64) int {
	best, j := 1e100, 0
	for i, q := range pts {
		if d := (q[0]-u[0])*(q[0]-u[0]) + (q[1]-u[1])*(q[1]-u[1]); d < best {
			best, j = d, i
		}
	}
	return j
}

// simplexNoise3 is 3D simplex noise (Perlin's, as Gustavson describes it)
// with crackle's tables (variations_jwf10_noise.go), scaled to about
// [−1, 1].
func simplexNoise3(x, y, z float64) float64 {
	const f3, g3 = 1.0 / 3, 1.0 / 6
	sk := (x + y + z) * f3
	i, j, k := int32(javaInt(math.Floor(x+sk))), int32(javaInt(math.Floor(y+sk))), int32(javaInt(math.Floor(z+sk)))
	t := float64(i+j+k) * g3
	c0 := [3]float64{x - (float64(i) - t), y - (float64(j) - t), z - (float64(k) - t)}
	// Which of the six tetrahedra of the skewed cube: the offsets of its
	// second and third corners.
	var o1, o2 [3]int32
	switch {
	case c0[0] >= c0[1] && c0[1] >= c0[2]:
		o1, o2 = [3]int32{1, 0, 0}, [3]int32{1, 1, 0}
	case c0[0] >= c0[1] && c0[0] >= c0[2]:
		o1, o2 = [3]int32{1, 0, 0}, [3]int32{1, 0, 1}
	case c0[0] >= c0[1]:
		o1, o2 = [3]int32{0, 0, 1}, [3]int32{1, 0, 1}
	case c0[1] < c0[2]:
		o1, o2 = [3]int32{0, 0, 1}, [3]int32{0, 1, 1}
	case c0[0] < c0[2]:
		o1, o2 = [3]int32{0, 1, 0}, [3]int32{0, 1, 1}
	default:
		o1, o2 = [3]int32{0, 1, 0}, [3]int32{1, 1, 0}
	}
	hash := func(o [3]int32) int {
		h := func(v int32) int32 { return int32(noisePerm[v&0x3ff]) }
		return int(h(i&0x3ff + o[0] + h(j&0x3ff+o[1]+h(k&0x3ff+o[2]))))
	}
	n := 0.0
	for c, o := range [4][3]int32{{}, o1, o2, {1, 1, 1}} {
		// The corner's offset from the point: a step of one in i is
		// (1−g3, −g3, −g3) in space.
		cg := float64(c) * g3
		v := [3]float64{c0[0] - float64(o[0]) + cg, c0[1] - float64(o[1]) + cg, c0[2] - float64(o[2]) + cg}
		if a := 0.6 - v[0]*v[0] - v[1]*v[1] - v[2]*v[2]; a > 0 {
			g := &noiseGrad[hash(o)]
			a *= a
			n += a * a * (g[0]*v[0] + g[1]*v[1] + g[2]*v[2])
		}
	}
	return 32 * n
}
