package pgajob

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output/mesh"
	"github.com/procgen-dev/procgen/internal/pga"
)

// checkTextures finds every image the grammar's Texture operations name
// before any work: a missing file is the grammar's error, at its place.
func checkTextures(g *pga.Grammar) error {
	for _, m := range g.Materials {
		if m.Image == "" {
			continue
		}
		st, err := os.Stat(m.Image)
		if err == nil && !st.Mode().IsRegular() {
			err = fmt.Errorf("not a regular file")
		}
		if err != nil {
			return job.AsUsage(fmt.Errorf("pga: %s: texture %s: %w", m.Pos, m.Image, err))
		}
	}
	return nil
}

// textureRefs points m's textures from the MTL file at path: relative to
// its folder where the two share a root, so the OBJ, its MTL and the
// images can move together; absolute otherwise.
func textureRefs(m *mesh.Mesh, path string) *mesh.Mesh {
	dir, errD := filepath.Abs(filepath.Dir(path))
	for i := range m.Materials {
		mat := &m.Materials[i]
		if mat.Texture == "" {
			continue
		}
		img, err := filepath.Abs(mat.Texture)
		if err != nil {
			continue
		}
		mat.TextureRef = img
		if rel, err := filepath.Rel(dir, img); err == nil && errD == nil {
			mat.TextureRef = rel
		}
	}
	return m
}
