package mesh

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh/meshtest"
)

// texturedSquares are two unit quads with UVs, one per material; both
// materials draw the same image file.
func texturedSquares(t *testing.T, tex string) *Mesh {
	t.Helper()
	build := func(lo, hi int, c *Chunk) {
		c.Positions = append(c.Positions, [3]float32{0, 0, 0}, [3]float32{1, 0, 0}, [3]float32{1, 1, 0}, [3]float32{0, 1, 0})
		c.Normals = append(c.Normals, [3]float32{0, 0, 1})
		c.UVs = append(c.UVs, [2]float32{0, 0}, [2]float32{2, 0}, [2]float32{2, 2}, [2]float32{0, 2})
		for i := range int32(4) {
			c.Vertices = append(c.Vertices, Vertex{P: i, N: 0, T: i})
		}
		c.Face(0, 1, 2, 3)
	}
	return &Mesh{
		Materials: []Material{
			{Name: "a", Color: [3]float64{1, 1, 1}, Roughness: 0.9, Texture: tex},
			{Name: "b", Color: [3]float64{1, 0.5, 0.5}, Roughness: 0.9, Texture: tex, TextureRef: "tex dir/t.png"},
		},
		Parts: []Part{{Name: "a", Material: 0, Count: 1, Build: build}, {Name: "b", Material: 1, Count: 1, Build: build}},
	}
}

// writePNG writes a 5 x 3 image (an odd length of PNG bytes is likely,
// which the GLB must pad) and returns its path and bytes.
func writePNG(t *testing.T) (string, []byte) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 5, 3))
	for i := range 15 {
		img.SetNRGBA(i%5, i/5, color.NRGBA{uint8(17 * i), 200, uint8(255 - 9*i), 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "t.png")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, b.Bytes()
}

// A GLB embeds a texture once, after all other data, padded to 4 bytes,
// with one repeating sampler, and passes the validator without warnings.
func TestGLBEmbedsTexture(t *testing.T) {
	path, data := writePNG(t)
	var b bytes.Buffer
	if err := EncodeGLB(context.Background(), &b, texturedSquares(t, path), Options{}); err != nil {
		t.Fatal(err)
	}
	doc, bin := readDoc(t, b.Bytes())
	if len(doc.Images) != 1 || len(doc.Textures) != 1 || len(doc.Samplers) != 1 || doc.Images[0].BufferView == nil {
		t.Fatalf("images %+v, textures %+v, samplers %+v", doc.Images, doc.Textures, doc.Samplers)
	}
	v := doc.BufferViews[*doc.Images[0].BufferView]
	if v.Target != 0 || v.ByteLength != len(data) || !bytes.Equal(bin[v.ByteOffset:v.ByteOffset+v.ByteLength], data) {
		t.Errorf("image view %+v does not hold the %d PNG bytes", v, len(data))
	}
	if got := doc.Buffers[0].ByteLength; got%4 != 0 || got != v.ByteOffset+(len(data)+3)&^3 || len(bin) != got {
		t.Errorf("buffer of %d bytes (binary chunk %d), image view %+v", got, len(bin), v)
	}
	for i, m := range doc.Materials {
		if m.PBR.BaseColorTexture == nil || m.PBR.BaseColorTexture.Index != 0 {
			t.Errorf("material %d: %+v", i, m.PBR)
		}
	}
	if doc.Images[0].MimeType != "image/png" || doc.Images[0].URI != "" {
		t.Errorf("image %+v", doc.Images[0])
	}
	if _, ok := doc.Meshes[0].Primitives[0].Attributes["TEXCOORD_0"]; !ok {
		t.Error("no TEXCOORD_0")
	}
	meshtest.ValidateGLB(t, b.Bytes(), true)
}

// With ReferenceImages the GLB names the files by relative, encoded URIs
// and holds none of their bytes.
func TestGLBReferencesTexture(t *testing.T) {
	path, _ := writePNG(t)
	m := texturedSquares(t, path)
	m.Materials[0].TextureRef = "tex dir/t.png"
	var b bytes.Buffer
	if err := EncodeGLB(context.Background(), &b, m, Options{ReferenceImages: true}); err != nil {
		t.Fatal(err)
	}
	doc, _ := readDoc(t, b.Bytes())
	if len(doc.Images) != 1 || doc.Images[0].URI != "tex%20dir/t.png" || doc.Images[0].BufferView != nil {
		t.Fatalf("images %+v", doc.Images)
	}
	for _, v := range doc.BufferViews {
		if v.Target == 0 {
			t.Errorf("a view without a target (an image's) in %+v", doc.BufferViews)
		}
	}
	if got := imageURI(&Material{Texture: "c:x.png"}); got != "./c:x.png" {
		t.Errorf("a colon in the first segment gave %q", got)
	}
}

// A texture that is missing or not an image glTF takes is an error.
func TestGLBTextureRefused(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "t.gif")
	if err := os.WriteFile(bad, []byte("GIF89a"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{bad, "not a PNG or JPEG"},
		{filepath.Join(t.TempDir(), "none.png"), "no such file"},
	} {
		err := EncodeGLB(context.Background(), &bytes.Buffer{}, texturedSquares(t, c.path), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.path, err, c.want)
		}
	}
}

// MTL names each texture with map_Kd, by TextureRef where set, and
// refuses paths with white space (MTL splits on it); OBJ writes vt and
// position/uv/normal corners.
func TestMTLTexture(t *testing.T) {
	m := texturedSquares(t, "dir/t.png")
	m.Materials[1].TextureRef = "../t.png"
	var b bytes.Buffer
	if err := EncodeMTL(&b, m); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); !strings.Contains(s, "\nmap_Kd dir/t.png\n") || !strings.Contains(s, "\nmap_Kd ../t.png\n") {
		t.Errorf("MTL:\n%s", s)
	}
	m.Materials[1].TextureRef = "a b.png"
	if err := EncodeMTL(&b, m); err == nil || !strings.Contains(err.Error(), "white space") {
		t.Errorf("white space: %v", err)
	}
	b.Reset()
	if err := EncodeOBJ(context.Background(), &b, m, OBJOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); !strings.Contains(s, "\nvt 2 2\n") || !strings.Contains(s, "\nf 5/5/2 6/6/2 7/7/2 8/8/2\n") {
		t.Errorf("OBJ:\n%s", s)
	}
}
