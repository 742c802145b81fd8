package turtle

import (
	"fmt"
	"math"
	"strconv"

	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// MeshOptions control Mesh.
type MeshOptions struct {
	// Sides above 2 make each segment a tube of that many sides and radius
	// Width/2 (open unless Caps; segments of no length or no width are
	// left out); otherwise segments are lines, chained into polylines where
	// one segment starts exactly where the one before it ended. glTF has
	// Lines are a LINES primitive in glTF and edges in PLY.
	Sides int
	// Ribbons, when Sides is 2 or less, makes each segment a flat quad of
	// its width in the plane of the geometry where it lies in one (z
	// constant: the XY plane of a 2D system), else facing the segment's
	// frame as a tube's first side would. A planar plant keeps its widths
	// at 4 vertices a segment.
	Ribbons bool
	// Caps closes both ends of each tube with a polygon.
	Caps bool
	// Smooth, with Sides above 2, draws each chain of segments as one
	// generalised cylinder with texture coordinates (smooth.go) instead of
	// a tube a segment.
	Smooth bool
	// WidthScale multiplies the segments' widths (Geometry.WorldWidthScale
	// gives the scale of WidthsRelative); 0 means 1.
	WidthScale float64
	// Normals gives tubes their radial normals and each polygon its
	// Newell normal.
	Normals bool
	// ByColor makes a material per colour index (MaterialName, coloured
	// from Palette) and parts per colour: its segments, then its polygons.
	// Without it there are two parts, "segments" and "polygons", in the
	// order the turtle drew them, and no materials.
	ByColor bool
	// Palette colours colour index i with Palette[i % len(Palette)] (RGB in
	// 0..1); empty means GLBPalette.
	Palette [][3]float64
	// Surfaces are the shapes of the surface uses (~X); a use of a name
	// not in it draws nothing (Surfaces.Check refuses such systems first).
	Surfaces Surfaces
}

// GLBPalette is the default material colours by colour index: bark, then
// leaf greens and flower colours, as ABOP's figures colour the indices that
// ' steps through.
var GLBPalette = [][3]float64{
	{0.36, 0.25, 0.15}, {0.20, 0.45, 0.15}, {0.30, 0.60, 0.20}, {0.15, 0.50, 0.10},
	{0.85, 0.75, 0.20}, {0.80, 0.30, 0.45}, {0.90, 0.90, 0.85}, {0.45, 0.30, 0.60},
}

// MaterialName is the material of a colour index.
func MaterialName(color uint16) string { return "color" + strconv.Itoa(int(color)) }

// Colors returns the colour indices g uses, in increasing order.
func (g *Geometry) Colors() []uint16 {
	var used [maxColor + 1]bool
	for _, s := range g.Segments {
		used[s.Color] = true
	}
	for _, p := range g.Polygons {
		used[p.Color] = true
	}
	for _, u := range g.Surfaces {
		used[u.Color] = true
	}
	var out []uint16
	for c, u := range used {
		if u {
			out = append(out, uint16(c))
		}
	}
	return out
}

const (
	lineGrain   = 8192 // segments per chunk as lines; polylines break at chunk starts
	tubeGrain   = 1024 // segments per chunk as tubes, each up to 4·Sides vertices
	polyGrain   = 8192 // polygons per chunk
	maxPolyline = 256  // vertices per OBJ 'l' element
	maxSides    = 1 << 16
)

// Mesh is g as the neutral mesh the OBJ and glTF writers take. The mesh
// refers to g, which must not change until it is written.
func (g *Geometry) Mesh(o MeshOptions) (*mesh.Mesh, error) {
	if o.Sides > maxSides || o.Sides < 0 {
		return nil, fmt.Errorf("turtle: mesh: %d sides: want at most %d", o.Sides, maxSides)
	}
	b := &meshBuilder{g: g, o: o, tubes: o.Sides > 2, ribbons: o.Sides <= 2 && o.Ribbons, planar: g.Planar(),
		scale: o.WidthScale}
	if b.scale == 0 {
		b.scale = 1
	}
	if b.tubes {
		b.ring = make([][2]float64, o.Sides)
		for j := range b.ring {
			s, c := math.Sincos(2 * math.Pi * float64(j) / float64(o.Sides))
			b.ring[j] = [2]float64{c, s}
		}
	}
	m := &mesh.Mesh{Generator: "procgen lsys"}
	if !o.ByColor {
		m.Parts = []mesh.Part{b.segments(nil, -1), b.polygons(nil, -1)}
		m.Parts = append(m.Parts, b.surfaceParts(func(uint16) int { return -1 })...)
		return m, nil
	}
	pal := o.Palette
	if len(pal) == 0 {
		pal = GLBPalette
	}
	segs := map[uint16][]int32{}
	for i := range g.Segments {
		segs[g.Segments[i].Color] = append(segs[g.Segments[i].Color], int32(i))
	}
	polys := map[uint16][]int32{}
	for i := range g.Polygons {
		polys[g.Polygons[i].Color] = append(polys[g.Polygons[i].Color], int32(i))
	}
	matOf := map[uint16]int{}
	for _, c := range g.Colors() {
		mat := len(m.Materials)
		matOf[c] = mat
		m.Materials = append(m.Materials, mesh.Material{Name: MaterialName(c), Color: pal[int(c)%len(pal)],
			Roughness: 0.9, DoubleSided: true})
		// A colour without segments or polygons gets no part of them: a nil
		// list would mean every element.
		if len(segs[c]) > 0 {
			m.Parts = append(m.Parts, b.segments(segs[c], mat))
		}
		if len(polys[c]) > 0 {
			m.Parts = append(m.Parts, b.polygons(polys[c], mat))
		}
	}
	m.Parts = append(m.Parts, b.surfaceParts(func(c uint16) int { return matOf[c] })...)
	return m, nil
}

// meshBuilder builds chunks of a Geometry; at lists the elements of a part
// (nil: all, in order).
type meshBuilder struct {
	g     *Geometry
	o     MeshOptions
	tubes bool
	// ribbons: flat quads; planar: the geometry lies in a plane z = const.
	ribbons, planar bool
	scale           float64
	ring            [][2]float64 // cos and sin around a tube
}

func pick(at []int32, k int) int {
	if at == nil {
		return k
	}
	return int(at[k])
}

func (b *meshBuilder) segments(at []int32, mat int) mesh.Part {
	p := mesh.Part{Name: "segments", Material: mat, Count: len(at), Grain: tubeGrain}
	if at == nil {
		p.Count = len(b.g.Segments)
	}
	if b.tubes && b.o.Smooth {
		return b.smoothPart(p, at)
	}
	if b.tubes {
		p.Build = func(lo, hi int, c *mesh.Chunk) {
			for k := lo; k < hi; k++ {
				b.tube(c, &b.g.Segments[pick(at, k)])
			}
		}
		return p
	}
	if b.ribbons {
		p.Build = func(lo, hi int, c *mesh.Chunk) {
			for k := lo; k < hi; k++ {
				b.ribbon(c, &b.g.Segments[pick(at, k)])
			}
		}
		return p
	}
	p.Grain = lineGrain
	p.Build = func(lo, hi int, c *mesh.Chunk) { b.lines(c, at, lo, hi) }
	return p
}

// lines adds segments [lo, hi) of at as polylines: a segment continues the
// one before it (in the part, within the chunk) where it starts at its end.
func (b *meshBuilder) lines(c *mesh.Chunk, at []int32, lo, hi int) {
	segs := b.g.Segments
	run := 0
	for k := lo; k < hi; k++ {
		i := pick(at, k)
		s := &segs[i]
		if k > lo && pick(at, k-1) == i-1 && s.A == segs[i-1].B && run < maxPolyline {
			c.Lines = append(c.Lines, int32(len(c.Positions)))
			c.Positions = append(c.Positions, s.B)
			c.LineSizes[len(c.LineSizes)-1]++
			run++
			continue
		}
		n := int32(len(c.Positions))
		c.Positions = append(c.Positions, s.A, s.B)
		c.Lines = append(c.Lines, n, n+1)
		c.LineSizes = append(c.LineSizes, 2)
		run = 2
	}
}

// tube adds one segment's rings, normals and faces. The ring's frame comes
// from the segment's axis alone (Duff et al. 2017), so tubes of a branch may
// twist against each other; the turtle frame is not kept per segment.
func (b *meshBuilder) tube(c *mesh.Chunk, s *Segment) {
	r := float64(s.Width) * b.scale / 2
	if s.A == s.B || !(r > 0) {
		return
	}
	a, e, t := ends(s)
	b1, b2 := basis(t)
	n := int32(len(b.ring))
	p0, n0, v0 := int32(len(c.Positions)), int32(len(c.Normals)), int32(len(c.Vertices))
	for _, end := range [2]vec3{a, e} {
		for _, rc := range b.ring {
			c.Positions = append(c.Positions, end.add(b1.scale(rc[0]*r)).add(b2.scale(rc[1]*r)).f32())
		}
	}
	if b.o.Normals {
		for _, rc := range b.ring {
			c.Normals = append(c.Normals, b1.scale(rc[0]).add(b2.scale(rc[1])).f32())
		}
		if b.o.Caps {
			c.Normals = append(c.Normals, t.neg().f32(), t.f32())
		}
	}
	// Side vertices share a ring position's normal (smooth); each cap has
	// its own, with the cap's normal (flat).
	for end := range int32(2) {
		for j := range n {
			c.Vertices = append(c.Vertices, mesh.Vertex{P: p0 + end*n + j, N: n0 + j})
		}
	}
	// Quads counter-clockwise seen from outside: A_j, A_j+1, B_j+1, B_j.
	for j := range n {
		k := (j + 1) % n
		c.Face(v0+j, v0+k, v0+n+k, v0+n+j)
	}
	if !b.o.Caps {
		return
	}
	for end := range int32(2) {
		for j := range n {
			c.Vertices = append(c.Vertices, mesh.Vertex{P: p0 + end*n + j, N: n0 + n + end})
		}
	}
	cap0, cap1 := v0+2*n, v0+3*n
	at := len(c.Faces)
	for j := n - 1; j >= 0; j-- { // at A, facing -t: the ring reversed
		c.Faces = append(c.Faces, cap0+j)
	}
	c.FaceSizes = append(c.FaceSizes, int32(len(c.Faces)-at))
	for j := range n {
		c.Faces = append(c.Faces, cap1+j)
	}
	c.FaceSizes = append(c.FaceSizes, n)
}

func (b *meshBuilder) polygons(at []int32, mat int) mesh.Part {
	p := mesh.Part{Name: "polygons", Material: mat, Concave: true, Count: len(at), Grain: polyGrain}
	if at == nil {
		p.Count = len(b.g.Polygons)
	}
	p.Build = func(lo, hi int, c *mesh.Chunk) {
		g := b.g
		for k := lo; k < hi; k++ {
			q := g.Polygons[pick(at, k)]
			vs := g.PolyVerts[q.First : q.First+q.Count]
			p0, n0 := int32(len(c.Positions)), int32(len(c.Normals))
			c.Positions = append(c.Positions, vs...)
			if b.o.Normals {
				nv := mesh.Newell(vs)
				c.Normals = append(c.Normals, [3]float32{float32(nv[0]), float32(nv[1]), float32(nv[2])})
			}
			at := len(c.Faces)
			for j := range int32(len(vs)) {
				c.Faces = append(c.Faces, int32(len(c.Vertices)))
				c.Vertices = append(c.Vertices, mesh.Vertex{P: p0 + j, N: n0})
			}
			c.FaceSizes = append(c.FaceSizes, int32(len(c.Faces)-at))
		}
	}
	return p
}

// ends is a segment's end points and unit direction.
func ends(s *Segment) (a, e, t vec3) {
	a = vec3{float64(s.A[0]), float64(s.A[1]), float64(s.A[2])}
	e = vec3{float64(s.B[0]), float64(s.B[1]), float64(s.B[2])}
	d := e.add(a.neg())
	return a, e, d.scale(1 / math.Sqrt(dot(d, d)))
}

// basis is an orthonormal pair perpendicular to the unit vector t, with
// b1 × b2 = t, without a branch on t (Duff et al. 2017).
func basis(t vec3) (b1, b2 vec3) {
	sign := math.Copysign(1, t.z)
	ka := -1 / (sign + t.z)
	kb := t.x * t.y * ka
	return vec3{1 + sign*t.x*t.x*ka, sign * kb, -sign * t.x}, vec3{kb, sign + t.y*t.y*ka, -t.y}
}

// ribbon adds one segment as a flat quad of its width. In a planar
// geometry the quad lies in the plane, across the segment, facing +Z (its
// material is double-sided); otherwise it spans the tube frame's first
// direction.
func (b *meshBuilder) ribbon(c *mesh.Chunk, s *Segment) {
	r := float64(s.Width) * b.scale / 2
	if s.A == s.B || !(r > 0) {
		return
	}
	a, e, t := ends(s)
	side, normal := vec3{}, vec3{0, 0, 1}
	if across := (vec3{-t.y, t.x, 0}); b.planar && dot(across, across) > 1e-12 {
		side = across.scale(1 / math.Sqrt(dot(across, across)))
	} else {
		var b2 vec3
		side, b2 = basis(t)
		normal = b2
	}
	p0, v0 := int32(len(c.Positions)), int32(len(c.Vertices))
	w := side.scale(r)
	c.Positions = append(c.Positions, a.add(w).f32(), a.add(w.neg()).f32(), e.add(w.neg()).f32(), e.add(w).f32())
	n0 := int32(len(c.Normals))
	if b.o.Normals {
		c.Normals = append(c.Normals, normal.f32())
	}
	for j := range int32(4) {
		c.Vertices = append(c.Vertices, mesh.Vertex{P: p0 + j, N: n0})
	}
	// (A+w, A-w, B-w, B+w) winds counter-clockwise about the normal:
	// (-side) × t is +Z in the plane and b2 off it (b1 × b2 = t).
	c.Face(v0, v0+1, v0+2, v0+3)
}

// Planar reports whether g lies in a plane z = const, as every 2D system's
// geometry does (+, -, | and tropism towards a direction in the plane keep
// z exactly; &, ^, \, /, $ leave it). It reads the geometry, not the
// symbols, so a 3D symbol that never lifts the turtle off the plane does not
// cost tubes.
func (g *Geometry) Planar() bool { return g.Stats.Bounds.Min[2] == g.Stats.Bounds.Max[2] }
