package pga

import (
	"hash/fnv"
	"math"

	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// Mesh is ts as the neutral mesh the OBJ and glTF writers take: per
// terminal name, in order of first appearance, a part with a material of
// that name (MaterialColor), and per terminal its corner positions once,
// its face normals, and its faces (flat: each corner of a face pairs its
// position with the face's normal). The mesh refers to ts, which must not
// change until it is written.
//
// projs are the projections the terminals refer to (Result.Projections):
// terminals under ProjectUV get their texture coordinates from them.
//
// Terminals of an I operation's kind are drawn as its asset, one instanced
// part per kind and material (asset.go), once SetAssetShape has given the
// asset its mesh; before that, as their scope's box.
func (g *Grammar) Mesh(ts []TerminalShape, projs [][8]float32) *mesh.Mesh {
	m := &mesh.Mesh{Generator: "procgen pga"}
	keys, groups := g.byMaterial(ts)
	for i, k := range keys {
		at := groups[k]
		mat, uv := g.partMaterial(k)
		for _, j := range at {
			uv = uv || ts[j].UV
		}
		if a := g.AssetOf(k.term); a != nil && a.Shape != nil {
			// An asset has no texture coordinates: a Texture over it
			// keeps only its colour.
			mat.Texture = ""
			m.Materials = append(m.Materials, mat)
			m.Parts = append(m.Parts, assetPart(a, mat.Name, i, ts, at))
			continue
		}
		m.Materials = append(m.Materials, mat)
		m.Parts = append(m.Parts, mesh.Part{Name: mat.Name, Material: i, Count: len(at), Grain: meshGrain,
			Build: func(lo, hi int, c *mesh.Chunk) { g.meshChunk(c, ts, projs, at[lo:hi], uv) }})
	}
	return m
}

// partMaterial is the material of the part of terminal kind and material
// k, and whether its material gives it texture coordinates (a textured
// material's primitives need them in glTF; those of no projection are
// (0, 0)).
func (g *Grammar) partMaterial(k partKey) (mesh.Material, bool) {
	name := g.TermNames[k.term]
	mat := mesh.Material{Name: name, Color: g.MaterialColor(name), Roughness: 0.9, DoubleSided: true}
	if k.mat <= 0 {
		return mat, false
	}
	def := &g.Materials[k.mat-1]
	mat.Name += "." + def.Name
	mat.Color, mat.Texture = def.Color, def.Image
	return mat, def.Image != ""
}

// meshGrain is the fewest terminals worth a worker.
const meshGrain = 2048

func (g *Grammar) meshChunk(c *mesh.Chunk, ts []TerminalShape, projs [][8]float32, at []int, uv bool) {
	for _, i := range at {
		corners, fs, normals := g.worldSolid(&ts[i].Shape)
		p0, n0 := int32(len(c.Positions)), int32(len(c.Normals))
		for _, p := range corners {
			c.Positions = append(c.Positions, [3]float32{float32(p[0]), float32(p[1]), float32(p[2])})
		}
		if uv {
			// UVs pair with positions: a planar projection gives a corner
			// one coordinate whichever face it is on.
			var pr [8]float32
			if ts[i].UV {
				pr = projection1(projs, &ts[i])
			}
			for _, p := range corners {
				c.UVs = append(c.UVs, uvAt(&pr, p))
			}
		}
		for _, n := range normals {
			c.Normals = append(c.Normals, [3]float32{float32(n[0]), float32(n[1]), float32(n[2])})
		}
		for j, f := range fs {
			for _, k := range f {
				c.Faces = append(c.Faces, int32(len(c.Vertices)))
				v := mesh.Vertex{P: p0 + int32(k), N: n0 + int32(j)}
				if uv {
					v.T = v.P
				}
				c.Vertices = append(c.Vertices, v)
			}
			c.FaceSizes = append(c.FaceSizes, int32(len(f)))
		}
	}
}

// direction maps a direction by the rotation part of a rigid transform.
func (m Mat4) direction(v Vec3) Vec3 {
	var r Vec3
	for i := 0; i < 3; i++ {
		r[i] = m[i*4]*v[0] + m[i*4+1]*v[1] + m[i*4+2]*v[2]
	}
	return r
}

// MeshStats counts what the encoders write: Vertices are distinct corner
// positions (8 a box, 4 a quad, n a polygon, 2n a prism), Triangles those
// of the faces' fans.
type MeshStats struct {
	Terminals int            `json:"terminals"`
	ByName    map[string]int `json:"terminals_by_name"`
	Vertices  int64          `json:"vertices"`
	Triangles int64          `json:"triangles"`
	ByPhase   []PhaseStats   `json:"phases"`
}

// PhaseStats counts the terminals a phase emitted and their geometry.
type PhaseStats struct {
	Phase     int   `json:"phase"`
	Terminals int   `json:"terminals"`
	Vertices  int64 `json:"vertices"`
	Triangles int64 `json:"triangles"`
}

// termCounts is what the encoders draw of terminal s: its solid's corners
// and triangles, or its asset's (an I operation's kind).
func (g *Grammar) termCounts(s *TerminalShape) (corners, triangles int) {
	if a := g.AssetOf(s.Term); a != nil {
		return a.counts()
	}
	return g.counts(&s.Shape)
}

// Stats counts ts as the encoders draw them, in all and per phase.
func (g *Grammar) Stats(ts []TerminalShape) MeshStats {
	s := MeshStats{Terminals: len(ts), ByName: map[string]int{}}
	at := map[int32]int{}
	for _, p := range g.Phases {
		at[int32(p)] = len(s.ByPhase)
		s.ByPhase = append(s.ByPhase, PhaseStats{Phase: p})
	}
	for i := range ts {
		s.ByName[g.TermNames[ts[i].Term]]++
		v, t := g.termCounts(&ts[i])
		s.Vertices += int64(v)
		s.Triangles += int64(t)
		ph := &s.ByPhase[at[ts[i].Phase]]
		ph.Terminals++
		ph.Vertices += int64(v)
		ph.Triangles += int64(t)
	}
	return s
}

// partKey is a part of the mesh: a terminal kind drawn with one material.
type partKey struct {
	term int32
	mat  int16
}

// byMaterial groups terminal indices by kind and material, in order of
// first appearance, so each material is switched to once. Without Texture
// and Color operations that is one part per terminal name, as before them.
func (g *Grammar) byMaterial(ts []TerminalShape) (keys []partKey, groups map[partKey][]int) {
	groups = map[partKey][]int{}
	for i := range ts {
		k := partKey{ts[i].Term, ts[i].Mat}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	return keys, groups
}

// MaterialColor is the colour of a terminal kind, linear RGB in 0..1. The
// grammar's n kinds (TermNames: the declared terminals in order, then the
// Generate() rules) get n hues evenly spaced round the colour wheel, taken
// with a stride so kinds declared together are far apart, and alternate
// between a light and a dark shade: every kind of a grammar has its own
// colour (hashing names gave near-identical greens to Wall, WindowSill and
// BalconyWall). A name the grammar does not know gets a hue from its hash.
func (g *Grammar) MaterialColor(name string) [3]float64 {
	n := len(g.TermNames)
	for i, t := range g.TermNames {
		if t == name {
			stride := max(1, n*3/8)
			for gcd(stride, n) != 1 {
				stride++
			}
			return hueColor(float64(i*stride%n)/float64(n), i%2)
		}
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return hueColor(float64(h.Sum32()%360)/360, 0)
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// hueColor is a saturated colour of hue h (0..1, red at 0), light (shade
// 0) or dark (shade 1).
func hueColor(h float64, shade int) [3]float64 {
	hue := math.Mod(h, 1) * 6
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
	lo, span := 0.25, 0.65
	if shade == 1 {
		lo, span = 0.08, 0.45
	}
	return [3]float64{lo + span*r, lo + span*g, lo + span*b}
}
