package pga

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"unsafe"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// glTF 2.0 binary container constants (glTF spec, section "GLB File Format").
const (
	glbMagic     = 0x46546C67 // "glTF"
	glbVersion   = 2
	glbChunkJSON = 0x4E4F534A // "JSON"
	glbChunkBIN  = 0x004E4942 // "BIN\0"

	gltfFloat        = 5126
	gltfUnsignedInt  = 5125
	gltfArrayBuffer  = 34962
	gltfElementArray = 34963
	gltfTriangles    = 4
)

// maxGLBBytes is the most a GLB may hold: its length field is 32 bits.
const maxGLBBytes = math.MaxUint32

type gltfDoc struct {
	Asset       map[string]string `json:"asset"`
	Scene       int               `json:"scene"`
	Scenes      []gltfScene       `json:"scenes"`
	Nodes       []gltfNode        `json:"nodes,omitempty"`
	Meshes      []gltfMesh        `json:"meshes,omitempty"`
	Materials   []gltfMaterial    `json:"materials,omitempty"`
	Accessors   []gltfAccessor    `json:"accessors,omitempty"`
	BufferViews []gltfBufferView  `json:"bufferViews,omitempty"`
	Buffers     []gltfBuffer      `json:"buffers,omitempty"`
}

type gltfScene struct {
	Nodes []int `json:"nodes"`
}

type gltfNode struct {
	Name string `json:"name"`
	Mesh int    `json:"mesh"`
}

type gltfMesh struct {
	Name       string          `json:"name"`
	Primitives []gltfPrimitive `json:"primitives"`
}

type gltfPrimitive struct {
	Attributes map[string]int `json:"attributes"`
	Indices    int            `json:"indices"`
	Material   int            `json:"material"`
	Mode       int            `json:"mode"`
}

type gltfMaterial struct {
	Name        string `json:"name"`
	DoubleSided bool   `json:"doubleSided"`
	PBR         struct {
		BaseColorFactor [4]float64 `json:"baseColorFactor"`
		Metallic        float64    `json:"metallicFactor"`
		Roughness       float64    `json:"roughnessFactor"`
	} `json:"pbrMetallicRoughness"`
}

type gltfAccessor struct {
	BufferView    int       `json:"bufferView"`
	ComponentType int       `json:"componentType"`
	Count         int       `json:"count"`
	Type          string    `json:"type"`
	Min           []float32 `json:"min,omitempty"`
	Max           []float32 `json:"max,omitempty"`
}

type gltfBufferView struct {
	Buffer     int `json:"buffer"`
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
	Target     int `json:"target"`
}

type gltfBuffer struct {
	ByteLength int `json:"byteLength"`
}

// EncodeGLB writes ts as binary glTF 2.0: one mesh, node and material per
// terminal name, each a triangle list with its own corners per face (flat
// normals), float32 POSITION and NORMAL, uint32 indices. Coordinates are
// metres with Y up, as glTF expects. Meshes are built on all cores, chunk
// by chunk of terminals, and the binary chunk is streamed from them.
// It stops with ctx's error between meshes.
func (g *Grammar) EncodeGLB(ctx context.Context, w io.Writer, ts []TerminalShape) error {
	return g.EncodeGLBProgress(ctx, w, ts, nil)
}

// EncodeGLBProgress is EncodeGLB telling progress, when not nil, how many
// terminals are meshed (of len(ts)); calls are serialized.
func (g *Grammar) EncodeGLBProgress(ctx context.Context, w io.Writer, ts []TerminalShape, progress func(done, total int64)) error {
	tk := newTicker(len(ts), progress)
	doc := gltfDoc{Asset: map[string]string{"version": "2.0", "generator": "procgen pga"}, Scenes: []gltfScene{{Nodes: []int{}}}}
	var pieces [][]byte // the binary chunk, in order
	binLen := 0
	view := func(b []byte, target int) int {
		doc.BufferViews = append(doc.BufferViews, gltfBufferView{ByteOffset: binLen, ByteLength: len(b), Target: target})
		pieces = append(pieces, b) // every piece is a multiple of 4 bytes, so offsets stay aligned
		binLen += len(b)
		return len(doc.BufferViews) - 1
	}
	names, groups := g.byName(ts)
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return err
		}
		m := g.glbMesh(ctx, ts, groups[name], tk)
		if err := ctx.Err(); err != nil {
			return err
		}
		if int64(len(m.pos)/3) > math.MaxUint32 {
			return fmt.Errorf("pga: glb: %d vertices in mesh %s, over the uint32 index range", len(m.pos)/3, name)
		}
		acc := func(v int, ct, count int, typ string, mn, mx []float32) int {
			doc.Accessors = append(doc.Accessors, gltfAccessor{BufferView: v, ComponentType: ct, Count: count, Type: typ, Min: mn, Max: mx})
			return len(doc.Accessors) - 1
		}
		pa := acc(view(le(m.pos), gltfArrayBuffer), gltfFloat, len(m.pos)/3, "VEC3", m.lo[:], m.hi[:])
		na := acc(view(le(m.nrm), gltfArrayBuffer), gltfFloat, len(m.nrm)/3, "VEC3", nil, nil)
		ia := acc(view(le(m.idx), gltfElementArray), gltfUnsignedInt, len(m.idx), "SCALAR", nil, nil)
		var mat gltfMaterial
		mat.Name, mat.DoubleSided = name, true
		c := g.MaterialColor(name)
		mat.PBR.BaseColorFactor = [4]float64{c[0], c[1], c[2], 1}
		mat.PBR.Roughness = 0.9
		doc.Materials = append(doc.Materials, mat)
		doc.Meshes = append(doc.Meshes, gltfMesh{Name: name, Primitives: []gltfPrimitive{{
			Attributes: map[string]int{"POSITION": pa, "NORMAL": na}, Indices: ia,
			Material: len(doc.Materials) - 1, Mode: gltfTriangles}}})
		doc.Nodes = append(doc.Nodes, gltfNode{Name: name, Mesh: len(doc.Meshes) - 1})
		doc.Scenes[0].Nodes = append(doc.Scenes[0].Nodes, len(doc.Nodes)-1)
	}
	doc.Buffers = []gltfBuffer{{ByteLength: binLen}}
	if binLen == 0 {
		// A buffer must have a positive length; an empty scene has none.
		doc.Buffers, doc.BufferViews = nil, nil
	}
	js, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	js = pad(js, ' ')
	total := 12 + 8 + len(js)
	if binLen > 0 {
		total += 8 + binLen
	}
	if int64(total) > maxGLBBytes {
		return errors.New("pga: glb: over 4 GiB, the most a GLB file can hold; write OBJ instead")
	}
	hdr := []uint32{glbMagic, glbVersion, uint32(total), uint32(len(js)), glbChunkJSON}
	if err := binary.Write(w, binary.LittleEndian, hdr); err != nil {
		return err
	}
	if _, err := w.Write(js); err != nil {
		return err
	}
	if binLen == 0 {
		return nil
	}
	if err := binary.Write(w, binary.LittleEndian, []uint32{uint32(binLen), glbChunkBIN}); err != nil {
		return err
	}
	for _, b := range pieces {
		if err := writeContext(ctx, w, b); err != nil {
			return err
		}
	}
	return nil
}

// writeContext writes b in slices of writeSlice bytes, looking at ctx before
// each: one piece can be a gigabyte, which one Write would take seconds to
// pass to the file.
func writeContext(ctx context.Context, w io.Writer, b []byte) error {
	for len(b) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(len(b), writeSlice)
		if _, err := w.Write(b[:n]); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

const writeSlice = 4 << 20

// glbMeshData is one terminal name's triangle list.
type glbMeshData struct {
	pos, nrm []float32
	idx      []uint32
	lo, hi   [3]float32
}

// glbGrain is the fewest terminals worth a worker.
const glbGrain = 2048

// glbMesh builds the triangle list of the terminals ts[at[...]]: ranges in
// parallel, then joined in order with their indices offset (the result does
// not depend on the split). Once ctx is done it returns early with an
// incomplete mesh; the caller checks ctx.
func (g *Grammar) glbMesh(ctx context.Context, ts []TerminalShape, at []int, tk *ticker) glbMeshData {
	parts := make([]glbMeshData, len(parallel.Chunks(len(at), glbGrain))-1)
	parallel.For(len(at), glbGrain, func(c, lo, hi int) {
		p := &parts[c]
		p.lo = [3]float32{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32}
		p.hi = [3]float32{-math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32}
		for k, i := range at[lo:hi] {
			if k%cancelEvery == 0 && ctx.Err() != nil {
				return
			}
			g.faces(&ts[i], func(cs []Vec3, n Vec3) {
				base := uint32(len(p.pos) / 3)
				for _, q := range cs {
					for k := 0; k < 3; k++ {
						v := float32(q[k])
						p.lo[k], p.hi[k] = min(p.lo[k], v), max(p.hi[k], v)
						p.pos = append(p.pos, v)
						p.nrm = append(p.nrm, float32(n[k]))
					}
				}
				for j := uint32(1); j+1 < uint32(len(cs)); j++ {
					p.idx = append(p.idx, base, base+j, base+j+1)
				}
			})
		}
		tk.add(hi - lo)
	})
	var m glbMeshData
	if ctx.Err() != nil {
		return m
	}
	m.lo = [3]float32{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32}
	m.hi = [3]float32{-math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32}
	var nv, ni int
	for _, p := range parts {
		nv += len(p.pos)
		ni += len(p.idx)
	}
	m.pos, m.nrm, m.idx = make([]float32, 0, nv), make([]float32, 0, nv), make([]uint32, 0, ni)
	for _, p := range parts {
		base := uint32(len(m.pos) / 3)
		m.pos = append(m.pos, p.pos...)
		m.nrm = append(m.nrm, p.nrm...)
		for _, x := range p.idx {
			m.idx = append(m.idx, base+x)
		}
		for k := 0; k < 3; k++ {
			m.lo[k], m.hi[k] = min(m.lo[k], p.lo[k]), max(m.hi[k], p.hi[k])
		}
	}
	return m
}

// le is the little-endian bytes of a slice of float32 or uint32: the slice's
// own memory on little-endian machines, a converted copy elsewhere.
func le[T float32 | uint32](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	if littleEndian {
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v))
	}
	b := make([]byte, 4*len(v))
	for i, x := range v {
		var u uint32
		switch x := any(x).(type) {
		case float32:
			u = math.Float32bits(x)
		case uint32:
			u = x
		}
		binary.LittleEndian.PutUint32(b[4*i:], u)
	}
	return b
}

var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// pad fills b to a multiple of 4 bytes, as GLB chunks must be.
func pad(b []byte, with byte) []byte {
	for len(b)%4 != 0 {
		b = append(b, with)
	}
	return b
}
