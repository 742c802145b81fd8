package turtle

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh"
	"github.com/procgen-dev/procgen/internal/output/mesh/meshtest"
)

// glbOptions are the settings these tests write GLB files with.
type glbOptions struct {
	Sides      int // 0 means 8, as in the lsys command
	Caps       bool
	WidthScale float64
}

// writeGLB writes g as the lsys command does: tubes with normals, a
// material per colour.
func writeGLB(ctx context.Context, w io.Writer, g *Geometry, o glbOptions) error {
	if o.Sides == 0 {
		o.Sides = 8
	}
	m, err := g.Mesh(MeshOptions{Sides: o.Sides, Caps: o.Caps, Normals: true, ByColor: true, WidthScale: o.WidthScale})
	if err != nil {
		return err
	}
	return mesh.EncodeGLB(ctx, w, m, mesh.Options{})
}

// gltfDoc is what these tests read of a glTF document.
type gltfDoc struct {
	Nodes  []struct{ Name string }
	Meshes []struct {
		Primitives []struct {
			Attributes map[string]int
			Indices    int
			Material   int
		}
	}
	Materials []struct{ Name string }
	Accessors []struct {
		View          int `json:"bufferView"`
		ComponentType int
		Count         int
		Type          string
		Min, Max      []float32
	}
	BufferViews []struct{ ByteOffset, ByteLength int }
	Buffers     []struct{ ByteLength int }
}

const (
	gltfFloat  = 5126
	gltfUint32 = 5125
)

// readGLB parses a GLB container, checking its framing, and returns the
// document and the binary chunk.
func readGLB(t *testing.T, data []byte) (gltfDoc, []byte) {
	t.Helper()
	le := binary.LittleEndian
	if len(data) < 20 || le.Uint32(data) != 0x46546C67 || le.Uint32(data[4:]) != 2 || int(le.Uint32(data[8:])) != len(data) {
		t.Fatalf("bad GLB header (%d bytes)", len(data))
	}
	jl := int(le.Uint32(data[12:]))
	if le.Uint32(data[16:]) != 0x4E4F534A || jl%4 != 0 || 20+jl > len(data) {
		t.Fatalf("bad JSON chunk")
	}
	var doc gltfDoc
	if err := json.Unmarshal(data[20:20+jl], &doc); err != nil {
		t.Fatal(err)
	}
	rest := data[20+jl:]
	if len(rest) == 0 {
		if len(doc.Buffers) != 0 {
			t.Fatal("buffers without a binary chunk")
		}
		return doc, nil
	}
	bl := int(le.Uint32(rest))
	if len(rest) != 8+bl || le.Uint32(rest[4:]) != 0x004E4942 || bl%4 != 0 {
		t.Fatalf("bad BIN chunk")
	}
	if len(doc.Buffers) != 1 || doc.Buffers[0].ByteLength > bl || doc.Buffers[0].ByteLength+3 < bl {
		t.Fatalf("buffers %+v for a %d-byte chunk", doc.Buffers, bl)
	}
	return doc, rest[8:]
}

// accessorData returns an accessor's values as float64s (count × components).
func accessorData(t *testing.T, doc *gltfDoc, bin []byte, i int) ([]float64, int) {
	t.Helper()
	a := doc.Accessors[i]
	v := doc.BufferViews[a.View]
	comps := map[string]int{"SCALAR": 1, "VEC3": 3}[a.Type]
	if comps == 0 || v.ByteOffset%4 != 0 || v.ByteOffset+v.ByteLength > len(bin) || v.ByteLength != 4*comps*a.Count {
		t.Fatalf("accessor %d: %+v in view %+v", i, a, v)
	}
	out := make([]float64, comps*a.Count)
	for k := range out {
		u := binary.LittleEndian.Uint32(bin[v.ByteOffset+4*k:])
		switch a.ComponentType {
		case gltfFloat:
			out[k] = float64(math.Float32frombits(u))
		case gltfUint32:
			out[k] = float64(u)
		default:
			t.Fatalf("accessor %d: component type %d", i, a.ComponentType)
		}
	}
	return out, comps
}

// TestGLBRoundTrip: fig. 1.25's bush written as GLB reads back as its
// polygons, vertex for vertex, and its segments as tubes of the right
// radius, with unit normals, indices in range, exact position bounds and one
// material per colour index.
func TestGLBRoundTrip(t *testing.T) {
	g, _ := configGeometry(t, "bush-fig125.l", 3)
	if len(g.Polygons) == 0 || len(g.Colors()) < 3 {
		t.Fatalf("%d polygons, colours %v", len(g.Polygons), g.Colors())
	}
	const scale = 0.05
	var buf bytes.Buffer
	if err := writeGLB(context.Background(), &buf, g, glbOptions{Sides: 6, Caps: true, WidthScale: scale}); err != nil {
		t.Fatal(err)
	}
	doc, bin := readGLB(t, buf.Bytes())
	if len(doc.Materials) != len(g.Colors()) {
		t.Fatalf("%d materials for colours %v", len(doc.Materials), g.Colors())
	}
	for i, c := range g.Colors() {
		if doc.Materials[i].Name != MaterialName(c) {
			t.Errorf("material %d is %q, want %q", i, doc.Materials[i].Name, MaterialName(c))
		}
	}
	var polyVerts, tubeVerts int
	var prims []int // mesh of each primitive: one per part, a colour's segments or polygons
	for mi, m := range doc.Meshes {
		if len(m.Primitives) != 1 {
			t.Fatalf("mesh %d has %d primitives", mi, len(m.Primitives))
		}
		prims = append(prims, mi)
	}
	for _, mi := range prims {
		p := doc.Meshes[mi].Primitives[0]
		pos, _ := accessorData(t, &doc, bin, p.Attributes["POSITION"])
		nrm, _ := accessorData(t, &doc, bin, p.Attributes["NORMAL"])
		idx, _ := accessorData(t, &doc, bin, p.Indices)
		n := len(pos) / 3
		a := doc.Accessors[p.Attributes["POSITION"]]
		for k := range 3 {
			lo, hi := math.Inf(1), math.Inf(-1)
			for i := range n {
				lo, hi = min(lo, pos[3*i+k]), max(hi, pos[3*i+k])
			}
			if float32(lo) != a.Min[k] || float32(hi) != a.Max[k] {
				t.Fatalf("POSITION bounds %v..%v, data %v..%v", a.Min, a.Max, lo, hi)
			}
		}
		for i := range n {
			if l := math.Sqrt(nrm[3*i]*nrm[3*i] + nrm[3*i+1]*nrm[3*i+1] + nrm[3*i+2]*nrm[3*i+2]); math.Abs(l-1) > 1e-5 {
				t.Fatalf("normal %d has length %v", i, l)
			}
		}
		if len(idx)%3 != 0 {
			t.Fatalf("%d indices", len(idx))
		}
		for _, v := range idx {
			if v >= float64(n) {
				t.Fatalf("index %v of %d vertices", v, n)
			}
		}
		name := doc.Materials[p.Material].Name
		color := -1
		for _, c := range g.Colors() {
			if MaterialName(c) == name {
				color = int(c)
			}
		}
		// Polygon primitives hold the polygons' own vertices, in order.
		var want [][3]float32
		for _, pg := range g.Polygons {
			if int(pg.Color) == color {
				want = append(want, g.PolyVerts[pg.First:pg.First+pg.Count]...)
			}
		}
		if len(want) == n && n > 0 && float32(pos[0]) == want[0][0] {
			for i := range n {
				if [3]float32{float32(pos[3*i]), float32(pos[3*i+1]), float32(pos[3*i+2])} != want[i] {
					t.Fatalf("polygon vertex %d differs", i)
				}
			}
			polyVerts += n
			continue
		}
		// Tubes: 4 rings of 6 vertices a segment (sides and caps), each at
		// the segment's radius from its axis.
		var segs []Segment
		for _, s := range g.Segments {
			if int(s.Color) == color && s.A != s.B && s.Width > 0 {
				segs = append(segs, s)
			}
		}
		if n != 24*len(segs) {
			t.Fatalf("colour %d: %d tube vertices for %d segments", color, n, len(segs))
		}
		for si, s := range segs {
			r := float64(s.Width) * scale / 2
			for j := range 24 {
				i := 24*si + j
				if d := distToLine([3]float64{pos[3*i], pos[3*i+1], pos[3*i+2]}, s.A, s.B); math.Abs(d-r) > 1e-4*max(r, 1) {
					t.Fatalf("segment %d: vertex %d at %v from the axis, radius %v", si, j, d, r)
				}
			}
		}
		tubeVerts += n
	}
	if polyVerts != len(g.PolyVerts) || tubeVerts == 0 {
		t.Fatalf("%d polygon vertices read back of %d; %d tube vertices", polyVerts, len(g.PolyVerts), tubeVerts)
	}
	validate(t, buf.Bytes())

	// Nothing to draw is a valid file too.
	buf.Reset()
	if err := writeGLB(context.Background(), &buf, &Geometry{}, glbOptions{}); err != nil {
		t.Fatal(err)
	}
	if doc, _ := readGLB(t, buf.Bytes()); len(doc.Meshes) != 0 || len(doc.Nodes) != 0 {
		t.Fatalf("empty geometry: %+v", doc)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := writeGLB(ctx, &buf, g, glbOptions{}); err == nil {
		t.Error("a cancelled encode succeeded")
	}
	// Lines (sides 2 or less) are LINES primitives, which the validator
	// accepts (issue 35: a planar curve's GLB is lines, not tubes).
	buf.Reset()
	lg, _ := configGeometry(t, "bush-fig125.l", 2)
	if err := writeGLB(context.Background(), &buf, lg, glbOptions{Sides: 2}); err != nil {
		t.Fatalf("lines: %v", err)
	}
	if !bytes.Contains(buf.Bytes(), []byte(`"mode":1`)) {
		t.Error("no LINES primitive in a GLB of lines")
	}
	validate(t, buf.Bytes())
}

func distToLine(p [3]float64, a, b [3]float32) float64 {
	var d, ap [3]float64
	for k := range 3 {
		d[k] = float64(b[k]) - float64(a[k])
		ap[k] = p[k] - float64(a[k])
	}
	dd := d[0]*d[0] + d[1]*d[1] + d[2]*d[2]
	tt := (ap[0]*d[0] + ap[1]*d[1] + ap[2]*d[2]) / dd
	var s float64
	for k := range 3 {
		x := ap[k] - tt*d[k]
		s += x * x
	}
	return math.Sqrt(s)
}

func validate(t *testing.T, glb []byte) { meshtest.ValidateGLB(t, glb, false) }
