// Command meshstat prints what a mesh file holds (vertex, face, triangle and
// line counts, the materials it uses, its bounds) for Wavefront OBJ, MTL and
// binary glTF (GLB), and compares two files by those alone.
//
// It exists for scripts/equiv-check.sh: a rewrite of procgen's mesh writers
// may change bytes (number formatting, vertex order, buffer layout) while the
// geometry stays the same, so meshes are compared by what they describe, not
// by their bytes. Only the standard library is used; it reads what procgen's
// writers produce (float32 VEC3 positions, optional indices, node
// transforms) and says so when a file uses something it does not read.
//
//	meshstat FILE...     one line of counts and bounds per file
//	meshstat -cmp A B    exit 0 when A and B describe the same geometry,
//	                     1 (with the difference on stdout) when not, 2 on error
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// stats is what two meshes must share to count as the same geometry.
type stats struct {
	Format    string
	Vertices  int64
	Faces     int64
	Triangles int64
	Lines     int64
	Materials []string // distinct names, sorted
	Min, Max  [3]float64
	empty     bool // no vertex seen: bounds are meaningless
}

func (s stats) String() string {
	b := "bounds none"
	if !s.empty {
		b = fmt.Sprintf("bounds [%.7g %.7g %.7g]..[%.7g %.7g %.7g]",
			s.Min[0], s.Min[1], s.Min[2], s.Max[0], s.Max[1], s.Max[2])
	}
	return fmt.Sprintf("%s vertices %d faces %d triangles %d lines %d materials %d %v %s",
		s.Format, s.Vertices, s.Faces, s.Triangles, s.Lines, len(s.Materials), s.Materials, b)
}

func (s *stats) add(p [3]float64) {
	if s.empty {
		s.Min, s.Max, s.empty = p, p, false
		return
	}
	for i := range 3 {
		s.Min[i] = math.Min(s.Min[i], p[i])
		s.Max[i] = math.Max(s.Max[i], p[i])
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 3 && args[0] == "-cmp" {
		a, err := stat(args[1])
		if err == nil {
			var b stats
			if b, err = stat(args[2]); err == nil {
				if d := diff(a, b); d != "" {
					fmt.Fprintln(stdout, d)
					return 1
				}
				return 0
			}
		}
		fmt.Fprintln(stderr, "meshstat:", err)
		return 2
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(stderr, "usage: meshstat FILE... | meshstat -cmp A B")
		return 2
	}
	rc := 0
	for _, p := range args {
		s, err := stat(p)
		if err != nil {
			fmt.Fprintln(stderr, "meshstat:", err)
			rc = 2
			continue
		}
		fmt.Fprintf(stdout, "%s: %v\n", p, s)
	}
	return rc
}

// diff names what differs between a and b, or returns "". Bounds may move by
// a rounding step of the coarser writer: 1e-5 of the mesh's largest extent
// (OBJ writes decimal text, GLB float32).
func diff(a, b stats) string {
	var d []string
	cnt := func(name string, x, y int64) {
		if x != y {
			d = append(d, fmt.Sprintf("%s %d -> %d", name, x, y))
		}
	}
	if a.Format != b.Format {
		d = append(d, fmt.Sprintf("format %s -> %s", a.Format, b.Format))
	}
	cnt("vertices", a.Vertices, b.Vertices)
	cnt("faces", a.Faces, b.Faces)
	cnt("triangles", a.Triangles, b.Triangles)
	cnt("lines", a.Lines, b.Lines)
	if !slices.Equal(a.Materials, b.Materials) {
		d = append(d, fmt.Sprintf("materials %v -> %v", a.Materials, b.Materials))
	}
	if a.empty != b.empty {
		d = append(d, "one mesh has no vertices")
	} else if !a.empty {
		ext := 1.0
		for i := range 3 {
			ext = math.Max(ext, math.Max(a.Max[i]-a.Min[i], b.Max[i]-b.Min[i]))
		}
		for i := range 3 {
			if math.Abs(a.Min[i]-b.Min[i]) > 1e-5*ext || math.Abs(a.Max[i]-b.Max[i]) > 1e-5*ext {
				d = append(d, fmt.Sprintf("bounds [%.7g %.7g %.7g]..[%.7g %.7g %.7g] -> [%.7g %.7g %.7g]..[%.7g %.7g %.7g]",
					a.Min[0], a.Min[1], a.Min[2], a.Max[0], a.Max[1], a.Max[2],
					b.Min[0], b.Min[1], b.Min[2], b.Max[0], b.Max[1], b.Max[2]))
				break
			}
		}
	}
	return strings.Join(d, "; ")
}

func stat(path string) (stats, error) {
	f, err := os.Open(path)
	if err != nil {
		return stats{}, err
	}
	defer f.Close()
	var s stats
	switch strings.ToLower(filepath.Ext(path)) {
	case ".obj", ".mtl":
		s, err = objStats(f)
	case ".glb":
		s, err = glbStats(f)
	default:
		return stats{}, fmt.Errorf("%s: not .obj, .mtl or .glb", path)
	}
	if err != nil {
		return stats{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// objStats reads OBJ and MTL alike: an MTL has only newmtl lines that count.
func objStats(r io.Reader) (stats, error) {
	s := stats{Format: "obj", empty: true}
	mats := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "v":
			if len(f) < 4 {
				return s, fmt.Errorf("line %d: vertex with %d coordinates", n, len(f)-1)
			}
			var p [3]float64
			for i := range 3 {
				v, err := strconv.ParseFloat(f[i+1], 64)
				if err != nil {
					return s, fmt.Errorf("line %d: %w", n, err)
				}
				p[i] = v
			}
			s.Vertices++
			s.add(p)
		case "f":
			s.Faces++
			s.Triangles += int64(max(len(f)-3, 0))
		case "l":
			s.Lines += int64(max(len(f)-2, 0))
		case "usemtl", "newmtl":
			if f[0] == "newmtl" {
				s.Format = "mtl"
			}
			mats[strings.Join(f[1:], " ")] = true
		}
	}
	s.Materials = sortedKeys(mats)
	return s, sc.Err()
}

// The parts of glTF 2.0 that meshstat reads.
type gltf struct {
	Scene  *int `json:"scene"`
	Scenes []struct {
		Nodes []int `json:"nodes"`
	} `json:"scenes"`
	Nodes []struct {
		Mesh        *int      `json:"mesh"`
		Children    []int     `json:"children"`
		Matrix      []float64 `json:"matrix"`
		Translation []float64 `json:"translation"`
		Rotation    []float64 `json:"rotation"`
		Scale       []float64 `json:"scale"`
	} `json:"nodes"`
	Meshes []struct {
		Primitives []struct {
			Attributes map[string]int `json:"attributes"`
			Indices    *int           `json:"indices"`
			Material   *int           `json:"material"`
			Mode       *int           `json:"mode"`
		} `json:"primitives"`
	} `json:"meshes"`
	Materials []struct {
		Name string `json:"name"`
	} `json:"materials"`
	Accessors []struct {
		BufferView    *int            `json:"bufferView"`
		ByteOffset    int64           `json:"byteOffset"`
		ComponentType int             `json:"componentType"`
		Count         int64           `json:"count"`
		Type          string          `json:"type"`
		Sparse        json.RawMessage `json:"sparse"`
	} `json:"accessors"`
	BufferViews []struct {
		Buffer     int   `json:"buffer"`
		ByteOffset int64 `json:"byteOffset"`
		ByteLength int64 `json:"byteLength"`
		ByteStride int64 `json:"byteStride"`
	} `json:"bufferViews"`
}

func glbStats(r io.Reader) (stats, error) {
	s := stats{Format: "glb", empty: true}
	data, err := io.ReadAll(r)
	if err != nil {
		return s, err
	}
	if len(data) < 20 || string(data[:4]) != "glTF" || binary.LittleEndian.Uint32(data[4:]) != 2 {
		return s, errors.New("not a glTF 2.0 binary")
	}
	var js, bin []byte
	for off := 12; off+8 <= len(data); {
		n := int(binary.LittleEndian.Uint32(data[off:]))
		typ := string(data[off+4 : off+8])
		if off+8+n > len(data) {
			return s, errors.New("chunk runs past the end of the file")
		}
		switch typ {
		case "JSON":
			js = data[off+8 : off+8+n]
		case "BIN\x00":
			bin = data[off+8 : off+8+n]
		}
		off += 8 + n
	}
	var g gltf
	if err := json.Unmarshal(bytes.TrimRight(js, " \x00"), &g); err != nil {
		return s, fmt.Errorf("JSON chunk: %w", err)
	}
	mats := map[string]bool{}
	var visit func(node int, m [16]float64, depth int) error
	visit = func(node int, parent [16]float64, depth int) error {
		if node < 0 || node >= len(g.Nodes) || depth > 64 {
			return fmt.Errorf("bad node %d", node)
		}
		nd := g.Nodes[node]
		m := mul(parent, local(nd.Matrix, nd.Translation, nd.Rotation, nd.Scale))
		if nd.Mesh != nil {
			if err := g.addMesh(&s, *nd.Mesh, m, bin, mats); err != nil {
				return err
			}
		}
		for _, c := range nd.Children {
			if err := visit(c, m, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	id := local(nil, nil, nil, nil)
	switch {
	case len(g.Scenes) > 0:
		sc := 0
		if g.Scene != nil {
			sc = *g.Scene
		}
		if sc < 0 || sc >= len(g.Scenes) {
			return s, fmt.Errorf("bad scene %d", sc)
		}
		for _, n := range g.Scenes[sc].Nodes {
			if err := visit(n, id, 0); err != nil {
				return s, err
			}
		}
	default: // no scene: every mesh once, untransformed
		for i := range g.Meshes {
			if err := g.addMesh(&s, i, id, bin, mats); err != nil {
				return s, err
			}
		}
	}
	s.Materials = sortedKeys(mats)
	return s, nil
}

func (g *gltf) addMesh(s *stats, mesh int, m [16]float64, bin []byte, mats map[string]bool) error {
	if mesh < 0 || mesh >= len(g.Meshes) {
		return fmt.Errorf("bad mesh %d", mesh)
	}
	for _, p := range g.Meshes[mesh].Primitives {
		pos, ok := p.Attributes["POSITION"]
		if !ok {
			return errors.New("primitive without POSITION")
		}
		nv, err := g.positions(pos, bin, func(v [3]float64) { s.add(apply(m, v)) })
		if err != nil {
			return err
		}
		s.Vertices += nv
		n := nv
		if p.Indices != nil {
			if *p.Indices < 0 || *p.Indices >= len(g.Accessors) {
				return fmt.Errorf("bad indices accessor %d", *p.Indices)
			}
			n = g.Accessors[*p.Indices].Count
		}
		mode := 4
		if p.Mode != nil {
			mode = *p.Mode
		}
		switch mode {
		case 4:
			s.Triangles += n / 3
		case 5, 6:
			s.Triangles += max(n-2, 0)
		case 1:
			s.Lines += n / 2
		case 3:
			s.Lines += max(n-1, 0)
		case 2:
			s.Lines += n
		}
		if p.Material != nil {
			name := fmt.Sprintf("#%d", *p.Material)
			if *p.Material >= 0 && *p.Material < len(g.Materials) && g.Materials[*p.Material].Name != "" {
				name = g.Materials[*p.Material].Name
			}
			mats[name] = true
		}
	}
	s.Faces = s.Triangles
	return nil
}

// positions calls f for each position of a float32 VEC3 accessor and returns
// how many it read.
func (g *gltf) positions(acc int, bin []byte, f func([3]float64)) (int64, error) {
	if acc < 0 || acc >= len(g.Accessors) {
		return 0, fmt.Errorf("bad accessor %d", acc)
	}
	a := g.Accessors[acc]
	if a.ComponentType != 5126 || a.Type != "VEC3" || len(a.Sparse) > 0 || a.BufferView == nil {
		return 0, fmt.Errorf("accessor %d: meshstat reads dense float32 VEC3 positions only", acc)
	}
	if *a.BufferView < 0 || *a.BufferView >= len(g.BufferViews) {
		return 0, fmt.Errorf("bad buffer view %d", *a.BufferView)
	}
	bv := g.BufferViews[*a.BufferView]
	stride := max(bv.ByteStride, 12)
	start := bv.ByteOffset + a.ByteOffset
	if bv.Buffer != 0 || a.Count < 0 || (a.Count > 0 && start+(a.Count-1)*stride+12 > int64(len(bin))) {
		return 0, fmt.Errorf("accessor %d runs outside the binary chunk", acc)
	}
	for i := range a.Count {
		o := start + i*stride
		var p [3]float64
		for k := range 3 {
			p[k] = float64(math.Float32frombits(binary.LittleEndian.Uint32(bin[o+4*int64(k):])))
		}
		f(p)
	}
	return a.Count, nil
}

// local is a node's transform as a column-major 4x4 matrix, as glTF stores it.
func local(matrix, t, r, sc []float64) [16]float64 {
	var m [16]float64
	if len(matrix) == 16 {
		copy(m[:], matrix)
		return m
	}
	tr, q, s := [3]float64{}, [4]float64{0, 0, 0, 1}, [3]float64{1, 1, 1}
	copy(tr[:], t)
	copy(q[:], r)
	copy(s[:], sc)
	x, y, z, w := q[0], q[1], q[2], q[3]
	rot := [9]float64{ // row-major rotation
		1 - 2*(y*y+z*z), 2 * (x*y - z*w), 2 * (x*z + y*w),
		2 * (x*y + z*w), 1 - 2*(x*x+z*z), 2 * (y*z - x*w),
		2 * (x*z - y*w), 2 * (y*z + x*w), 1 - 2*(x*x+y*y),
	}
	for row := range 3 {
		for col := range 3 {
			m[col*4+row] = rot[row*3+col] * s[col]
		}
		m[12+row] = tr[row]
	}
	m[15] = 1
	return m
}

func mul(a, b [16]float64) [16]float64 {
	var m [16]float64
	for col := range 4 {
		for row := range 4 {
			var v float64
			for k := range 4 {
				v += a[k*4+row] * b[col*4+k]
			}
			m[col*4+row] = v
		}
	}
	return m
}

func apply(m [16]float64, p [3]float64) [3]float64 {
	var o [3]float64
	for row := range 3 {
		o[row] = m[row]*p[0] + m[4+row]*p[1] + m[8+row]*p[2] + m[12+row]
	}
	return o
}

func sortedKeys(m map[string]bool) []string {
	k := make([]string, 0, len(m))
	for s := range m {
		k = append(k, s)
	}
	slices.Sort(k)
	return k
}
