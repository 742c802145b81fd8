// Package mesh is procgen's one mesh model and its writers: Wavefront OBJ
// (with an MTL material library) and binary glTF 2.0 (GLB).
//
// A Mesh is a list of parts, each with a name and a material. A part does
// not hold its geometry: it says how many elements (a box, a tube, a leaf)
// it has and builds any range of them into a Chunk on demand. The writers
// build chunks on all cores, a bounded window at a time for OBJ, so a city of
// millions of boxes is never held as one array, and look at the context
// between chunks, so Ctrl-C ends a write within a chunk's time.
//
// Attributes are indexed separately, as in OBJ (a box has 8 positions and 6
// normals), and a Vertex pairs a position with a normal, as glTF needs (24
// for a box): the OBJ writer writes each position and normal once, the glTF
// writer each vertex once, and neither has to search for duplicates.
package mesh

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

// Mesh is the neutral model the generators build and the writers read.
type Mesh struct {
	Materials []Material
	Parts     []Part
	// Generator names the program in the files' headers, e.g. "procgen pga".
	Generator string
	// Extras, when set, is the glTF asset's extras (JSON-encoded as it
	// is): where the model lies on Earth, for one.
	Extras any
}

// Part is a named piece drawn with one material.
type Part struct {
	Name string // must be free of white space (OBJ splits names on it)
	// Material indexes Mesh.Materials; -1 means none.
	Material int
	// Concave says faces may be concave: the glTF writer then cuts them by
	// ear clipping rather than as a fan.
	Concave bool
	// Count is the number of elements; Build(lo, hi, c) appends elements
	// [lo, hi) to c. Build is called from several goroutines at once, for
	// disjoint ranges, and must not depend on how the range is split,
	// except where Grain says it does.
	Count int
	Build func(lo, hi int, c *Chunk)
	// Grain is the elements per chunk; 0 means DefaultGrain. Chunks start
	// at multiples of it, so a builder that joins elements (polylines) gets
	// the same joins for any number of workers.
	Grain int
	// Instances, when not nil, make the part a shape placed once per
	// Instance: Count and Build describe the shape, built once. GLB writes
	// it once with an EXT_mesh_gpu_instancing node; OBJ and PLY, which
	// cannot instance, write a transformed copy per instance.
	Instances []Instance
}

// DefaultGrain is the elements per chunk when a part gives none: a few
// thousand boxes are about a millisecond of work.
const DefaultGrain = 2048

// Material is a surface colour. Colors are linear RGB in 0..1.
type Material struct {
	Name      string // must be non-empty and free of white space
	Color     [3]float64
	Roughness float64 // glTF roughnessFactor; the metal factor is 0
	// DoubleSided: seen from both sides (leaves, open tubes, quads).
	DoubleSided bool
	// Texture, when set, is a PNG or JPEG file drawn over Color by the
	// parts' UVs: GLB embeds it, MTL names it (texture.go).
	Texture string
	// TextureRef is how an MTL file next to the output refers to Texture
	// (a path relative to it); Texture itself when empty.
	TextureRef string
}

// Vertex pairs a position with a normal and a texture coordinate, all
// chunk-local indices; N is ignored when the chunk has no normals, T when
// it has no UVs.
type Vertex struct{ P, N, T int32 }

// Chunk is the geometry of a range of a part's elements. Indices are local
// to the chunk.
type Chunk struct {
	Positions [][3]float32
	Normals   [][3]float32 // none, or as many as the Vertices refer to
	// UVs are texture coordinates (u, v; v up, as OBJ's vt and PLY's s t
	// read them; glTF gets 1-v): none, or as many as the Vertices refer to.
	UVs      [][2]float32
	Vertices []Vertex
	// Faces are polygons of three or more Vertices, concatenated; FaceSizes
	// gives their corner counts.
	Faces     []int32
	FaceSizes []int32
	// Lines are polylines of two or more Positions (OBJ l elements),
	// concatenated; LineSizes gives their lengths. glTF gets no lines.
	Lines     []int32
	LineSizes []int32
}

func (c *Chunk) reset() {
	*c = Chunk{Positions: c.Positions[:0], Normals: c.Normals[:0], UVs: c.UVs[:0], Vertices: c.Vertices[:0],
		Faces: c.Faces[:0], FaceSizes: c.FaceSizes[:0], Lines: c.Lines[:0], LineSizes: c.LineSizes[:0]}
}

// Face appends a polygon of the given vertices.
func (c *Chunk) Face(vs ...int32) {
	c.Faces = append(c.Faces, vs...)
	c.FaceSizes = append(c.FaceSizes, int32(len(vs)))
}

// check reports the first index out of range, malformed element or
// non-finite coordinate of c: a NaN reaches no file.
func (c *Chunk) check() error {
	for i, p := range c.Positions {
		if !finite(p) {
			return fmt.Errorf("position %d is not finite: %v", i, p)
		}
	}
	for i, n := range c.Normals {
		if !finite(n) {
			return fmt.Errorf("normal %d is not finite: %v", i, n)
		}
	}
	for i, t := range c.UVs {
		if !finite([3]float32{t[0], t[1], 0}) {
			return fmt.Errorf("texture coordinate %d is not finite: %v", i, t)
		}
	}
	np, nn, nt := int32(len(c.Positions)), int32(len(c.Normals)), int32(len(c.UVs))
	for i, v := range c.Vertices {
		if v.P < 0 || v.P >= np || (nn > 0 && (v.N < 0 || v.N >= nn)) || (nt > 0 && (v.T < 0 || v.T >= nt)) {
			return fmt.Errorf("vertex %d (%d, %d, %d) out of range (%d positions, %d normals, %d UVs)", i, v.P, v.N, v.T, np, nn, nt)
		}
	}
	if err := checkRuns(c.Faces, c.FaceSizes, 3, int32(len(c.Vertices)), "face"); err != nil {
		return err
	}
	return checkRuns(c.Lines, c.LineSizes, 2, np, "line")
}

func checkRuns(idx, sizes []int32, least, n int32, what string) error {
	at := 0
	for i, s := range sizes {
		if s < least || at+int(s) > len(idx) {
			return fmt.Errorf("%s %d has %d corners (want %d or more, within %d indices)", what, i, s, least, len(idx))
		}
		for _, k := range idx[at : at+int(s)] {
			if k < 0 || k >= n {
				return fmt.Errorf("%s %d: index %d out of range [0,%d)", what, i, k, n)
			}
		}
		at += int(s)
	}
	if at != len(idx) {
		return fmt.Errorf("%d %s indices for sizes summing to %d", len(idx), what, at)
	}
	return nil
}

// validate checks what can be checked before any chunk is built: names
// and material references.
func (m *Mesh) validate() error {
	if m == nil {
		return fmt.Errorf("nil mesh")
	}
	names := make(map[string]bool, len(m.Materials))
	for i, mat := range m.Materials {
		if mat.Name == "" || strings.ContainsFunc(mat.Name, unicode.IsSpace) {
			return fmt.Errorf("material %d: name %q is empty or has white space", i, mat.Name)
		}
		if names[mat.Name] {
			return fmt.Errorf("material %q defined twice", mat.Name)
		}
		names[mat.Name] = true
		c := [3]float32{float32(mat.Color[0]), float32(mat.Color[1]), float32(mat.Color[2])}
		if !finite(c) || !(mat.Roughness >= 0 && mat.Roughness <= 1) {
			return fmt.Errorf("material %q: colour %v or roughness %g out of range", mat.Name, mat.Color, mat.Roughness)
		}
	}
	for i, p := range m.Parts {
		if strings.ContainsFunc(p.Name, unicode.IsSpace) {
			return fmt.Errorf("part %d: name %q has white space", i, p.Name)
		}
		if p.Material < -1 || p.Material >= len(m.Materials) {
			return fmt.Errorf("part %d (%s): material %d of %d", i, p.Name, p.Material, len(m.Materials))
		}
		if err := p.checkBuild(); err != nil {
			return fmt.Errorf("part %d (%s): %w", i, p.Name, err)
		}
		for k := range p.Instances {
			if err := p.Instances[k].check(); err != nil {
				return fmt.Errorf("part %d (%s): instance %d: %w", i, p.Name, k, err)
			}
		}
	}
	return nil
}

// checkBuild says whether the part's elements can be built.
func (p *Part) checkBuild() error {
	if p.Count < 0 || (p.Count > 0 && p.Build == nil) || p.Grain < 0 {
		return fmt.Errorf("%d elements, grain %d, builder %v", p.Count, p.Grain, p.Build != nil)
	}
	return nil
}

func (p *Part) grain() int {
	if p.Grain > 0 {
		return p.Grain
	}
	return DefaultGrain
}

// chunks is the number of chunks of p.
func (p *Part) chunks() int { g := p.grain(); return (p.Count + g - 1) / g }

// build builds chunk k of p into c and checks it.
func (p *Part) build(k int, c *Chunk) error {
	g := p.grain()
	c.reset()
	lo := k * g
	p.Build(lo, min(lo+g, p.Count), c)
	if err := c.check(); err != nil {
		return fmt.Errorf("part %s, elements %d..%d: %w", p.Name, lo, min(lo+g, p.Count), err)
	}
	return nil
}

func finite(v [3]float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
