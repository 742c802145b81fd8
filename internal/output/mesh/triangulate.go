package mesh

import "math"

// maxEarClip bounds the polygons triangulated by ear clipping (cubic in the
// vertex count at worst); larger ones are cut as a fan.
const maxEarClip = 128

type vec3 [3]float64

func dot(a, b vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

func cross(a, b vec3) vec3 {
	return vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func (a vec3) scale(s float64) vec3 { return vec3{a[0] * s, a[1] * s, a[2] * s} }

// Newell is a polygon's unit normal by Newell's method, which also serves
// polygons that are not quite planar; +Z for degenerate ones.
func Newell(vs [][3]float32) [3]float64 {
	var n vec3
	for i, p := range vs {
		q := vs[(i+1)%len(vs)]
		n[0] += (float64(p[1]) - float64(q[1])) * (float64(p[2]) + float64(q[2]))
		n[1] += (float64(p[2]) - float64(q[2])) * (float64(p[0]) + float64(q[0]))
		n[2] += (float64(p[0]) - float64(q[0])) * (float64(p[1]) + float64(q[1]))
	}
	l := math.Sqrt(dot(n, n))
	if l == 0 || math.IsNaN(l) {
		return [3]float64{0, 0, 1}
	}
	return n.scale(1 / l)
}

// triangulate cuts the polygon with corners vs, vertex indices ids, in the
// plane of its Newell normal.
func triangulate(idx []uint32, vs [][3]float32, ids []int32) []uint32 {
	return earClip(idx, vs, Newell(vs), ids)
}

// earClip cuts a simple polygon, which may be concave (ABOP's cordate
// leaves), into triangles by ear clipping in the plane of its normal nv,
// appending the vertex indices ids[i] of its corners with the polygon's
// orientation. Degenerate or self-intersecting polygons, where no ear is
// found, and very large ones, are finished as a fan.
func earClip(idx []uint32, vs [][3]float32, nv vec3, ids []int32) []uint32 {
	n := len(vs)
	fan := func(rest []int) []uint32 {
		for j := 1; j+1 < len(rest); j++ {
			idx = append(idx, uint32(ids[rest[0]]), uint32(ids[rest[j]]), uint32(ids[rest[j+1]]))
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
			idx = append(idx, uint32(ids[ia]), uint32(ids[ib]), uint32(ids[ic]))
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
