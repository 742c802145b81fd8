package pga

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh"
	"github.com/procgen-dev/procgen/internal/output/mesh/meshtest"
)

// fitInstance lays the asset's bounding box onto the scope's box as CGA's
// i() does, zero scope sizes included, wherever the scope stands.
func TestFitInstance(t *testing.T) {
	moved := Translation(Vec3{10, 0, 5}).Mul(RotationY(90)).Mul(RotationX(30))
	for _, c := range []struct {
		name     string
		lo, hi   [3]float64
		size     Vec3
		xf       Mat4
		s3       [3]float32
		wlo, whi Vec3 // where lo and hi land in the scope's centred frame
	}{
		{"2x1x1 into 4x2x2", [3]float64{0, 0, 0}, [3]float64{2, 1, 1}, Vec3{4, 2, 2}, Identity(), [3]float32{2, 2, 2}, Vec3{-2, -1, -1}, Vec3{2, 1, 1}},
		{"moved and turned", [3]float64{0, 0, 0}, [3]float64{2, 1, 1}, Vec3{4, 2, 2}, moved, [3]float32{2, 2, 2}, Vec3{-2, -1, -1}, Vec3{2, 1, 1}},
		{"off the origin", [3]float64{-1, 2, 3}, [3]float64{1, 3, 4}, Vec3{4, 2, 2}, moved, [3]float32{2, 2, 2}, Vec3{-2, -1, -1}, Vec3{2, 1, 1}},
		{"stretched", [3]float64{0, 0, 0}, [3]float64{2, 1, 1}, Vec3{4, 3, 0.5}, Identity(), [3]float32{2, 3, 0.5}, Vec3{-2, -1.5, -0.25}, Vec3{2, 1.5, 0.25}},
		{"quad: depth in proportion", [3]float64{0, 0, 0}, [3]float64{2, 1, 1}, Vec3{4, 4, 0}, moved, [3]float32{2, 4, 3}, Vec3{-2, -2, 0}, Vec3{2, 2, 3}},
		{"line", [3]float64{0, 0, 0}, [3]float64{2, 1, 1}, Vec3{0, 3, 0}, Identity(), [3]float32{3, 3, 3}, Vec3{0, -1.5, 0}, Vec3{6, 1.5, 3}},
		{"point: unscaled, own coordinates", [3]float64{-1, 0, 2}, [3]float64{1, 1, 3}, Vec3{}, moved, [3]float32{1, 1, 1}, Vec3{-1, 0, 2}, Vec3{1, 1, 3}},
		{"flat asset", [3]float64{0, 0, 0}, [3]float64{2, 1, 0}, Vec3{4, 2, 2}, Identity(), [3]float32{2, 2, 2}, Vec3{-2, -1, -1}, Vec3{2, 1, -1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := Shape{Transform: c.xf, Size: c.size}
			in := fitInstance(c.lo, c.hi, &s)
			if in.S3 != c.s3 {
				t.Errorf("scale %v, want %v", in.S3, c.s3)
			}
			for _, p := range []struct{ a, want Vec3 }{{c.lo, c.wlo}, {c.hi, c.whi}} {
				got := in.Apply([3]float32{float32(p.a[0]), float32(p.a[1]), float32(p.a[2])})
				want := c.xf.Apply(p.want)
				for k := range 3 {
					if math.Abs(float64(got[k])-want[k]) > 1e-4 {
						t.Errorf("asset corner %v lands at %v, want %v", p.a, got, want)
						break
					}
				}
			}
		})
	}
}

// I names its file relative to the grammar, makes one terminal kind per
// rule and asset, and refuses what it cannot read at the argument's place.
func TestAssetParse(t *testing.T) {
	src := header + `A = SubDiv(X) { 1: B | 1: C | 1: I("x/door.obj") };
B = RandomRule(ShapeSeed()) { 0.5: I("x/door.obj") | 0.5: I("win.OBJ") };
C = I("y/door.obj");
`
	g, err := Parse(filepath.Join("dir", "g.pga"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, a := range g.Assets {
		paths = append(paths, a.Path)
	}
	if want := []string{"dir/x/door.obj", "dir/win.OBJ", "dir/y/door.obj"}; strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Errorf("assets %v, want %v", paths, want)
	}
	want := map[string]string{"A.door": "dir/x/door.obj", "B.door": "dir/x/door.obj", "B.win": "dir/win.OBJ", "C.door": "dir/y/door.obj"}
	for name, path := range want {
		id, ok := g.termIndex(name)
		if a := g.AssetOf(id); !ok || a == nil || a.Path != path {
			t.Errorf("terminal %s: found %v, asset %v, want %s (kinds %v)", name, ok, a, path, g.TermNames)
		}
	}
	if id, _ := g.termIndex("T"); g.AssetOf(id) != nil {
		t.Error("a declared terminal is drawn as an asset")
	}
	for _, c := range []struct{ src, want string }{
		{`A = I("door.gltf");`, `g.pga:3:7: I "door.gltf": want a Wavefront .obj or binary glTF .glb mesh`},
		{`A = I("");`, `g.pga:3:7: I needs an asset file name`},
		{`A = I(door);`, `g.pga:3:7: expected a "quoted" string`},
		{`A = I("a.obj") T;`, `g.pga:3:5: `}, // as after Generate()
	} {
		_, err := Parse("g.pga", []byte(header+c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.src, err, c.want)
		}
	}
}

// SetAssetShape refuses a mesh with no extent.
func TestAssetShapeRefusesAPoint(t *testing.T) {
	g, err := Parse("g.pga", []byte(header+`A = I("a.obj");`))
	if err != nil {
		t.Fatal(err)
	}
	s := &mesh.Shape{Positions: [][3]float32{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}}, Faces: []int32{0, 1, 2}, FaceSizes: []int32{3}}
	if err := g.SetAssetShape(0, s); err == nil || !strings.Contains(err.Error(), "g.pga:3:7: asset a.obj: all its positions are one point") {
		t.Errorf("got %v", err)
	}
}

// assetsGrammar is configs/pga/assets.pga with its asset read, and its
// axioms on a 2 x 2 grid.
func assetsGrammar(t *testing.T) (*Grammar, []Shape) {
	t.Helper()
	path := filepath.Join("..", "..", "configs", "pga", "assets.pga")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	loadAssetShapes(t, g, func(a *AssetDef) ([]byte, error) { return os.ReadFile(a.Path) })
	lots, err := Grid{Cols: 2, Rows: 2, Seed: 3, LotWidth: 20, LotDepth: 25, Street: 10}.Lots()
	if err != nil {
		t.Fatal(err)
	}
	return g, LotAxioms(g.Axioms[0].Kind, lots, 1, 20)
}

// assetsExample builds configs/pga/assets.pga on a 2 x 2 grid with its
// asset read, and counts the asset's terminals.
func assetsExample(t *testing.T) (*mesh.Mesh, int) {
	t.Helper()
	g, axioms := assetsGrammar(t)
	ts, projs, err := g.evaluateTerms(axioms, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range ts {
		if g.AssetOf(ts[i].Term) != nil {
			n++
		}
	}
	if n == 0 {
		t.Fatal("no asset terminals")
	}
	return g.Mesh(ts, projs), n
}

// The example's GLB holds the asset's mesh once, placed N times by one
// EXT_mesh_gpu_instancing node, and passes the Khronos validator with
// neither errors nor warnings; its OBJ holds N copies.
func TestAssetGLBInstanced(t *testing.T) {
	m, n := assetsExample(t)
	var buf bytes.Buffer
	if err := mesh.EncodeGLB(context.Background(), &buf, m, mesh.Options{}); err != nil {
		t.Fatal(err)
	}
	glb := buf.Bytes()
	jsonLen := binary.LittleEndian.Uint32(glb[12:16])
	var doc struct {
		Meshes []struct {
			Name string `json:"name"`
		} `json:"meshes"`
		Nodes []struct {
			Mesh       int `json:"mesh"`
			Extensions struct {
				Inst *struct {
					Attributes map[string]int `json:"attributes"`
				} `json:"EXT_mesh_gpu_instancing"`
			} `json:"extensions"`
		} `json:"nodes"`
		Accessors []struct {
			Count int `json:"count"`
		} `json:"accessors"`
	}
	if err := json.Unmarshal(glb[20:20+jsonLen], &doc); err != nil {
		t.Fatal(err)
	}
	meshes, inst := 0, 0
	for _, me := range doc.Meshes {
		if me.Name == "AC.ac_unit" {
			meshes++
		}
	}
	for _, nd := range doc.Nodes {
		if nd.Extensions.Inst == nil {
			continue
		}
		inst++
		if doc.Meshes[nd.Mesh].Name != "AC.ac_unit" {
			t.Errorf("instanced node draws %s", doc.Meshes[nd.Mesh].Name)
		}
		for _, attr := range []string{"TRANSLATION", "ROTATION", "SCALE"} {
			if got := doc.Accessors[nd.Extensions.Inst.Attributes[attr]].Count; got != n {
				t.Errorf("%s: %d instances, want %d", attr, got, n)
			}
		}
	}
	if meshes != 1 || inst != 1 {
		t.Errorf("%d meshes and %d instanced nodes for the asset, want 1 and 1", meshes, inst)
	}
	meshtest.ValidateGLB(t, glb, true)

	buf.Reset()
	if err := mesh.EncodeOBJ(context.Background(), &buf, m, mesh.OBJOptions{}); err != nil {
		t.Fatal(err)
	}
	obj := buf.String()
	at := strings.Index(obj, "g AC.ac_unit\n")
	if at < 0 {
		t.Fatal("OBJ has no AC.ac_unit group")
	}
	// The unit's 7 faces, once per terminal.
	if got := strings.Count(obj[at:], "\nf "); got != 7*n {
		t.Errorf("OBJ group AC.ac_unit has %d faces, want %d", got, 7*n)
	}
}

// FuzzAssetOps: grammars with I operations parse or fail with a position,
// and what parses evaluates and meshes (each asset a unit cube) into a GLB.
func FuzzAssetOps(f *testing.F) {
	for _, src := range []string{
		header + `A = I("a.obj");`,
		header + `A = SubDiv(X) { 1: I("a.obj") | -1: Scale(0, 1, 1) I("b/a.obj") };`,
		header + `A = Rotate(10, 20, 30) Scale(1e-30, 1e30, 0) I("a.obj");`,
		"axiom Quad A; terminal T (1,0); A = Repeat(X, 0.5) I(\"q.obj\");",
		header + `A = I("a.obj" T;`,
		header + `A = I("a.png");`,
	} {
		f.Add([]byte(src))
	}
	cube := &mesh.Shape{Positions: [][3]float32{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}},
		Faces: []int32{0, 3, 2, 1, 4, 5, 6, 7, 0, 1, 5, 4}, FaceSizes: []int32{4, 4, 4}}
	f.Fuzz(func(t *testing.T, src []byte) {
		g, err := Parse("f.pga", src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Pos.Line < 1 || se.Pos.Col < 1 {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		for i := range g.Assets {
			if err := g.SetAssetShape(i, cube); err != nil {
				t.Fatal(err)
			}
		}
		ts, projs, err := g.evaluateTerms([]Shape{NewAxiom(g.Axioms[0].Kind, Vec3{4, 4, 4}, 1)}, Options{MaxShapes: 2000, MaxDepth: 50, Workers: 1})
		if err != nil {
			return
		}
		if err := mesh.EncodeGLB(context.Background(), io.Discard, g.Mesh(ts, projs), mesh.Options{}); err != nil {
			t.Fatal(err)
		}
	})
}

// Statistics alone (no terminals kept: the evaluator's tally) count an
// asset's terminals as Stats counts them from the terminals, in all and
// per phase: the asset's positions and triangles, not its scope's.
func TestAssetStatsAlone(t *testing.T) {
	g, axioms := assetsGrammar(t)
	alone, err := g.EvaluateStats(axioms, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts, _, err := g.evaluateTerms(axioms, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := g.Stats(ts)
	if alone.Vertices != want.Vertices || alone.Triangles != want.Triangles || !slices.Equal(alone.ByPhase, want.ByPhase) {
		t.Errorf("alone %d vertices, %d triangles, phases %+v; from the terminals %d, %d, %+v",
			alone.Vertices, alone.Triangles, alone.ByPhase, want.Vertices, want.Triangles, want.ByPhase)
	}
}

// loadAssetShapes gives g's assets their meshes, each OBJ file's bytes as
// read finds them, as the job's loadAssets does.
func loadAssetShapes(t testing.TB, g *Grammar, read func(a *AssetDef) ([]byte, error)) {
	t.Helper()
	for i := range g.Assets {
		a := &g.Assets[i]
		b, err := read(a)
		if err != nil {
			t.Fatal(err)
		}
		s, err := mesh.ReadOBJ(a.Path, bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := g.SetAssetShape(i, s); err != nil {
			t.Fatal(err)
		}
	}
}
