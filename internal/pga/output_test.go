package pga

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// city evaluates a small grammar over a few grid lots: boxes (Mass) and
// quads (Window faces).
func city(t *testing.T) (*Grammar, []TerminalShape) {
	t.Helper()
	g, err := Parse("c.pga", []byte(`axiom Box Lot;
terminal Mass (1, 0);
terminal Window (2, 1);
Lot = Replicate() { Mass | CompSplit() { Window | Discard() | Window } };`))
	if err != nil {
		t.Fatal(err)
	}
	lots, err := Grid{Cols: 3, Rows: 2, Seed: 1}.Lots()
	if err != nil {
		t.Fatal(err)
	}
	ts, err := g.Evaluate(LotAxioms(Box, lots, 1, 10), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g, ts
}

func TestEncodeOBJCounts(t *testing.T) {
	g, ts := city(t)
	st := g.Stats(ts)
	if st.ByName["Mass"] != 6 || st.ByName["Window"] != 30 {
		t.Fatalf("terminals %v, want 6 Mass and 30 Window", st.ByName)
	}
	var buf bytes.Buffer
	if err := writeOBJ(context.Background(), &buf, g, ts, "c.mtl", nil); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 0 {
			count[f[0]]++
		}
	}
	if count["v"] != int(st.Vertices) || count["v"] != 6*8+30*4 {
		t.Errorf("%d v lines, stats say %d", count["v"], st.Vertices)
	}
	if count["f"] != 6*6+30 || count["vn"] != count["f"] || 2*count["f"] != int(st.Triangles) {
		t.Errorf("%d f, %d vn lines, %d triangles", count["f"], count["vn"], st.Triangles)
	}
	if count["usemtl"] != 2 || count["g"] != 2 || count["mtllib"] != 1 {
		t.Errorf("groups: %v", count)
	}
	var mtl bytes.Buffer
	if err := mesh.EncodeMTL(&mtl, g.Mesh(ts, nil)); err != nil {
		t.Fatal(err)
	}
	if strings.Count(mtl.String(), "newmtl ") != 2 {
		t.Errorf("MTL:\n%s", mtl.String())
	}
}

// solids is one terminal of every geometry: box, quad, polygon, prism (and
// its faces) and the four roofs, on both a wide and a deep footprint.
const solids = `axiom Box A;
terminal Mass Face Poly Prism Cap Side R (1, 0);
A = Replicate() { Mass | CompSplit() { Face | Discard() | Discard() } | Pr | Roofs | Scale(-1, -1, -0.3) Roofs };
Pr = SetAsDynamicConvexRightPrism((0,0.5),(-0.5,-0.5),(0.5,-0.3),(0.4,0.2)) Replicate() { Prism | CompSplit() { Cap | Cap | Side } | CompSplit() { Discard() | Discard() | Discard() } };
Roofs = CompSplit() { Replicate() { Roof(GABLE, 30) R | Roof(HIP, 35) R | Roof(SHED, 20) R | Roof(PYRAMID, 45) R | SetAsDynamicConvexRightPrism((0,0.5),(-0.5,-0.5),(0.5,-0.5)) Poly } | Discard() | Discard() };`

func TestFacesWindOutward(t *testing.T) {
	g, ts := city(t)
	sg, err := Parse("solids.pga", []byte(solids))
	if err != nil {
		t.Fatal(err)
	}
	more, err := sg.Evaluate([]Shape{NewAxiom(Box, Vec3{6, 4, 10}, 1)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(more) != 1+1+1+2+4+8+2 {
		t.Fatalf("%d solids", len(more))
	}
	check := func(g *Grammar, ts []TerminalShape) {
		for _, ts := range ts {
			corners, _, _ := g.worldSolid(&ts.Shape)
			var centre Vec3
			for _, c := range corners {
				for k := range centre {
					centre[k] += c[k] / float64(len(corners))
				}
			}
			nf := 0
			g.faces(&ts, func(c []Vec3, n Vec3) {
				nf++
				var e1, e2 Vec3
				for k := 0; k < 3; k++ {
					e1[k], e2[k] = c[1][k]-c[0][k], c[2][k]-c[0][k]
				}
				if dot(cross3(e1, e2), n) <= 0 {
					t.Fatalf("%s: face %v winds against its normal %v", g.TermName(&ts), c, n)
				}
				if ts.Kind != Quad {
					out := 0.0
					for k := 0; k < 3; k++ {
						out += (c[0][k] - centre[k]) * n[k]
					}
					if out <= 0 {
						t.Fatalf("%s %v: normal %v points inward", g.TermName(&ts), ts.Roof, n)
					}
				}
			})
			if nf == 0 {
				t.Fatalf("%s: no faces", g.TermName(&ts))
			}
		}
	}
	check(g, ts)
	check(sg, more)
	// OBJ and stats agree on the new solids too.
	var buf bytes.Buffer
	if err := writeOBJ(context.Background(), &buf, sg, more, "", nil); err != nil {
		t.Fatal(err)
	}
	st := sg.Stats(more)
	if v := int64(strings.Count(buf.String(), "\nv ")); v != st.Vertices {
		t.Errorf("%d v lines, stats say %d", v, st.Vertices)
	}
	for i := range more {
		c, _, _ := sg.worldSolid(&more[i].Shape)
		nc, _ := sg.counts(&more[i].Shape)
		if _, fs, _ := sg.worldSolid(&more[i].Shape); len(fs) != sg.faceCount(&more[i].Shape) || len(c) != nc {
			t.Errorf("%s: %d faces, faceCount %d; %d corners, counts %d", sg.TermName(&more[i]), len(fs), sg.faceCount(&more[i].Shape), len(c), nc)
		}
	}
}

func TestEncodeGLB(t *testing.T) {
	g, ts := city(t)
	var buf bytes.Buffer
	if err := writeGLB(context.Background(), &buf, g, ts, nil); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	u32 := func(off int) int { return int(binary.LittleEndian.Uint32(b[off:])) }
	if u32(0) != glbMagic || u32(4) != 2 || u32(8) != len(b) {
		t.Fatalf("header: magic %#x version %d length %d of %d", u32(0), u32(4), u32(8), len(b))
	}
	jsonLen := u32(12)
	if u32(16) != glbChunkJSON || jsonLen%4 != 0 {
		t.Fatalf("JSON chunk: type %#x length %d", u32(16), jsonLen)
	}
	binAt := 20 + jsonLen
	binLen := u32(binAt)
	if u32(binAt+4) != glbChunkBIN || binLen%4 != 0 || binAt+8+binLen != len(b) {
		t.Fatalf("BIN chunk: type %#x length %d at %d of %d", u32(binAt+4), binLen, binAt, len(b))
	}
	var doc gltfDoc
	if err := json.Unmarshal(b[20:20+jsonLen], &doc); err != nil {
		t.Fatalf("JSON chunk: %v", err)
	}
	if len(doc.Meshes) != 2 || len(doc.Nodes) != 2 || len(doc.Materials) != 2 || doc.Asset["version"] != "2.0" {
		t.Fatalf("doc: %d meshes %d nodes %d materials", len(doc.Meshes), len(doc.Nodes), len(doc.Materials))
	}
	if doc.Buffers[0].ByteLength > binLen {
		t.Fatalf("buffer of %d bytes in a BIN chunk of %d", doc.Buffers[0].ByteLength, binLen)
	}
	size := map[string]int{"VEC3": 12, "SCALAR": 4}
	tris := 0
	for _, m := range doc.Meshes {
		p := m.Primitives[0]
		pos, nrm, idx := doc.Accessors[p.Attributes["POSITION"]], doc.Accessors[p.Attributes["NORMAL"]], doc.Accessors[p.Indices]
		if pos.Count != nrm.Count || len(pos.Min) != 3 || len(pos.Max) != 3 || idx.Count%3 != 0 {
			t.Errorf("mesh %s: accessors %+v %+v %+v", m.Name, pos, nrm, idx)
		}
		tris += idx.Count / 3
		for _, a := range []gltfAccessor{pos, nrm, idx} {
			v := doc.BufferViews[a.BufferView]
			if v.ByteOffset%4 != 0 || v.ByteLength != a.Count*size[a.Type] || v.ByteOffset+v.ByteLength > doc.Buffers[0].ByteLength {
				t.Errorf("mesh %s: view %+v for %d %s", m.Name, v, a.Count, a.Type)
			}
		}
		// Every index is in range.
		v := doc.BufferViews[idx.BufferView]
		for k := 0; k < idx.Count; k++ {
			if i := u32(binAt + 8 + v.ByteOffset + 4*k); i >= pos.Count {
				t.Fatalf("mesh %s: index %d of %d vertices", m.Name, i, pos.Count)
			}
		}
	}
	if int64(tris) != g.Stats(ts).Triangles {
		t.Errorf("%d triangles, stats say %d", tris, g.Stats(ts).Triangles)
	}

	// An empty city is still a valid GLB, with no BIN chunk.
	buf.Reset()
	if err := writeGLB(context.Background(), &buf, g, nil, nil); err != nil {
		t.Fatal(err)
	}
	b = buf.Bytes()
	if u32(8) != len(b) || 20+u32(12) != len(b) || !json.Valid(b[20:]) {
		t.Fatalf("empty GLB: %q", b)
	}
}

// The example grammar shipped in configs/pga parses and builds a city.
func TestConfigsTower(t *testing.T) {
	src, err := os.ReadFile("../../configs/pga/tower.pga")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse("tower.pga", src)
	if err != nil {
		t.Fatal(err)
	}
	lots, _ := Grid{Cols: 2, Rows: 2, Seed: 1}.Lots()
	ts, err := g.Evaluate(LotAxioms(g.Axioms[0].Kind, lots, 1, 20), Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := g.Stats(ts)
	for _, name := range []string{"Wall", "Window", "Door", "Roof", "Ledge"} {
		if st.ByName[name] == 0 {
			t.Errorf("no %s terminals: %v", name, st.ByName)
		}
	}
	if st.ByName["Roof"] != 4 {
		t.Errorf("%d roofs for 4 lots", st.ByName["Roof"])
	}
	// Each roof lies flat on top of its building: nothing of the lot is
	// higher than the roof's underside.
	top := map[int32]float64{}
	for _, s := range ts {
		if g.TermName(&s) != "Roof" {
			c, _, _ := g.worldSolid(&s.Shape)
			for _, p := range c {
				top[s.Lot] = max(top[s.Lot], p[1])
			}
		}
	}
	for _, s := range ts {
		if g.TermName(&s) == "Roof" {
			if n := s.Transform.direction(Vec3{0, 1, 0}); math.Abs(math.Abs(n[1])-1) > 1e-9 && math.Abs(s.Transform[6]) < 0.99 {
				t.Errorf("roof of lot %d is not horizontal: %v", s.Lot, s.Transform)
			}
			c, _, _ := g.worldSolid(&s.Shape)
			low := math.Inf(1)
			for _, p := range c {
				low = min(low, p[1])
			}
			if math.Abs(low-top[s.Lot]) > 1e-6 {
				t.Errorf("roof of lot %d starts at %.3f, the building ends at %.3f", s.Lot, low, top[s.Lot])
			}
		}
	}
}

// The GLB is built on all cores; its bytes do not depend on how many.
func TestEncodeGLBIndependentOfCores(t *testing.T) {
	g, axioms, opt := scenes["Skyscrapers"].load(t, 2, 2)
	ts, err := g.Evaluate(axioms, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) < 4*meshGrain {
		t.Fatalf("%d terminals: too few to split", len(ts))
	}
	encode := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var buf bytes.Buffer
		if err := writeGLB(context.Background(), &buf, g, ts, nil); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if !bytes.Equal(encode(1), encode(5)) {
		t.Fatal("GLB differs between 1 and 5 cores")
	}
	obj := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var buf bytes.Buffer
		if err := writeOBJ(context.Background(), &buf, g, ts, "m.mtl", nil); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if !bytes.Equal(obj(1), obj(5)) {
		t.Fatal("OBJ differs between 1 and 5 cores")
	}
}
