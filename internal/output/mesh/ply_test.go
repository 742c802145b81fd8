package mesh

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// plyCounts parses a binary PLY written by EncodePLY: the header's element
// counts, checked against the body's length and every face and edge index
// against the vertex count; and the first vertex's colour.
func plyCounts(t *testing.T, data []byte) (nv, nf, ne int, rgb [3]byte) {
	t.Helper()
	end := bytes.Index(data, []byte("end_header\n"))
	if !bytes.HasPrefix(data, []byte("ply\nformat binary_little_endian 1.0\n")) || end < 0 {
		t.Fatalf("not a binary little-endian PLY: %q", data[:min(len(data), 80)])
	}
	head, body := string(data[:end]), data[end+len("end_header\n"):]
	vsize, colorAt := 0, -1
	elem := ""
	for _, line := range strings.Split(head, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 3 && f[0] == "element":
			n, err := strconv.Atoi(f[2])
			if err != nil {
				t.Fatal(line)
			}
			elem = f[1]
			switch elem {
			case "vertex":
				nv = n
			case "face":
				nf = n
			case "edge":
				ne = n
			}
		case len(f) == 3 && f[0] == "property" && elem == "vertex":
			if f[2] == "red" {
				colorAt = vsize
			}
			vsize += map[string]int{"float": 4, "uchar": 1}[f[1]]
		}
	}
	at := nv * vsize
	if at > len(body) {
		t.Fatalf("%d vertices of %d bytes in a body of %d", nv, vsize, len(body))
	}
	if colorAt >= 0 && nv > 0 {
		copy(rgb[:], body[colorAt:colorAt+3])
	}
	for range nf {
		n := int(body[at])
		for k := range n {
			if i := binary.LittleEndian.Uint32(body[at+1+4*k:]); int(i) >= nv {
				t.Fatalf("face index %d of %d vertices", i, nv)
			}
		}
		at += 1 + 4*n
	}
	for range 2 * ne {
		if i := binary.LittleEndian.Uint32(body[at:]); int(i) >= nv {
			t.Fatalf("edge index %d of %d vertices", i, nv)
		}
		at += 4
	}
	if at != len(body) {
		t.Fatalf("body has %d bytes, the header accounts for %d", len(body), at)
	}
	return nv, nf, ne, rgb
}

// TestPLY: a quad stays a quad, a concave face is cut into triangles, lines
// become edges over their positions, and the material's colour is each
// vertex's.
func TestPLY(t *testing.T) {
	m := square(true)
	m.Parts = append(m.Parts, Part{Name: "L", Material: -1, Concave: true, Count: 1, Build: func(lo, hi int, c *Chunk) {
		c.Positions = append(c.Positions, [3]float32{0, 0, 0}, [3]float32{2, 0, 0}, [3]float32{2, 1, 0},
			[3]float32{1, 1, 0}, [3]float32{1, 2, 0}, [3]float32{0, 2, 0})
		for i := range int32(6) {
			c.Vertices = append(c.Vertices, Vertex{P: i})
		}
		c.Face(0, 1, 2, 3, 4, 5)
	}})
	var b bytes.Buffer
	if err := EncodePLY(context.Background(), &b, m, Options{}); err != nil {
		t.Fatal(err)
	}
	nv, nf, ne, rgb := plyCounts(t, b.Bytes())
	// The square: 4 vertices and its 4 positions again for the line; the
	// L: 6 vertices, 4 triangles.
	if nv != 4+4+6 || nf != 1+4 || ne != 1 || rgb != [3]byte{255, 0, 0} {
		t.Fatalf("%d vertices, %d faces, %d edges, colour %v", nv, nf, ne, rgb)
	}
	if !bytes.Contains(b.Bytes(), []byte("property float nx\n")) {
		t.Error("no normals in the header")
	}
}

// TestPLYAssimp reads a PLY of many parts back with assimp (Debian's
// assimp-utils), an independent reader, when it is installed.
func TestPLYAssimp(t *testing.T) {
	exe, err := exec.LookPath("assimp")
	if err != nil {
		t.Skip("assimp not installed (apt-get install assimp-utils)")
	}
	const n = 1000
	m := &Mesh{Materials: []Material{{Name: "g", Color: [3]float64{0, 1, 0}}}}
	m.Parts = []Part{{Name: "quads", Material: 0, Count: n, Grain: 64, Build: func(lo, hi int, c *Chunk) {
		for k := lo; k < hi; k++ {
			p := int32(len(c.Positions))
			x := float32(2 * k) // apart: assimp info joins identical vertices
			c.Positions = append(c.Positions, [3]float32{x, 0, 0}, [3]float32{x + 1, 0, 0}, [3]float32{x + 1, 1, 0}, [3]float32{x, 1, 0})
			for j := range int32(4) {
				c.Vertices = append(c.Vertices, Vertex{P: p + j})
			}
			// Two triangles, as assimp reports faces after its triangulation.
			c.Face(p, p+1, p+2)
			c.Face(p, p+2, p+3)
		}
	}}}
	var b bytes.Buffer
	if err := EncodePLY(context.Background(), &b, m, Options{}); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "q.ply")
	if err := os.WriteFile(f, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(exe, "info", f).CombinedOutput()
	if err != nil {
		t.Fatalf("assimp info: %v\n%s", err, out)
	}
	for _, want := range []string{fmt.Sprintf(`Vertices:\s+%d\b`, 4*n), fmt.Sprintf(`Faces:\s+%d\b`, 2*n)} {
		if !regexp.MustCompile(want).Match(out) {
			t.Errorf("assimp info does not report %s:\n%s", want, out)
		}
	}
}

// TestGLBLines: lines are a LINES primitive beside the triangles, with
// exact bounds and an index pair per segment.
func TestGLBLines(t *testing.T) {
	var b bytes.Buffer
	if err := EncodeGLB(context.Background(), &b, square(true), Options{}); err != nil {
		t.Fatal(err)
	}
	doc, bin := readDoc(t, b.Bytes())
	if len(doc.Meshes) != 1 || len(doc.Meshes[0].Primitives) != 2 {
		t.Fatalf("meshes %+v", doc.Meshes)
	}
	p := doc.Meshes[0].Primitives[1]
	if p.Mode != gltfLines || p.Material == nil {
		t.Fatalf("second primitive %+v: want LINES with the material", p)
	}
	ia, pa := doc.Accessors[p.Indices], doc.Accessors[p.Attributes["POSITION"]]
	if ia.Count != 2 || pa.Count != 4 || pa.Max[0] != 1 || pa.Min[0] != 0 {
		t.Fatalf("line accessors %+v %+v", ia, pa)
	}
	v := doc.BufferViews[ia.View]
	if i, j := le32(bin[v.ByteOffset:]), le32(bin[v.ByteOffset+4:]); i != 0 || j != 2 {
		t.Fatalf("line indices %d %d, want 0 2", i, j)
	}
	if math.IsNaN(float64(pa.Min[1])) {
		t.Fatal("NaN bound")
	}
}

// readDoc splits a GLB into its JSON, read back into the writer's own
// types, and its binary chunk.
func readDoc(t *testing.T, glb []byte) (gltfDoc, []byte) {
	t.Helper()
	var doc gltfDoc
	jl := int(le32(glb[12:]))
	if err := json.Unmarshal(glb[20:20+jl], &doc); err != nil {
		t.Fatal(err)
	}
	return doc, glb[20+jl+8:]
}
