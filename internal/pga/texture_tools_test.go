package pga

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh"
	"github.com/procgen-dev/procgen/internal/output/mesh/meshtest"
)

// texturedExample builds configs/pga/textured.pga on a 3 x 2 grid.
func texturedExample(t *testing.T) *mesh.Mesh {
	t.Helper()
	path := filepath.Join("..", "..", "configs", "pga", "textured.pga")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	lots, err := Grid{Cols: 3, Rows: 2, Seed: 3, LotWidth: 20, LotDepth: 25, Street: 10}.Lots()
	if err != nil {
		t.Fatal(err)
	}
	ts, projs, err := g.evaluateTerms(LotAxioms(g.Axioms[0].Kind, lots, 1, 20), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g.Mesh(ts, projs)
}

// The textured example's GLB passes the Khronos validator with neither
// errors nor warnings (skipped where no validator is installed), with its
// image embedded and the texture coordinates it draws with.
func TestTexturedGLBValidates(t *testing.T) {
	var buf bytes.Buffer
	if err := mesh.EncodeGLB(context.Background(), &buf, texturedExample(t), mesh.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"TEXCOORD_0"`, `"baseColorTexture":{"index":0}`, `"mimeType":"image/png"`} {
		if !bytes.Contains(buf.Bytes(), []byte(want)) {
			t.Errorf("GLB lacks %s", want)
		}
	}
	meshtest.ValidateGLB(t, buf.Bytes(), true)
}

// assimp loads the textured example's OBJ and MTL with the texture and
// two-component texture coordinates on the textured mesh (skipped where
// assimp is not installed).
func TestTexturedOBJLoadsInAssimp(t *testing.T) {
	exe, err := exec.LookPath("assimp")
	if err != nil {
		t.Skip("assimp not on PATH")
	}
	dir := t.TempDir()
	m := texturedExample(t)
	for i := range m.Materials {
		if m.Materials[i].Texture != "" {
			abs, err := filepath.Abs(m.Materials[i].Texture)
			if err != nil {
				t.Fatal(err)
			}
			m.Materials[i].TextureRef = abs
		}
	}
	var obj, mtl bytes.Buffer
	if err := mesh.EncodeOBJ(context.Background(), &obj, m, mesh.OBJOptions{MTLLib: "t.mtl"}); err != nil {
		t.Fatal(err)
	}
	if err := mesh.EncodeMTL(&mtl, m); err != nil {
		t.Fatal(err)
	}
	objPath := filepath.Join(dir, "t.obj")
	if err := os.WriteFile(objPath, obj.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "t.mtl"), mtl.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(exe, "info", objPath).CombinedOutput()
	if err != nil {
		t.Fatalf("assimp info: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`(?m)^\s*'[^']*bricks\.png'`).Match(out) || !bytes.Contains(out, []byte("Materials:          3")) {
		t.Fatalf("assimp info does not list the texture and three materials:\n%s", out)
	}
	// assimp info prints no UV channels; its XML dump does.
	dump := filepath.Join(dir, "t.assxml")
	if out, err := exec.Command(exe, "dump", objPath, dump).CombinedOutput(); err != nil {
		t.Fatalf("assimp dump: %v\n%s", err, out)
	}
	x, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(regexp.MustCompile(`<TextureCoords num="[1-9][0-9]*" set="0" name="" num_components="2">`).FindAll(x, -1)); n != 2 {
		t.Fatalf("assimp sees texture coordinates on %d meshes, want 2 (Wall and Window)", n)
	}
}
