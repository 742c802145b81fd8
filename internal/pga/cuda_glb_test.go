//go:build cuda

package pga

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/gputest"
	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// The GLB built on the device (CUDATuning.GLB) is the file the host writes
// of the same evaluation's terminals (Grammar.Mesh, mesh.EncodeGLB), byte
// for byte: boxes, quads, roofs, convex prisms, lots on their own polygons,
// projections and materials, pieces of no extent; spheres (whose corners come from sincos, which
// rounds otherwise on the device) to a float32 ulp. Its counts are
// Grammar.Stats's.
func TestCUDADeviceGLB(t *testing.T) {
	dev := gputest.Device(t, nil)
	type glbCase struct {
		name   string
		g      *Grammar
		axioms []Shape
		opt    Options
		ulps   bool
		lots   []Lot // measured for overflows, every lot's worst
	}
	var cases []glbCase
	for _, name := range []string{"CityOverview", "Suburban", "Skyscrapers"} {
		g, axioms, opt := cudaScene(t, name, 12, 10)
		cases = append(cases, glbCase{name: name, g: g, axioms: axioms, opt: opt})
	}
	g := cudaGrammar(t, "textured.pga")
	grid := gridLots(t, 50, 11, 0, 0, 9, 60)
	cases = append(cases, glbCase{name: "textured.pga", g: g, axioms: LotAxioms(g.Axioms[0].Kind, grid, 5, 0), lots: grid})
	lots := polygonLots(120, 3)
	for _, c := range footprintGrammars {
		g, axioms := footprintCase(t, c.name, c.src, c.kind, lots)
		if len(g.Assets) > 0 {
			// Its asset parts are made on the host, placed from their
			// terminals; once as the scopes' boxes, with no asset loaded.
			cases = append(cases, glbCase{name: c.name + "/boxes", g: g, axioms: axioms, opt: Options{LotAttrs: LotAttrValues(lots)}, lots: lots})
			g, axioms = footprintCase(t, c.name, c.src, c.kind, lots)
			loadConfigAssets(t, g)
		}
		cases = append(cases, glbCase{name: c.name, g: g, axioms: axioms, opt: Options{LotAttrs: LotAttrValues(lots)}, lots: lots})
	}
	ag := cudaGrammar(t, "assets.pga")
	loadConfigAssets(t, ag)
	cases = append(cases, glbCase{name: "assets.pga", g: ag, axioms: LotAxioms(ag.Axioms[0].Kind, grid, 5, 0), lots: grid})
	// Pieces of no extent: their faces' normals come from the scope with
	// unit sizes on both sides (worldSolid, pga_glb.cuh).
	dg, daxioms, dlots := degenerateCase(t)
	cases = append(cases, glbCase{name: "degenerate", g: dg, axioms: daxioms, lots: dlots})
	sg, sa := convexSpheres(t, 50)
	cases = append(cases, glbCase{name: "sphere", g: sg, axioms: sa, ulps: true})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cu, err := NewCUDA(dev, c.g)
			if err != nil {
				t.Fatal(err)
			}
			defer cu.Close()
			opt := c.opt
			opt.KeepTerminals = true
			host, err := cu.Evaluate(context.Background(), c.axioms, opt)
			if err != nil {
				t.Fatal(err)
			}
			mo := mesh.Options{ReferenceImages: true}
			var want bytes.Buffer
			if err := mesh.EncodeGLB(context.Background(), &want, c.g.Mesh(host.Terminals, host.Projections), mo); err != nil {
				t.Fatal(err)
			}
			opt = c.opt
			opt.GLB = true
			// Every lot's worst corner outside it (a tolerance of 0: the
			// polygon lots' walls lie on their edges, some a rounding
			// outside), as the host measures the same terminals.
			opt.Lots, opt.OverflowTol = c.lots, 0
			r, err := cu.Evaluate(context.Background(), c.axioms, opt)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := mesh.EncodeGLBBin(context.Background(), &got, r.GLB.Mesh, r.GLB.Parts, r.GLB.Bin, mo); err != nil {
				t.Fatal(err)
			}
			st := c.g.Stats(host.Terminals)
			if r.Stats.Vertices != st.Vertices || r.Stats.Triangles != st.Triangles || r.Stats.Terminals != st.Terminals {
				t.Errorf("counts %d %d %d, host %d %d %d", r.Stats.Terminals, r.Stats.Vertices, r.Stats.Triangles, st.Terminals, st.Vertices, st.Triangles)
			}
			for _, p := range r.Stats.ByPhase {
				for _, q := range st.ByPhase {
					if p.Phase == q.Phase && p != q {
						t.Errorf("phase %d: device %+v, host %+v", p.Phase, p, q)
					}
				}
			}
			sameGLB(t, want.Bytes(), got.Bytes(), c.ulps)
			if c.lots != nil {
				ov := c.g.Overflows(host.Terminals, c.lots, 0)
				if len(ov) != len(r.Overflows) {
					t.Fatalf("%d lots measured on the device, %d on the host", len(r.Overflows), len(ov))
				}
				for i := range ov {
					if ov[i] != r.Overflows[i] {
						t.Fatalf("lot %d: device %+v, host %+v", i, r.Overflows[i], ov[i])
					}
				}
			}
			t.Logf("%d terminals, %d parts, a GLB of %d bytes; %d lots overflow", r.Stats.Terminals, len(r.GLB.Parts), got.Len(), len(r.Overflows))
		})
	}
}

// sameGLB compares two GLBs: equal bytes, or with ulps binary chunks of
// the same length whose positions and texture coordinates are within two
// float32 ulps (of 1 near 0) and whose indices are equal (the JSON's bounds may then
// differ by as much). Normals are not compared then: a sphere's triangles
// at its poles have no area, and their Newell normals are rounding noise,
// which an ulp of sincos turns anywhere.
func sameGLB(t *testing.T, want, got []byte, ulps bool) {
	t.Helper()
	if bytes.Equal(want, got) {
		return
	}
	jl := int(binary.LittleEndian.Uint32(want[12:]))
	bin := func(b []byte) []byte { return b[20+int(binary.LittleEndian.Uint32(b[12:]))+8:] }
	wb, gb := bin(want), bin(got)
	if !ulps || len(wb) != len(gb) {
		at := 0
		for at < min(len(want), len(got)) && want[at] == got[at] {
			at++
		}
		t.Fatalf("device GLB of %d bytes, host %d: first difference at byte %d", len(got), len(want), at)
	}
	var doc struct {
		Meshes []struct {
			Primitives []struct{ Attributes map[string]int }
		}
		Accessors   []struct{ BufferView int }
		BufferViews []struct{ ByteOffset, ByteLength int }
	}
	if err := json.Unmarshal(want[20:20+jl], &doc); err != nil {
		t.Fatal(err)
	}
	normal := make([]bool, len(wb)/4)
	for _, m := range doc.Meshes {
		for _, p := range m.Primitives {
			if a, ok := p.Attributes["NORMAL"]; ok {
				v := doc.BufferViews[doc.Accessors[a].BufferView]
				for i := v.ByteOffset / 4; i < (v.ByteOffset+v.ByteLength)/4; i++ {
					normal[i] = true
				}
			}
		}
	}
	off, worst := 0, 0.0
	for i := 0; i+4 <= len(wb); i += 4 {
		a := math.Float32frombits(binary.LittleEndian.Uint32(wb[i:]))
		b := math.Float32frombits(binary.LittleEndian.Uint32(gb[i:]))
		if a == b || normal[i/4] {
			continue
		}
		off++
		// In ulps of the value or of 1, whichever is larger: a coordinate
		// near 0 of a sphere of some metres moves by an ulp of the metres.
		worst = max(worst, math.Abs(float64(a-b))/(max(math.Abs(float64(a)), 1)*0x1p-23))
	}
	if worst > 2 {
		t.Fatalf("%d words differ, the worst by %.1f ulp", off, worst)
	}
	t.Logf("%d words (of positions, texture coordinates or indices) differ, by %.2f ulp at most", off, worst)
}

// loadConfigAssets gives g's assets their meshes, the OBJ files of
// configs/pga (PGA_CONFIGS) by their names.
func loadConfigAssets(t *testing.T, g *Grammar) {
	t.Helper()
	loadAssetShapes(t, g, func(a *AssetDef) ([]byte, error) { return cudaFind(filepath.Base(a.Path)) })
}
