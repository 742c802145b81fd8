package mesh

import (
	"context"
	"fmt"
	"io"
	"math"
	"sync/atomic"
)

// BinPart sizes a part whose triangle data was built elsewhere (pga's CUDA
// backend builds its GLB's vertex data on the device): Vertices vertices,
// each with a position, a normal and, when UV, a texture coordinate;
// Indices triangle indices; Lo and Hi bound the positions.
type BinPart struct {
	Vertices, Indices int
	UV                bool
	Lo, Hi            [3]float32
}

// BinData is a GLB binary chunk's vertex data built elsewhere: Len bytes,
// which WriteChunk writes to w. Bytes holds them in memory; pga's CUDA
// backend streams them from the GPU, the copy of one piece overlapping the
// write of the one before.
type BinData interface {
	Len() int64
	WriteChunk(ctx context.Context, w io.Writer) error
}

// Bytes is BinData held in memory.
type Bytes []byte

// Len is the chunk's length.
func (b Bytes) Len() int64 { return int64(len(b)) }

// WriteChunk writes b to w, stopping between slices when ctx is done.
func (b Bytes) WriteChunk(ctx context.Context, w io.Writer) error { return writeContext(ctx, w, b) }

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// EncodeGLBBin writes m as EncodeGLB writes it, with its parts' vertex
// data given instead of built: parts[i] sizes m.Parts[i] (whose Count and
// Build are not used) and bin holds every part's data in the order
// EncodeGLB writes it, part by part: float32 positions, normals, texture
// coordinates (u, 1-v), then uint32 indices counted from the part's first
// vertex, all little-endian. A part without indices has no vertices.
// A part with Instances is drawn once per instance, as EncodeGLB draws it:
// bin holds its vertex data once, and the instances follow all of bin in
// the file's binary chunk. Growth is not supported.
func EncodeGLBBin(ctx context.Context, w io.Writer, m *Mesh, parts []BinPart, bin BinData, o Options) error {
	if err := m.validate(); err != nil {
		return fmt.Errorf("mesh: glb: %w", err)
	}
	if len(parts) != len(m.Parts) {
		return fmt.Errorf("mesh: glb: %d part sizes for %d parts", len(parts), len(m.Parts))
	}
	if o.Growth != nil {
		return fmt.Errorf("mesh: glb: growth with prebuilt vertex data")
	}
	sizes := make([]partSizes, len(parts))
	var binLen int64
	for i, p := range parts {
		switch {
		case p.Vertices < 0 || p.Indices < 0 || (p.Indices == 0) != (p.Vertices == 0):
			return fmt.Errorf("mesh: glb: part %s: %d vertices, %d indices", m.Parts[i].Name, p.Vertices, p.Indices)
		case int64(p.Vertices) > math.MaxUint32:
			return fmt.Errorf("mesh: glb: %d vertices in part %s, over the uint32 index range", p.Vertices, m.Parts[i].Name)
		}
		inf := float32(math.Inf(1))
		s := partSizes{nv: p.Vertices, nn: p.Vertices, ni: p.Indices, lo: p.Lo, hi: p.Hi,
			llo: [3]float32{inf, inf, inf}, lhi: [3]float32{-inf, -inf, -inf}}
		if p.UV {
			s.nt = p.Vertices
		}
		sizes[i] = s
		binLen += s.bytes()
	}
	if binLen != bin.Len() {
		return fmt.Errorf("mesh: glb: %d bytes of vertex data for parts of %d", bin.Len(), binLen)
	}
	chunkLen := binLen
	for i := range sizes {
		if sizes[i].drawn() {
			chunkLen += instanceBytes * int64(len(m.Parts[i].Instances))
		}
	}
	if chunkLen > maxGLBBytes {
		return fmt.Errorf("mesh: glb: %w", errTooBig)
	}
	ims, imOf, err := loadImages(m, o.ReferenceImages)
	if err != nil {
		return fmt.Errorf("mesh: glb: %w", err)
	}
	body := func(w io.Writer) error {
		cw := &countingWriter{w: w}
		if err := bin.WriteChunk(ctx, cw); err != nil {
			return err
		}
		if cw.n != binLen {
			return fmt.Errorf("mesh: glb: %d bytes of vertex data written for parts of %d", cw.n, binLen)
		}
		return nil
	}
	return writeGLB(ctx, w, m, sizes, chunkLen, body, o, ims, imOf)
}

// PartBin builds part p as EncodeGLB builds it and returns its size and
// its vertex data as EncodeGLBBin's bin holds a part's (positions,
// normals, texture coordinates, indices): a part made on the host beside
// parts whose data was built elsewhere (pga's device GLB with assets).
// A part with lines is refused: bin has no place for them.
func PartBin(ctx context.Context, p *Part) (BinPart, []byte, error) {
	if err := p.checkBuild(); err != nil {
		return BinPart{}, nil, fmt.Errorf("mesh: glb: part %s: %w", p.Name, err)
	}
	var built atomic.Int64
	ps, err := glbPart(ctx, p, 1, &ticker{}, &built)
	if err != nil {
		return BinPart{}, nil, fmt.Errorf("mesh: glb: %w", err)
	}
	dropUnused(ps)
	s := sizesOf(ps)
	if s.lni > 0 {
		return BinPart{}, nil, fmt.Errorf("mesh: glb: part %s has lines, which prebuilt vertex data cannot hold", p.Name)
	}
	b := make([]byte, 0, s.bytes())
	for _, pick := range pieceData[:4] { // the triangles' data: a part without lines has no more
		for k := range ps {
			b = append(b, pick(&ps[k])...)
		}
	}
	return BinPart{Vertices: s.nv, Indices: s.ni, UV: s.nt > 0, Lo: s.lo, Hi: s.hi}, b, nil
}
