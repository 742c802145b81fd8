package mesh

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"sync/atomic"
)

// glTF 2.0 constants (glTF spec, sections "GLB File Format" and "Accessor").
const (
	glbMagic     = 0x46546C67 // "glTF"
	glbVersion   = 2
	glbChunkJSON = 0x4E4F534A // "JSON"
	glbChunkBIN  = 0x004E4942 // "BIN\0"

	gltfFloat        = 5126
	gltfUint32       = 5125
	gltfUint16       = 5123 // read only (glbread.go): the writer's indices are 32-bit
	gltfUint8        = 5121
	gltfArrayBuffer  = 34962
	gltfElementArray = 34963
	gltfLines        = 1
	gltfTriangles    = 4
)

// maxGLBBytes is the most a GLB may hold: its length field is 32 bits.
const maxGLBBytes int64 = math.MaxUint32

var errTooBig = errors.New("over 4 GiB, the most a GLB file can hold; write OBJ instead")

// EncodeGLB writes m to w as binary glTF 2.0: per part with faces a node
// and a mesh of one triangle primitive, float32 POSITION (and NORMAL where
// the part has normals, TEXCOORD_0 where it has UVs) and uint32 indices,
// one material per Material.
// Faces are cut as fans, or by ear clipping in concave parts. Chunks are
// built on all cores; the binary chunk is streamed from them in order (the
// JSON, which comes first, needs every length and bound, so the whole
// binary is held). Lines become a second primitive of the part's mesh, of
// mode LINES, with positions only: a planar curve of millions of segments
// is then a few bytes a segment where tubes were a kilobyte.
func EncodeGLB(ctx context.Context, w io.Writer, m *Mesh, o Options) error {
	if err := m.validate(); err != nil {
		return fmt.Errorf("mesh: glb: %w", err)
	}
	ims, imOf, err := loadImages(m, o.ReferenceImages)
	if err != nil {
		return fmt.Errorf("mesh: glb: %w", err)
	}
	tk := newTicker(m, o.Progress)
	parts := make([][]glbPiece, len(m.Parts))
	sizes := make([]partSizes, len(m.Parts))
	var binLen int64
	var built atomic.Int64 // bytes of the pieces so far, to stop early past the format's limit
	for i := range m.Parts {
		p := &m.Parts[i]
		if err := ctx.Err(); err != nil {
			return err
		}
		ps, err := glbPart(ctx, p, o.workers(), tk, &built)
		if err != nil {
			return fmt.Errorf("mesh: glb: %w", err)
		}
		dropUnused(ps)
		parts[i], sizes[i] = ps, sizesOf(ps)
		binLen += sizes[i].bytes()
		if sizes[i].drawn() {
			binLen += instanceBytes * int64(len(p.Instances))
		}
		if binLen > maxGLBBytes {
			return fmt.Errorf("mesh: glb: %w", errTooBig)
		}
	}
	body := func(w io.Writer) error {
		for _, ps := range parts {
			for _, pick := range pieceData {
				for k := range ps {
					if err := writeContext(ctx, w, pick(&ps[k])); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return writeGLB(ctx, w, m, sizes, binLen, body, o, ims, imOf)
}

// writeGLB writes the GLB of m's parts, whose vertex data (binLen bytes,
// part by part: positions, normals, texture coordinates, triangle
// indices, line positions, line indices) body writes: the header, the
// JSON, then the binary chunk (the vertex data, the instances, the growth
// animation's data and the images).
func writeGLB(ctx context.Context, w io.Writer, m *Mesh, sizes []partSizes, binLen int64, body func(io.Writer) error,
	o Options, ims []glbImage, imOf []int) error {
	if o.Growth != nil {
		if len(o.Growth.Step) != len(m.Parts) {
			return fmt.Errorf("mesh: glb: growth names %d parts of %d", len(o.Growth.Step), len(m.Parts))
		}
		binLen += o.Growth.bytes()
	}
	for k := range ims {
		binLen += ims[k].bytes()
	}
	js, err := json.Marshal(gltfJSON(m, sizes, o.Growth, ims, imOf))
	if err != nil {
		return err
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	total := 12 + 8 + int64(len(js))
	if binLen > 0 {
		total += 8 + binLen
	}
	if total > maxGLBBytes {
		return fmt.Errorf("mesh: glb: %d bytes, over the 4 GiB a GLB file can hold; write OBJ instead", total)
	}
	head := binary.LittleEndian.AppendUint32(nil, glbMagic)
	for _, x := range []uint32{glbVersion, uint32(total), uint32(len(js)), glbChunkJSON} {
		head = binary.LittleEndian.AppendUint32(head, x)
	}
	if _, err := w.Write(append(head, js...)); err != nil {
		return err
	}
	if binLen == 0 {
		return nil
	}
	bin := binary.LittleEndian.AppendUint32(nil, uint32(binLen))
	if _, err := w.Write(binary.LittleEndian.AppendUint32(bin, glbChunkBIN)); err != nil {
		return err
	}
	if err := body(w); err != nil {
		return err
	}
	for i := range sizes {
		if !sizes[i].drawn() || m.Parts[i].Instances == nil {
			continue
		}
		if err := writeContext(ctx, w, instanceData(m.Parts[i].Instances)); err != nil {
			return err
		}
	}
	if o.Growth != nil {
		if err := writeContext(ctx, w, o.Growth.data()); err != nil {
			return err
		}
	}
	for k := range ims {
		pad := make([]byte, ims[k].bytes()-int64(len(ims[k].data)))
		if err := writeContext(ctx, w, append(ims[k].data, pad...)); err != nil {
			return err
		}
	}
	return nil
}

// pieceData is a part's vertex data in the binary chunk's order, each
// view over all its pieces: the triangles' positions, normals, texture
// coordinates and indices (the first four: PartBin's), then the lines'
// positions and indices.
var pieceData = []func(*glbPiece) []byte{
	func(q *glbPiece) []byte { return le(q.pos) },
	func(q *glbPiece) []byte { return le(q.nrm) },
	func(q *glbPiece) []byte { return le(q.uv) },
	func(q *glbPiece) []byte { return le(q.idx) },
	func(q *glbPiece) []byte { return le(q.lpos) },
	func(q *glbPiece) []byte { return le(q.lidx) },
}

// instanceBytes is an instance's TRANSLATION, ROTATION and SCALE.
const instanceBytes = 12 + 16 + 12

// partSizes is what the JSON says of a part's vertex data: its triangle
// vertices (positions, normals, texture coordinates), indices and bounds,
// and its line positions, indices and bounds.
type partSizes struct {
	nv, nn, nt, ni int
	lo, hi         [3]float32
	lnv, lni       int
	llo, lhi       [3]float32
}

// drawn reports whether the part holds any primitive, so that it gets a
// mesh and a node.
func (s *partSizes) drawn() bool { return s.ni > 0 || s.lni > 0 }

// bytes is the size of the part's vertex data.
func (s *partSizes) bytes() int64 {
	return 4 * int64(3*s.nv+3*s.nn+2*s.nt+s.ni+3*s.lnv+s.lni)
}

// sizesOf sums a part's pieces.
func sizesOf(ps []glbPiece) partSizes {
	inf := float32(math.Inf(1))
	s := partSizes{lo: [3]float32{inf, inf, inf}, hi: [3]float32{-inf, -inf, -inf}}
	s.llo, s.lhi = s.lo, s.hi
	for _, q := range ps {
		s.nv, s.nn, s.nt, s.ni = s.nv+len(q.pos)/3, s.nn+len(q.nrm)/3, s.nt+len(q.uv)/2, s.ni+len(q.idx)
		for k := range 3 {
			s.lo[k], s.hi[k] = min(s.lo[k], q.lo[k]), max(s.hi[k], q.hi[k])
		}
		if len(q.lidx) == 0 {
			continue // and no positions: linePiece adds both or neither
		}
		s.lnv, s.lni = s.lnv+len(q.lpos)/3, s.lni+len(q.lidx)
		for k := range 3 {
			s.llo[k], s.lhi[k] = min(s.llo[k], q.llo[k]), max(s.lhi[k], q.lhi[k])
		}
	}
	return s
}

// instanceData is the instances' translations, then rotations, then
// scales, as gltfJSON lays out their views.
func instanceData(ins []Instance) []byte {
	t := make([]float32, 0, 10*len(ins))
	for _, in := range ins {
		t = append(t, in.T[:]...)
	}
	for _, in := range ins {
		t = append(t, in.Q[:]...)
	}
	for _, in := range ins {
		sc := in.scale()
		t = append(t, sc[:]...)
	}
	return le(t)
}

// instancing adds the views and accessors of the instances of the part
// drawn by node to doc, after every part's vertex data, and the node's
// EXT_mesh_gpu_instancing extension.
func instancing(doc *gltfDoc, node int, ins []Instance, view viewFn, acc accFn) {
	n := len(ins)
	attr := map[string]int{
		"TRANSLATION": acc(gltfAccessor{View: view(12*n, 0), ComponentType: gltfFloat, Count: n, Type: "VEC3"}),
		"ROTATION":    acc(gltfAccessor{View: view(16*n, 0), ComponentType: gltfFloat, Count: n, Type: "VEC4"}),
		"SCALE":       acc(gltfAccessor{View: view(12*n, 0), ComponentType: gltfFloat, Count: n, Type: "VEC3"}),
	}
	doc.Nodes[node].Extensions = &gltfNodeExt{Instancing: &gltfInstancing{Attributes: attr}}
	if len(doc.ExtensionsUsed) == 0 {
		doc.ExtensionsUsed = []string{extInstancing}
	}
}

const extInstancing = "EXT_mesh_gpu_instancing"

// glbPiece is one chunk as glTF vertex attributes and triangle indices,
// and its lines as positions and index pairs.
type glbPiece struct {
	pos, nrm []float32
	uv       []float32 // u, 1-v pairs, or none
	idx      []uint32  // offset by the vertices of the part's chunks before
	lo, hi   [3]float32
	lpos     []float32
	lidx     []uint32 // offset by the line positions of the chunks before
	llo, lhi [3]float32
}

func (q *glbPiece) bytes() int64 {
	return 4 * int64(len(q.pos)+len(q.nrm)+len(q.uv)+len(q.idx)+len(q.lpos)+len(q.lidx))
}

// glbPart builds p's chunks in parallel and numbers their indices in order.
// It fails once built, the bytes of all pieces so far, passes what a GLB can
// hold, rather than holding gigabytes for a file that cannot be written.
func glbPart(ctx context.Context, p *Part, workers int, tk *ticker, built *atomic.Int64) ([]glbPiece, error) {
	n := p.chunks()
	ps := make([]glbPiece, n)
	err := each(ctx, workers, n, func(k int) error {
		c := chunkPool.Get().(*Chunk)
		defer chunkPool.Put(c)
		if err := p.build(k, c); err != nil {
			return err
		}
		ps[k] = piece(c, p.Concave)
		linePiece(&ps[k], c)
		if built.Add(ps[k].bytes()) > maxGLBBytes {
			return errTooBig
		}
		tk.add(min(p.Count, (k+1)*p.grain()) - k*p.grain())
		return nil
	})
	if err != nil {
		return nil, err
	}
	padUVs(ps)
	var base, lbase int64
	for k := range ps {
		for i := range ps[k].idx {
			ps[k].idx[i] += uint32(base)
		}
		for i := range ps[k].lidx {
			ps[k].lidx[i] += uint32(lbase)
		}
		base += int64(len(ps[k].pos) / 3)
		lbase += int64(len(ps[k].lpos) / 3)
		if max(base, lbase) > math.MaxUint32 {
			return nil, fmt.Errorf("%d vertices in part %s, over the uint32 index range", max(base, lbase), p.Name)
		}
	}
	return ps, ctx.Err()
}

// chunkPool keeps chunks for glbPart's builds: a chunk's slices, grown
// once, take the next chunk's elements (piece copies them out), instead
// of growing afresh for each of a city's thousand chunks (a fifth of the
// build was their appends).
var chunkPool = sync.Pool{New: func() any { return new(Chunk) }}

// piece converts a chunk: each Vertex becomes a glTF vertex, each face
// triangles.
func piece(c *Chunk, concave bool) glbPiece {
	q := glbPiece{pos: make([]float32, 0, 3*len(c.Vertices))}
	inf := float32(math.Inf(1))
	q.lo, q.hi = [3]float32{inf, inf, inf}, [3]float32{-inf, -inf, -inf}
	normals := len(c.Normals) > 0
	if normals {
		q.nrm = make([]float32, 0, 3*len(c.Vertices))
	}
	for _, v := range c.Vertices {
		p := c.Positions[v.P]
		for k := range 3 {
			p[k] = plusZero(p[k])
			q.lo[k], q.hi[k] = min(q.lo[k], p[k]), max(q.hi[k], p[k])
		}
		q.pos = append(q.pos, p[0], p[1], p[2])
		if normals {
			n := c.Normals[v.N]
			q.nrm = append(q.nrm, plusZero(n[0]), plusZero(n[1]), plusZero(n[2]))
		}
		if len(c.UVs) > 0 { // glTF's v runs down the image, OBJ's and PLY's up
			q.uv = append(q.uv, c.UVs[v.T][0], 1-c.UVs[v.T][1])
		}
	}
	q.idx = c.Triangles(make([]uint32, 0, 3*(len(c.Faces)-2*len(c.FaceSizes))), concave)
	return q
}

// plusZero is x with -0 written as 0: the sign of a zero depends on the
// order of the arithmetic that made it (a CUDA kernel's, the host's), and
// files of the same model should have the same bytes.
func plusZero(x float32) float32 {
	if x == 0 {
		return 0
	}
	return x
}

// dropUnused empties a part's triangle vertices when it has no triangles,
// and its line positions when it has no lines: they would be unused views.
func dropUnused(ps []glbPiece) {
	ni, nl := 0, 0
	for _, q := range ps {
		ni, nl = ni+len(q.idx), nl+len(q.lidx)
	}
	for k := range ps {
		if ni == 0 {
			ps[k].pos, ps[k].nrm, ps[k].uv, ps[k].idx = nil, nil, nil, nil
		}
		if nl == 0 {
			ps[k].lpos, ps[k].lidx = nil, nil
		}
	}
}

// linePiece adds c's polylines to q as glTF LINES: every position of the
// chunk (lines refer to them directly) and an index pair per segment.
func linePiece(q *glbPiece, c *Chunk) {
	if len(c.LineSizes) == 0 {
		return
	}
	inf := float32(math.Inf(1))
	q.llo, q.lhi = [3]float32{inf, inf, inf}, [3]float32{-inf, -inf, -inf}
	q.lpos = make([]float32, 0, 3*len(c.Positions))
	for _, p := range c.Positions {
		for k := range 3 {
			q.llo[k], q.lhi[k] = min(q.llo[k], p[k]), max(q.lhi[k], p[k])
		}
		q.lpos = append(q.lpos, p[0], p[1], p[2])
	}
	q.lidx = make([]uint32, 0, 2*(len(c.Lines)-len(c.LineSizes)))
	at := 0
	for _, s := range c.LineSizes {
		l := c.Lines[at : at+int(s)]
		at += int(s)
		for j := 1; j < len(l); j++ {
			q.lidx = append(q.lidx, uint32(l[j-1]), uint32(l[j]))
		}
	}
}

// gltfJSON is the JSON chunk for the pieces of m's parts.
func gltfJSON(m *Mesh, sizes []partSizes, growth *Growth, ims []glbImage, imOf []int) gltfDoc {
	doc := gltfDoc{Asset: gltfAsset{Version: "2.0", Generator: generator(m), Extras: m.Extras}, Scenes: []gltfScene{{Nodes: []int{}}}}
	used := make([]bool, len(m.Materials))
	matIndex := make([]int, len(m.Materials))
	for _, p := range m.Parts {
		if p.Material >= 0 {
			used[p.Material] = true
		}
	}
	for i, mat := range m.Materials {
		if !used[i] {
			continue // unused materials make the validator warn
		}
		matIndex[i] = len(doc.Materials)
		doc.Materials = append(doc.Materials, gltfMaterial{Name: mat.Name, DoubleSided: mat.DoubleSided,
			PBR: gltfPBR{BaseColor: [4]float64{mat.Color[0], mat.Color[1], mat.Color[2], 1}, Roughness: mat.Roughness}})
	}
	offset := 0
	view := func(n, target int) int {
		doc.BufferViews = append(doc.BufferViews, gltfView{ByteOffset: offset, ByteLength: n, Target: target})
		offset += n
		return len(doc.BufferViews) - 1
	}
	acc := func(a gltfAccessor) int {
		doc.Accessors = append(doc.Accessors, a)
		return len(doc.Accessors) - 1
	}
	var inst [][2]int // instanced parts and their nodes
	partNode := make([]int, len(sizes))
	for i := range sizes {
		partNode[i] = -1
		var mat *int
		if mi := m.Parts[i].Material; mi >= 0 {
			mat = &matIndex[mi]
		}
		var prims []gltfPrimitive
		if p, ok := trianglePrimitive(&sizes[i], view, acc); ok {
			p.Material = mat
			prims = append(prims, p)
		}
		if p, ok := linePrimitive(&sizes[i], view, acc); ok {
			p.Material = mat
			prims = append(prims, p)
		}
		if len(prims) == 0 {
			continue
		}
		doc.Meshes = append(doc.Meshes, gltfMesh{Name: m.Parts[i].Name, Primitives: prims})
		mesh := len(doc.Meshes) - 1
		doc.Nodes = append(doc.Nodes, gltfNode{Name: m.Parts[i].Name, Mesh: &mesh})
		partNode[i] = len(doc.Nodes) - 1
		doc.Scenes[0].Nodes = append(doc.Scenes[0].Nodes, len(doc.Nodes)-1)
		if m.Parts[i].Instances != nil {
			inst = append(inst, [2]int{i, len(doc.Nodes) - 1})
		}
	}
	// The instances' data follows all vertex data, as EncodeGLB writes it.
	for _, pn := range inst {
		instancing(&doc, pn[1], m.Parts[pn[0]].Instances, view, acc)
	}
	if growth != nil { // its data follows the instances'
		animate(&doc, growth, partNode, view, acc)
	}
	// The images follow everything else.
	texturing(&doc, ims, imOf, matIndex, used, view, func(n int) { offset += n })
	if offset > 0 {
		doc.Buffers = []gltfBuffer{{ByteLength: offset}}
	}
	return doc
}

// The views are laid out in the order EncodeGLB writes a part's bytes:
// positions, normals, texture coordinates, triangle indices, line positions,
// line indices.
type (
	viewFn func(n, target int) int
	accFn  func(a gltfAccessor) int
)

func trianglePrimitive(s *partSizes, view viewFn, acc accFn) (gltfPrimitive, bool) {
	nv, nn, nt, ni, lo, hi := s.nv, s.nn, s.nt, s.ni, s.lo, s.hi
	if ni == 0 {
		return gltfPrimitive{}, false
	}
	prim := gltfPrimitive{Attributes: map[string]int{}, Mode: gltfTriangles}
	prim.Attributes["POSITION"] = acc(gltfAccessor{View: view(12*nv, gltfArrayBuffer), ComponentType: gltfFloat,
		Count: nv, Type: "VEC3", Min: lo[:], Max: hi[:]})
	if nn > 0 {
		prim.Attributes["NORMAL"] = acc(gltfAccessor{View: view(12*nn, gltfArrayBuffer), ComponentType: gltfFloat,
			Count: nn, Type: "VEC3"})
	}
	if nt > 0 {
		prim.Attributes["TEXCOORD_0"] = acc(gltfAccessor{View: view(8*nt, gltfArrayBuffer), ComponentType: gltfFloat,
			Count: nt, Type: "VEC2"})
	}
	prim.Indices = acc(gltfAccessor{View: view(4*ni, gltfElementArray), ComponentType: gltfUint32, Count: ni, Type: "SCALAR"})
	return prim, true
}

// padUVs gives the vertices of a part's chunks without texture coordinates
// (0, 0) where another chunk of the part has them: an attribute covers all
// of a primitive's vertices.
func padUVs(ps []glbPiece) {
	has := false
	for _, q := range ps {
		has = has || len(q.uv) > 0
	}
	if !has {
		return
	}
	for k := range ps {
		if len(ps[k].uv) == 0 {
			ps[k].uv = make([]float32, 2*(len(ps[k].pos)/3))
		}
	}
}

func linePrimitive(s *partSizes, view viewFn, acc accFn) (gltfPrimitive, bool) {
	nv, ni, lo, hi := s.lnv, s.lni, s.llo, s.lhi
	if ni == 0 {
		return gltfPrimitive{}, false
	}
	prim := gltfPrimitive{Attributes: map[string]int{}, Mode: gltfLines}
	prim.Attributes["POSITION"] = acc(gltfAccessor{View: view(12*nv, gltfArrayBuffer), ComponentType: gltfFloat,
		Count: nv, Type: "VEC3", Min: lo[:], Max: hi[:]})
	prim.Indices = acc(gltfAccessor{View: view(4*ni, gltfElementArray), ComponentType: gltfUint32, Count: ni, Type: "SCALAR"})
	return prim, true
}
