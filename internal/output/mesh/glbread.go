package mesh

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
)

// ReadGLB reads the triangles of a binary glTF 2.0 file as one Shape: every
// mesh the default scene's nodes draw (all root nodes where there is no
// scene), placed by the nodes' transforms. Only what a small asset needs
// is read: triangle-list primitives (mode 4) with float POSITION and
// optional unsigned indices, from the file's own binary chunk. Points and
// lines are read past; strips, fans, sparse accessors, external or
// embedded-URI buffers and required extensions are refused by name, as
// everything else malformed is. Materials, normals and UVs are not used.
func ReadGLB(name string, data []byte) (*Shape, error) {
	if len(data) > MaxShapeBytes {
		return nil, fmt.Errorf("%s: over %d MiB, the most a surface file may hold", name, MaxShapeBytes>>20)
	}
	doc, bin, err := glbChunks(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	r := glbReader{doc: doc, bin: bin, s: &Shape{}}
	if err := r.scene(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(r.s.FaceSizes) == 0 {
		return nil, fmt.Errorf("%s: no triangles: an asset needs at least one", name)
	}
	return r.s, nil
}

// glbDoc is the part of the glTF JSON ReadGLB reads.
type glbDoc struct {
	ExtensionsRequired []string `json:"extensionsRequired"`
	Scene              *int     `json:"scene"`
	Scenes             []struct {
		Nodes []int `json:"nodes"`
	} `json:"scenes"`
	Nodes []struct {
		Mesh        *int      `json:"mesh"`
		Children    []int     `json:"children"`
		Matrix      []float64 `json:"matrix"`
		Translation []float64 `json:"translation"`
		Rotation    []float64 `json:"rotation"`
		Scale       []float64 `json:"scale"`
		Extensions  *struct{} `json:"extensions"`
	} `json:"nodes"`
	Meshes []struct {
		Primitives []struct {
			Attributes map[string]int `json:"attributes"`
			Indices    *int           `json:"indices"`
			Mode       *int           `json:"mode"`
		} `json:"primitives"`
	} `json:"meshes"`
	Accessors []struct {
		BufferView    *int      `json:"bufferView"`
		ByteOffset    int       `json:"byteOffset"`
		ComponentType int       `json:"componentType"`
		Count         int       `json:"count"`
		Type          string    `json:"type"`
		Sparse        *struct{} `json:"sparse"`
	} `json:"accessors"`
	BufferViews []struct {
		Buffer     int  `json:"buffer"`
		ByteOffset int  `json:"byteOffset"`
		ByteLength int  `json:"byteLength"`
		ByteStride *int `json:"byteStride"`
	} `json:"bufferViews"`
	Buffers []struct {
		URI *string `json:"uri"`
	} `json:"buffers"`
}

// glbChunks splits a GLB into its JSON document and binary chunk.
func glbChunks(data []byte) (*glbDoc, []byte, error) {
	le := binary.LittleEndian
	if len(data) < 20 || string(data[:4]) != "glTF" {
		return nil, nil, fmt.Errorf("not a binary glTF file (no \"glTF\" header)")
	}
	if v := le.Uint32(data[4:]); v != 2 {
		return nil, nil, fmt.Errorf("glTF version %d, want 2", v)
	}
	var doc glbDoc
	var bin []byte
	at, total := 12, int(min(uint64(le.Uint32(data[8:])), uint64(len(data))))
	for k := 0; at+8 <= total; k++ {
		n, typ := int(le.Uint32(data[at:])), le.Uint32(data[at+4:])
		if n < 0 || n > total-at-8 {
			return nil, nil, fmt.Errorf("chunk %d of %d bytes runs past the file's end", k, n)
		}
		body := data[at+8 : at+8+n]
		switch {
		case k == 0 && typ == 0x4E4F534A:
			if err := json.Unmarshal(body, &doc); err != nil {
				return nil, nil, fmt.Errorf("JSON chunk: %w", err)
			}
		case k == 0:
			return nil, nil, fmt.Errorf("first chunk is not JSON")
		case k == 1 && typ == 0x004E4942:
			bin = body
		}
		at += 8 + n
	}
	if len(doc.ExtensionsRequired) > 0 {
		return nil, nil, fmt.Errorf("extensions %v required, none is read", doc.ExtensionsRequired)
	}
	return &doc, bin, nil
}

type glbReader struct {
	doc   *glbDoc
	bin   []byte
	s     *Shape
	depth int
}

// scene reads the nodes of the default scene, or every root node.
func (r *glbReader) scene() error {
	var roots []int
	switch {
	case r.doc.Scene != nil && (*r.doc.Scene < 0 || *r.doc.Scene >= len(r.doc.Scenes)):
		return fmt.Errorf("scene %d does not exist", *r.doc.Scene)
	case r.doc.Scene != nil:
		roots = r.doc.Scenes[*r.doc.Scene].Nodes
	case len(r.doc.Scenes) > 0:
		roots = r.doc.Scenes[0].Nodes
	default:
		child := make([]bool, len(r.doc.Nodes))
		for _, n := range r.doc.Nodes {
			for _, c := range n.Children {
				if c >= 0 && c < len(child) {
					child[c] = true
				}
			}
		}
		for i, c := range child {
			if !c {
				roots = append(roots, i)
			}
		}
	}
	id := [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
	for _, n := range roots {
		if err := r.node(n, &id); err != nil {
			return err
		}
	}
	return nil
}

// glbMaxDepth bounds node nesting (a cycle is malformed glTF).
const glbMaxDepth = 64

// node adds node i's mesh under parent (column-major, as glTF's matrix)
// and then its children's.
func (r *glbReader) node(i int, parent *[16]float64) error {
	if i < 0 || i >= len(r.doc.Nodes) {
		return fmt.Errorf("node %d does not exist", i)
	}
	if r.depth++; r.depth > glbMaxDepth {
		return fmt.Errorf("nodes nested more than %d deep (a cycle?)", glbMaxDepth)
	}
	defer func() { r.depth-- }()
	n := &r.doc.Nodes[i]
	if n.Extensions != nil {
		// EXT_mesh_gpu_instancing and others would place the mesh in ways
		// not read here; a used but optional extension still changes what
		// is drawn.
		return fmt.Errorf("node %d: node extensions are not read", i)
	}
	local, err := nodeMatrix(n.Matrix, n.Translation, n.Rotation, n.Scale)
	if err != nil {
		return fmt.Errorf("node %d: %w", i, err)
	}
	m := mul4(parent, &local)
	if n.Mesh != nil {
		if err := r.mesh(*n.Mesh, &m); err != nil {
			return fmt.Errorf("node %d: %w", i, err)
		}
	}
	for _, c := range n.Children {
		if err := r.node(c, &m); err != nil {
			return err
		}
	}
	return nil
}

// nodeMatrix is a node's local transform, column-major.
func nodeMatrix(mat, t, q, s []float64) ([16]float64, error) {
	var m [16]float64
	if mat != nil {
		if len(mat) != 16 {
			return m, fmt.Errorf("matrix of %d numbers, want 16", len(mat))
		}
		copy(m[:], mat)
		return m, nil
	}
	tr, rot, sc := [3]float64{}, [4]float64{0, 0, 0, 1}, [3]float64{1, 1, 1}
	for _, f := range []struct {
		v   []float64
		dst []float64
	}{{t, tr[:]}, {q, rot[:]}, {s, sc[:]}} {
		if f.v != nil && len(f.v) != len(f.dst) {
			return m, fmt.Errorf("translation, rotation or scale of %d numbers", len(f.v))
		}
		copy(f.dst, f.v)
	}
	in := Instance{Q: [4]float32{float32(rot[0]), float32(rot[1]), float32(rot[2]), float32(rot[3])}}
	rm := in.rotation()
	for c := range 3 {
		for row := range 3 {
			m[4*c+row] = rm[row][c] * sc[c]
		}
		m[12+c] = tr[c]
	}
	m[15] = 1
	return m, nil
}

func mul4(a, b *[16]float64) [16]float64 {
	var m [16]float64
	for c := range 4 {
		for row := range 4 {
			for k := range 4 {
				m[4*c+row] += a[4*k+row] * b[4*c+k]
			}
		}
	}
	return m
}

// mesh adds mesh i's triangle primitives, transformed by m.
func (r *glbReader) mesh(i int, m *[16]float64) error {
	if i < 0 || i >= len(r.doc.Meshes) {
		return fmt.Errorf("mesh %d does not exist", i)
	}
	for k, p := range r.doc.Meshes[i].Primitives {
		mode := 4
		if p.Mode != nil {
			mode = *p.Mode
		}
		if mode < 4 {
			continue // points and lines: no faces
		}
		if mode != 4 {
			return fmt.Errorf("mesh %d primitive %d: mode %d (strips and fans are not read)", i, k, mode)
		}
		pos, ok := p.Attributes["POSITION"]
		if !ok {
			return fmt.Errorf("mesh %d primitive %d: no POSITION", i, k)
		}
		vs, err := r.floats3(pos)
		if err != nil {
			return fmt.Errorf("mesh %d primitive %d: %w", i, k, err)
		}
		var idx []uint32
		if p.Indices != nil {
			if idx, err = r.indices(*p.Indices, len(vs)); err != nil {
				return fmt.Errorf("mesh %d primitive %d: %w", i, k, err)
			}
		} else {
			for j := range vs {
				idx = append(idx, uint32(j))
			}
		}
		if len(r.s.Positions)+len(vs) > math.MaxInt32 {
			return fmt.Errorf("too many positions")
		}
		p0 := int32(len(r.s.Positions))
		for _, v := range vs {
			var w [3]float32
			for row := range 3 {
				w[row] = float32(m[row]*v[0] + m[4+row]*v[1] + m[8+row]*v[2] + m[12+row])
			}
			r.s.Positions = append(r.s.Positions, w)
		}
		for j := 0; j+3 <= len(idx); j += 3 {
			r.s.Faces = append(r.s.Faces, p0+int32(idx[j]), p0+int32(idx[j+1]), p0+int32(idx[j+2]))
			r.s.FaceSizes = append(r.s.FaceSizes, 3)
		}
	}
	return nil
}

// view is accessor a's bytes: element j at out[j*stride:], size bytes.
func (r *glbReader) view(a, size int) (out []byte, stride, count int, err error) {
	if a < 0 || a >= len(r.doc.Accessors) {
		return nil, 0, 0, fmt.Errorf("accessor %d does not exist", a)
	}
	acc := &r.doc.Accessors[a]
	if acc.Sparse != nil {
		return nil, 0, 0, fmt.Errorf("accessor %d is sparse (not read)", a)
	}
	if acc.BufferView == nil || *acc.BufferView < 0 || *acc.BufferView >= len(r.doc.BufferViews) {
		return nil, 0, 0, fmt.Errorf("accessor %d has no buffer view", a)
	}
	bv := &r.doc.BufferViews[*acc.BufferView]
	if bv.Buffer != 0 || len(r.doc.Buffers) == 0 || r.doc.Buffers[0].URI != nil {
		return nil, 0, 0, fmt.Errorf("accessor %d: data outside the file's binary chunk (not read)", a)
	}
	stride = size
	if bv.ByteStride != nil {
		stride = *bv.ByteStride
	}
	lo := int64(bv.ByteOffset) + int64(acc.ByteOffset)
	end := lo + int64(acc.Count-1)*int64(stride) + int64(size)
	if acc.Count < 1 || stride < size || bv.ByteOffset < 0 || acc.ByteOffset < 0 || bv.ByteLength < 0 ||
		end > int64(bv.ByteOffset)+int64(bv.ByteLength) || end > int64(len(r.bin)) {
		return nil, 0, 0, fmt.Errorf("accessor %d: %d elements run past its buffer view or the binary chunk", a, acc.Count)
	}
	return r.bin[lo:end], stride, acc.Count, nil
}

// floats3 reads a float VEC3 accessor.
func (r *glbReader) floats3(a int) ([][3]float64, error) {
	if a < 0 || a >= len(r.doc.Accessors) || r.doc.Accessors[a].ComponentType != 5126 || r.doc.Accessors[a].Type != "VEC3" {
		return nil, fmt.Errorf("POSITION accessor %d is not float VEC3", a)
	}
	b, stride, n, err := r.view(a, 12)
	if err != nil {
		return nil, err
	}
	out := make([][3]float64, n)
	for j := range out {
		for k := range 3 {
			x := float64(math.Float32frombits(binary.LittleEndian.Uint32(b[j*stride+4*k:])))
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("position %d not finite", j)
			}
			out[j][k] = x
		}
	}
	return out, nil
}

// indices reads an unsigned SCALAR accessor of indices below n.
func (r *glbReader) indices(a, n int) ([]uint32, error) {
	size := 0
	if a >= 0 && a < len(r.doc.Accessors) && r.doc.Accessors[a].Type == "SCALAR" {
		size = map[int]int{5121: 1, 5123: 2, 5125: 4}[r.doc.Accessors[a].ComponentType]
	}
	if size == 0 {
		return nil, fmt.Errorf("indices accessor %d is not an unsigned SCALAR", a)
	}
	b, stride, count, err := r.view(a, size)
	if err != nil {
		return nil, err
	}
	out := make([]uint32, count)
	for j := range out {
		e := b[j*stride:]
		switch size {
		case 1:
			out[j] = uint32(e[0])
		case 2:
			out[j] = uint32(binary.LittleEndian.Uint16(e))
		default:
			out[j] = binary.LittleEndian.Uint32(e)
		}
		if int64(out[j]) >= int64(n) {
			return nil, fmt.Errorf("index %d names position %d of %d", j, out[j], n)
		}
	}
	return out, nil
}
