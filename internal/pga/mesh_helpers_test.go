package pga

import (
	"context"
	"io"

	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// writeOBJ writes ts as the pga command does: the mesh of g, referring to
// the material library mtlName when not empty.
func writeOBJ(ctx context.Context, w io.Writer, g *Grammar, ts []TerminalShape, mtlName string, progress func(done, total int64)) error {
	return mesh.EncodeOBJ(ctx, w, g.Mesh(ts, nil), mesh.OBJOptions{Options: mesh.Options{Progress: progress}, MTLLib: mtlName})
}

// writeGLB writes ts as the pga command does.
func writeGLB(ctx context.Context, w io.Writer, g *Grammar, ts []TerminalShape, progress func(done, total int64)) error {
	return mesh.EncodeGLB(ctx, w, g.Mesh(ts, nil), mesh.Options{Progress: progress})
}

// faces calls fn with the world corners and normal of each face of t.
func (g *Grammar) faces(t *TerminalShape, fn func(c []Vec3, n Vec3)) {
	corners, fs, normals := g.worldSolid(&t.Shape)
	buf := make([]Vec3, 0, 8)
	for i, f := range fs {
		buf = buf[:0]
		for _, k := range f {
			buf = append(buf, corners[k])
		}
		fn(buf, normals[i])
	}
}

// What the tests read of a glTF document.
type (
	gltfDoc struct {
		Asset  map[string]string
		Nodes  []struct{ Name string }
		Meshes []struct {
			Name       string
			Primitives []struct {
				Attributes map[string]int
				Indices    int
			}
		}
		Materials   []struct{ Name string }
		Accessors   []gltfAccessor
		BufferViews []struct{ ByteOffset, ByteLength int }
		Buffers     []struct{ ByteLength int }
	}
	gltfAccessor struct {
		BufferView    int
		ComponentType int
		Count         int
		Type          string
		Min, Max      []float32
	}
)

// GLB framing (glTF 2.0 spec, "GLB File Format").
const (
	glbMagic     = 0x46546C67 // "glTF"
	glbChunkJSON = 0x4E4F534A // "JSON"
	glbChunkBIN  = 0x004E4942 // "BIN\0"
)
