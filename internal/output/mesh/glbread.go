package mesh

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// The glTF JSON a surface needs, as ReadGLB reads it (glTF 2.0 spec,
// sections "Scenes", "Nodes and Hierarchy", "Meshes", "Accessors",
// "Buffers and Buffer Views" and "GLB File Format Specification").
type (
	glbInDoc struct {
		ExtensionsRequired []string      `json:"extensionsRequired"`
		Scene              *int          `json:"scene"`
		Scenes             []glbInScene  `json:"scenes"`
		Nodes              []glbInNode   `json:"nodes"`
		Meshes             []glbInMesh   `json:"meshes"`
		Accessors          []glbInAcc    `json:"accessors"`
		BufferViews        []glbInView   `json:"bufferViews"`
		Buffers            []glbInBuffer `json:"buffers"`
	}
	glbInScene struct {
		Nodes []int `json:"nodes"`
	}
	glbInNode struct {
		Children    []int      `json:"children"`
		Mesh        *int       `json:"mesh"`
		Matrix      []float64  `json:"matrix"`
		Translation []float64  `json:"translation"`
		Rotation    []float64  `json:"rotation"`
		Scale       []float64  `json:"scale"`
		Extensions  extensions `json:"extensions"`
	}
	glbInMesh struct {
		Primitives []glbInPrim `json:"primitives"`
	}
	glbInPrim struct {
		Attributes map[string]int `json:"attributes"`
		Indices    *int           `json:"indices"`
		Mode       *int           `json:"mode"`
		Extensions extensions     `json:"extensions"`
	}
	glbInAcc struct {
		View          *int            `json:"bufferView"`
		ByteOffset    int             `json:"byteOffset"`
		ComponentType int             `json:"componentType"`
		Count         int             `json:"count"`
		Type          string          `json:"type"`
		Sparse        json.RawMessage `json:"sparse"`
	}
	glbInView struct {
		Buffer     int        `json:"buffer"`
		ByteOffset int        `json:"byteOffset"`
		ByteLength int        `json:"byteLength"`
		ByteStride int        `json:"byteStride"`
		Extensions extensions `json:"extensions"`
	}
	glbInBuffer struct {
		URI        string `json:"uri"`
		ByteLength int    `json:"byteLength"`
	}
	extensions map[string]json.RawMessage
)

// ResolveFunc reads the external buffer uri of a GLB, relative to the GLB
// file; nil means a GLB may have none.
type ResolveFunc func(uri string) ([]byte, error)

// maxNodeDepth bounds the node hierarchy walked: glTF's nodes form trees,
// and a deeper one is a malformed (or hostile) file.
const maxNodeDepth = 64

// ReadGLB reads a binary glTF 2.0 file as a Shape: the triangle meshes of
// its default scene (the scene property, else the first scene), each with
// its node's transform (matrix or translation, rotation, scale, down the
// hierarchy) applied; POSITION, NORMAL when every primitive has it and
// every normal has a direction (transformed by the inverse transpose and
// normalised), and indices of
// 8, 16 or 32 bits or none. Materials, texture coordinates, skins and
// animations are read past. Refused, with errors naming name and the
// JSON element: required extensions (Draco, meshopt, quantisation), sparse
// or buffer-less accessors, modes other than triangles, external buffers
// resolve cannot read, and anything out of its buffer's bounds. Every
// count is checked against the bytes it lies in before anything is
// allocated from it, and the shape against MaxShapeBytes.
func ReadGLB(name string, data []byte, resolve ResolveFunc) (*Shape, error) {
	s, err := readGLB(data, resolve)
	if err != nil {
		return nil, fmt.Errorf("%s: glb: %w", name, err)
	}
	return s, nil
}

func readGLB(data []byte, resolve ResolveFunc) (*Shape, error) {
	if len(data) > MaxShapeBytes {
		return nil, fmt.Errorf("over %d MiB, the most a surface file may hold", MaxShapeBytes>>20)
	}
	js, bin, err := glbChunks(data)
	if err != nil {
		return nil, err
	}
	var doc glbInDoc
	dec := json.NewDecoder(bytes.NewReader(js))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("JSON chunk: %w", err)
	}
	if len(doc.ExtensionsRequired) > 0 {
		return nil, fmt.Errorf("requires extension %s, which procgen does not read (Draco and meshopt compression, "+
			"quantisation): write the mesh uncompressed", strings.Join(doc.ExtensionsRequired, ", "))
	}
	r := &glbReader{doc: &doc, bin: bin, resolve: resolve, buffers: make([][]byte, len(doc.Buffers)),
		normals: true, limit: MaxShapeBytes / 4}
	roots, err := r.sceneRoots()
	if err != nil {
		return nil, err
	}
	for _, n := range roots {
		if err := r.node(n, identity(), 0); err != nil {
			return nil, err
		}
	}
	if len(r.s.FaceSizes) == 0 {
		return nil, fmt.Errorf("no triangles in the default scene: a surface needs at least one")
	}
	if !r.normals {
		r.s.Normals = nil
	}
	return &r.s, nil
}

// glbChunks splits a GLB into its JSON chunk and its BIN chunk (nil if
// none).
func glbChunks(data []byte) (js, bin []byte, err error) {
	le := binary.LittleEndian
	if len(data) < 20 || le.Uint32(data) != glbMagic {
		return nil, nil, fmt.Errorf("not a binary glTF file (no glTF header)")
	}
	if v := le.Uint32(data[4:]); v != glbVersion {
		return nil, nil, fmt.Errorf("glTF version %d, want 2", v)
	}
	if n := le.Uint32(data[8:]); uint64(n) != uint64(len(data)) {
		return nil, nil, fmt.Errorf("header says %d bytes, the file has %d (truncated?)", n, len(data))
	}
	at := 12
	for k := 0; at < len(data); k++ {
		if len(data)-at < 8 {
			return nil, nil, fmt.Errorf("chunk %d: truncated header at byte %d", k, at)
		}
		n, typ := le.Uint32(data[at:]), le.Uint32(data[at+4:])
		at += 8
		if uint64(n) > uint64(len(data)-at) {
			return nil, nil, fmt.Errorf("chunk %d: %d bytes past the end of the file", k, n)
		}
		body := data[at : at+int(n)]
		at += int(n)
		switch {
		case k == 0 && typ != glbChunkJSON:
			return nil, nil, fmt.Errorf("first chunk is not JSON")
		case k == 0:
			js = body
		case k == 1 && typ == glbChunkBIN:
			bin = body
		}
	}
	return js, bin, nil
}

// glbReader gathers the shape of a document; limit is the positions plus
// indices it may still add.
type glbReader struct {
	doc     *glbInDoc
	bin     []byte
	resolve ResolveFunc
	buffers [][]byte
	s       Shape
	normals bool // every primitive so far had NORMAL
	limit   int
}

func (r *glbReader) sceneRoots() ([]int, error) {
	sc := 0
	if r.doc.Scene != nil {
		sc = *r.doc.Scene
	}
	if sc < 0 || sc >= len(r.doc.Scenes) {
		return nil, fmt.Errorf("no scene %d (%d scenes): a surface is the default scene's meshes", sc, len(r.doc.Scenes))
	}
	return r.doc.Scenes[sc].Nodes, nil
}

// node adds the meshes of node n and its descendants under the transform
// parent.
func (r *glbReader) node(n int, parent mat4, depth int) error {
	if n < 0 || n >= len(r.doc.Nodes) {
		return fmt.Errorf("no node %d (%d nodes)", n, len(r.doc.Nodes))
	}
	if depth >= maxNodeDepth {
		return fmt.Errorf("nodes[%d]: nodes nested over %d deep (a cycle?)", n, maxNodeDepth)
	}
	nd := &r.doc.Nodes[n]
	if nd.Extensions["EXT_mesh_gpu_instancing"] != nil {
		return fmt.Errorf("nodes[%d]: EXT_mesh_gpu_instancing is not read: a surface is one mesh", n)
	}
	local, err := nd.transform()
	if err != nil {
		return fmt.Errorf("nodes[%d]: %w", n, err)
	}
	m := parent.mul(local)
	if nd.Mesh != nil {
		if *nd.Mesh < 0 || *nd.Mesh >= len(r.doc.Meshes) {
			return fmt.Errorf("nodes[%d]: no mesh %d (%d meshes)", n, *nd.Mesh, len(r.doc.Meshes))
		}
		for i := range r.doc.Meshes[*nd.Mesh].Primitives {
			if err := r.primitive(&r.doc.Meshes[*nd.Mesh].Primitives[i], m); err != nil {
				return fmt.Errorf("meshes[%d].primitives[%d]: %w", *nd.Mesh, i, err)
			}
		}
	}
	for _, c := range nd.Children {
		if err := r.node(c, m, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// primitive adds one triangle primitive under the transform m.
func (r *glbReader) primitive(p *glbInPrim, m mat4) error {
	if p.Mode != nil && *p.Mode != gltfTriangles {
		return fmt.Errorf("mode %d: a surface is read from triangles (mode 4) only", *p.Mode)
	}
	for _, ext := range []string{"KHR_draco_mesh_compression"} {
		if p.Extensions[ext] != nil {
			return fmt.Errorf("compressed with %s, which procgen does not read: write the mesh uncompressed", ext)
		}
	}
	pa, ok := p.Attributes["POSITION"]
	if !ok {
		return fmt.Errorf("no POSITION attribute")
	}
	pos, err := r.floats(pa, "POSITION")
	if err != nil {
		return err
	}
	var nrm [][3]float32
	if na, ok := p.Attributes["NORMAL"]; ok {
		if nrm, err = r.floats(na, "NORMAL"); err != nil {
			return err
		}
		if len(nrm) != len(pos) {
			return fmt.Errorf("%d normals for %d positions", len(nrm), len(pos))
		}
	}
	var idx []uint32
	if p.Indices != nil {
		if idx, err = r.indices(*p.Indices, len(pos)); err != nil {
			return err
		}
	} else {
		if len(pos)%3 != 0 {
			return fmt.Errorf("%d positions without indices: not whole triangles", len(pos))
		}
		idx = make([]uint32, len(pos))
		for i := range idx {
			idx[i] = uint32(i)
		}
	}
	if len(idx)%3 != 0 {
		return fmt.Errorf("%d indices: not whole triangles", len(idx))
	}
	if r.limit -= len(pos) + len(idx); r.limit < 0 {
		return fmt.Errorf("over %d vertices and indices in all: a surface is meant to be small", MaxShapeBytes/4)
	}
	r.add(pos, nrm, idx, m)
	return nil
}

// add appends a primitive's transformed positions, normals and triangles.
// A transform that mirrors (negative determinant) turns the triangles'
// winding, as glTF says, so they are flipped back to face outwards.
func (r *glbReader) add(pos, nrm [][3]float32, idx []uint32, m mat4) {
	base := int32(len(r.s.Positions))
	for _, p := range pos {
		r.s.Positions = append(r.s.Positions, m.point(p))
	}
	if nrm == nil {
		r.normals = false
	} else if r.normals {
		nm := m.normalMatrix()
		for _, n := range nrm {
			d, ok := nm.direction(n)
			// A normal with no direction cannot be written (glTF's normals
			// are unit vectors): the faces' own normals serve instead.
			r.normals = r.normals && ok
			r.s.Normals = append(r.s.Normals, d)
		}
	}
	flip := m.det3() < 0
	for t := 0; t < len(idx); t += 3 {
		a, b, c := int32(idx[t]), int32(idx[t+1]), int32(idx[t+2])
		if flip {
			b, c = c, b
		}
		r.s.Faces = append(r.s.Faces, base+a, base+b, base+c)
		r.s.FaceSizes = append(r.s.FaceSizes, 3)
	}
}

// accessor returns accessor i's element bytes: count elements of size
// bytes each, stride apart, all checked to lie in its buffer view.
func (r *glbReader) accessor(i int, what string) (a *glbInAcc, raw []byte, stride int, err error) {
	if i < 0 || i >= len(r.doc.Accessors) {
		return nil, nil, 0, fmt.Errorf("%s: no accessor %d (%d accessors)", what, i, len(r.doc.Accessors))
	}
	a = &r.doc.Accessors[i]
	fail := func(format string, args ...any) ([]byte, int, error) {
		return nil, 0, fmt.Errorf("%s: accessors[%d]: %s", what, i, fmt.Sprintf(format, args...))
	}
	raw, stride, err = func() ([]byte, int, error) {
		if a.Sparse != nil {
			return fail("sparse accessors are not read")
		}
		if a.View == nil {
			return fail("no bufferView (all zeros): nothing to read")
		}
		size, ok := elementSize(a.ComponentType, a.Type)
		if !ok {
			return fail("component type %d of %s is not a glTF accessor type", a.ComponentType, a.Type)
		}
		if a.Count < 1 || a.ByteOffset < 0 || a.ByteOffset%componentSize(a.ComponentType) != 0 {
			return fail("count %d or byteOffset %d invalid", a.Count, a.ByteOffset)
		}
		view, err := r.view(*a.View)
		if err != nil {
			return fail("%v", err)
		}
		stride := r.doc.BufferViews[*a.View].ByteStride
		if stride == 0 {
			stride = size
		}
		if stride < size || stride > 252 {
			return fail("byteStride %d for elements of %d bytes", stride, size)
		}
		// count is checked against the view's bytes before anything is
		// made from it.
		if a.ByteOffset > len(view) || (len(view)-a.ByteOffset-size)/stride+1 < a.Count || len(view)-a.ByteOffset < size {
			return fail("%d elements of %d bytes, %d apart, from byte %d do not fit its view of %d bytes",
				a.Count, size, stride, a.ByteOffset, len(view))
		}
		return view[a.ByteOffset:], stride, nil
	}()
	return a, raw, stride, err
}

// floats reads a float VEC3 accessor, every value finite.
func (r *glbReader) floats(i int, what string) ([][3]float32, error) {
	a, raw, stride, err := r.accessor(i, what)
	if err != nil {
		return nil, err
	}
	if a.ComponentType != gltfFloat || a.Type != "VEC3" {
		return nil, fmt.Errorf("%s: accessors[%d]: %s of component type %d, want VEC3 of floats (5126; quantised "+
			"attributes are not read)", what, i, a.Type, a.ComponentType)
	}
	out := make([][3]float32, a.Count)
	for k := range out {
		e := raw[k*stride:]
		for j := range 3 {
			v := math.Float32frombits(binary.LittleEndian.Uint32(e[4*j:]))
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("%s: accessors[%d]: element %d is not finite", what, i, k)
			}
			out[k][j] = v
		}
	}
	return out, nil
}

// indices reads a SCALAR accessor of unsigned 8, 16 or 32-bit indices,
// each below n.
func (r *glbReader) indices(i, n int) ([]uint32, error) {
	a, raw, stride, err := r.accessor(i, "indices")
	if err != nil {
		return nil, err
	}
	if a.Type != "SCALAR" || a.ComponentType != gltfUint8 && a.ComponentType != gltfUint16 && a.ComponentType != gltfUint32 {
		return nil, fmt.Errorf("indices: accessors[%d]: %s of component type %d, want SCALAR of 5121, 5123 or 5125",
			i, a.Type, a.ComponentType)
	}
	out := make([]uint32, a.Count)
	for k := range out {
		e := raw[k*stride:]
		switch a.ComponentType {
		case gltfUint8:
			out[k] = uint32(e[0])
		case gltfUint16:
			out[k] = uint32(binary.LittleEndian.Uint16(e))
		default:
			out[k] = binary.LittleEndian.Uint32(e)
		}
		if uint64(out[k]) >= uint64(n) {
			return nil, fmt.Errorf("indices: accessors[%d]: index %d of element %d out of range: %d vertices", i, out[k], k, n)
		}
	}
	return out, nil
}

// view returns buffer view i's bytes.
func (r *glbReader) view(i int) ([]byte, error) {
	if i < 0 || i >= len(r.doc.BufferViews) {
		return nil, fmt.Errorf("no bufferView %d (%d views)", i, len(r.doc.BufferViews))
	}
	v := &r.doc.BufferViews[i]
	for ext := range v.Extensions {
		if strings.Contains(ext, "meshopt") {
			return nil, fmt.Errorf("bufferViews[%d]: compressed with %s, which procgen does not read: write the mesh uncompressed", i, ext)
		}
	}
	buf, err := r.buffer(v.Buffer)
	if err != nil {
		return nil, fmt.Errorf("bufferViews[%d]: %w", i, err)
	}
	if v.ByteOffset < 0 || v.ByteLength < 1 || v.ByteOffset > len(buf) || v.ByteLength > len(buf)-v.ByteOffset {
		return nil, fmt.Errorf("bufferViews[%d]: bytes %d+%d outside its buffer of %d", i, v.ByteOffset, v.ByteLength, len(buf))
	}
	return buf[v.ByteOffset : v.ByteOffset+v.ByteLength], nil
}

// buffer returns buffer i's bytes: the BIN chunk, a data: URI or what
// resolve reads.
func (r *glbReader) buffer(i int) ([]byte, error) {
	if i < 0 || i >= len(r.doc.Buffers) {
		return nil, fmt.Errorf("no buffer %d (%d buffers)", i, len(r.doc.Buffers))
	}
	if r.buffers[i] != nil {
		return r.buffers[i], nil
	}
	b := &r.doc.Buffers[i]
	var data []byte
	switch {
	case b.URI == "" && i == 0:
		if r.bin == nil {
			return nil, fmt.Errorf("buffers[0] is the BIN chunk, and the file has none")
		}
		data = r.bin
	case b.URI == "":
		return nil, fmt.Errorf("buffers[%d] has no uri (only buffer 0 may be the BIN chunk)", i)
	case strings.HasPrefix(b.URI, "data:"):
		comma := strings.IndexByte(b.URI, ',')
		if comma < 0 || !strings.HasSuffix(b.URI[:comma], ";base64") {
			return nil, fmt.Errorf("buffers[%d]: data URI is not base64", i)
		}
		d, err := base64.StdEncoding.DecodeString(b.URI[comma+1:])
		if err != nil {
			return nil, fmt.Errorf("buffers[%d]: data URI: %w", i, err)
		}
		data = d
	case r.resolve == nil:
		return nil, fmt.Errorf("buffers[%d]: external buffer %q cannot be read here", i, b.URI)
	default:
		d, err := r.resolve(b.URI)
		if err != nil {
			return nil, fmt.Errorf("buffers[%d]: external buffer %q: %w", i, b.URI, err)
		}
		data = d
	}
	if b.ByteLength < 1 || b.ByteLength > len(data) {
		return nil, fmt.Errorf("buffers[%d]: byteLength %d, but %d bytes are there", i, b.ByteLength, len(data))
	}
	r.buffers[i] = data[:b.ByteLength]
	return r.buffers[i], nil
}

// componentSize is the bytes of a glTF component type, 0 if unknown.
func componentSize(ct int) int {
	switch ct {
	case 5120, gltfUint8:
		return 1
	case 5122, gltfUint16:
		return 2
	case gltfUint32, gltfFloat:
		return 4
	}
	return 0
}

// elementSize is the bytes of an accessor element, without the padding
// of matrix columns (only scalars and vectors are read).
func elementSize(ct int, typ string) (int, bool) {
	n := map[string]int{"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[typ]
	c := componentSize(ct)
	return n * c, n > 0 && c > 0
}
