package mesh

import (
	"context"
	"fmt"
)

// Walk builds every chunk of m's parts the way the writers do, for readers
// of a mesh that are not file formats (a preview image): on o.Workers
// goroutines, each chunk checked (indices in range, coordinates finite),
// instanced parts as one transformed copy per instance as OBJ and PLY write
// them, with o.Progress told of the elements built. fn gets each chunk
// with its part's index; it is called from several goroutines at once and
// must not keep c, which is reused. Walk stops handing out chunks at fn's
// first error or once ctx is done, and returns that error.
func Walk(ctx context.Context, m *Mesh, o Options, fn func(part int, c *Chunk) error) error {
	if err := m.validate(); err != nil {
		return fmt.Errorf("mesh: %w", err)
	}
	m = m.flat()
	tk := newTicker(m, o.Progress)
	for i := range m.Parts {
		p := &m.Parts[i]
		err := each(ctx, o.workers(), p.chunks(), func(k int) error {
			var c Chunk
			if err := p.build(k, &c); err != nil {
				return err
			}
			if err := fn(i, &c); err != nil {
				return err
			}
			tk.add(min(p.Count, (k+1)*p.grain()) - k*p.grain())
			return nil
		})
		if err != nil {
			return fmt.Errorf("mesh: %w", err)
		}
	}
	return ctx.Err()
}

// Triangles appends c's faces cut into triangles, three indices into
// c.Vertices each (the glTF writer's and the preview's triangles): a fan, or in a concave
// part (Part.Concave) ear clipping in the face's plane.
func (c *Chunk) Triangles(idx []uint32, concave bool) []uint32 {
	at := 0
	var corners [][3]float32
	for _, s := range c.FaceSizes {
		f := c.Faces[at : at+int(s)]
		at += int(s)
		if !concave || s == 3 {
			for j := 1; j+1 < len(f); j++ {
				idx = append(idx, uint32(f[0]), uint32(f[j]), uint32(f[j+1]))
			}
			continue
		}
		corners = corners[:0]
		for _, v := range f {
			corners = append(corners, c.Positions[c.Vertices[v].P])
		}
		idx = triangulate(idx, corners, f)
	}
	return idx
}
