package mesh

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

// glbOf is a GLB of doc and bin (padded to 4 bytes as glTF asks).
func glbOf(doc string, bin []byte) []byte {
	for len(doc)%4 != 0 {
		doc += " "
	}
	for len(bin)%4 != 0 {
		bin = append(bin, 0)
	}
	le := binary.LittleEndian
	var b []byte
	b = append(b, "glTF"...)
	b = le.AppendUint32(b, 2)
	b = le.AppendUint32(b, uint32(12+8+len(doc)+8+len(bin)))
	b = le.AppendUint32(b, uint32(len(doc)))
	b = le.AppendUint32(b, 0x4E4F534A)
	b = append(b, doc...)
	b = le.AppendUint32(b, uint32(len(bin)))
	b = le.AppendUint32(b, 0x004E4942)
	return append(b, bin...)
}

// oneTriangle is a triangle (0,0,0), (1,0,0), (0,1,0) with u16 indices.
func oneTriangle() []byte {
	var bin []byte
	for _, f := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
		bin = binary.LittleEndian.AppendUint32(bin, math.Float32bits(f))
	}
	for _, i := range []uint16{0, 1, 2} {
		bin = binary.LittleEndian.AppendUint16(bin, i)
	}
	return bin
}

const triangleTables = `"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},{"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}],
"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":6}],"buffers":[{"byteLength":44}]`

// ReadGLB places each node's mesh by the nodes' transforms, parent first.
func TestReadGLBNodes(t *testing.T) {
	doc := `{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],
"nodes":[{"mesh":0,"translation":[1,2,3],"scale":[2,2,2],"children":[1]},{"mesh":0,"matrix":[0,1,0,0,-1,0,0,0,0,0,1,0,0,0,5,1]}],` + triangleTables + `}`
	s, err := ReadGLB("t.glb", glbOf(doc, oneTriangle()))
	if err != nil {
		t.Fatal(err)
	}
	want := [][3]float32{{1, 2, 3}, {3, 2, 3}, {1, 4, 3},
		// the child: turned 90° about z and raised 5, then the parent's
		{1, 2, 13}, {1, 4, 13}, {-1, 2, 13}}
	if len(s.Positions) != len(want) || len(s.FaceSizes) != 2 {
		t.Fatalf("positions %v, faces %v", s.Positions, s.Faces)
	}
	for i, p := range want {
		for k := range 3 {
			if math.Abs(float64(s.Positions[i][k]-p[k])) > 1e-6 {
				t.Fatalf("position %d: %v, want %v", i, s.Positions[i], p)
			}
		}
	}
	if got := s.Faces; got[3] != 3 || got[4] != 4 || got[5] != 5 {
		t.Errorf("faces %v", got)
	}
}

// A GLB this package writes reads back with its triangles.
func TestReadGLBRoundTrip(t *testing.T) {
	m := &Mesh{Materials: []Material{{Name: "m", Color: [3]float64{1, 1, 1}}}, Parts: []Part{{Name: "p", Count: 1,
		Build: func(lo, hi int, c *Chunk) {
			c.Positions = append(c.Positions, [3]float32{0, 0, 0}, [3]float32{2, 0, 0}, [3]float32{2, 1, 0}, [3]float32{0, 1, 0})
			c.Normals = append(c.Normals, [3]float32{0, 0, 1})
			c.Vertices = append(c.Vertices, Vertex{P: 0}, Vertex{P: 1}, Vertex{P: 2}, Vertex{P: 3})
			c.Faces = append(c.Faces, 0, 1, 2, 3)
			c.FaceSizes = append(c.FaceSizes, 4)
		}}}}
	var buf bytes.Buffer
	if err := EncodeGLB(context.Background(), &buf, m, Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := ReadGLB("r.glb", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.FaceSizes) != 2 {
		t.Fatalf("%d triangles, want 2", len(s.FaceSizes))
	}
	lo, hi := s.Positions[0], s.Positions[0]
	for _, p := range s.Positions {
		for k := range 3 {
			lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
		}
	}
	if lo != [3]float32{0, 0, 0} || hi != [3]float32{2, 1, 0} {
		t.Errorf("bounds %v %v", lo, hi)
	}
}

// What is not read is refused by name.
func TestReadGLBRefuses(t *testing.T) {
	tri := oneTriangle()
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"not glb", []byte("v 0 0 0\n"), "not a binary glTF file"},
		{"required", glbOf(`{"extensionsRequired":["KHR_draco_mesh_compression"]}`, nil), "KHR_draco_mesh_compression"},
		{"strip", glbOf(`{"nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":0},"mode":5}]}]}`, nil), "mode 5"},
		{"uri", glbOf(`{"nodes":[{"mesh":0}],`+strings.Replace(triangleTables, `"byteLength":44`, `"byteLength":44,"uri":"x.bin"`, 1)+`}`, tri), "outside the file's binary chunk"},
		{"short", glbOf(`{"nodes":[{"mesh":0}],`+strings.Replace(triangleTables, `"count":3,"type":"VEC3"`, `"count":4,"type":"VEC3"`, 1)+`}`, tri), "run past"},
		{"bad index", glbOf(`{"nodes":[{"mesh":0}],`+triangleTables+`}`, append(tri[:36:36], 0, 0, 1, 0, 9, 0)), "names position 9 of 3"},
		{"cycle", glbOf(`{"scenes":[{"nodes":[0]}],"nodes":[{"children":[0]}]}`, nil), "nested more than"},
		{"instanced", glbOf(`{"nodes":[{"mesh":0,"extensions":{"EXT_mesh_gpu_instancing":{}}}],`+triangleTables+`}`, tri), "node extensions"},
		{"no triangles", glbOf(`{"nodes":[{}]}`, nil), "no triangles"},
	} {
		_, err := ReadGLB("x.glb", c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "x.glb: ") {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// FuzzReadGLB: any bytes read as a shape or fail, without a panic, and a
// shape's faces name its positions.
func FuzzReadGLB(f *testing.F) {
	f.Add(glbOf(`{"nodes":[{"mesh":0}],`+triangleTables+`}`, oneTriangle()))
	f.Add(glbOf(`{"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0,"rotation":[0,0,1,0],"children":[0]}],`+triangleTables+`}`, oneTriangle()))
	f.Add([]byte("glTF"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadGLB("f.glb", data)
		if err != nil {
			return
		}
		for _, v := range s.Faces {
			if v < 0 || int(v) >= len(s.Positions) {
				t.Fatalf("face names position %d of %d", v, len(s.Positions))
			}
		}
	})
}
