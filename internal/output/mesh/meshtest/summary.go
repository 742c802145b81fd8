// Package meshtest reads OBJ and GLB files back into a summary of their
// geometry, for tests that compare meshes across writers whose bytes may
// differ: counts, bounds, and per material the triangles and their bounds.
package meshtest

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

type box struct{ lo, hi [3]float64 }

func newBox() box {
	inf := math.Inf(1)
	return box{[3]float64{inf, inf, inf}, [3]float64{-inf, -inf, -inf}}
}

func (b *box) add(p [3]float64) {
	for k := range 3 {
		b.lo[k], b.hi[k] = math.Min(b.lo[k], p[k]), math.Max(b.hi[k], p[k])
	}
}

// String prints six digits: enough to see any real change, few enough that
// a float32 rounded by another decimal path prints the same.
func (b box) String() string {
	f := func(x float64) string { return strconv.FormatFloat(float64(float32(x)), 'g', 6, 32) }
	return fmt.Sprintf("[%s %s %s]-[%s %s %s]", f(b.lo[0]), f(b.lo[1]), f(b.lo[2]), f(b.hi[0]), f(b.hi[1]), f(b.hi[2]))
}

type material struct {
	tris int
	b    box
}

// Summarize describes an OBJ (name ending in .obj) or GLB file: for OBJ the
// v, vn, f and l lines, the line vertices and the bounds of all positions;
// for GLB the vertices, normals and triangles of all primitives and the
// bounds of the vertices their indices use; for both, per material (OBJ
// usemtl, glTF material name; "" none) the triangles (an OBJ face of n
// corners counts n-2) and their bounds.
func Summarize(name string, data []byte) (string, error) {
	if strings.HasSuffix(name, ".glb") {
		return glb(data)
	}
	return obj(data)
}

func obj(data []byte) (string, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	var vs [][3]float64
	nvn, nf, nl, refs := 0, 0, 0, 0
	all := newBox()
	mats := map[string]*material{}
	cur := ""
	for n := 1; sc.Scan(); n++ {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		switch fs[0] {
		case "v":
			if len(fs) != 4 {
				return "", fmt.Errorf("obj line %d: %q", n, sc.Text())
			}
			var q [3]float64
			for k := range 3 {
				x, err := strconv.ParseFloat(fs[k+1], 32)
				if err != nil {
					return "", fmt.Errorf("obj line %d: %w", n, err)
				}
				q[k] = x
			}
			vs = append(vs, q)
			all.add(q)
		case "vn":
			nvn++
		case "usemtl":
			cur = fs[1]
		case "f":
			nf++
			m := mats[cur]
			if m == nil {
				m = &material{b: newBox()}
				mats[cur] = m
			}
			m.tris += len(fs) - 3
			for _, r := range fs[1:] {
				i, err := strconv.Atoi(strings.Split(r, "/")[0])
				if err != nil || i < 1 || i > len(vs) {
					return "", fmt.Errorf("obj line %d: vertex %q of %d", n, r, len(vs))
				}
				m.b.add(vs[i-1])
			}
		case "l":
			nl++
			refs += len(fs) - 1
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	s := fmt.Sprintf("obj v=%d vn=%d f=%d l=%d lineverts=%d bounds=%v\n", len(vs), nvn, nf, nl, refs, all)
	return s + materials(mats), nil
}

func materials(mats map[string]*material) string {
	var names []string
	for n := range mats {
		names = append(names, n)
	}
	sort.Strings(names)
	var s strings.Builder
	for _, n := range names {
		fmt.Fprintf(&s, "material %q triangles=%d bounds=%v\n", n, mats[n].tris, mats[n].b)
	}
	return s.String()
}

type gltf struct {
	Materials []struct{ Name string }
	Meshes    []struct {
		Primitives []struct {
			Attributes map[string]int
			Indices    int
			Material   *int
			Mode       *int // 4 (triangles) when absent; 1: lines
		}
	}
	Accessors []struct {
		BufferView, Count int
	}
	BufferViews []struct{ ByteOffset, ByteLength int }
}

func glb(data []byte) (string, error) {
	le := binary.LittleEndian
	if len(data) < 20 || le.Uint32(data) != 0x46546C67 {
		return "", errors.New("glb: no glTF header")
	}
	jl := int(le.Uint32(data[12:]))
	if 20+jl > len(data) {
		return "", errors.New("glb: short JSON chunk")
	}
	var doc gltf
	if err := json.Unmarshal(data[20:20+jl], &doc); err != nil {
		return "", fmt.Errorf("glb: %w", err)
	}
	var bin []byte
	if 20+jl+8 <= len(data) {
		bin = data[20+jl+8:]
	}
	nv, nn, nt, nl := 0, 0, 0, 0
	all := newBox()
	mats := map[string]*material{}
	for _, m := range doc.Meshes {
		for _, p := range m.Primitives {
			pa := doc.Accessors[p.Attributes["POSITION"]]
			nv += pa.Count
			if ni, ok := p.Attributes["NORMAL"]; ok {
				nn += doc.Accessors[ni].Count
			}
			ia := doc.Accessors[p.Indices]
			if p.Mode != nil && *p.Mode == 1 {
				nl += ia.Count / 2 // LINES: counted apart, and no triangles
			} else {
				nt += ia.Count / 3
			}
			name := ""
			if p.Material != nil {
				name = doc.Materials[*p.Material].Name
			}
			mm := mats[name]
			if mm == nil {
				mm = &material{b: newBox()}
				mats[name] = mm
			}
			if p.Mode == nil || *p.Mode != 1 {
				mm.tris += ia.Count / 3
			}
			pv, iv := doc.BufferViews[pa.BufferView], doc.BufferViews[ia.BufferView]
			if iv.ByteOffset+4*ia.Count > len(bin) || pv.ByteOffset+12*pa.Count > len(bin) {
				return "", errors.New("glb: accessor beyond the binary chunk")
			}
			for k := range ia.Count {
				i := int(le.Uint32(bin[iv.ByteOffset+4*k:]))
				if i >= pa.Count {
					return "", fmt.Errorf("glb: index %d of %d vertices", i, pa.Count)
				}
				var q [3]float64
				for c := range 3 {
					q[c] = float64(math.Float32frombits(le.Uint32(bin[pv.ByteOffset+12*i+4*c:])))
				}
				mm.b.add(q)
				all.add(q)
			}
		}
	}
	s := fmt.Sprintf("glb vertices=%d normals=%d triangles=%d bounds=%v\n", nv, nn, nt, all)
	if nl > 0 {
		s = fmt.Sprintf("glb vertices=%d normals=%d triangles=%d lines=%d bounds=%v\n", nv, nn, nt, nl, all)
	}
	return s + materials(mats), nil
}
