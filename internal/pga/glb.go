package pga

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
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
// metres with Y up, as glTF expects.
func (g *Grammar) EncodeGLB(w io.Writer, ts []TerminalShape) error {
	doc := gltfDoc{Asset: map[string]string{"version": "2.0", "generator": "procgen pga"}, Scenes: []gltfScene{{Nodes: []int{}}}}
	var bin bytes.Buffer
	view := func(b []byte, target int) int {
		doc.BufferViews = append(doc.BufferViews, gltfBufferView{ByteOffset: bin.Len(), ByteLength: len(b), Target: target})
		bin.Write(b) // every piece is a multiple of 4 bytes, so offsets stay aligned
		return len(doc.BufferViews) - 1
	}
	names, groups := g.byName(ts)
	for _, name := range names {
		var pos, nrm []float32
		var idx []uint32
		lo := [3]float32{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32}
		hi := [3]float32{-math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32}
		for _, i := range groups[name] {
			g.faces(&ts[i], func(c []Vec3, n Vec3) {
				base := uint32(len(pos) / 3)
				for _, p := range c {
					for k := 0; k < 3; k++ {
						v := float32(p[k])
						lo[k], hi[k] = min(lo[k], v), max(hi[k], v)
						pos = append(pos, v)
						nrm = append(nrm, float32(n[k]))
					}
				}
				for j := uint32(1); j+1 < uint32(len(c)); j++ {
					idx = append(idx, base, base+j, base+j+1)
				}
			})
		}
		if int64(len(pos)/3) > math.MaxUint32 {
			return fmt.Errorf("pga: glb: %d vertices in mesh %s, over the uint32 index range", len(pos)/3, name)
		}
		acc := func(v int, ct, count int, typ string, mn, mx []float32) int {
			doc.Accessors = append(doc.Accessors, gltfAccessor{BufferView: v, ComponentType: ct, Count: count, Type: typ, Min: mn, Max: mx})
			return len(doc.Accessors) - 1
		}
		pa := acc(view(le(pos), gltfArrayBuffer), gltfFloat, len(pos)/3, "VEC3", lo[:], hi[:])
		na := acc(view(le(nrm), gltfArrayBuffer), gltfFloat, len(nrm)/3, "VEC3", nil, nil)
		ia := acc(view(le(idx), gltfElementArray), gltfUnsignedInt, len(idx), "SCALAR", nil, nil)
		var mat gltfMaterial
		mat.Name, mat.DoubleSided = name, true
		c := MaterialColor(name)
		mat.PBR.BaseColorFactor = [4]float64{c[0], c[1], c[2], 1}
		mat.PBR.Roughness = 0.9
		doc.Materials = append(doc.Materials, mat)
		doc.Meshes = append(doc.Meshes, gltfMesh{Name: name, Primitives: []gltfPrimitive{{
			Attributes: map[string]int{"POSITION": pa, "NORMAL": na}, Indices: ia,
			Material: len(doc.Materials) - 1, Mode: gltfTriangles}}})
		doc.Nodes = append(doc.Nodes, gltfNode{Name: name, Mesh: len(doc.Meshes) - 1})
		doc.Scenes[0].Nodes = append(doc.Scenes[0].Nodes, len(doc.Nodes)-1)
	}
	doc.Buffers = []gltfBuffer{{ByteLength: bin.Len()}}
	if bin.Len() == 0 {
		// A buffer must have a positive length; an empty scene has none.
		doc.Buffers, doc.BufferViews = nil, nil
	}
	js, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	js = pad(js, ' ')
	binData := pad(bin.Bytes(), 0)
	total := 12 + 8 + len(js)
	if len(binData) > 0 {
		total += 8 + len(binData)
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
	if len(binData) == 0 {
		return nil
	}
	if err := binary.Write(w, binary.LittleEndian, []uint32{uint32(len(binData)), glbChunkBIN}); err != nil {
		return err
	}
	_, err = w.Write(binData)
	return err
}

// le is the little-endian bytes of a slice of float32 or uint32.
func le[T float32 | uint32](v []T) []byte {
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

// pad fills b to a multiple of 4 bytes, as GLB chunks must be.
func pad(b []byte, with byte) []byte {
	for len(b)%4 != 0 {
		b = append(b, with)
	}
	return b
}
