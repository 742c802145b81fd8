package turtle

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh"
	"github.com/procgen-dev/procgen/internal/output/mesh/meshtest"
)

// helix is n segments along a helix of radius 1, a step of angle th, rising
// h a step, their widths growing from w0 by dw a segment.
func helix(n int, th, h, w0, dw float64) *Geometry {
	pt := func(i int) [3]float32 {
		s, c := math.Sincos(th * float64(i))
		return [3]float32{float32(c), float32(s), float32(h * float64(i))}
	}
	g := &Geometry{}
	for i := range n {
		g.Segments = append(g.Segments, Segment{A: pt(i), B: pt(i + 1), Width: float32(w0 + dw*float64(i))})
	}
	return g
}

func v3(p [3]float32) vec3 { return vec3{float64(p[0]), float64(p[1]), float64(p[2])} }

func unit(v vec3) vec3 { return v.scale(1 / math.Sqrt(dot(v, v))) }

// smoothChunk builds g's segments as smooth tubes of k sides into one chunk.
func smoothChunk(t *testing.T, g *Geometry, k int) (*mesh.Mesh, *mesh.Chunk) {
	t.Helper()
	m, err := g.Mesh(MeshOptions{Sides: k, Smooth: true, Caps: true, Normals: true})
	if err != nil {
		t.Fatal(err)
	}
	var c mesh.Chunk
	p := m.Parts[0]
	p.Build(0, p.Count, &c)
	return m, &c
}

func TestSmoothCounts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		g      *Geometry
		chains []int // segments per chain
	}{
		{"one segment", helix(1, 0.3, 0.1, 0.1, 0), []int{1}},
		{"helix", helix(40, 0.3, 0.1, 0.1, 0.002), []int{40}},
		{"branch and a gap", &Geometry{Segments: []Segment{
			{A: [3]float32{0, 0, 0}, B: [3]float32{0, 1, 0}, Width: 0.1},
			{A: [3]float32{0, 1, 0}, B: [3]float32{0.5, 2, 0}, Width: 0.1}, // continues: a chain of 2
			{A: [3]float32{0, 1, 0}, B: [3]float32{0, 2, 0}, Width: 0.1},   // after ']': a new chain
			{A: [3]float32{0, 2, 0}, B: [3]float32{0, 2, 0}, Width: 0.1},   // no length: left out
			{A: [3]float32{0, 2, 0}, B: [3]float32{0, 3, 0}, Width: 0.1},   // so this starts another
		}}, []int{2, 1, 1}},
	} {
		for _, k := range []int{3, 8} {
			_, c := smoothChunk(t, tc.g, k)
			var wantV, wantF, wantT int
			for _, n := range tc.chains {
				wantV += (n+1)*(k+1) + 2*k
				wantF += n*k + 2
				wantT += (n + 1) * (k + 1)
			}
			if len(c.Vertices) != wantV || len(c.FaceSizes) != wantF || len(c.UVs) != wantT {
				t.Errorf("%s, %d sides: %d vertices, %d faces, %d UVs; want %d, %d, %d", tc.name, k,
					len(c.Vertices), len(c.FaceSizes), len(c.UVs), wantV, wantF, wantT)
			}
		}
	}
}

// TestSmoothHelix checks the rings of a helix: across the mean heading at
// each joint, of the mean radius, carried without twist from ring to ring,
// and the texture coordinates.
func TestSmoothHelix(t *testing.T) {
	const n, k = 40, 8
	g := helix(n, 0.3, 0.1, 0.1, 0.002)
	_, c := smoothChunk(t, g, k)
	heading := func(i int) vec3 { s := g.Segments[i]; return unit(v3(s.B).add(v3(s.A).neg())) }
	var prevDir, prevT vec3
	wantV := 0.0
	for ri := 0; ri <= n; ri++ {
		var centre, tan vec3
		var r float64
		switch {
		case ri == 0:
			centre, tan, r = v3(g.Segments[0].A), heading(0), float64(g.Segments[0].Width)/2
		case ri == n:
			centre, tan, r = v3(g.Segments[n-1].B), heading(n-1), float64(g.Segments[n-1].Width)/2
		default:
			centre, tan = v3(g.Segments[ri].A), unit(heading(ri-1).add(heading(ri)))
			r = float64(g.Segments[ri-1].Width+g.Segments[ri].Width) / 4
		}
		for j := range k + 1 {
			v := c.Vertices[ri*(k+1)+j]
			d := v3(c.Positions[v.P]).add(centre.neg())
			if e := math.Abs(dot(d, tan)) / r; e > 1e-4 {
				t.Errorf("ring %d vertex %d: off the plane across the tangent by %g of the radius", ri, j, e)
			}
			if e := math.Abs(math.Sqrt(dot(d, d))-r) / r; e > 1e-4 {
				t.Errorf("ring %d vertex %d: radius %g, want %g", ri, j, math.Sqrt(dot(d, d)), r)
			}
			uv := c.UVs[v.T]
			if u := float64(j) / k; math.Abs(float64(uv[0])-u) > 1e-6 || math.Abs(float64(uv[1])-wantV) > 1e-4*(1+wantV) {
				t.Errorf("ring %d vertex %d: uv %v, want (%g, %g)", ri, j, uv, u, wantV)
			}
		}
		// Twist: the first direction of this ring against the last one's
		// turned by the smallest rotation between the tangents (axis-angle).
		dir := unit(v3(c.Positions[c.Vertices[ri*(k+1)].P]).add(centre.neg()))
		if ri > 0 {
			axis := cross(prevT, tan)
			s := math.Sqrt(dot(axis, axis))
			want := rodrigues(prevDir, axis.scale(1/s), dot(prevT, tan), s)
			if a := math.Acos(min(1, dot(want, dir))); a > 1e-3 {
				t.Errorf("ring %d: twisted %g rad against parallel transport", ri, a)
			}
		}
		prevDir, prevT = dir, tan
		if ri < n {
			s := g.Segments[ri]
			wantV += math.Sqrt(dot(v3(s.B).add(v3(s.A).neg()), v3(s.B).add(v3(s.A).neg()))) / (math.Pi * float64(s.Width))
		}
	}
}

func TestSmoothWriters(t *testing.T) {
	m, _ := smoothChunk(t, helix(40, 0.3, 0.1, 0.1, 0.002), 8)
	ctx := context.Background()
	var glb, ply, obj bytes.Buffer
	if err := mesh.EncodeGLB(ctx, &glb, m, mesh.Options{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(glb.Bytes(), []byte(`"TEXCOORD_0"`)) {
		t.Error("GLB has no TEXCOORD_0")
	}
	meshtest.ValidateGLB(t, glb.Bytes(), true)
	if err := mesh.EncodePLY(ctx, &ply, m, mesh.Options{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(ply.Bytes(), []byte("property float s\nproperty float t\n")) ||
		!bytes.Contains(ply.Bytes(), []byte("element vertex 385\n")) { // 41·9 + 2·8
		t.Errorf("PLY header:\n%s", ply.Bytes()[:min(400, ply.Len())])
	}
	assimpReads(t, ply.Bytes(), ".ply")
	if err := mesh.EncodeOBJ(ctx, &obj, m, mesh.OBJOptions{}); err != nil {
		t.Fatal(err)
	}
	if c := bytes.Count(obj.Bytes(), []byte("\nvt ")); c != 41*9 {
		t.Errorf("OBJ: %d vt, want %d", c, 41*9)
	}
	if !bytes.Contains(obj.Bytes(), []byte("\nf 1/1/1 2/2/2 10/11/10 9/10/9\n")) {
		t.Error("OBJ's first face is not v/vt/vn numbered from 1")
	}
	assimpReads(t, obj.Bytes(), ".obj")
}

// TestSmoothMemory checks MeshMemory covers what the smooth tubes hold.
func TestSmoothMemory(t *testing.T) {
	g := helix(200, 0.3, 0.1, 0.1, 0)
	o := MeshOptions{Sides: 8, Smooth: true, Caps: true, Normals: true}
	_, c := smoothChunk(t, g, 8)
	held := float64(len(c.Positions)*12+len(c.Normals)*12+len(c.UVs)*8+len(c.Vertices)*12) + float64(len(c.Faces)*4)
	if est := MeshMemory(g, o); est < held {
		t.Errorf("estimate %g bytes under the %g the chunk holds", est, held)
	}
	tube := MeshMemory(g, MeshOptions{Sides: 8, Caps: true, Normals: true})
	if est := MeshMemory(g, o); est <= tube {
		t.Errorf("smooth estimate %g not above tubes' %g: texture coordinates not counted", est, tube)
	}
}
