package pga

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/output/mesh"
	"github.com/procgen-dev/procgen/internal/parallel"
)

// Assets, as CGA's i("file.obj") inserts them: I("door.obj") ends a chain
// as Generate() does, and the terminal it makes is drawn as the mesh (OBJ
// or GLB) fitted to its scope (the mesh's bounding box scaled onto the
// scope's box; zero scope sizes as CGA treats them, fitInstance). The
// operator makes a
// terminal kind of its own per rule and asset ("Rule.door"), so the
// terminal data of both backends carries the insert in its kind alone: the
// CUDA kernels end the chain as for Generate() and the host draws the asset
// from either backend's terminals. The mesh is written once per kind and
// material and placed per terminal: EXT_mesh_gpu_instancing in GLB, a
// transformed copy per terminal in OBJ and PLY.

// AssetDef is a mesh an I operation inserts.
type AssetDef struct {
	// Path is the OBJ or GLB file: a path relative to the grammar's folder
	// resolved against it (Grammar.File).
	Path string
	Name string // the file's name without extension, as a label
	Pos  Pos    // of the operation that first named it
	// Shape is the mesh once SetAssetShape has given it (the job reads the
	// files, the parser opens none); nil until then.
	Shape *mesh.Shape
	lo    [3]float64 // Shape's bounding box
	hi    [3]float64
}

// maxAssets bounds the distinct assets a grammar may name.
const maxAssets = 4096

// asset interns the file of an I operation.
func (p *parser) asset(op *Op) error {
	a := op.Args[0]
	if a.Str == "" || strings.ContainsFunc(a.Str, func(r rune) bool { return r < ' ' }) {
		return &SyntaxError{a.Pos, "I needs an asset file name"}
	}
	if ext := strings.ToLower(filepath.Ext(a.Str)); ext != ".obj" && ext != ".glb" {
		return &SyntaxError{a.Pos, fmt.Sprintf("I %q: want a Wavefront .obj or binary glTF .glb mesh", a.Str)}
	}
	path := a.Str
	if !filepath.IsAbs(path) && p.g.File != "" {
		path = filepath.Join(filepath.Dir(p.g.File), path)
	}
	for i, have := range p.g.Assets {
		if have.Path == path {
			op.Asset = i + 1
			return nil
		}
	}
	if len(p.g.Assets) >= maxAssets {
		return &SyntaxError{op.Pos, fmt.Sprintf("more than %d assets", maxAssets)}
	}
	p.g.Assets = append(p.g.Assets, AssetDef{Path: path, Name: label(strings.TrimSuffix(filepath.Base(a.Str), filepath.Ext(a.Str))), Pos: a.Pos})
	op.Asset = len(p.g.Assets)
	return nil
}

// assetTerminal is the terminal kind of rule r's I operation op: named
// "Rule.asset", with a suffix where another kind has that name already.
func (g *Grammar) assetTerminal(r *Rule, op *Op) *Terminal {
	base := r.Name
	if r.origin != "" {
		base = r.origin
	}
	base += "." + g.Assets[op.Asset-1].Name
	name := base
	for n := 2; ; n++ {
		id, taken := g.termIndex(name)
		if !taken {
			break
		}
		if g.termAssets[id] == op.Asset {
			return &Terminal{Name: name, ID: id, Geometry: -1, Material: -1}
		}
		name = fmt.Sprintf("%s_%d", base, n)
	}
	if g.termAssets == nil {
		g.termAssets = map[int32]int{}
	}
	id := g.termID(name)
	g.termAssets[id] = op.Asset
	return &Terminal{Name: name, ID: id, Geometry: -1, Material: -1}
}

func (g *Grammar) termIndex(name string) (int32, bool) {
	for i, n := range g.TermNames {
		if n == name {
			return int32(i), true
		}
	}
	return 0, false
}

// AssetOf is the asset terminal kind term is drawn as, nil for the others.
func (g *Grammar) AssetOf(term int32) *AssetDef {
	if k := g.termAssets[term]; k > 0 {
		return &g.Assets[k-1]
	}
	return nil
}

// SetAssetShape gives asset i its mesh, read by the caller from
// Assets[i].Path. A mesh with no extent on any axis is refused.
func (g *Grammar) SetAssetShape(i int, s *mesh.Shape) error {
	a := &g.Assets[i]
	lo := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, v := range s.Positions {
		for k := range 3 {
			x := float64(v[k])
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("%s: asset %s: position %v not finite", a.Pos, a.Path, v)
			}
			lo[k], hi[k] = math.Min(lo[k], x), math.Max(hi[k], x)
		}
	}
	if len(s.Positions) == 0 || hi == lo {
		return fmt.Errorf("%s: asset %s: all its positions are one point", a.Pos, a.Path)
	}
	a.Shape, a.lo, a.hi = s, lo, hi
	return nil
}

// fitInstance places an asset with bounding box [lo, hi] in scope s, as
// CGA's i() does: the box is scaled onto the scope's box on each axis. A
// scope of zero size on some axes takes the asset's size on them, scaled
// by the mean of the other axes' factors (a door on a façade quad keeps
// its depth in proportion); a point-like scope (all three zero) places the
// asset unscaled with its own coordinates from the scope's corner. An
// asset flat on an axis takes that mean there too (any scale draws it the
// same; glTF wants a positive one).
func fitInstance(lo, hi [3]float64, s *Shape) mesh.Instance {
	var sc [3]float64
	sum, n := 0.0, 0
	for k := range 3 {
		if ext := hi[k] - lo[k]; s.Size[k] > 0 && ext > 0 {
			sc[k] = s.Size[k] / ext
			sum += sc[k]
			n++
		}
	}
	fill := 1.0
	if n > 0 {
		fill = sum / float64(n)
	}
	var off Vec3 // the asset's origin in the scope's centred frame
	for k := range 3 {
		if sc[k] == 0 {
			sc[k] = fill
		}
		// glTF wants a finite positive float32 scale: a scale past its
		// range (a scope of 1e-40 m, an asset of 1e-40 m in a 1 m scope)
		// is clamped to it.
		sc[k] = min(max(sc[k], 0x1p-126), math.MaxFloat32)
		off[k] = -s.Size[k]/2 - sc[k]*lo[k]
	}
	if s.Size == (Vec3{}) {
		off = Vec3{}
	}
	t := s.Transform.Apply(off)
	m := &s.Transform
	q := mesh.QuatFromFrame([3]float64{m[0], m[4], m[8]}, [3]float64{m[1], m[5], m[9]}, [3]float64{m[2], m[6], m[10]})
	return mesh.Instance{T: [3]float32{float32(t[0]), float32(t[1]), float32(t[2])}, Q: q,
		S3: [3]float32{float32(sc[0]), float32(sc[1]), float32(sc[2])}}
}

// assetPart is the mesh part of the terminals at of an asset kind: the
// asset's faces built once (flat, a Newell normal each), one instance per
// terminal.
func assetPart(a *AssetDef, name string, material int, ts []TerminalShape, at []int) mesh.Part {
	ins := make([]mesh.Instance, len(at))
	parallel.For(len(at), 4096, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			ins[i] = fitInstance(a.lo, a.hi, &ts[at[i]].Shape)
		}
	})
	s := a.Shape
	return mesh.Part{Name: name, Material: material, Concave: true, Count: len(s.FaceSizes), Grain: len(s.FaceSizes),
		Instances: ins, Build: func(lo, hi int, c *mesh.Chunk) { assetFaces(c, s, lo, hi) }}
}

// assetFaces adds faces [lo, hi) of s, each with its Newell normal.
func assetFaces(c *mesh.Chunk, s *mesh.Shape, lo, hi int) {
	at := int32(0)
	for k := range lo {
		at += s.FaceSizes[k]
	}
	p0 := int32(len(c.Positions))
	c.Positions = append(c.Positions, s.Positions...)
	vs := make([][3]float32, 0, 8)
	for k := lo; k < hi; k++ {
		f := s.Faces[at : at+s.FaceSizes[k]]
		at += s.FaceSizes[k]
		vs = vs[:0]
		for _, v := range f {
			vs = append(vs, s.Positions[v])
		}
		nv := mesh.Newell(vs)
		n0 := int32(len(c.Normals))
		c.Normals = append(c.Normals, [3]float32{float32(nv[0]), float32(nv[1]), float32(nv[2])})
		for _, v := range f {
			c.Faces = append(c.Faces, int32(len(c.Vertices)))
			c.Vertices = append(c.Vertices, mesh.Vertex{P: p0 + v, N: n0})
		}
		c.FaceSizes = append(c.FaceSizes, int32(len(f)))
	}
}

// assetCounts is what one insert of a draws: its positions and the
// triangles of its faces' fans.
func (a *AssetDef) counts() (corners, triangles int) {
	if a.Shape == nil {
		return 0, 0
	}
	for _, n := range a.Shape.FaceSizes {
		triangles += int(n) - 2
	}
	return len(a.Shape.Positions), triangles
}
