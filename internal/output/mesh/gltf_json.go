package mesh

import (
	"context"
	"encoding/binary"
	"io"
	"math"
	"unsafe"
)

// The glTF JSON, only what EncodeGLB writes.
type (
	gltfDoc struct {
		Asset          gltfAsset       `json:"asset"`
		ExtensionsUsed []string        `json:"extensionsUsed,omitempty"`
		Scene          int             `json:"scene"`
		Scenes         []gltfScene     `json:"scenes"`
		Nodes          []gltfNode      `json:"nodes,omitempty"`
		Meshes         []gltfMesh      `json:"meshes,omitempty"`
		Materials      []gltfMaterial  `json:"materials,omitempty"`
		Accessors      []gltfAccessor  `json:"accessors,omitempty"`
		BufferViews    []gltfView      `json:"bufferViews,omitempty"`
		Buffers        []gltfBuffer    `json:"buffers,omitempty"`
		Animations     []gltfAnimation `json:"animations,omitempty"`

		// Textures (texture.go).
		Textures []gltfTexture    `json:"textures,omitempty"`
		Images   []gltfImage      `json:"images,omitempty"`
		Samplers []gltfTexSampler `json:"samplers,omitempty"`
	}
	gltfAsset struct {
		Version   string `json:"version"`
		Generator string `json:"generator"`
		Extras    any    `json:"extras,omitempty"`
	}
	gltfScene struct {
		Nodes []int `json:"nodes"`
	}
	gltfNode struct {
		Name       string       `json:"name"`
		Mesh       *int         `json:"mesh,omitempty"`
		Children   []int        `json:"children,omitempty"`
		Extensions *gltfNodeExt `json:"extensions,omitempty"`
	}
	gltfNodeExt struct {
		Instancing *gltfInstancing `json:"EXT_mesh_gpu_instancing,omitempty"`
	}
	gltfInstancing struct {
		Attributes map[string]int `json:"attributes"`
	}
	gltfMesh struct {
		Name       string          `json:"name"`
		Primitives []gltfPrimitive `json:"primitives"`
	}
	gltfPrimitive struct {
		Attributes map[string]int `json:"attributes"`
		Indices    int            `json:"indices"`
		Material   *int           `json:"material,omitempty"`
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

		BaseColorTexture *gltfTexRef `json:"baseColorTexture,omitempty"`
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
		Target     int `json:"target,omitempty"` // none for instance data
	}
	gltfBuffer struct {
		ByteLength int `json:"byteLength"`
	}
	gltfAnimation struct {
		Name     string        `json:"name"`
		Channels []gltfChannel `json:"channels"`
		Samplers []gltfSampler `json:"samplers"`
	}
	gltfChannel struct {
		Sampler int        `json:"sampler"`
		Target  gltfTarget `json:"target"`
	}
	gltfTarget struct {
		Node int    `json:"node"`
		Path string `json:"path"`
	}
	gltfSampler struct {
		Input         int    `json:"input"`
		Output        int    `json:"output"`
		Interpolation string `json:"interpolation"`
	}
)

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

// le is the little-endian bytes of a slice of float32 or uint32: the slice's
// own memory on little-endian machines (no copy of a gigabyte binary chunk),
// a converted copy elsewhere.
func le[T float32 | uint32](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	if binary.NativeEndian.Uint16([]byte{1, 0}) == 1 {
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
