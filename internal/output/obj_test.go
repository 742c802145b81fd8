package output

import (
	"bytes"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// testMesh is a tetrahedron trunk with a two-segment branch line, chosen to
// cover every element kind and awkward numbers (thirds, float32 values, -0).
func testMesh() *Mesh {
	return &Mesh{
		Vertices: []Vec3{
			{0, 0, 0},
			{1, 0, 0},
			{0.5, math.Copysign(0, -1), 1.0 / 3},
			{0.5, 1, float64(float32(0.3))},
			{-2.5e-7, 1234567.125, 2},
		},
		Groups: []Group{
			{Faces: []Face{{0, 1, 3, 2}}},
			{Name: "trunk", Material: "bark", Faces: []Face{{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}}},
			{Name: "branch", Material: "leaf", Lines: [][]int{{3, 4}, {4, 0, 1}}},
		},
	}
}

func testMaterials() []Material {
	return []Material{
		{Name: "bark", Diffuse: [3]float64{0.4, 0.25, 0.1}},
		{
			Name:      "leaf",
			Diffuse:   [3]float64{0.1, 0.6, 0.2},
			Ambient:   &[3]float64{0.05, 0.05, 0.05},
			Specular:  &[3]float64{0.2, 0.2, 0.2},
			Shininess: 32,
			Opacity:   0.75,
		},
	}
}

func TestWriteOBJGolden(t *testing.T) {
	dir := t.TempDir()
	objPath := filepath.Join(dir, "mesh.obj")
	if err := WriteOBJ(objPath, testMesh(), testMaterials()); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, objPath, "mesh.obj.golden")
	checkGolden(t, filepath.Join(dir, "mesh.mtl"), "mesh.mtl.golden")
	assertMode(t, objPath)
}

func TestEncodeOBJNormalsGolden(t *testing.T) {
	m := &Mesh{
		Vertices: []Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
		Normals:  []Vec3{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}},
		Groups:   []Group{{Name: "tri", Faces: []Face{{0, 1, 2}}, Lines: [][]int{{0, 1}}}},
	}
	var buf bytes.Buffer
	if err := EncodeOBJ(&buf, m, ""); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "normals.obj")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, path, "normals.obj.golden")
}

func TestWriteOBJWithoutMaterials(t *testing.T) {
	dir := t.TempDir()
	m := &Mesh{Vertices: []Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, Groups: []Group{{Faces: []Face{{0, 1, 2}}}}}
	objPath := filepath.Join(dir, "plain.obj")
	if err := WriteOBJ(objPath, m, nil); err != nil {
		t.Fatal(err)
	}
	assertOnly(t, dir, true, "plain.obj")
	assertFile(t, objPath, "# procgen: 3 vertices, 1 faces, 0 lines\nv 0 0 0\nv 1 0 0\nv 0 1 0\ng default\nf 1 2 3\n")
}

func TestEncodeMTL(t *testing.T) {
	tests := []struct {
		name string
		mat  Material
		want string
	}{
		{
			name: "diffuse only is opaque",
			mat:  Material{Name: "a", Diffuse: [3]float64{1, 0.5, 0}},
			want: "newmtl a\nKd 1 0.5 0\nd 1\nillum 1\n",
		},
		{
			name: "specular without shininess",
			mat:  Material{Name: "b", Specular: &[3]float64{1, 1, 1}, Opacity: 0.5},
			want: "newmtl b\nKd 0 0 0\nKs 1 1 1\nd 0.5\nillum 2\n",
		},
		{
			name: "shininess needs specular",
			mat:  Material{Name: "c", Ambient: &[3]float64{0.1, 0.1, 0.1}, Shininess: 50, Opacity: 1},
			want: "newmtl c\nKa 0.1 0.1 0.1\nKd 0 0 0\nd 1\nillum 1\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := EncodeMTL(&buf, []Material{tt.mat}); err != nil {
				t.Fatal(err)
			}
			want := "# procgen: 1 materials\n\n" + tt.want
			if buf.String() != want {
				t.Errorf("EncodeMTL =\n%s\nwant\n%s", buf.String(), want)
			}
		})
	}
}

func TestWriteOBJInvalid(t *testing.T) {
	tests := []struct {
		name      string
		path      string // default mesh.obj
		edit      func(m *Mesh, mats []Material) []Material
		wantInErr string
		meshOK    bool // only the materials are wrong, which EncodeOBJ cannot see
	}{
		{
			name:      "face index too large",
			edit:      func(m *Mesh, mats []Material) []Material { m.Groups[1].Faces[1][2] = 5; return mats },
			wantInErr: "face 1: vertex index 5 out of range [0,5)",
		},
		{
			name:      "negative face index",
			edit:      func(m *Mesh, mats []Material) []Material { m.Groups[0].Faces[0][0] = -1; return mats },
			wantInErr: "vertex index -1 out of range",
		},
		{
			name:      "line index out of range",
			edit:      func(m *Mesh, mats []Material) []Material { m.Groups[2].Lines[1][2] = 99; return mats },
			wantInErr: "line 1: vertex index 99 out of range",
		},
		{
			name:      "degenerate face",
			edit:      func(m *Mesh, mats []Material) []Material { m.Groups[1].Faces[0] = Face{0, 1}; return mats },
			wantInErr: "face 0 has 2 vertices",
		},
		{
			name:      "single point line",
			edit:      func(m *Mesh, mats []Material) []Material { m.Groups[2].Lines[0] = []int{1}; return mats },
			wantInErr: "line 0 has 1 vertices",
		},
		{
			name:      "normal count",
			edit:      func(m *Mesh, mats []Material) []Material { m.Normals = []Vec3{{0, 0, 1}}; return mats },
			wantInErr: "1 normals for 5 vertices",
		},
		{
			name:      "nan vertex",
			edit:      func(m *Mesh, mats []Material) []Material { m.Vertices[3][1] = math.NaN(); return mats },
			wantInErr: "vertex 3 is not finite",
		},
		{
			name:      "group name with space",
			edit:      func(m *Mesh, mats []Material) []Material { m.Groups[1].Name = "the trunk"; return mats },
			wantInErr: `contains white space`,
		},
		{
			name: "unmaterialed group after a materialed one",
			edit: func(m *Mesh, mats []Material) []Material {
				m.Groups = append(m.Groups, Group{Faces: []Face{{0, 1, 2}}})
				return mats
			},
			wantInErr: `has no material but follows one with "leaf"`,
		},
		{
			name:      "undefined material",
			edit:      func(m *Mesh, mats []Material) []Material { return mats[:1] },
			wantInErr: `uses undefined material "leaf"`,
			meshOK:    true,
		},
		{
			name:      "material but no library",
			edit:      func(m *Mesh, mats []Material) []Material { return nil },
			wantInErr: `uses undefined material "bark"`,
			meshOK:    true,
		},
		{
			name:      "duplicate material",
			edit:      func(m *Mesh, mats []Material) []Material { return append(mats, mats[0]) },
			wantInErr: `material "bark" defined twice`,
			meshOK:    true,
		},
		{
			name:      "opacity out of range",
			edit:      func(m *Mesh, mats []Material) []Material { mats[1].Opacity = 1.5; return mats },
			wantInErr: "opacity 1.5 outside 0..1",
			meshOK:    true,
		},
		{
			name:      "unnamed material",
			edit:      func(m *Mesh, mats []Material) []Material { mats[0].Name = ""; return mats },
			wantInErr: "material 0 has no name",
			meshOK:    true,
		},
		{
			name:      "obj path is the mtl path",
			path:      "mesh.mtl",
			edit:      func(m *Mesh, mats []Material) []Material { return mats },
			wantInErr: "would be overwritten",
			meshOK:    true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			name := tt.path
			if name == "" {
				name = "mesh.obj"
			}
			m := testMesh()
			mats := tt.edit(m, testMaterials())
			err := WriteOBJ(filepath.Join(dir, name), m, mats)
			if err == nil {
				t.Fatal("WriteOBJ succeeded")
			}
			if !strings.Contains(err.Error(), tt.wantInErr) {
				t.Errorf("error %q does not contain %q", err, tt.wantInErr)
			}
			// Validation comes first: neither file may exist.
			assertOnly(t, dir, false, "")

			if tt.meshOK {
				return
			}
			var buf bytes.Buffer
			if err := EncodeOBJ(&buf, m, "x.mtl"); err == nil {
				t.Error("EncodeOBJ succeeded")
			}
			if buf.Len() != 0 {
				t.Errorf("EncodeOBJ wrote %d bytes of an invalid mesh", buf.Len())
			}
		})
	}
}

// TestFloatDigitsRoundTripFloat32 backs the claim behind floatDigits.
func TestFloatDigitsRoundTripFloat32(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 100000 {
		f := math.Float32frombits(rng.Uint32())
		if i < 4 {
			f = []float32{math.MaxFloat32, math.SmallestNonzeroFloat32, 0.1, 16777217}[i]
		}
		if f != f || math.IsInf(float64(f), 0) {
			continue
		}
		s := strconv.FormatFloat(float64(f), 'g', floatDigits, 64)
		back, err := strconv.ParseFloat(s, 32)
		if err != nil || float32(back) != f {
			t.Fatalf("%v formatted as %q parses back as %v (%v)", f, s, back, err)
		}
	}
}

func BenchmarkEncodeOBJ(b *testing.B) {
	const n = 256 // an n x n height-field grid
	m := &Mesh{Groups: []Group{{Name: "grid"}}}
	for y := range n {
		for x := range n {
			m.Vertices = append(m.Vertices, Vec3{float64(x) / n, float64(y) / n, math.Sin(float64(x*y) / n)})
		}
	}
	for y := range n - 1 {
		for x := range n - 1 {
			i := y*n + x
			m.Groups[0].Faces = append(m.Groups[0].Faces, Face{i, i + 1, i + n + 1}, Face{i, i + n + 1, i + n})
		}
	}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := EncodeOBJ(&buf, m, ""); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}

// checkGolden compares the file at path with testdata/golden, or rewrites
// the golden file with -update. Rewriting is refused under CI, where a
// golden file must never silently follow the code it is meant to check.
func checkGolden(t *testing.T, path, golden string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	goldenPath := filepath.Join("testdata", golden)
	if *update {
		if os.Getenv("CI") != "" {
			t.Fatal("refusing -update with CI set")
		}
		if err := os.WriteFile(goldenPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s:\n--- got\n%s--- want\n%s", filepath.Base(path), goldenPath, got, want)
	}
}
