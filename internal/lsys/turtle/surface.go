package turtle

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// SurfaceUse is one ~X in the string: the predefined surface named by the
// module X after the ~ (cpfg's "~ followed by the surface's identifier"),
// drawn at the turtle's position P with the turtle's frame: the surface's
// +Y axis along H, its -X axis along L and its +Z along U, so a surface is
// drawn with the initial turtle exactly as it is defined. Scale is X's first
// parameter, 1 when X has none; a scale of 0 or below draws nothing.
type SurfaceUse struct {
	P, H, L, U [3]float32
	Scale      float32
	Color      uint16
	Name       lsys.Symbol
}

// surface is the SurfaceUse of module name at the turtle; po is the offset
// of name's parameters.
func (p *program) surface(name byte, params []float64, po int, f frame, color int32) SurfaceUse {
	scale := 1.0
	if p.arity[name] > 0 {
		scale = params[po]
	}
	return SurfaceUse{P: f.p.f32(), H: f.h.f32(), L: f.l.f32(), U: f.u.f32(), Scale: float32(scale),
		Color: uint16(color), Name: name}
}

// Surfaces maps a surface's name, the module after ~, to its shape.
type Surfaces map[lsys.Symbol]*mesh.Shape

// Built-in surfaces, by the names --surface X=NAME takes and by the module
// that names them when no --surface is given.
var builtinNames = map[string]lsys.Symbol{"leaf": 'L', "petal": 'P', "sepal": 'S', "flower": 'K'}

// Builtin returns the built-in shape of a name (leaf, petal, sepal,
// flower), or nil.
func Builtin(name string) *mesh.Shape {
	switch name {
	case "leaf": // a pointed leaf, 1 long and 0.5 wide at its middle
		return outline(1, func(t float64) float64 { return 0.25 * math.Sin(math.Pi*t) })
	case "petal": // rounder and broader towards the tip
		return outline(1, func(t float64) float64 { return 0.3 * math.Sqrt(math.Sin(math.Pi*t)) })
	case "sepal": // short and narrow
		return outline(0.5, func(t float64) float64 { return 0.08 * math.Sin(math.Pi*t) })
	case "flower":
		return flower()
	}
	return nil
}

// BuiltinSurfaces is the library of the built-in surfaces under their
// default names: L leaf, P petal, S sepal, K flower.
func BuiltinSurfaces() Surfaces {
	lib := Surfaces{}
	for name, sym := range builtinNames {
		lib[sym] = Builtin(name)
	}
	return lib
}

// outlineSteps is the points along each side of a built-in outline.
const outlineSteps = 8

// outline is a flat convex shape in the XY plane (facing +Z) from the
// origin along +Y to (0, length), of half-width w(t) at t = y/length; w is
// concave and 0 at both ends, so the outline is one convex polygon.
func outline(length float64, w func(t float64) float64) *mesh.Shape {
	s := &mesh.Shape{}
	s.Positions = append(s.Positions, [3]float32{0, 0, 0})
	for k := 1; k < outlineSteps; k++ { // the right side (+X), base to tip
		t := float64(k) / outlineSteps
		s.Positions = append(s.Positions, [3]float32{float32(w(t) * length), float32(t * length), 0})
	}
	s.Positions = append(s.Positions, [3]float32{0, float32(length), 0})
	for k := outlineSteps - 1; k >= 1; k-- { // the left side, tip to base
		t := float64(k) / outlineSteps
		s.Positions = append(s.Positions, [3]float32{float32(-w(t) * length), float32(t * length), 0})
	}
	// Counter-clockwise seen from +Z: base, left side, tip, right side.
	n := int32(len(s.Positions))
	s.Faces = append(s.Faces, 0)
	for k := n - 1; k >= 1; k-- {
		s.Faces = append(s.Faces, k)
	}
	s.FaceSizes = []int32{n}
	return s
}

// flower is five petals opening 60° from the stalk's axis (+Y) with five
// sepals between them at 100°: a flower seen along H, as ABOP's chapter 3
// plants put one at the end of an axis.
func flower() *mesh.Shape {
	s := &mesh.Shape{}
	add := func(part *mesh.Shape, around, open float64) {
		ca, sa := math.Cos(around), math.Sin(around)
		co, so := math.Cos(open), math.Sin(open)
		base := int32(len(s.Positions))
		for _, p := range part.Positions {
			// Open: rotate about X by the angle, taking +Y towards +Z;
			// then turn about Y by around.
			x, y, z := float64(p[0]), float64(p[1])*co-float64(p[2])*so, float64(p[1])*so+float64(p[2])*co
			s.Positions = append(s.Positions, [3]float32{float32(x*ca + z*sa), float32(y), float32(-x*sa + z*ca)})
		}
		for _, f := range part.Faces {
			s.Faces = append(s.Faces, f+base)
		}
		s.FaceSizes = append(s.FaceSizes, part.FaceSizes...)
	}
	petal, sepal := Builtin("petal"), Builtin("sepal")
	for k := range 5 {
		a := 2 * math.Pi * float64(k) / 5
		add(petal, a, math.Pi/3)
		add(sepal, a+math.Pi/5, 100*math.Pi/180)
	}
	return s
}

// Check reports the first surface the system uses (~X) that lib does not
// define, at its file:line:col.
func (lib Surfaces) Check(sys *lsys.System) error {
	for _, u := range sys.Surfaces {
		if lib[u.Sym] == nil {
			return fmt.Errorf("%s:%d:%d: ~%c: no surface %c (built in: K flower, L leaf, P petal, S sepal; "+
				"give one with --surface %c=FILE.obj or FILE.glb, a cpfg --surface %c=FILE.s or --surface %c=leaf)", u.Pos.File, u.Pos.Line, u.Pos.Col,
				u.Sym, u.Sym, u.Sym, u.Sym, u.Sym)
		}
	}
	return nil
}

// surfaceParts are g's surface uses as instanced parts: one per surface
// and colour (glTF gives a mesh one material), each instance a use. mat
// gives a colour's material, -1 for none.
func (b *meshBuilder) surfaceParts(mat func(c uint16) int) []mesh.Part {
	type key struct {
		name  lsys.Symbol
		color uint16
	}
	groups := map[key][]mesh.Instance{}
	for i := range b.g.Surfaces {
		u := &b.g.Surfaces[i]
		shape := b.o.Surfaces[u.Name]
		if shape == nil || !(u.Scale > 0) {
			continue
		}
		k := key{u.Name, u.Color}
		if mat(u.Color) < 0 {
			k.color = 0
		}
		groups[k] = append(groups[k], u.instance())
	}
	keys := make([]key, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i].name < keys[j].name || keys[i].name == keys[j].name && keys[i].color < keys[j].color
	})
	parts := make([]mesh.Part, 0, len(keys))
	for _, k := range keys {
		shape := b.o.Surfaces[k.name]
		p := mesh.Part{Name: SurfacePartName(k.name), Material: mat(k.color), Concave: true,
			Count: len(shape.FaceSizes), Instances: groups[k], Grain: len(shape.FaceSizes)}
		p.Build = func(lo, hi int, c *mesh.Chunk) { b.shape(c, shape, lo, hi) }
		parts = append(parts, p)
	}
	return parts
}

// SurfacePartName is the mesh part (OBJ group, glTF mesh and node) of a
// surface: "surface_X", or the symbol's code where it is not a letter or
// digit.
func SurfacePartName(name lsys.Symbol) string {
	if name >= 'a' && name <= 'z' || name >= 'A' && name <= 'Z' || name >= '0' && name <= '9' {
		return "surface_" + string(rune(name))
	}
	return "surface_" + strconv.Itoa(int(name))
}

// shape adds faces [lo, hi) of s, each with its Newell normal, or with the
// shape's own normals where it has them (a GLB's NORMAL).
func (b *meshBuilder) shape(c *mesh.Chunk, s *mesh.Shape, lo, hi int) {
	at := int32(0)
	for k := range lo {
		at += s.FaceSizes[k]
	}
	p0 := int32(len(c.Positions))
	c.Positions = append(c.Positions, s.Positions...)
	own, nb := b.o.Normals && s.Normals != nil, int32(len(c.Normals))
	if own {
		c.Normals = append(c.Normals, s.Normals...)
	}
	for k := lo; k < hi; k++ {
		f := s.Faces[at : at+s.FaceSizes[k]]
		at += s.FaceSizes[k]
		n0 := int32(len(c.Normals))
		if b.o.Normals && !own {
			vs := make([][3]float32, len(f))
			for j, v := range f {
				vs[j] = s.Positions[v]
			}
			nv := mesh.Newell(vs)
			c.Normals = append(c.Normals, [3]float32{float32(nv[0]), float32(nv[1]), float32(nv[2])})
		}
		v0 := int32(len(c.Vertices))
		for _, v := range f {
			n := n0
			if own {
				n = nb + v
			}
			c.Vertices = append(c.Vertices, mesh.Vertex{P: p0 + v, N: n})
			c.Faces = append(c.Faces, v0)
			v0++
		}
		c.FaceSizes = append(c.FaceSizes, int32(len(f)))
	}
}

// instance is the mesh instance of a use: the turtle's frame as a
// rotation taking +X to -L, +Y to H and +Z to U.
func (u *SurfaceUse) instance() mesh.Instance {
	d := func(v [3]float32) [3]float64 { return [3]float64{float64(v[0]), float64(v[1]), float64(v[2])} }
	l := d(u.L)
	q := mesh.QuatFromFrame([3]float64{-l[0], -l[1], -l[2]}, d(u.H), d(u.U))
	return mesh.Instance{T: u.P, Q: q, S: u.Scale}
}

// WithSurfaces is g with each surface use added as polygons (transformed
// copies of the shape's faces), for the PNG preview, which draws
// polygons; g itself is not changed.
func (g *Geometry) WithSurfaces(lib Surfaces) *Geometry {
	if len(g.Surfaces) == 0 {
		return g
	}
	out := *g
	out.Polygons = append([]Polygon(nil), g.Polygons...)
	out.PolyVerts = append([][3]float32(nil), g.PolyVerts...)
	for i := range g.Surfaces {
		u := &g.Surfaces[i]
		s := lib[u.Name]
		if s == nil || !(u.Scale > 0) {
			continue
		}
		in := u.instance()
		at := int32(0)
		for _, n := range s.FaceSizes {
			out.Polygons = append(out.Polygons, Polygon{First: int32(len(out.PolyVerts)), Count: n, Color: u.Color})
			for _, v := range s.Faces[at : at+n] {
				out.PolyVerts = append(out.PolyVerts, in.Apply(s.Positions[v]))
			}
			at += n
		}
	}
	return &out
}
