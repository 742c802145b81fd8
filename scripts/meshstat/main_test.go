package main

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// glb builds a binary glTF from its JSON and the float32s of its buffer.
func glb(t *testing.T, js string, floats []float32) []byte {
	t.Helper()
	for len(js)%4 != 0 {
		js += " "
	}
	var bin bytes.Buffer
	for _, f := range floats {
		binary.Write(&bin, binary.LittleEndian, math.Float32bits(f))
	}
	var b bytes.Buffer
	u32 := func(v int) { binary.Write(&b, binary.LittleEndian, uint32(v)) }
	b.WriteString("glTF")
	u32(2)
	u32(12 + 8 + len(js) + 8 + bin.Len())
	u32(len(js))
	b.WriteString("JSON")
	b.WriteString(js)
	u32(bin.Len())
	b.WriteString("BIN\x00")
	b.Write(bin.Bytes())
	return b.Bytes()
}

func write(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestStat(t *testing.T) {
	// Two triangles (non-indexed) of one mesh, drawn by a node translated by
	// (10,0,0) and scaled by 2, with a named material.
	tri := []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, -1, 1, 0, -1, 0, 1, -1}
	const js = `{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],
		"nodes":[{"mesh":0,"translation":[10,0,0],"scale":[2,2,2]}],
		"meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],
		"materials":[{"name":"Wall"}],
		"accessors":[{"bufferView":0,"componentType":5126,"count":6,"type":"VEC3"}],
		"bufferViews":[{"buffer":0,"byteLength":72}],"buffers":[{"byteLength":72}]}`
	obj := "mtllib x.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 -2.5\nusemtl Wall\nf 1 2 3 4\nf 1 2 3\nusemtl Roof\nl 1 2 3\n"
	tests := []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"glb node transform", "a.glb", glb(t, js, tri),
			"glb vertices 6 faces 2 triangles 2 lines 0 materials 1 [Wall] bounds [10 0 -2]..[12 2 0]"},
		{"obj quads and lines", "a.obj", []byte(obj),
			"obj vertices 4 faces 2 triangles 3 lines 2 materials 2 [Roof Wall] bounds [0 0 -2.5]..[1 1 0]"},
		{"mtl", "a.mtl", []byte("newmtl Wall\nKd 1 0 0\n\nnewmtl Roof\nKd 0 1 0\n"),
			"mtl vertices 0 faces 0 triangles 0 lines 0 materials 2 [Roof Wall] bounds none"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := stat(write(t, tc.file, tc.data))
			if err != nil {
				t.Fatal(err)
			}
			if got := s.String(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestStatRejects(t *testing.T) {
	for name, data := range map[string][]byte{
		"a.glb": []byte("glTF\x01\x00\x00\x00 not version 2"),
		"b.obj": []byte("v 1 2\n"),
		"c.ply": []byte("ply\n"),
	} {
		if _, err := stat(write(t, name, data)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestDiff(t *testing.T) {
	base := stats{Format: "obj", Vertices: 4, Faces: 2, Triangles: 3, Materials: []string{"Wall"},
		Min: [3]float64{0, 0, 0}, Max: [3]float64{100, 10, 1}}
	tests := []struct {
		name string
		edit func(*stats)
		want string // a part of the difference; "" for none
	}{
		{"same", func(*stats) {}, ""},
		{"rounding within 1e-5 of the extent", func(s *stats) { s.Max[0] = 100.0009 }, ""},
		{"bounds moved", func(s *stats) { s.Max[0] = 100.01 }, "bounds"},
		{"vertices", func(s *stats) { s.Vertices = 5 }, "vertices 4 -> 5"},
		{"faces", func(s *stats) { s.Faces = 3 }, "faces 2 -> 3"},
		{"triangles", func(s *stats) { s.Triangles = 4 }, "triangles 3 -> 4"},
		{"lines", func(s *stats) { s.Lines = 1 }, "lines 0 -> 1"},
		{"materials", func(s *stats) { s.Materials = []string{"Roof"} }, "materials [Wall] -> [Roof]"},
		{"format", func(s *stats) { s.Format = "glb" }, "format obj -> glb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := base
			b.Materials = append([]string(nil), base.Materials...)
			tc.edit(&b)
			got := diff(base, b)
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("diff = %q, want %q", got, tc.want)
			}
		})
	}
}
