package mesh

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
)

// A per-axis scale (S3) places points by T + R(S3 ⊙ p), turns the copies'
// normals by the inverse transpose (unit length again), goes into GLB's
// SCALE accessor as given, and must be positive.
func TestInstanceAxisScale(t *testing.T) {
	s := float32(math.Sqrt(0.5))
	// 180° about Z: x -> -x, y -> -y.
	in := Instance{T: [3]float32{1, 2, 3}, Q: [4]float32{0, 0, 1, 0}, S3: [3]float32{2, 3, 4}}
	got := in.Apply([3]float32{1, 1, 1})
	want := [3]float32{1 - 2, 2 - 3, 3 + 4}
	for k := range 3 {
		if math.Abs(float64(got[k]-want[k])) > 1e-5 {
			t.Fatalf("Apply: %v, want %v", got, want)
		}
	}
	r := in.rotation()
	// The plane x/2 + y/3 = 1 through (2, 0) and (0, 3) of the scaled
	// copy has normal (1/2, 1/3) before turning; the unscaled plane x + y
	// has normal (1, 1).
	n := in.rotate(&r, [3]float32{s, s, 0})
	l := math.Hypot(0.5, 1.0/3)
	wantN := [3]float64{-0.5 / l, -1.0 / 3 / l, 0}
	for k := range 3 {
		if math.Abs(float64(n[k])-wantN[k]) > 1e-5 {
			t.Fatalf("normal %v, want %v", n, wantN)
		}
	}
	if err := in.check(); err != nil {
		t.Errorf("check: %v", err)
	}
	bad := in
	bad.S3[1] = -1
	if err := bad.check(); err == nil {
		t.Error("a negative axis scale passes check")
	}
	if sc := in.scale(); sc != in.S3 {
		t.Errorf("scale %v, want S3", sc)
	}
	if sc := (&Instance{S: 2}).scale(); sc != [3]float32{2, 2, 2} {
		t.Errorf("uniform scale %v", sc)
	}
	// The OBJ copy of a one-triangle part has the transformed corners.
	m := &Mesh{Materials: []Material{{Name: "m", Color: [3]float64{1, 1, 1}}}, Parts: []Part{{Name: "p", Count: 1, Instances: []Instance{in},
		Build: func(lo, hi int, c *Chunk) {
			c.Positions = append(c.Positions, [3]float32{0, 0, 0}, [3]float32{1, 0, 0}, [3]float32{0, 1, 0})
			c.Normals = append(c.Normals, [3]float32{0, 0, 1})
			c.Vertices = append(c.Vertices, Vertex{P: 0}, Vertex{P: 1}, Vertex{P: 2})
			c.Faces = append(c.Faces, 0, 1, 2)
			c.FaceSizes = append(c.FaceSizes, 3)
		}}}}
	var buf bytes.Buffer
	if err := EncodeOBJ(context.Background(), &buf, m, OBJOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"v 1 2 3\n", "v -1 2 3\n", "v 1 -1 3\n"} {
		if !strings.Contains(buf.String(), v) {
			t.Errorf("OBJ lacks %q:\n%s", v, buf.String())
		}
	}
}
