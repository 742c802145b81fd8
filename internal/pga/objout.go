package pga

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"strconv"
)

// Terminals are drawn as the unit cube centred at the origin mapped by
// Matrix(), except Quad terminals (faces from CompSplit, scopes never
// extruded), which are one quad in their local XY plane facing +Z: a box of
// zero thickness would draw every face twice.

// cubeCorner k has coordinates ±0.5 chosen by the bits of k (x, y, z).
func cubeCorner(k int) Vec3 {
	return Vec3{float64(k&1) - 0.5, float64(k>>1&1) - 0.5, float64(k>>2&1) - 0.5}
}

// cubeFaces lists corners counter-clockwise seen from outside, with the
// face's local normal.
var cubeFaces = [6]struct {
	c [4]int
	n Vec3
}{
	{[4]int{1, 3, 7, 5}, Vec3{1, 0, 0}},
	{[4]int{0, 4, 6, 2}, Vec3{-1, 0, 0}},
	{[4]int{2, 6, 7, 3}, Vec3{0, 1, 0}},
	{[4]int{0, 1, 5, 4}, Vec3{0, -1, 0}},
	{[4]int{4, 5, 7, 6}, Vec3{0, 0, 1}},
	{[4]int{0, 2, 3, 1}, Vec3{0, 0, -1}},
}

// quadCorners are the cube corners of the z = -0.5 face, read at z = 0.
var quadCorners = [4]int{0, 1, 3, 2}

// faces calls fn with the world corners and normal of each face of t.
func faces(t *TerminalShape, fn func(c [4]Vec3, n Vec3)) {
	m := t.Matrix()
	if t.Kind == Quad {
		var c [4]Vec3
		for i, k := range quadCorners {
			p := cubeCorner(k)
			p[2] = 0
			c[i] = m.Apply(p)
		}
		fn(c, t.Transform.direction(Vec3{0, 0, 1}))
		return
	}
	for _, f := range cubeFaces {
		var c [4]Vec3
		for i, k := range f.c {
			c[i] = m.Apply(cubeCorner(k))
		}
		fn(c, t.Transform.direction(f.n))
	}
}

// direction maps a direction by the rotation part of a rigid transform;
// sizes scale along the local axes, so box face normals need nothing else.
func (m Mat4) direction(v Vec3) Vec3 {
	var r Vec3
	for i := 0; i < 3; i++ {
		r[i] = m[i*4]*v[0] + m[i*4+1]*v[1] + m[i*4+2]*v[2]
	}
	return r
}

// MeshStats counts what the encoders write: Vertices are distinct corner
// positions (8 a box, 4 a quad), Triangles two a face.
type MeshStats struct {
	Terminals int            `json:"terminals"`
	ByName    map[string]int `json:"terminals_by_name"`
	Vertices  int64          `json:"vertices"`
	Triangles int64          `json:"triangles"`
}

// Stats counts ts as the encoders draw them.
func Stats(ts []TerminalShape) MeshStats {
	s := MeshStats{Terminals: len(ts), ByName: map[string]int{}}
	for i := range ts {
		s.ByName[ts[i].Name]++
		if ts[i].Kind == Quad {
			s.Vertices += 4
			s.Triangles += 2
		} else {
			s.Vertices += 8
			s.Triangles += 12
		}
	}
	return s
}

// byName groups terminal indices by name, names in order of first
// appearance, so each material is switched to once.
func byName(ts []TerminalShape) (names []string, groups map[string][]int) {
	groups = map[string][]int{}
	for i := range ts {
		n := ts[i].Name
		if _, ok := groups[n]; !ok {
			names = append(names, n)
		}
		groups[n] = append(groups[n], i)
	}
	return names, groups
}

// MaterialColor is a stable colour for a terminal name, linear RGB in 0..1:
// a hue from the name's hash at moderate saturation, so kinds stand apart.
func MaterialColor(name string) [3]float64 {
	h := fnv.New32a()
	h.Write([]byte(name))
	hue := float64(h.Sum32()%360) / 60
	x := 1 - math.Abs(math.Mod(hue, 2)-1)
	var r, g, b float64
	switch int(hue) {
	case 0:
		r, g = 1, x
	case 1:
		r, g = x, 1
	case 2:
		g, b = 1, x
	case 3:
		g, b = x, 1
	case 4:
		r, b = x, 1
	default:
		r, b = 1, x
	}
	const lo, span = 0.25, 0.6
	return [3]float64{lo + span*r, lo + span*g, lo + span*b}
}

// EncodeOBJ writes ts as Wavefront OBJ: per terminal name a group with a
// material of that name (from mtlName, when not empty), per terminal its
// corner positions once, its face normals and quad faces.
func EncodeOBJ(w io.Writer, ts []TerminalShape, mtlName string) error {
	bw := bufio.NewWriter(w)
	line := make([]byte, 0, 128)
	num := func(v float64) {
		line = append(line, ' ')
		line = strconv.AppendFloat(line, v, 'g', 9, 64)
	}
	put := func() { line = append(line, '\n'); bw.Write(line); line = line[:0] }
	fmt.Fprintf(bw, "# procgen pga: %d terminals\n", len(ts))
	if mtlName != "" {
		fmt.Fprintf(bw, "mtllib %s\n", mtlName)
	}
	names, groups := byName(ts)
	var nv, nn int
	for _, name := range names {
		fmt.Fprintf(bw, "g %s\n", name)
		if mtlName != "" {
			fmt.Fprintf(bw, "usemtl %s\n", name)
		}
		for _, i := range groups[name] {
			t := &ts[i]
			m := t.Matrix()
			corners := 8
			if t.Kind == Quad {
				corners = 4
			}
			for k := 0; k < corners; k++ {
				p := cubeCorner(k)
				if t.Kind == Quad {
					p[2] = 0
				}
				p = m.Apply(p)
				line = append(line, 'v')
				num(p[0])
				num(p[1])
				num(p[2])
				put()
			}
			fs := cubeFaces[:]
			if t.Kind == Quad {
				fs = []struct {
					c [4]int
					n Vec3
				}{{quadCorners, Vec3{0, 0, 1}}}
			}
			for _, f := range fs {
				n := t.Transform.direction(f.n)
				line = append(line, "vn"...)
				num(n[0])
				num(n[1])
				num(n[2])
				put()
			}
			for j, f := range fs {
				line = append(line, 'f')
				for _, k := range f.c {
					line = append(line, ' ')
					line = strconv.AppendInt(line, int64(nv+k+1), 10)
					line = append(line, "//"...)
					line = strconv.AppendInt(line, int64(nn+j+1), 10)
				}
				put()
			}
			nv += corners
			nn += len(fs)
		}
	}
	return bw.Flush()
}

// EncodeMTL writes one material per terminal name in ts.
func EncodeMTL(w io.Writer, ts []TerminalShape) error {
	bw := bufio.NewWriter(w)
	names, _ := byName(ts)
	for _, n := range names {
		c := MaterialColor(n)
		fmt.Fprintf(bw, "newmtl %s\nKd %.4f %.4f %.4f\nd 1\nillum 1\n\n", n, c[0], c[1], c[2])
	}
	return bw.Flush()
}
