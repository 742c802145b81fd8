package mesh

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// OBJOptions control EncodeOBJ.
type OBJOptions struct {
	Options
	// MTLLib, when not empty, is written as the material library, and each
	// part with a material switches to it (usemtl).
	MTLLib string
}

// EncodeOBJ writes m to w as Wavefront OBJ: per part a group, its
// positions, normals, faces (position//normal) and lines. Chunks are built
// and formatted on all cores, a window of twice the workers at a time, and
// written in order, so memory stays bounded for any size of mesh. Numbers
// are the shortest decimals that read back as the same float32, which is
// what OBJ readers store.
func EncodeOBJ(ctx context.Context, w io.Writer, m *Mesh, o OBJOptions) error {
	if err := m.validate(); err != nil {
		return fmt.Errorf("mesh: obj: %w", err)
	}
	m = m.flat()
	if strings.ContainsFunc(o.MTLLib, unicode.IsSpace) {
		return fmt.Errorf("mesh: obj: material library %q contains white space", o.MTLLib)
	}
	head := fmt.Appendf(nil, "# %s: %d parts\n", generator(m), len(m.Parts))
	if o.MTLLib != "" {
		head = fmt.Appendf(head, "mtllib %s\n", o.MTLLib)
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	e := objWriter{w: w, workers: o.workers(), tk: newTicker(m, o.Progress), pos: 1, nrm: 1, uv: 1, material: -1}
	for i := range m.Parts {
		p := &m.Parts[i]
		if p.Count == 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		line := "g " + p.Name + "\n"
		if p.Name == "" {
			line = "g default\n"
		}
		if o.MTLLib != "" && p.Material >= 0 && p.Material != e.material {
			e.material = p.Material
			line += "usemtl " + m.Materials[p.Material].Name + "\n"
		}
		if _, err := io.WriteString(w, line); err != nil {
			return err
		}
		if err := e.part(ctx, p); err != nil {
			return fmt.Errorf("mesh: obj: %w", err)
		}
	}
	return nil
}

func generator(m *Mesh) string {
	if m.Generator == "" {
		return "procgen"
	}
	return m.Generator
}

// objWriter numbers positions and normals across parts (OBJ indices are
// global and 1-based).
type objWriter struct {
	w            io.Writer
	workers      int
	tk           *ticker
	pos, nrm, uv int // the numbers of the next position, normal and texture coordinate
	material     int
}

func (e *objWriter) part(ctx context.Context, p *Part) error {
	n := p.chunks()
	window := min(n, 2*e.workers)
	chunks := make([]Chunk, window)
	texts := make([][]byte, window)
	starts := make([][3]int, window)
	for first := 0; first < n; first += window {
		k := min(window, n-first)
		err := each(ctx, e.workers, k, func(i int) error { return p.build(first+i, &chunks[i]) })
		if err != nil {
			return err
		}
		for i := range k {
			starts[i] = [3]int{e.pos, e.nrm, e.uv}
			e.pos += len(chunks[i].Positions)
			e.nrm += len(chunks[i].Normals)
			e.uv += len(chunks[i].UVs)
		}
		// Each chunk's text is written as soon as it and those before it
		// are formatted, while the others are still being formatted.
		err = eachOrdered(ctx, e.workers, k, func(i int) error {
			texts[i] = formatOBJ(slices.Grow(texts[i][:0], objSize(&chunks[i])), &chunks[i], starts[i])
			return nil
		}, func(i int) error {
			_, err := e.w.Write(texts[i])
			return err
		})
		if err != nil {
			return err
		}
		lo := first * p.grain()
		e.tk.add(min(p.Count, lo+k*p.grain()) - lo)
	}
	return nil
}

// objSize is a rough size of c's OBJ text, so its buffer is allocated
// about once rather than regrown: 3 numbers of about 10 characters a
// position and normal, 2 a texture coordinate, 8 characters an index.
func objSize(c *Chunk) int {
	return 34*(len(c.Positions)+len(c.Normals)) + 24*len(c.UVs) +
		8*(len(c.Faces)+len(c.Lines)+len(c.Vertices)) + 4*(len(c.FaceSizes)+len(c.LineSizes))
}

// formatOBJ appends c's lines to buf, its first position, normal and
// texture coordinate numbered at[0], at[1] and at[2]. Faces are v, v//vn,
// v/vt or v/vt/vn by what the chunk has.
func formatOBJ(buf []byte, c *Chunk, at3 [3]int) []byte {
	pos, nrm, uv := at3[0], at3[1], at3[2]
	for _, p := range c.Positions {
		buf = triple(append(buf, 'v'), p)
	}
	for _, n := range c.Normals {
		buf = triple(append(buf, "vn"...), n)
	}
	for _, t := range c.UVs {
		buf = strconv.AppendFloat(append(buf, "vt "...), float64(t[0]), 'g', -1, 32)
		buf = strconv.AppendFloat(append(buf, ' '), float64(t[1]), 'g', -1, 32)
		buf = append(buf, '\n')
	}
	normals, uvs := len(c.Normals) > 0, len(c.UVs) > 0
	at := 0
	for _, s := range c.FaceSizes {
		buf = append(buf, 'f')
		for _, v := range c.Faces[at : at+int(s)] {
			vx := c.Vertices[v]
			buf = strconv.AppendInt(append(buf, ' '), int64(pos+int(vx.P)), 10)
			switch {
			case uvs:
				buf = strconv.AppendInt(append(buf, '/'), int64(uv+int(vx.T)), 10)
				if normals {
					buf = strconv.AppendInt(append(buf, '/'), int64(nrm+int(vx.N)), 10)
				}
			case normals:
				buf = strconv.AppendInt(append(buf, '/', '/'), int64(nrm+int(vx.N)), 10)
			}
		}
		buf = append(buf, '\n')
		at += int(s)
	}
	at = 0
	for _, s := range c.LineSizes {
		buf = append(buf, 'l')
		for _, q := range c.Lines[at : at+int(s)] {
			buf = strconv.AppendInt(append(buf, ' '), int64(pos+int(q)), 10)
		}
		buf = append(buf, '\n')
		at += int(s)
	}
	return buf
}

func triple(buf []byte, p [3]float32) []byte {
	for _, x := range p {
		if x == 0 {
			x = 0 // no "-0", which would make files depend on how a zero was reached
		}
		buf = strconv.AppendFloat(append(buf, ' '), float64(x), 'g', -1, 32)
	}
	return append(buf, '\n')
}

// EncodeMTL writes m's materials to w as a Wavefront MTL library.
func EncodeMTL(w io.Writer, m *Mesh) error {
	if err := m.validate(); err != nil {
		return fmt.Errorf("mesh: mtl: %w", err)
	}
	buf := fmt.Appendf(nil, "# %s: %d materials\n", generator(m), len(m.Materials))
	for _, mat := range m.Materials {
		buf = fmt.Appendf(buf, "\nnewmtl %s\nKd", mat.Name)
		buf = triple(buf, [3]float32{float32(mat.Color[0]), float32(mat.Color[1]), float32(mat.Color[2])})
		buf = append(buf, "d 1\nillum 1\n"...)
		tex, err := mtlTexture(&mat)
		if err != nil {
			return fmt.Errorf("mesh: mtl: %w", err)
		}
		buf = append(buf, tex...)
	}
	_, err := w.Write(buf)
	return err
}
