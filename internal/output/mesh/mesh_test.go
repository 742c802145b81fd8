package mesh

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh/meshtest"
)

// square is a unit quad in the XY plane with one normal, and a polyline.
func square(lines bool) *Mesh {
	return &Mesh{
		Materials: []Material{{Name: "red", Color: [3]float64{1, 0, 0}, Roughness: 0.5}},
		Parts: []Part{{Name: "sq", Material: 0, Count: 1, Build: func(lo, hi int, c *Chunk) {
			c.Positions = append(c.Positions, [3]float32{0, 0, 0}, [3]float32{1, 0, 0}, [3]float32{1, 1, 0}, [3]float32{0, 1, 0})
			c.Normals = append(c.Normals, [3]float32{0, 0, 1})
			for i := range int32(4) {
				c.Vertices = append(c.Vertices, Vertex{P: i, N: 0})
			}
			c.Face(0, 1, 2, 3)
			if lines {
				c.Lines = append(c.Lines, 0, 2)
				c.LineSizes = append(c.LineSizes, 2)
			}
		}}},
	}
}

// TestOBJText pins the format: 1-based global numbers across parts,
// position//normal references, one usemtl per material change.
func TestOBJText(t *testing.T) {
	m := square(true)
	m.Parts = append(m.Parts, m.Parts[0])
	var b bytes.Buffer
	if err := EncodeOBJ(context.Background(), &b, m, OBJOptions{MTLLib: "m.mtl"}); err != nil {
		t.Fatal(err)
	}
	want := `# procgen: 2 parts
mtllib m.mtl
g sq
usemtl red
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
vn 0 0 1
f 1//1 2//1 3//1 4//1
l 1 3
g sq
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
vn 0 0 1
f 5//2 6//2 7//2 8//2
l 5 7
`
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	var mtl bytes.Buffer
	if err := EncodeMTL(&mtl, m); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(mtl.String(), "newmtl red\nKd 1 0 0\n") {
		t.Fatalf("mtl:\n%s", mtl.String())
	}
}

// TestGLBConcave: a concave part is cut by ear clipping, a convex one as a
// fan; both read back with the right triangles and bounds.
func TestGLBConcave(t *testing.T) {
	notch := [][3]float32{{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {1, 0.5, 0}, {0, 2, 0}}
	build := func(lo, hi int, c *Chunk) {
		for range hi - lo {
			p0, n0, v0 := int32(len(c.Positions)), int32(len(c.Normals)), int32(len(c.Vertices))
			c.Positions = append(c.Positions, notch...)
			c.Normals = append(c.Normals, [3]float32{0, 0, 1})
			var f []int32
			for i := range int32(len(notch)) {
				c.Vertices = append(c.Vertices, Vertex{P: p0 + i, N: n0})
				f = append(f, v0+i)
			}
			c.Face(f...)
		}
	}
	for _, concave := range []bool{false, true} {
		m := &Mesh{Parts: []Part{{Name: "n", Material: -1, Concave: concave, Count: 3, Grain: 2, Build: build}}}
		var b bytes.Buffer
		if err := EncodeGLB(context.Background(), &b, m, Options{Workers: 2}); err != nil {
			t.Fatal(err)
		}
		s, err := meshtest.Summarize(".glb", b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(s, "glb vertices=15 normals=15 triangles=9 bounds=[0 0 0]-[2 2 0]\n") {
			t.Fatalf("concave %v: %s", concave, s)
		}
		// The notch's area is 4 - 1.5 = 2.5 per copy: a fan from corner 0
		// covers 1 + 1.5 + 0.5 with a triangle outside the polygon, so
		// only ear clipping gives the area with every triangle turning
		// the polygon's way.
		if area := positiveArea(t, b.Bytes()); concave != (math.Abs(area-3*2.5) < 1e-6) {
			t.Fatalf("concave %v: triangles cover %v", concave, area)
		}
	}
}

// positiveArea sums the areas of the counter-clockwise triangles of a
// one-primitive GLB in the XY plane.
func positiveArea(t *testing.T, glb []byte) float64 {
	t.Helper()
	var doc struct {
		Accessors   []struct{ BufferView, Count int }
		BufferViews []struct{ ByteOffset int }
	}
	jl := int(le32(glb[12:]))
	if err := json.Unmarshal(glb[20:20+jl], &doc); err != nil {
		t.Fatal(err)
	}
	bin := glb[20+jl+8:]
	pos, idx := doc.BufferViews[doc.Accessors[0].BufferView].ByteOffset, doc.BufferViews[doc.Accessors[2].BufferView].ByteOffset
	at := func(i uint32) (float64, float64) {
		return float64(math.Float32frombits(le32(bin[pos+12*int(i):]))), float64(math.Float32frombits(le32(bin[pos+12*int(i)+4:])))
	}
	var sum float64
	for k := 0; k < doc.Accessors[2].Count; k += 3 {
		ax, ay := at(le32(bin[idx+4*k:]))
		bx, by := at(le32(bin[idx+4*k+4:]))
		cx, cy := at(le32(bin[idx+4*k+8:]))
		if a := ((bx-ax)*(cy-ay) - (by-ay)*(cx-ax)) / 2; a > 0 {
			sum += a
		}
	}
	return sum
}

// TestRefused: what would make a file unreadable or silently wrong is an
// error before or while writing, never a file.
func TestRefused(t *testing.T) {
	nan := float32(math.NaN())
	cases := []struct {
		name string
		edit func(m *Mesh)
		glb  bool // only GLB refuses it
	}{
		{"part name with space", func(m *Mesh) { m.Parts[0].Name = "a b" }, false},
		{"material name with space", func(m *Mesh) { m.Materials[0].Name = "a b" }, false},
		{"unnamed material", func(m *Mesh) { m.Materials[0].Name = "" }, false},
		{"duplicate material", func(m *Mesh) { m.Materials = append(m.Materials, m.Materials[0]) }, false},
		{"material out of range", func(m *Mesh) { m.Parts[0].Material = 1 }, false},
		{"roughness out of range", func(m *Mesh) { m.Materials[0].Roughness = 2 }, false},
		{"no builder", func(m *Mesh) { m.Parts[0].Build = nil }, false},
		{"nan position", wrap(func(c *Chunk) { c.Positions[2][1] = nan }), false},
		{"infinite normal", wrap(func(c *Chunk) { c.Normals[0][0] = float32(math.Inf(1)) }), false},
		{"vertex out of range", wrap(func(c *Chunk) { c.Vertices[3].P = 4 }), false},
		{"normal out of range", wrap(func(c *Chunk) { c.Vertices[3].N = 1 }), false},
		{"face index out of range", wrap(func(c *Chunk) { c.Faces[1] = 9 }), false},
		{"two-corner face", wrap(func(c *Chunk) { c.Face(0, 1) }), false},
		{"one-point line", wrap(func(c *Chunk) { c.Lines = append(c.Lines, 1); c.LineSizes = append(c.LineSizes, 1) }), false},
		{"sizes and indices disagree", wrap(func(c *Chunk) { c.FaceSizes[0] = 3 }), false},
	}
	var b bytes.Buffer
	if EncodeOBJ(context.Background(), &b, square(false), OBJOptions{}) != nil || EncodeGLB(context.Background(), &b, square(false), Options{}) != nil {
		t.Fatal("the unedited square is refused")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := square(tc.glb) // lines only where they are the fault
			tc.edit(m)
			var b bytes.Buffer
			objErr := EncodeOBJ(context.Background(), &b, m, OBJOptions{MTLLib: "m.mtl"})
			if (objErr == nil) != tc.glb {
				t.Errorf("obj: %v", objErr)
			}
			if err := EncodeGLB(context.Background(), &bytes.Buffer{}, m, Options{}); err == nil {
				t.Error("glb: no error")
			}
		})
	}
}

func wrap(edit func(c *Chunk)) func(m *Mesh) {
	return func(m *Mesh) {
		build := m.Parts[0].Build
		m.Parts[0].Build = func(lo, hi int, c *Chunk) { build(lo, hi, c); edit(c) }
	}
}

// TestEmptyAndCancelled: an empty mesh is a valid GLB without a binary
// chunk; a cancelled context ends both writers with its error.
func TestEmptyAndCancelled(t *testing.T) {
	var b bytes.Buffer
	if err := EncodeGLB(context.Background(), &b, &Mesh{}, Options{}); err != nil {
		t.Fatal(err)
	}
	if n := len(b.Bytes()); int(le32(b.Bytes()[8:])) != n || 20+int(le32(b.Bytes()[12:])) != n {
		t.Fatalf("empty GLB: %q", b.Bytes())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := square(false)
	if err := EncodeGLB(ctx, &b, m, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("glb: %v", err)
	}
	if err := EncodeOBJ(ctx, &b, m, OBJOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("obj: %v", err)
	}
}

func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
