package mesh

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// Textures: a Material with a Texture is drawn with that image over its
// colour (glTF's baseColorTexture, OBJ's map_Kd), placed by the parts'
// texture coordinates (TEXCOORD_0, vt). GLB embeds each image once in its
// binary chunk, so the file stands alone; MTL refers to the file.

// glTF sampler constants: linear filtering, mipmaps, repeat (the glTF
// spec's "Samplers" section).
const (
	gltfLinear             = 9729
	gltfLinearMipmapLinear = 9987
	gltfRepeat             = 10497
)

type (
	gltfImage struct {
		Name       string `json:"name,omitempty"`
		URI        string `json:"uri,omitempty"`
		BufferView *int   `json:"bufferView,omitempty"`
		MimeType   string `json:"mimeType,omitempty"`
	}
	gltfTexSampler struct {
		MagFilter int `json:"magFilter"`
		MinFilter int `json:"minFilter"`
		WrapS     int `json:"wrapS"`
		WrapT     int `json:"wrapT"`
	}
	gltfTexture struct {
		Sampler int `json:"sampler"`
		Source  int `json:"source"`
	}
	gltfTexRef struct {
		Index int `json:"index"`
	}
)

// glbImage is an image of a GLB: embedded (data) or referenced (uri).
type glbImage struct {
	name, mime, uri string
	data            []byte
}

// bytes is the image's length padded to 4 bytes: what follows it stays
// aligned, and the binary chunk's length a multiple of 4.
func (im *glbImage) bytes() int64 { return int64(len(im.data)+3) &^ 3 }

// loadImages reads the textures of m's used materials, each file once
// (with reference, only their uris), and returns them with, per material,
// its image (-1 for none).
func loadImages(m *Mesh, reference bool) ([]glbImage, []int, error) {
	used := make([]bool, len(m.Materials))
	for _, p := range m.Parts {
		if p.Material >= 0 {
			used[p.Material] = true
		}
	}
	var ims []glbImage
	at := map[string]int{}
	of := make([]int, len(m.Materials))
	for i, mat := range m.Materials {
		of[i] = -1
		if !used[i] || mat.Texture == "" {
			continue
		}
		if k, ok := at[mat.Texture]; ok {
			of[i] = k
			continue
		}
		if reference {
			at[mat.Texture] = len(ims)
			of[i] = len(ims)
			ims = append(ims, glbImage{name: filepath.Base(mat.Texture), uri: imageURI(&mat)})
			continue
		}
		data, err := os.ReadFile(mat.Texture)
		if err != nil {
			return nil, nil, fmt.Errorf("material %s: texture: %w", mat.Name, err)
		}
		mime, err := imageMIME(data)
		if err != nil {
			return nil, nil, fmt.Errorf("material %s: texture %s: %w", mat.Name, mat.Texture, err)
		}
		at[mat.Texture] = len(ims)
		of[i] = len(ims)
		ims = append(ims, glbImage{name: filepath.Base(mat.Texture), mime: mime, data: data})
	}
	return ims, of, nil
}

// imageMIME is the glTF MIME type of a PNG or JPEG file, by its signature.
func imageMIME(data []byte) (string, error) {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png", nil
	case bytes.HasPrefix(data, []byte{0xff, 0xd8, 0xff}):
		return "image/jpeg", nil
	}
	return "", fmt.Errorf("not a PNG or JPEG image (the formats glTF takes)")
}

// texturing adds the images' views (after every other view, as EncodeGLB
// writes their bytes last), one repeating sampler and a texture per image
// to doc, and points the materials at them.
func texturing(doc *gltfDoc, ims []glbImage, of, matIndex []int, used []bool, view viewFn, skip func(n int)) {
	if len(ims) == 0 {
		return
	}
	doc.Samplers = []gltfTexSampler{{MagFilter: gltfLinear, MinFilter: gltfLinearMipmapLinear, WrapS: gltfRepeat, WrapT: gltfRepeat}}
	for _, im := range ims {
		gi := gltfImage{Name: im.name, URI: im.uri, MimeType: im.mime}
		if im.uri == "" {
			v := view(len(im.data), 0)
			skip(int(im.bytes()) - len(im.data))
			gi.BufferView = &v
		}
		doc.Images = append(doc.Images, gi)
		doc.Textures = append(doc.Textures, gltfTexture{Sampler: 0, Source: len(doc.Images) - 1})
	}
	for i, k := range of {
		if k >= 0 && used[i] {
			doc.Materials[matIndex[i]].PBR.BaseColorTexture = &gltfTexRef{Index: k}
		}
	}
}

// imageURI is how a GLB refers to a material's texture: its TextureRef
// (else Texture) as a relative URI reference, percent-encoded.
func imageURI(mat *Material) string {
	ref := mat.TextureRef
	if ref == "" {
		ref = mat.Texture
	}
	ref = filepath.ToSlash(ref)
	first, _, _ := strings.Cut(ref, "/")
	if strings.Contains(first, ":") {
		ref = "./" + ref // not a scheme (RFC 3986, 4.2)
	}
	return (&url.URL{Path: ref}).EscapedPath()
}

// mtlTexture is the map_Kd line of a material, "" without a texture.
func mtlTexture(mat *Material) (string, error) {
	ref := mat.TextureRef
	if ref == "" {
		ref = mat.Texture
	}
	if ref == "" {
		return "", nil
	}
	ref = filepath.ToSlash(ref)
	if strings.ContainsFunc(ref, unicode.IsSpace) {
		return "", fmt.Errorf("material %s: texture path %q contains white space (MTL splits on it)", mat.Name, ref)
	}
	return "map_Kd " + ref + "\n", nil
}
