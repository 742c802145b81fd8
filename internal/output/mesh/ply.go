package mesh

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// plyMaxCorners is the most corners a face keeps in PLY: the corner count
// is written as a uchar (the type MeshLab, assimp and plyfile all read);
// larger faces are cut into triangles.
const plyMaxCorners = 255

// EncodePLY writes m to w as binary little-endian PLY (Turk's polygon file
// format): one vertex element (x y z, nx ny nz where any part has normals,
// s t where any part has texture coordinates (0 0 where a part has none),
// red green blue from the part's material where the mesh has materials),
// one face element (vertex_indices as a uchar-counted list of int) and, for
// lines, one edge element (vertex1 vertex2). Faces keep their corners, as
// OBJ's do, except in concave parts, which are cut by ear clipping as in
// glTF (readers fan polygons, which fails on concave ones). Lines refer to
// their chunk's positions, written as vertices of zero normal.
//
// PLY counts every element in its header, so the whole mesh is built (on
// all cores) before the first byte is written; the memory is about that of
// EncodeGLB.
func EncodePLY(ctx context.Context, w io.Writer, m *Mesh, o Options) error {
	if err := m.validate(); err != nil {
		return fmt.Errorf("mesh: ply: %w", err)
	}
	m = m.flat()
	tk := newTicker(m, o.Progress)
	var parts [][]plyPiece
	normals, uvs := false, false
	var nv, nf, ne int64
	for i := range m.Parts {
		p := &m.Parts[i]
		ps := make([]plyPiece, p.chunks())
		err := each(ctx, o.workers(), len(ps), func(k int) error {
			var c Chunk
			if err := p.build(k, &c); err != nil {
				return err
			}
			ps[k] = plyOf(&c, p.Concave)
			tk.add(min(p.Count, (k+1)*p.grain()) - k*p.grain())
			return nil
		})
		if err != nil {
			return fmt.Errorf("mesh: ply: %w", err)
		}
		for k := range ps {
			normals = normals || ps[k].normals
			uvs = uvs || ps[k].uv != nil
			nv += int64(len(ps[k].pos))
			nf += int64(len(ps[k].sizes))
			ne += int64(len(ps[k].edges) / 2)
		}
		parts = append(parts, ps)
	}
	if nv > math.MaxInt32 {
		return fmt.Errorf("mesh: ply: %d vertices, over the int index range of PLY", nv)
	}
	colors := len(m.Materials) > 0
	bw := bufio.NewWriterSize(w, 1<<20)
	if _, err := bw.WriteString(plyHeader(m, nv, nf, ne, normals, uvs, colors)); err != nil {
		return err
	}
	var buf []byte
	for i, ps := range parts {
		rgb := [3]byte{255, 255, 255}
		if mi := m.Parts[i].Material; mi >= 0 {
			rgb = byteColor(m.Materials[mi].Color)
		}
		for k := range ps {
			buf = ps[k].appendVertices(buf[:0], normals, uvs, colors, rgb)
			if err := writeContext(ctx, bw, buf); err != nil {
				return err
			}
		}
	}
	for pass := range 2 { // faces, then edges
		base := int32(0)
		for _, ps := range parts {
			for k := range ps {
				if pass == 0 {
					buf = ps[k].appendFaces(buf[:0], base)
				} else {
					buf = ps[k].appendEdges(buf[:0], base)
				}
				if err := writeContext(ctx, bw, buf); err != nil {
					return err
				}
				base += int32(len(ps[k].pos))
			}
		}
	}
	return bw.Flush()
}

func plyHeader(m *Mesh, nv, nf, ne int64, normals, uvs, colors bool) string {
	h := "ply\nformat binary_little_endian 1.0\ncomment " + generator(m) + "\n"
	h += fmt.Sprintf("element vertex %d\nproperty float x\nproperty float y\nproperty float z\n", nv)
	if normals {
		h += "property float nx\nproperty float ny\nproperty float nz\n"
	}
	if uvs {
		h += "property float s\nproperty float t\n"
	}
	if colors {
		h += "property uchar red\nproperty uchar green\nproperty uchar blue\n"
	}
	h += fmt.Sprintf("element face %d\nproperty list uchar int vertex_indices\n", nf)
	if ne > 0 {
		h += fmt.Sprintf("element edge %d\nproperty int vertex1\nproperty int vertex2\n", ne)
	}
	return h + "end_header\n"
}

// byteColor is a linear 0..1 colour as PLY's 0..255 bytes, as MTL's Kd
// and glTF's baseColorFactor carry it (no transfer function).
func byteColor(c [3]float64) [3]byte {
	var b [3]byte
	for k, x := range c {
		b[k] = byte(math.Round(255 * min(max(x, 0), 1)))
	}
	return b
}

// plyPiece is one chunk as PLY vertices (its Vertices, then its positions
// where it has lines) and chunk-local faces and edges.
type plyPiece struct {
	pos, nrm [][3]float32
	uv       [][2]float32 // nil where the chunk has none
	normals  bool
	faces    []int32
	sizes    []int32
	edges    []int32 // pairs
}

func plyOf(c *Chunk, concave bool) plyPiece {
	q := plyPiece{normals: len(c.Normals) > 0}
	for _, v := range c.Vertices {
		q.pos = append(q.pos, c.Positions[v.P])
		n := [3]float32{}
		if q.normals {
			n = c.Normals[v.N]
		}
		q.nrm = append(q.nrm, n)
		if len(c.UVs) > 0 {
			q.uv = append(q.uv, c.UVs[v.T])
		}
	}
	at := 0
	var corners [][3]float32
	var tri []uint32
	for _, s := range c.FaceSizes {
		f := c.Faces[at : at+int(s)]
		at += int(s)
		if s <= plyMaxCorners && (!concave || s == 3) {
			q.faces = append(q.faces, f...)
			q.sizes = append(q.sizes, s)
			continue
		}
		tri = tri[:0]
		if concave {
			corners = corners[:0]
			for _, v := range f {
				corners = append(corners, c.Positions[c.Vertices[v].P])
			}
			tri = triangulate(tri, corners, f)
		} else {
			for j := 1; j+1 < len(f); j++ {
				tri = append(tri, uint32(f[0]), uint32(f[j]), uint32(f[j+1]))
			}
		}
		for _, v := range tri {
			q.faces = append(q.faces, int32(v))
		}
		for range len(tri) / 3 {
			q.sizes = append(q.sizes, 3)
		}
	}
	if len(c.LineSizes) > 0 {
		first := int32(len(q.pos))
		q.pos = append(q.pos, c.Positions...)
		q.nrm = append(q.nrm, make([][3]float32, len(c.Positions))...)
		if q.uv != nil {
			q.uv = append(q.uv, make([][2]float32, len(c.Positions))...)
		}
		at = 0
		for _, s := range c.LineSizes {
			l := c.Lines[at : at+int(s)]
			at += int(s)
			for j := 1; j < len(l); j++ {
				q.edges = append(q.edges, first+l[j-1], first+l[j])
			}
		}
	}
	return q
}

func (q *plyPiece) appendVertices(buf []byte, normals, uvs, colors bool, rgb [3]byte) []byte {
	le := binary.LittleEndian
	for i, p := range q.pos {
		for _, x := range p {
			buf = le.AppendUint32(buf, math.Float32bits(x))
		}
		if normals {
			for _, x := range q.nrm[i] {
				buf = le.AppendUint32(buf, math.Float32bits(x))
			}
		}
		if uvs {
			var t [2]float32
			if q.uv != nil {
				t = q.uv[i]
			}
			buf = le.AppendUint32(le.AppendUint32(buf, math.Float32bits(t[0])), math.Float32bits(t[1]))
		}
		if colors {
			buf = append(buf, rgb[:]...)
		}
	}
	return buf
}

func (q *plyPiece) appendFaces(buf []byte, base int32) []byte {
	at := 0
	for _, s := range q.sizes {
		buf = append(buf, byte(s))
		for _, v := range q.faces[at : at+int(s)] {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(base+v))
		}
		at += int(s)
	}
	return buf
}

func (q *plyPiece) appendEdges(buf []byte, base int32) []byte {
	for _, v := range q.edges {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(base+v))
	}
	return buf
}
