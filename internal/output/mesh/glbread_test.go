package mesh

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// TestReadGLBOwnWriter reads back what EncodeGLB writes: the square's two
// triangles, its positions and its normals.
func TestReadGLBOwnWriter(t *testing.T) {
	var b bytes.Buffer
	if err := EncodeGLB(context.Background(), &b, square(false), Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := ReadGLB("sq.glb", b.Bytes(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Positions) != 4 || len(s.FaceSizes) != 2 || len(s.Normals) != 4 {
		t.Fatalf("%+v", s)
	}
	area := 0.0
	at := 0
	for _, n := range s.FaceSizes {
		tri := make([][3]float32, n)
		for k := range tri {
			tri[k] = s.Positions[s.Faces[at+k]]
		}
		at += int(n)
		nv := Newell(tri)
		if nv[2] <= 0 { // counter-clockwise seen from +Z, as the square's faces are
			t.Errorf("triangle %v faces %v", tri, nv)
		}
		area += math.Sqrt(nv[0]*nv[0]+nv[1]*nv[1]+nv[2]*nv[2]) / 2
	}
	if math.Abs(area-1) > 1e-6 {
		t.Errorf("area %v, want 1", area)
	}
	for _, n := range s.Normals {
		if n != [3]float32{0, 0, 1} {
			t.Errorf("normal %v", n)
		}
	}
	// The writer's LINES primitive is refused, naming the mode.
	b.Reset()
	if err := EncodeGLB(context.Background(), &b, square(true), Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadGLB("l.glb", b.Bytes(), nil); err == nil || !strings.Contains(err.Error(), "mode 1") {
		t.Errorf("lines: %v", err)
	}
}

// testGLB packs doc and bin as a GLB (bin omitted when nil).
func testGLB(t testing.TB, doc map[string]any, bin []byte) []byte {
	js, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	for len(bin)%4 != 0 {
		bin = append(bin, 0)
	}
	var out []byte
	le := binary.LittleEndian
	out = le.AppendUint32(out, glbMagic)
	out = le.AppendUint32(out, 2)
	out = le.AppendUint32(out, 0)
	out = le.AppendUint32(out, uint32(len(js)))
	out = le.AppendUint32(out, glbChunkJSON)
	out = append(out, js...)
	if bin != nil {
		out = le.AppendUint32(out, uint32(len(bin)))
		out = le.AppendUint32(out, glbChunkBIN)
		out = append(out, bin...)
	}
	le.PutUint32(out[8:], uint32(len(out)))
	return out
}

// triangleDoc is one triangle (0,0,0) (1,0,0) (0,1,0) with indices of the
// given component type, under nodes; the bin is returned with it.
func triangleDoc(ct int, nodes []map[string]any) (map[string]any, []byte) {
	var bin []byte
	for _, v := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
		bin = binary.LittleEndian.AppendUint32(bin, math.Float32bits(v))
	}
	idxAt := len(bin)
	for _, i := range []uint32{0, 1, 2} {
		switch ct {
		case gltfUint8:
			bin = append(bin, byte(i))
		case gltfUint16:
			bin = binary.LittleEndian.AppendUint16(bin, uint16(i))
		default:
			bin = binary.LittleEndian.AppendUint32(bin, i)
		}
	}
	roots := []int{0}
	doc := map[string]any{
		"asset":  map[string]any{"version": "2.0"},
		"scenes": []any{map[string]any{"nodes": roots}},
		"nodes":  nodes,
		"meshes": []any{map[string]any{"primitives": []any{map[string]any{
			"attributes": map[string]int{"POSITION": 0}, "indices": 1}}}},
		"accessors": []any{
			map[string]any{"bufferView": 0, "componentType": gltfFloat, "count": 3, "type": "VEC3"},
			map[string]any{"bufferView": 1, "componentType": ct, "count": 3, "type": "SCALAR"},
		},
		"bufferViews": []any{
			map[string]any{"buffer": 0, "byteLength": idxAt},
			map[string]any{"buffer": 0, "byteOffset": idxAt, "byteLength": len(bin) - idxAt},
		},
		"buffers": []any{map[string]any{"byteLength": len(bin)}},
	}
	return doc, bin
}

// TestReadGLBTransforms: indices of each width, and node transforms down
// the hierarchy (TRS on the parent, a matrix on the child, a mirror that
// keeps the winding).
func TestReadGLBTransforms(t *testing.T) {
	s2 := float32(math.Sqrt2 / 2)
	for _, tc := range []struct {
		name  string
		ct    int
		nodes []map[string]any
		want  [3][3]float32
	}{
		{"u8", gltfUint8, []map[string]any{{"mesh": 0}}, [3][3]float32{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}},
		{"u16 translated", gltfUint16, []map[string]any{{"mesh": 0, "translation": []float64{1, 2, 3}}},
			[3][3]float32{{1, 2, 3}, {2, 2, 3}, {1, 3, 3}}},
		{"u32 rotated 90 about z, scaled 2", gltfUint32, []map[string]any{
			{"mesh": 0, "rotation": []float64{0, 0, float64(s2), float64(s2)}, "scale": []float64{2, 2, 2}}},
			[3][3]float32{{0, 0, 0}, {0, 2, 0}, {-2, 0, 0}}},
		{"child matrix under parent translation", gltfUint16, []map[string]any{
			{"children": []int{1}, "translation": []float64{0, 0, 5}},
			{"mesh": 0, "matrix": []float64{3, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1}}},
			[3][3]float32{{1, 0, 5}, {4, 0, 5}, {1, 1, 5}}},
		{"mirrored in x, winding kept", gltfUint8, []map[string]any{{"mesh": 0, "scale": []float64{-1, 1, 1}}},
			[3][3]float32{{0, 0, 0}, {0, 1, 0}, {-1, 0, 0}}},
	} {
		doc, bin := triangleDoc(tc.ct, tc.nodes)
		s, err := ReadGLB("t.glb", testGLB(t, doc, bin), nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got [3][3]float32
		for k := range 3 {
			p := s.Positions[s.Faces[k]]
			for j := range 3 {
				got[k][j] = float32(math.Round(float64(p[j])*1e5) / 1e5)
			}
		}
		if got != tc.want || s.Normals != nil {
			t.Errorf("%s: %v, want %v (normals %v)", tc.name, got, tc.want, s.Normals)
		}
	}
}

// TestReadGLBRefused: what ReadGLB does not read fails with an error that
// says what, and external buffers are read through resolve.
func TestReadGLBRefused(t *testing.T) {
	edit := func(f func(doc map[string]any, bin []byte) []byte) []byte {
		doc, bin := triangleDoc(gltfUint16, []map[string]any{{"mesh": 0}})
		if out := f(doc, bin); out != nil {
			return out
		}
		return testGLB(t, doc, bin)
	}
	prim := func(doc map[string]any) map[string]any {
		return doc["meshes"].([]any)[0].(map[string]any)["primitives"].([]any)[0].(map[string]any)
	}
	acc := func(doc map[string]any, i int) map[string]any { return doc["accessors"].([]any)[i].(map[string]any) }
	external := func(doc map[string]any, bin []byte) []byte {
		doc["buffers"] = []any{map[string]any{"byteLength": len(bin), "uri": "tri.bin"}}
		return testGLB(t, doc, nil)
	}
	resolve := func(uri string) ([]byte, error) {
		if uri != "tri.bin" {
			return nil, errors.New("no such file")
		}
		_, bin := triangleDoc(gltfUint16, nil)
		return bin, nil
	}
	for _, tc := range []struct {
		name, want string
		glb        []byte
		resolve    ResolveFunc
	}{
		{"not glb", "not a binary glTF", []byte("solid cube\nendsolid\n"), nil},
		{"truncated", "header says", edit(func(d map[string]any, b []byte) []byte { g := testGLB(t, d, b); return g[:len(g)-4] }), nil},
		{"lines", "mode 1", edit(func(d map[string]any, _ []byte) []byte { prim(d)["mode"] = 1; return nil }), nil},
		{"draco", "requires extension KHR_draco_mesh_compression", edit(func(d map[string]any, _ []byte) []byte {
			d["extensionsRequired"] = []string{"KHR_draco_mesh_compression"}
			return nil
		}), nil},
		{"meshopt view", "EXT_meshopt_compression", edit(func(d map[string]any, _ []byte) []byte {
			d["bufferViews"].([]any)[0].(map[string]any)["extensions"] = map[string]any{"EXT_meshopt_compression": map[string]any{}}
			return nil
		}), nil},
		{"sparse", "sparse", edit(func(d map[string]any, _ []byte) []byte { acc(d, 0)["sparse"] = map[string]any{"count": 1}; return nil }), nil},
		{"no view", "no bufferView", edit(func(d map[string]any, _ []byte) []byte { delete(acc(d, 0), "bufferView"); return nil }), nil},
		{"count past view", "do not fit", edit(func(d map[string]any, _ []byte) []byte { acc(d, 0)["count"] = 1 << 30; return nil }), nil},
		{"quantised positions", "want VEC3 of floats", edit(func(d map[string]any, _ []byte) []byte {
			acc(d, 0)["componentType"] = gltfUint16
			return nil
		}), nil},
		{"index range", "out of range", edit(func(d map[string]any, b []byte) []byte {
			binary.LittleEndian.PutUint16(b[36:], 7)
			return nil
		}), nil},
		{"cycle", "nested over", edit(func(d map[string]any, _ []byte) []byte {
			d["nodes"] = []map[string]any{{"children": []int{0}}}
			return nil
		}), nil},
		{"external unresolved", `external buffer "tri.bin" cannot be read`, edit(external), nil},
		{"external missing", "no such file", edit(func(d map[string]any, b []byte) []byte {
			d["buffers"] = []any{map[string]any{"byteLength": len(b), "uri": "other.bin"}}
			return testGLB(t, d, nil)
		}), resolve},
		{"external resolved", "", edit(external), resolve},
		{"data uri", "", edit(func(d map[string]any, b []byte) []byte {
			d["buffers"] = []any{map[string]any{"byteLength": len(b),
				"uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(b)}}
			return testGLB(t, d, nil)
		}), nil},
		{"no scene", "no scene 0", edit(func(d map[string]any, _ []byte) []byte { delete(d, "scenes"); return nil }), nil},
	} {
		s, err := ReadGLB("x.glb", tc.glb, tc.resolve)
		switch {
		case tc.want == "" && (err != nil || len(s.FaceSizes) != 1):
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "x.glb: glb: ")):
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// FuzzReadGLB: no input crashes the reader or makes it allocate past the
// file's size, and what it accepts is triangles indexing its positions,
// with a normal per position or none.
func FuzzReadGLB(f *testing.F) {
	var b bytes.Buffer
	if err := EncodeGLB(context.Background(), &b, square(false), Options{}); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	for _, ct := range []int{gltfUint8, gltfUint16, gltfUint32} {
		doc, bin := triangleDoc(ct, []map[string]any{{"children": []int{1}, "scale": []float64{1, -2, 1}}, {"mesh": 0, "translation": []float64{1, 0, 0}}})
		doc["scenes"] = []any{map[string]any{"nodes": []int{0}}}
		f.Add(testGLB(f, doc, bin))
	}
	f.Add([]byte("glTF"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadGLB("f.glb", data, nil)
		if err != nil {
			return
		}
		if s.Normals != nil && len(s.Normals) != len(s.Positions) {
			t.Fatalf("%d normals for %d positions", len(s.Normals), len(s.Positions))
		}
		if len(s.Faces) != 3*len(s.FaceSizes) || len(s.Positions)+len(s.Faces) > MaxShapeBytes/4 {
			t.Fatalf("%d indices for %d faces, %d positions", len(s.Faces), len(s.FaceSizes), len(s.Positions))
		}
		for i, v := range s.Faces {
			if v < 0 || int(v) >= len(s.Positions) || s.FaceSizes[i/3] != 3 {
				t.Fatalf("index %d of %d positions", v, len(s.Positions))
			}
		}
	})
}
