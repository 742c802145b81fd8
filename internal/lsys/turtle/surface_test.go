package turtle

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// TestSurfacePlacement: a ~L use lands at the turtle's position with the
// turtle's frame (the shape's +Y along H, -X along L, +Z along U) and its
// parameter as scale, for frames reached by turning, pitching and rolling.
func TestSurfacePlacement(t *testing.T) {
	cases := []struct {
		src        string
		p, h, l, u vec3
		scale      float64
		color      uint16
	}{
		// Start: H=+Y, L=-X, U=+Z.
		{"~L", vec3{0, 0, 0}, vec3{0, 1, 0}, vec3{-1, 0, 0}, vec3{0, 0, 1}, 1, 0},
		// F moves 1 up; + turns H towards L: H=-X, L=-Y.
		{"F+(90);(3)~L(2)", vec3{0, 1, 0}, vec3{-1, 0, 0}, vec3{0, -1, 0}, vec3{0, 0, 1}, 2, 3},
		// & pitches H towards -U: H=-Z, U=+Y.
		{"FF&(90)~L(0.5)", vec3{0, 2, 0}, vec3{0, 0, -1}, vec3{-1, 0, 0}, vec3{0, 1, 0}, 0.5, 0},
		// / rolls L towards U: L=+Z, U=+X.
		{"[F]/(90)~L(3)", vec3{0, 0, 0}, vec3{0, 1, 0}, vec3{0, 0, 1}, vec3{1, 0, 0}, 3, 0},
	}
	for _, tc := range cases {
		sys := &lsys.System{Step: 1, Angle: 90, Width: 1}
		s := parseModules(t, sys, tc.src)
		g := interpret(t, sys, s, 1)
		if len(g.Surfaces) != 1 || g.Stats.Surfaces != 1 {
			t.Fatalf("%s: %d surfaces, want 1", tc.src, len(g.Surfaces))
		}
		u := g.Surfaces[0]
		if u.Name != 'L' || u.Color != tc.color || math.Abs(float64(u.Scale)-tc.scale) > 1e-6 {
			t.Errorf("%s: name %c colour %d scale %g, want L %d %g", tc.src, u.Name, u.Color, u.Scale, tc.color, tc.scale)
		}
		in := u.instance()
		// The shape's base, tip (+Y), side (+X) and face (+Z) points.
		for _, pt := range []struct {
			local [3]float32
			want  vec3
		}{
			{[3]float32{0, 0, 0}, tc.p},
			{[3]float32{0, 1, 0}, tc.p.add(tc.h.scale(tc.scale))},
			{[3]float32{1, 0, 0}, tc.p.add(tc.l.scale(-tc.scale))},
			{[3]float32{0, 0, 1}, tc.p.add(tc.u.scale(tc.scale))},
		} {
			got := in.Apply(pt.local)
			for k, w := range [3]float64{pt.want.x, pt.want.y, pt.want.z} {
				if math.Abs(float64(got[k])-w) > 1e-5 {
					t.Errorf("%s: local %v lands at %v, want %v", tc.src, pt.local, got, pt.want)
					break
				}
			}
		}
	}
}

// TestSurfaceNames: the module after ~ names the surface; a ~ at the end
// of the string draws nothing, and the modules between are ignored.
func TestSurfaceNames(t *testing.T) {
	sys := &lsys.System{Step: 1, Angle: 90, Width: 1}
	s := parseModules(t, sys, "~KF~P[~S]~")
	g := interpret(t, sys, s, 1)
	var names []byte
	for _, u := range g.Surfaces {
		names = append(names, u.Name)
	}
	if string(names) != "KPS" || g.Stats.Segments != 1 {
		t.Fatalf("surfaces %q, %d segments; want KPS and 1", names, g.Stats.Segments)
	}
}

// surfacePlant is a branching string with 5 leaves in colour 2 and two
// flowers in colour 5, some at scale 0 (not drawn).
func surfacePlant(t *testing.T) *Geometry {
	sys := &lsys.System{Step: 1, Angle: 30, Width: 1}
	s := parseModules(t, sys, "F(1)[+(30);(2)~L(1)]F(1)[-(30);(2)~L(1.5)]F(1)[&(30);(2)~L(0)]/(90)[+(30);(2)~L(2)][^(20);(2)~L(1)]"+
		"F(1);(5)~K(2)[;(5)~K(1)]")
	return interpret(t, sys, s, 1)
}

// TestSurfacesInstancedInGLB: each surface and colour is one mesh, written
// once, on a node with EXT_mesh_gpu_instancing holding a translation,
// rotation and scale per drawn use (uses at scale 0 are left out), and the
// extension is declared; the Khronos validator accepts the file.
func TestSurfacesInstancedInGLB(t *testing.T) {
	g := surfacePlant(t)
	lib := BuiltinSurfaces()
	m, err := g.Mesh(MeshOptions{Normals: true, ByColor: true, Surfaces: lib})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := mesh.EncodeGLB(context.Background(), &buf, m, mesh.Options{}); err != nil {
		t.Fatal(err)
	}
	_, bin := readGLB(t, buf.Bytes())
	var doc struct {
		ExtensionsUsed []string
		Nodes          []struct {
			Name       string
			Mesh       int
			Extensions map[string]struct{ Attributes map[string]int }
		}
		Meshes    []struct{ Name string }
		Accessors []struct {
			View  int `json:"bufferView"`
			Count int
			Type  string
		}
		BufferViews []struct{ ByteOffset, ByteLength int }
	}
	jl := int(uint32(buf.Bytes()[12]) | uint32(buf.Bytes()[13])<<8 | uint32(buf.Bytes()[14])<<16)
	if err := json.Unmarshal(buf.Bytes()[20:20+jl], &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.ExtensionsUsed) != 1 || doc.ExtensionsUsed[0] != "EXT_mesh_gpu_instancing" {
		t.Fatalf("extensionsUsed %v", doc.ExtensionsUsed)
	}
	want := map[string]int{"surface_L": 4, "surface_K": 2}
	meshes := map[string]int{}
	for _, me := range doc.Meshes {
		meshes[me.Name]++
	}
	checked := 0
	for _, n := range doc.Nodes {
		ext, ok := n.Extensions["EXT_mesh_gpu_instancing"]
		if !ok {
			continue
		}
		checked++
		if meshes[n.Name] != 1 {
			t.Errorf("%s: %d meshes, want 1 (written once)", n.Name, meshes[n.Name])
		}
		for _, attr := range []string{"TRANSLATION", "ROTATION", "SCALE"} {
			a := doc.Accessors[ext.Attributes[attr]]
			if a.Count != want[n.Name] {
				t.Errorf("%s %s: %d instances, want %d", n.Name, attr, a.Count, want[n.Name])
			}
		}
		// The translations are the uses' positions, in order.
		a := doc.Accessors[ext.Attributes["TRANSLATION"]]
		v := doc.BufferViews[a.View]
		var uses []SurfaceUse
		for _, u := range g.Surfaces {
			if SurfacePartName(u.Name) == n.Name && u.Scale > 0 {
				uses = append(uses, u)
			}
		}
		for i, u := range uses {
			for k := range 3 {
				got := math.Float32frombits(uint32(bin[v.ByteOffset+12*i+4*k]) | uint32(bin[v.ByteOffset+12*i+4*k+1])<<8 |
					uint32(bin[v.ByteOffset+12*i+4*k+2])<<16 | uint32(bin[v.ByteOffset+12*i+4*k+3])<<24)
				if got != u.P[k] {
					t.Fatalf("%s instance %d: translation[%d] %g, want %g", n.Name, i, k, got, u.P[k])
				}
			}
		}
	}
	if checked != 2 {
		t.Fatalf("%d instancing nodes, want 2 (leaf and flower)", checked)
	}
	validate(t, buf.Bytes())
	assimpReads(t, buf.Bytes(), ".glb")
}

// TestSurfacesRepeatedInOBJAndPLY: formats without instancing hold a
// transformed copy of the shape per drawn use.
func TestSurfacesRepeatedInOBJAndPLY(t *testing.T) {
	g := surfacePlant(t)
	lib := BuiltinSurfaces()
	leaf, flower := lib['L'], lib['K']
	m, err := g.Mesh(MeshOptions{Normals: true, ByColor: true, Surfaces: lib})
	if err != nil {
		t.Fatal(err)
	}
	var obj, ply bytes.Buffer
	if err := mesh.EncodeOBJ(context.Background(), &obj, m, mesh.OBJOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := mesh.EncodePLY(context.Background(), &ply, m, mesh.Options{}); err != nil {
		t.Fatal(err)
	}
	wantFaces := 4*len(leaf.FaceSizes) + 2*len(flower.FaceSizes)
	wantVerts := 4*len(leaf.Positions) + 2*len(flower.Positions)
	// OBJ keeps polygons: count the faces and positions of the surface
	// groups (segments are lines in other groups).
	var faces, verts int
	in := false
	for _, line := range bytes.Split(obj.Bytes(), []byte("\n")) {
		switch {
		case bytes.HasPrefix(line, []byte("g ")):
			in = bytes.HasPrefix(line, []byte("g surface_"))
		case in && bytes.HasPrefix(line, []byte("f ")):
			faces++
		case in && bytes.HasPrefix(line, []byte("v ")):
			verts++
		}
	}
	if faces != wantFaces || verts != wantVerts {
		t.Errorf("OBJ: %d faces and %d positions in surface groups, want %d and %d", faces, verts, wantFaces, wantVerts)
	}
	// PLY triangulates: a polygon of n corners is n-2 triangles.
	tris := func(s *mesh.Shape) int { return len(s.Faces) - 2*len(s.FaceSizes) }
	wantFaces = 4*tris(leaf) + 2*tris(flower)
	hdr := regexp.MustCompile(`element face (\d+)`).FindSubmatch(ply.Bytes())
	if hdr == nil {
		t.Fatal("PLY header without faces")
	}
	if n, _ := strconv.Atoi(string(hdr[1])); n != wantFaces {
		t.Errorf("PLY: %d faces, want %d", n, wantFaces)
	}
	assimpReads(t, ply.Bytes(), ".ply")
}

// assimpReads runs 'assimp info' on the file when assimp is installed and
// checks it reads meshes with faces.
func assimpReads(t *testing.T, data []byte, ext string) {
	t.Helper()
	exe, err := exec.LookPath("assimp")
	if err != nil {
		t.Log("no assimp on PATH: skipped")
		return
	}
	f := filepath.Join(t.TempDir(), "t"+ext)
	if err := os.WriteFile(f, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(exe, "info", f).CombinedOutput()
	if err != nil {
		t.Fatalf("assimp info: %v\n%s", err, out)
	}
	mm := regexp.MustCompile(`Meshes:\s+(\d+)`).FindSubmatch(out)
	fm := regexp.MustCompile(`Faces:\s+(\d+)`).FindSubmatch(out)
	if mm == nil || fm == nil || string(mm[1]) == "0" || string(fm[1]) == "0" {
		t.Fatalf("assimp info read no meshes or faces:\n%s", out)
	}
	t.Logf("assimp: meshes %s, faces %s", mm[1], fm[1])
}

// TestSurfaceCheck: a system using a surface the library lacks is refused
// at the ~'s file:line:col.
func TestSurfaceCheck(t *testing.T) {
	sys := &lsys.System{Surfaces: []lsys.SurfaceRef{{Sym: 'L', Pos: lsys.Pos{File: "a.l", Line: 1, Col: 1}},
		{Sym: 'Q', Pos: lsys.Pos{File: "a.l", Line: 3, Col: 7}}}}
	err := BuiltinSurfaces().Check(sys)
	if err == nil || !regexp.MustCompile(`^a\.l:3:7: ~Q: no surface Q`).MatchString(err.Error()) {
		t.Fatalf("Check: %v", err)
	}
	lib := BuiltinSurfaces()
	lib['Q'] = Builtin("petal")
	if err := lib.Check(sys); err != nil {
		t.Fatal(err)
	}
}
