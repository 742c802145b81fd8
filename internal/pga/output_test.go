package pga

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// city evaluates a small grammar over a few grid lots: boxes (Mass) and
// quads (Window faces).
func city(t *testing.T) []TerminalShape {
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
	return ts
}

func TestEncodeOBJCounts(t *testing.T) {
	ts := city(t)
	st := Stats(ts)
	if st.ByName["Mass"] != 6 || st.ByName["Window"] != 30 {
		t.Fatalf("terminals %v, want 6 Mass and 30 Window", st.ByName)
	}
	var buf bytes.Buffer
	if err := EncodeOBJ(&buf, ts, "c.mtl"); err != nil {
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
	if err := EncodeMTL(&mtl, ts); err != nil {
		t.Fatal(err)
	}
	if strings.Count(mtl.String(), "newmtl ") != 2 {
		t.Errorf("MTL:\n%s", mtl.String())
	}
}

func TestFacesWindOutward(t *testing.T) {
	for _, ts := range city(t) {
		centre := ts.Matrix().Apply(Vec3{})
		faces(&ts, func(c [4]Vec3, n Vec3) {
			var e1, e2 Vec3
			for k := 0; k < 3; k++ {
				e1[k], e2[k] = c[1][k]-c[0][k], c[2][k]-c[0][k]
			}
			cr := Vec3{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
			if cr[0]*n[0]+cr[1]*n[1]+cr[2]*n[2] <= 0 {
				t.Fatalf("%s: face %v winds against its normal %v", ts.Name, c, n)
			}
			if ts.Kind != Quad {
				out := 0.0
				for k := 0; k < 3; k++ {
					out += (c[0][k] - centre[k]) * n[k]
				}
				if out <= 0 {
					t.Fatalf("%s: normal %v points inward", ts.Name, n)
				}
			}
		})
	}
}

func TestEncodeGLB(t *testing.T) {
	ts := city(t)
	var buf bytes.Buffer
	if err := EncodeGLB(&buf, ts); err != nil {
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
	if int64(tris) != Stats(ts).Triangles {
		t.Errorf("%d triangles, stats say %d", tris, Stats(ts).Triangles)
	}

	// An empty city is still a valid GLB, with no BIN chunk.
	buf.Reset()
	if err := EncodeGLB(&buf, nil); err != nil {
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
	st := Stats(ts)
	for _, name := range []string{"Wall", "Window", "Door", "Roof", "Ledge"} {
		if st.ByName[name] == 0 {
			t.Errorf("no %s terminals: %v", name, st.ByName)
		}
	}
	if st.ByName["Roof"] != 4 {
		t.Errorf("%d roofs for 4 lots", st.ByName["Roof"])
	}
}
