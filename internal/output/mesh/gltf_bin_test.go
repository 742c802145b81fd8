package mesh

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"testing"
)

// uvSquares is two parts of unit quads, many per part across chunks, the
// second with texture coordinates, and an empty third part.
func uvSquares() *Mesh {
	build := func(uv bool) func(lo, hi int, c *Chunk) {
		return func(lo, hi int, c *Chunk) {
			for e := lo; e < hi; e++ {
				p0 := int32(len(c.Positions))
				x := float32(e)
				c.Positions = append(c.Positions, [3]float32{x, 0, -x}, [3]float32{x + 1, 0, 0}, [3]float32{x + 1, 1, 0}, [3]float32{x, 1, 2})
				c.Normals = append(c.Normals, [3]float32{0, 0, 1})
				for i := range int32(4) {
					v := Vertex{P: p0 + i, N: int32(len(c.Normals) - 1)}
					if uv {
						v.T = int32(len(c.UVs))
						c.UVs = append(c.UVs, [2]float32{x, float32(i) / 4})
					}
					c.Vertices = append(c.Vertices, v)
				}
				n := int32(len(c.Vertices))
				c.Face(n-4, n-3, n-2, n-1)
			}
		}
	}
	return &Mesh{
		Materials: []Material{{Name: "a", Color: [3]float64{1, 0, 0}, Roughness: 0.5}, {Name: "b", Color: [3]float64{0, 1, 0}, Roughness: 0.5}},
		Parts: []Part{{Name: "a", Material: 0, Count: 5000, Grain: 700, Build: build(false)},
			{Name: "b", Material: 1, Count: 3001, Build: build(true)}, {Name: "c", Material: 1}},
	}
}

// A GLB whose vertex data is given (EncodeGLBBin) is the GLB EncodeGLB
// builds, byte for byte, given what that one holds: the binary chunk and
// the accessors' counts and bounds.
func TestEncodeGLBBinSameBytes(t *testing.T) {
	m := uvSquares()
	var want bytes.Buffer
	if err := EncodeGLB(context.Background(), &want, m, Options{Workers: 3}); err != nil {
		t.Fatal(err)
	}
	b := want.Bytes()
	jl := binary.LittleEndian.Uint32(b[12:])
	var doc struct {
		Meshes []struct {
			Name       string
			Primitives []struct {
				Attributes map[string]int
				Indices    int
			}
		}
		Accessors []struct {
			Count    int
			Min, Max []float32
		}
	}
	if err := json.Unmarshal(b[20:20+jl], &doc); err != nil {
		t.Fatal(err)
	}
	parts := make([]BinPart, len(m.Parts))
	for _, me := range doc.Meshes {
		i := map[string]int{"a": 0, "b": 1, "c": 2}[me.Name]
		pr := me.Primitives[0]
		pos := doc.Accessors[pr.Attributes["POSITION"]]
		_, uv := pr.Attributes["TEXCOORD_0"]
		parts[i] = BinPart{Vertices: pos.Count, Indices: doc.Accessors[pr.Indices].Count, UV: uv,
			Lo: [3]float32(pos.Min), Hi: [3]float32(pos.Max)}
	}
	if !parts[1].UV || parts[0].UV || parts[0].Vertices != 20000 || parts[2].Vertices != 0 {
		t.Fatalf("parts %+v", parts)
	}
	bin := b[20+jl+8:]
	for i := range m.Parts { // EncodeGLBBin does not build them
		m.Parts[i].Count, m.Parts[i].Build = 0, nil
	}
	var got bytes.Buffer
	if err := EncodeGLBBin(context.Background(), &got, m, parts, Bytes(bin), Options{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), b) {
		t.Fatalf("EncodeGLBBin wrote %d bytes, EncodeGLB %d, not the same", got.Len(), len(b))
	}
	if err := EncodeGLBBin(context.Background(), &got, m, parts, Bytes(bin[4:]), Options{}); err == nil {
		t.Fatal("vertex data of the wrong length was taken")
	}
	if err := EncodeGLBBin(context.Background(), io.Discard, m, parts, shortChunk{Bytes(bin)}, Options{}); err == nil {
		t.Fatal("a chunk that wrote less than its length was taken")
	}
}

// shortChunk says it holds its bytes but writes all but the last.
type shortChunk struct{ Bytes }

func (c shortChunk) WriteChunk(ctx context.Context, w io.Writer) error {
	return c.Bytes[:len(c.Bytes)-1].WriteChunk(ctx, w)
}

// A zero's sign depends on the arithmetic that made it (the CUDA backend's
// GLB kernel, the host's mesh), so the GLB writes every -0 as 0: in
// positions, normals and the bounds.
func TestGLBPieceWritesPlusZero(t *testing.T) {
	nz := float32(math.Copysign(0, -1))
	c := &Chunk{
		Positions: [][3]float32{{nz, 1, 0}, {1, nz, 0}, {0, 1, nz}},
		Normals:   [][3]float32{{nz, nz, 1}},
		Vertices:  []Vertex{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}},
		Faces:     []int32{0, 1, 2},
		FaceSizes: []int32{3},
	}
	q := piece(c, false)
	for _, l := range [][]float32{q.pos, q.nrm, q.lo[:], q.hi[:]} {
		for i, x := range l {
			if math.Signbit(float64(x)) {
				t.Fatalf("%v: element %d is %v", l, i, x)
			}
		}
	}
}

// An instanced part goes through EncodeGLBBin as through EncodeGLB: its
// vertex data (PartBin's, the same as any part's) once in bin, then its
// instances after all of bin; the file is the same bytes.
func TestEncodeGLBBinInstances(t *testing.T) {
	m := uvSquares()
	m.Parts = m.Parts[:2]
	lshape := func(lo, hi int, c *Chunk) { // a concave face: ear clipping, not a fan
		c.Positions = append(c.Positions, [3]float32{0, 0, 0}, [3]float32{2, 0, 0}, [3]float32{2, 1, 0},
			[3]float32{1, 1, 0}, [3]float32{1, 2, 0}, [3]float32{0, 2, 0})
		c.Normals = append(c.Normals, [3]float32{0, 0, 1})
		for i := range int32(6) {
			c.Vertices = append(c.Vertices, Vertex{P: i})
		}
		c.Face(0, 1, 2, 3, 4, 5)
	}
	ins := []Instance{{T: [3]float32{1, 2, 3}, Q: [4]float32{0, 0, 0, 1}, S: 2},
		{T: [3]float32{-4, 0, 1}, Q: [4]float32{0, 0.6, 0, 0.8}, S3: [3]float32{1, 2, 0.5}}}
	m.Parts = append(m.Parts, Part{Name: "ac", Material: 1, Concave: true, Count: 1, Build: lshape, Instances: ins})
	var want bytes.Buffer
	if err := EncodeGLB(context.Background(), &want, m, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	parts := make([]BinPart, len(m.Parts))
	var bin []byte
	for i := range m.Parts {
		p, b, err := PartBin(context.Background(), &m.Parts[i])
		if err != nil {
			t.Fatal(err)
		}
		parts[i], bin = p, append(bin, b...)
		m.Parts[i].Count, m.Parts[i].Build = 0, nil
	}
	if parts[2].Vertices != 6 || parts[2].Indices != 12 || !parts[1].UV || parts[2].UV {
		t.Fatalf("parts %+v", parts)
	}
	var got bytes.Buffer
	if err := EncodeGLBBin(context.Background(), &got, m, parts, Bytes(bin), Options{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("EncodeGLBBin wrote %d bytes, EncodeGLB %d, not the same", got.Len(), want.Len())
	}
	m.Parts[2].Instances[1].S3 = [3]float32{1, 0, 1}
	if err := EncodeGLBBin(context.Background(), io.Discard, m, parts, Bytes(bin), Options{}); err == nil {
		t.Fatal("an instance of scale 0 was taken")
	}
	line := Part{Name: "l", Count: 1, Build: func(lo, hi int, c *Chunk) {
		c.Positions = append(c.Positions, [3]float32{0, 0, 0}, [3]float32{1, 0, 0})
		c.Lines, c.LineSizes = append(c.Lines, 0, 1), append(c.LineSizes, 2)
	}}
	if _, _, err := PartBin(context.Background(), &line); err == nil {
		t.Fatal("PartBin took a part with lines")
	}
}
