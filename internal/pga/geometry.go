package pga

import "math"

// A terminal is drawn as a solid: corners in its local frame (metres, centre
// at the origin) and planar faces listing corners counter-clockwise seen
// from outside. Plain Boxes are boxes (8 corners, 6 faces); Quads are one
// face in their local XY plane facing +Z (a box of zero thickness would draw
// every face twice); profiles make polygons and prisms; roofs their roof.

// solid is the geometry of one terminal in its local frame.
type solid struct {
	corners []Vec3
	faces   [][]int
}

var boxFaces = [][]int{
	{1, 3, 7, 5}, {0, 4, 6, 2}, // +X, -X
	{2, 6, 7, 3}, {0, 1, 5, 4}, // +Y, -Y
	{4, 5, 7, 6}, {0, 2, 3, 1}, // +Z, -Z
}

// quadFaces is a plain Quad's one face; like boxFaces, shared by every
// solid that has it, so nothing may change it.
var quadFaces = [][]int{{0, 1, 2, 3}}

func (g *Grammar) solid(s *Shape) solid {
	x, y, z := s.Size[0]/2, s.Size[1]/2, s.Size[2]/2
	if s.Kind == Sphere {
		return sphereSolid(s.Transform, s.Size)
	}
	if s.Roof != NoRoof {
		if fp := g.footprintOf(s.Profile); fp != nil {
			sd, _ := polygonRoofSolid(fp, s)
			return sd
		}
		return roofSolid(s.Roof, x, y, z)
	}
	if fp := g.footprintOf(s.Profile); fp != nil && s.Roof == NoRoof {
		return fp.solid(s.Kind, x, y, z)
	}
	if s.Profile != 0 {
		pts := g.Profiles[s.Profile]
		n := len(pts)
		var sd solid
		// A concave profile's caps are drawn as triangles: the encoders
		// fan every face from its first corner.
		tris := g.capTriangles(s.Profile)
		if s.Kind == Quad {
			f := make([]int, n)
			for i, p := range pts {
				sd.corners = append(sd.corners, Vec3{p[0] * 2 * x, p[1] * 2 * y, 0})
				f[i] = i
			}
			sd.faces = [][]int{f}
			if tris != nil {
				sd.faces = tris
			}
			return sd
		}
		top, bottom := make([]int, n), make([]int, n)
		for i, p := range pts {
			sd.corners = append(sd.corners, Vec3{p[0] * 2 * x, -y, -p[1] * 2 * z}, Vec3{p[0] * 2 * x, y, -p[1] * 2 * z})
			top[i], bottom[n-1-i] = 2*i+1, 2*i
		}
		if tris != nil {
			for _, t := range tris {
				sd.faces = append(sd.faces, []int{2*t[0] + 1, 2*t[1] + 1, 2*t[2] + 1})
			}
			for _, t := range tris {
				sd.faces = append(sd.faces, []int{2 * t[2], 2 * t[1], 2 * t[0]})
			}
		} else {
			sd.faces = append(sd.faces, top, bottom)
		}
		for i := 0; i < n; i++ {
			j := (i + 1) % n
			sd.faces = append(sd.faces, []int{2 * i, 2 * j, 2*j + 1, 2*i + 1})
		}
		return sd
	}
	if s.Kind == Quad {
		return solid{[]Vec3{{-x, -y, 0}, {x, -y, 0}, {x, y, 0}, {-x, y, 0}}, quadFaces}
	}
	sd := solid{faces: boxFaces, corners: make([]Vec3, 0, 8)}
	for k := 0; k < 8; k++ {
		sd.corners = append(sd.corners, Vec3{sign(k&1) * x, sign(k>>1&1) * y, sign(k>>2&1) * z})
	}
	return sd
}

func sign(bit int) float64 { return float64(2*bit - 1) }

// roofSolid is a roof over the rectangle [-x,x]x[-y,y], from z=-h to z=+h.
// It is built with the ridge along X and turned when Y is the longer side.
func roofSolid(k RoofKind, x, y, h float64) solid {
	swap := y > x && k != Pyramid
	if swap {
		x, y = y, x
	}
	var sd solid
	switch k {
	case Gable:
		sd = solid{[]Vec3{{-x, -y, -h}, {x, -y, -h}, {x, y, -h}, {-x, y, -h}, {-x, 0, h}, {x, 0, h}},
			[][]int{{0, 3, 2, 1}, {0, 1, 5, 4}, {2, 3, 4, 5}, {1, 2, 5}, {3, 0, 4}}}
	case Hip:
		r := x - y // the ridge's half length
		sd = solid{[]Vec3{{-x, -y, -h}, {x, -y, -h}, {x, y, -h}, {-x, y, -h}, {-r, 0, h}, {r, 0, h}},
			[][]int{{0, 3, 2, 1}, {0, 1, 5, 4}, {2, 3, 4, 5}, {1, 2, 5}, {3, 0, 4}}}
		if r <= 0 { // a square footprint: the hip roof is a pyramid
			sd = roofSolid(Pyramid, x, y, h)
		}
	case Shed: // low along -Y, high along +Y
		sd = solid{[]Vec3{{-x, -y, -h}, {x, -y, -h}, {x, y, -h}, {-x, y, -h}, {x, y, h}, {-x, y, h}},
			[][]int{{0, 3, 2, 1}, {0, 1, 4, 5}, {2, 3, 5, 4}, {1, 2, 4}, {3, 0, 5}}}
	default: // Pyramid
		sd = solid{[]Vec3{{-x, -y, -h}, {x, -y, -h}, {x, y, -h}, {-x, y, -h}, {0, 0, h}},
			[][]int{{0, 3, 2, 1}, {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}}}
	}
	if swap { // (x, y) -> (-y, x): a quarter turn keeps faces outward
		for i, c := range sd.corners {
			sd.corners[i] = Vec3{-c[1], c[0], c[2]}
		}
	}
	return sd
}

// counts is the corners and triangles of s as the encoders write it.
func (g *Grammar) counts(s *Shape) (corners, triangles int) {
	if fp := g.footprintOf(s.Profile); fp != nil && s.Roof != NoRoof {
		_, r := polygonRoofSolid(fp, s)
		return len(r.at), r.triangles()
	}
	if fp := g.footprintOf(s.Profile); fp != nil && s.Roof == NoRoof && s.Kind != Sphere {
		return fp.counts(s.Kind)
	}
	switch {
	case s.Kind == Sphere:
		return sphereCorners, sphereTriangles
	case s.Roof == Pyramid || (s.Roof == Hip && s.Size[0] == s.Size[1]):
		return 5, 6
	case s.Roof != NoRoof:
		return 6, 8
	case s.Profile != 0:
		n := len(g.Profiles[s.Profile])
		if s.Kind == Quad {
			return n, n - 2
		}
		return 2 * n, 2*(n-2) + 2*n
	case s.Kind == Quad:
		return 4, 2
	}
	return 8, 12
}

// faceCount is the number of faces of s's solid (one normal each in OBJ).
func (g *Grammar) faceCount(s *Shape) int {
	if fp := g.footprintOf(s.Profile); fp != nil && s.Roof != NoRoof {
		_, r := polygonRoofSolid(fp, s)
		return len(r.faces)
	}
	if fp := g.footprintOf(s.Profile); fp != nil && s.Roof == NoRoof && s.Kind != Sphere {
		return fp.faceCount(s.Kind)
	}
	switch {
	case s.Kind == Sphere:
		return sphereTriangles
	case s.Roof != NoRoof:
		return 5
	case s.Profile != 0 && s.Kind == Box:
		if !convex(g.Profiles[s.Profile]) {
			return 2*(len(g.Profiles[s.Profile])-2) + len(g.Profiles[s.Profile])
		}
		return 2 + len(g.Profiles[s.Profile])
	case s.Profile != 0 && !convex(g.Profiles[s.Profile]):
		return len(g.Profiles[s.Profile]) - 2
	case s.Kind == Quad:
		return 1
	}
	return 6
}

// newell is the unit normal of a planar polygon (zero when degenerate).
func newell(c []Vec3, f []int) Vec3 {
	var n Vec3
	for i, a := range f {
		p, q := c[a], c[f[(i+1)%len(f)]]
		n[0] += (p[1] - q[1]) * (p[2] + q[2])
		n[1] += (p[2] - q[2]) * (p[0] + q[0])
		n[2] += (p[0] - q[0]) * (p[1] + q[1])
	}
	if l := math.Sqrt(dot(n, n)); l > 0 {
		n = Vec3{n[0] / l, n[1] / l, n[2] / l}
	}
	return n
}

// worldSolid is s's solid in world coordinates with one world normal per face.
// A face of no area (a piece of no extent, which the grammar keeps and
// counts) takes the normal of the same face on s's solid with every zero
// size taken as 1, so that it still faces where its scope does and glTF
// readers get unit normals (cuda/pga_glb.cuh does the same).
func (g *Grammar) worldSolid(s *Shape) (corners []Vec3, faces [][]int, normals []Vec3) {
	sd := g.solid(s)
	normals = make([]Vec3, len(sd.faces))
	var unit *solid
	for i, f := range sd.faces {
		n := newell(sd.corners, f)
		if dot(n, n) == 0 {
			if unit == nil {
				u := *s
				for k := range u.Size {
					if u.Size[k] == 0 {
						u.Size[k] = 1
					}
				}
				us := g.solid(&u)
				unit = &us
			}
			if i < len(unit.faces) {
				n = newell(unit.corners, unit.faces[i])
			}
		}
		normals[i] = s.Transform.direction(n)
	}
	for i, c := range sd.corners {
		sd.corners[i] = s.Transform.Apply(c)
	}
	return sd.corners, sd.faces, normals
}

// capTriangles splits a concave profile into triangles by ear clipping
// (corner indices, counter-clockwise); nil for a convex one.
func (g *Grammar) capTriangles(profile int32) [][]int {
	pts := g.Profiles[profile]
	if convex(pts) {
		return nil
	}
	idx := make([]int, len(pts))
	for i := range idx {
		idx[i] = i
	}
	cross := func(o, a, b [2]float64) float64 { return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0]) }
	var tris [][]int
	for len(idx) > 3 {
		found := false
		for k := range idx {
			i, j, l := idx[(k+len(idx)-1)%len(idx)], idx[k], idx[(k+1)%len(idx)]
			a, b, c := pts[i], pts[j], pts[l]
			if cross(a, b, c) <= 0 {
				continue // a reflex corner
			}
			ear := true
			for _, m := range idx {
				if m == i || m == j || m == l {
					continue
				}
				p := pts[m]
				if cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0 {
					ear = false
					break
				}
			}
			if ear {
				tris = append(tris, []int{i, j, l})
				idx = append(idx[:k:k], idx[k+1:]...)
				found = true
				break
			}
		}
		if !found { // degenerate: fan the rest
			for k := 1; k+1 < len(idx); k++ {
				tris = append(tris, []int{idx[0], idx[k], idx[k+1]})
			}
			return tris
		}
	}
	return append(tris, []int{idx[0], idx[1], idx[2]})
}
