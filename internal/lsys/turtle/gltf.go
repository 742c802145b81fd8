package turtle

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
)

// GLBOptions control EncodeGLB.
type GLBOptions struct {
	// Sides of each segment's tube (3..64); zero means 8.
	Sides int
	// Caps closes both ends of each tube.
	Caps bool
	// WidthScale multiplies the segments' widths (the tubes' diameters), as
	// in OBJOptions; 0 means 1.
	WidthScale float64
	// Palette colours colour index i with Palette[i % len(Palette)] (RGB in
	// 0..1); empty means GLBPalette.
	Palette [][3]float64
}

// GLBPalette is the default material colours by colour index: bark, then
// leaf greens and flower colours, as ABOP's figures colour the indices that
// ' steps through.
var GLBPalette = [][3]float64{
	{0.36, 0.25, 0.15}, {0.20, 0.45, 0.15}, {0.30, 0.60, 0.20}, {0.15, 0.50, 0.10},
	{0.85, 0.75, 0.20}, {0.80, 0.30, 0.45}, {0.90, 0.90, 0.85}, {0.45, 0.30, 0.60},
}

// EncodeGLB writes g to w as binary glTF 2.0: one mesh whose primitives are,
// per colour index, the segments as tubes (positions, normals, indices) and
// the polygons as triangles (one face normal per polygon; the material
// is double-sided, as a leaf is seen from both sides). Each colour index has
// its own material, named MaterialName(index), coloured from the palette.
// Y is up, as in glTF, and as the turtle grows.
func EncodeGLB(ctx context.Context, w io.Writer, g *Geometry, o GLBOptions) error {
	sides := o.Sides
	if sides == 0 {
		sides = 8
	}
	if sides < 3 || sides > 64 {
		return fmt.Errorf("turtle: glb: %d sides: want 3..64", o.Sides)
	}
	ws := o.WidthScale
	if ws == 0 {
		ws = 1
	}
	pal := o.Palette
	if len(pal) == 0 {
		pal = GLBPalette
	}
	b := &glbBuilder{}
	ring := make([][2]float64, sides)
	for j := range ring {
		s, c := math.Sincos(2 * math.Pi * float64(j) / float64(sides))
		ring[j] = [2]float64{c, s}
	}
	segs := map[uint16][]int32{}
	for i := range g.Segments {
		segs[g.Segments[i].Color] = append(segs[g.Segments[i].Color], int32(i))
	}
	polys := map[uint16][]int32{}
	for i := range g.Polygons {
		polys[g.Polygons[i].Color] = append(polys[g.Polygons[i].Color], int32(i))
	}
	tooBig := fmt.Errorf("turtle: glb: the geometry needs more than 4 GiB")
	for _, c := range g.Colors() {
		// Sized once for every tube of this colour: regrowing slices of
		// hundreds of megabytes copies them whole, a second at a time on a
		// loaded machine, with no chance to look at the context.
		n := len(ring)
		perV, perI := 2*n, 6*n
		if o.Caps {
			perV, perI = 4*n, 6*n+6*(n-2)
		}
		var m glbMesh
		m.pos = make([][3]float32, 0, perV*len(segs[c]))
		m.nrm = make([][3]float32, 0, perV*len(segs[c]))
		m.idx = make([]uint32, 0, perI*len(segs[c]))
		for k, i := range segs[c] {
			if k&0xfff == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
				if int64(b.size())+int64(m.bytes()) > glbMaxBytes {
					return tooBig
				}
			}
			s := &g.Segments[i]
			m.tube(s, ring, float64(s.Width)*ws/2, o.Caps)
		}
		if err := b.add(ctx, m, c, pal); err != nil {
			return err
		}
		m = glbMesh{}
		for k, i := range polys[c] {
			if k&0xfff == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			p := g.Polygons[i]
			m.polygon(g.PolyVerts[p.First : p.First+p.Count])
		}
		if err := b.add(ctx, m, c, pal); err != nil {
			return err
		}
		if int64(b.size()) > glbMaxBytes {
			return tooBig
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return b.write(ctx, w)
}

// glbMesh is one primitive under construction.
type glbMesh struct {
	pos, nrm [][3]float32
	idx      []uint32
}

func (m *glbMesh) bytes() int { return 24*len(m.pos) + 4*len(m.idx) }

// glbMaxBytes bounds the binary chunk: GLB lengths are 32-bit.
const glbMaxBytes int64 = math.MaxUint32 - 1<<20

// tube adds segment s as a tube of radius r around it (none if s has no
// length or r is 0).
func (m *glbMesh) tube(s *Segment, ring [][2]float64, r float64, caps bool) {
	a := vec3{float64(s.A[0]), float64(s.A[1]), float64(s.A[2])}
	b := vec3{float64(s.B[0]), float64(s.B[1]), float64(s.B[2])}
	d := b.add(a.neg())
	if l := dot(d, d); l == 0 || !(r > 0) {
		return
	}
	t := d.scale(1 / math.Sqrt(dot(d, d)))
	sign := math.Copysign(1, t.z)
	ka := -1 / (sign + t.z)
	kb := t.x * t.y * ka
	b1 := vec3{1 + sign*t.x*t.x*ka, sign * kb, -sign * t.x}
	b2 := vec3{kb, sign + t.y*t.y*ka, -t.y}
	n := len(ring)
	base := uint32(len(m.pos))
	for _, c := range [2]vec3{a, b} {
		for _, rc := range ring {
			dir := b1.scale(rc[0]).add(b2.scale(rc[1]))
			m.pos = append(m.pos, c.add(dir.scale(r)).f32())
			m.nrm = append(m.nrm, dir.f32())
		}
	}
	for j := range n {
		i0, i1 := base+uint32(j), base+uint32((j+1)%n)
		m.idx = append(m.idx, i0, i1, i1+uint32(n), i0, i1+uint32(n), i0+uint32(n))
	}
	if !caps {
		return
	}
	for k, c := range [2]vec3{a, b} {
		nv := t
		if k == 0 {
			nv = t.neg()
		}
		cb := uint32(len(m.pos))
		for _, rc := range ring {
			m.pos = append(m.pos, c.add(b1.scale(rc[0]*r)).add(b2.scale(rc[1]*r)).f32())
			m.nrm = append(m.nrm, nv.f32())
		}
		for j := 1; j+1 < n; j++ {
			if k == 0 { // facing -t: the other winding
				m.idx = append(m.idx, cb, cb+uint32(j+1), cb+uint32(j))
			} else {
				m.idx = append(m.idx, cb, cb+uint32(j), cb+uint32(j+1))
			}
		}
	}
}

// polygon adds a polygon, triangulated by ear clipping (it may be concave),
// with its Newell normal.
func (m *glbMesh) polygon(vs [][3]float32) {
	var nv vec3
	for i := range vs {
		p, q := vs[i], vs[(i+1)%len(vs)]
		nv.x += (float64(p[1]) - float64(q[1])) * (float64(p[2]) + float64(q[2]))
		nv.y += (float64(p[2]) - float64(q[2])) * (float64(p[0]) + float64(q[0]))
		nv.z += (float64(p[0]) - float64(q[0])) * (float64(p[1]) + float64(q[1]))
	}
	if l := math.Sqrt(dot(nv, nv)); l > 0 {
		nv = nv.scale(1 / l)
	} else {
		nv = vec3{0, 0, 1}
	}
	base := uint32(len(m.pos))
	for _, v := range vs {
		m.pos = append(m.pos, v)
		m.nrm = append(m.nrm, nv.f32())
	}
	m.idx = triangulate(m.idx, vs, nv, base)
}

// glTF JSON, only what EncodeGLB writes.
type (
	gltfDoc struct {
		Asset       gltfAsset      `json:"asset"`
		Scene       int            `json:"scene"`
		Scenes      []gltfScene    `json:"scenes"`
		Nodes       []gltfNode     `json:"nodes"`
		Meshes      []gltfMeshJSON `json:"meshes,omitempty"`
		Materials   []gltfMaterial `json:"materials,omitempty"`
		Accessors   []gltfAccessor `json:"accessors,omitempty"`
		BufferViews []gltfView     `json:"bufferViews,omitempty"`
		Buffers     []gltfBuffer   `json:"buffers,omitempty"`
	}
	gltfAsset struct {
		Version   string `json:"version"`
		Generator string `json:"generator"`
	}
	gltfScene struct {
		Nodes []int `json:"nodes"`
	}
	gltfNode struct {
		Name string `json:"name"`
		Mesh *int   `json:"mesh,omitempty"`
	}
	gltfMeshJSON struct {
		Name       string          `json:"name"`
		Primitives []gltfPrimitive `json:"primitives"`
	}
	gltfPrimitive struct {
		Attributes map[string]int `json:"attributes"`
		Indices    int            `json:"indices"`
		Material   int            `json:"material"`
		Mode       int            `json:"mode"`
	}
	gltfMaterial struct {
		Name        string  `json:"name"`
		PBR         gltfPBR `json:"pbrMetallicRoughness"`
		DoubleSided bool    `json:"doubleSided"`
	}
	gltfPBR struct {
		BaseColor [4]float64 `json:"baseColorFactor"`
		Metallic  float64    `json:"metallicFactor"`
		Roughness float64    `json:"roughnessFactor"`
	}
	gltfAccessor struct {
		View          int       `json:"bufferView"`
		ComponentType int       `json:"componentType"`
		Count         int       `json:"count"`
		Type          string    `json:"type"`
		Min           []float32 `json:"min,omitempty"`
		Max           []float32 `json:"max,omitempty"`
	}
	gltfView struct {
		Buffer     int `json:"buffer"`
		ByteOffset int `json:"byteOffset"`
		ByteLength int `json:"byteLength"`
		Target     int `json:"target,omitempty"`
	}
	gltfBuffer struct {
		ByteLength int `json:"byteLength"`
	}
)

const (
	gltfFloat        = 5126
	gltfUint32       = 5125
	gltfArrayBuffer  = 34962
	gltfElementArray = 34963
	gltfTriangles    = 4
)

// glbBuilder collects the primitives and the binary chunk.
type glbBuilder struct {
	doc       gltfDoc
	prims     []gltfPrimitive
	materials map[uint16]int
	bin       []byte
}

func (b *glbBuilder) size() int { return len(b.bin) }

func (b *glbBuilder) view(data []byte, target int) int {
	b.doc.BufferViews = append(b.doc.BufferViews, gltfView{ByteOffset: len(b.bin), ByteLength: len(data), Target: target})
	b.bin = append(b.bin, data...)
	return len(b.doc.BufferViews) - 1
}

func (b *glbBuilder) accessor(a gltfAccessor) int {
	b.doc.Accessors = append(b.doc.Accessors, a)
	return len(b.doc.Accessors) - 1
}

// glbCheck is how many vertices or indices are converted between looks at
// the context: a primitive can have tens of millions.
const glbCheck = 1 << 16

func vec3Bytes(ctx context.Context, vs [][3]float32) ([]byte, error) {
	out := make([]byte, 12*len(vs))
	for i, v := range vs {
		if i%glbCheck == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for k := range 3 {
			binary.LittleEndian.PutUint32(out[12*i+4*k:], math.Float32bits(v[k]))
		}
	}
	return out, nil
}

// add appends m (if it has any triangles) as a primitive of colour c.
func (b *glbBuilder) add(ctx context.Context, m glbMesh, c uint16, pal [][3]float64) error {
	if len(m.idx) == 0 {
		return nil
	}
	if b.materials == nil {
		b.materials = map[uint16]int{}
	}
	mat, ok := b.materials[c]
	if !ok {
		rgb := pal[int(c)%len(pal)]
		mat = len(b.doc.Materials)
		b.materials[c] = mat
		b.doc.Materials = append(b.doc.Materials, gltfMaterial{Name: MaterialName(c), DoubleSided: true,
			PBR: gltfPBR{BaseColor: [4]float64{rgb[0], rgb[1], rgb[2], 1}, Roughness: 0.9}})
	}
	lo := [3]float32{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(1))}
	hi := [3]float32{float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1))}
	for _, p := range m.pos {
		lo, hi = grow(lo, hi, p)
	}
	posBytes, err := vec3Bytes(ctx, m.pos)
	if err != nil {
		return err
	}
	nrmBytes, err := vec3Bytes(ctx, m.nrm)
	if err != nil {
		return err
	}
	idx := make([]byte, 4*len(m.idx))
	for i, v := range m.idx {
		if i%glbCheck == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		binary.LittleEndian.PutUint32(idx[4*i:], v)
	}
	pos := b.accessor(gltfAccessor{View: b.view(posBytes, gltfArrayBuffer), ComponentType: gltfFloat,
		Count: len(m.pos), Type: "VEC3", Min: lo[:], Max: hi[:]})
	nrm := b.accessor(gltfAccessor{View: b.view(nrmBytes, gltfArrayBuffer), ComponentType: gltfFloat,
		Count: len(m.nrm), Type: "VEC3"})
	ind := b.accessor(gltfAccessor{View: b.view(idx, gltfElementArray), ComponentType: gltfUint32,
		Count: len(m.idx), Type: "SCALAR"})
	b.prims = append(b.prims, gltfPrimitive{Attributes: map[string]int{"POSITION": pos, "NORMAL": nrm},
		Indices: ind, Material: mat, Mode: gltfTriangles})
	return nil
}

// write writes the GLB container: header, JSON chunk, binary chunk.
func (b *glbBuilder) write(ctx context.Context, w io.Writer) error {
	d := &b.doc
	d.Asset = gltfAsset{Version: "2.0", Generator: "procgen lsys"}
	d.Scenes = []gltfScene{{Nodes: []int{0}}}
	d.Nodes = []gltfNode{{Name: "lsystem"}}
	if len(b.prims) > 0 {
		mesh := 0
		d.Nodes[0].Mesh = &mesh
		d.Meshes = []gltfMeshJSON{{Name: "turtle", Primitives: b.prims}}
		d.Buffers = []gltfBuffer{{ByteLength: len(b.bin)}}
	}
	js, err := json.Marshal(d)
	if err != nil {
		return err
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	for len(b.bin)%4 != 0 {
		b.bin = append(b.bin, 0)
	}
	total := 12 + 8 + len(js)
	if len(b.bin) > 0 {
		total += 8 + len(b.bin)
	}
	if int64(total) > math.MaxUint32 {
		return fmt.Errorf("turtle: glb: %d bytes: over the format's 4 GiB", total)
	}
	head := make([]byte, 0, 20)
	head = binary.LittleEndian.AppendUint32(head, 0x46546C67) // "glTF"
	head = binary.LittleEndian.AppendUint32(head, 2)
	head = binary.LittleEndian.AppendUint32(head, uint32(total))
	head = binary.LittleEndian.AppendUint32(head, uint32(len(js)))
	head = binary.LittleEndian.AppendUint32(head, 0x4E4F534A) // "JSON"
	if _, err := w.Write(append(head, js...)); err != nil {
		return err
	}
	if len(b.bin) == 0 {
		return nil
	}
	var ch [8]byte
	binary.LittleEndian.PutUint32(ch[0:], uint32(len(b.bin)))
	binary.LittleEndian.PutUint32(ch[4:], 0x004E4942) // "BIN\0"
	if _, err := w.Write(ch[:]); err != nil {
		return err
	}
	// In slices with a look at the context before each: the chunk can be
	// gigabytes, which one Write would take seconds to pass on.
	for bin := b.bin; len(bin) > 0; {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(len(bin), 4<<20)
		if _, err := w.Write(bin[:n]); err != nil {
			return err
		}
		bin = bin[n:]
	}
	return nil
}
