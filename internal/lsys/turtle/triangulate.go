package turtle

import "math"

// maxEarClip bounds the polygons triangulated by ear clipping (cubic in the
// vertex count at worst); larger ones are cut as a fan.
const maxEarClip = 128

// triangulate cuts a simple polygon, which may be concave (ABOP's cordate
// leaves), into triangles by ear clipping in the plane of its normal nv,
// appending vertex indices (0-based, offset by base) with the polygon's
// orientation. Degenerate or self-intersecting polygons, where no ear is
// found, and very large ones, are finished as a fan.
func triangulate(idx []uint32, vs [][3]float32, nv vec3, base uint32) []uint32 {
	n := len(vs)
	fan := func(rest []int) []uint32 {
		for j := 1; j+1 < len(rest); j++ {
			idx = append(idx, base+uint32(rest[0]), base+uint32(rest[j]), base+uint32(rest[j+1]))
		}
		return idx
	}
	rest := make([]int, n)
	for i := range rest {
		rest[i] = i
	}
	if n > maxEarClip {
		return fan(rest)
	}
	// A basis (u, v) of the plane with u × v = nv.
	u := cross(nv, vec3{1, 0, 0})
	if dot(u, u) < 0.1 {
		u = cross(nv, vec3{0, 1, 0})
	}
	u = u.scale(1 / math.Sqrt(dot(u, u)))
	v := cross(nv, u)
	p := make([][2]float64, n)
	for i, q := range vs {
		w := vec3{float64(q[0]), float64(q[1]), float64(q[2])}
		p[i] = [2]float64{dot(w, u), dot(w, v)}
	}
	area2 := func(a, b, c [2]float64) float64 { // twice the signed area; > 0 counter-clockwise
		return (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
	}
	inside := func(q, a, b, c [2]float64) bool {
		return area2(a, b, q) >= 0 && area2(b, c, q) >= 0 && area2(c, a, q) >= 0
	}
	for len(rest) > 3 {
		m := len(rest)
		found := false
		for k := range m {
			ia, ib, ic := rest[(k+m-1)%m], rest[k], rest[(k+1)%m]
			a, b, c := p[ia], p[ib], p[ic]
			if area2(a, b, c) <= 0 { // reflex or flat: not an ear
				continue
			}
			ear := true
			for _, j := range rest {
				if j != ia && j != ib && j != ic && p[j] != a && p[j] != b && p[j] != c && inside(p[j], a, b, c) {
					ear = false
					break
				}
			}
			if !ear {
				continue
			}
			idx = append(idx, base+uint32(ia), base+uint32(ib), base+uint32(ic))
			rest = append(rest[:k], rest[k+1:]...)
			found = true
			break
		}
		if !found {
			return fan(rest)
		}
	}
	return fan(rest)
}
