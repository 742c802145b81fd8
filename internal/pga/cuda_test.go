//go:build cuda

package pga

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/gputest"
)

// cudaCorpusDir is the corpus for the GPU machine, where ../shared is
// absent: PGA_CORPUS names a copy of its grammars.
func cudaCorpusDir() string {
	if d := os.Getenv("PGA_CORPUS"); d != "" {
		return d
	}
	return corpusDir
}

// cudaFind reads a grammar from the configs (PGA_CONFIGS on the GPU
// machine) or the corpus.
func cudaFind(name string) ([]byte, error) {
	var err error
	for _, dir := range []string{os.Getenv("PGA_CONFIGS"), "../../configs/pga", cudaCorpusDir()} {
		if dir == "" {
			continue
		}
		var src []byte
		if src, err = os.ReadFile(filepath.Join(dir, name)); err == nil {
			return src, nil
		}
	}
	return nil, err
}

func cudaGrammar(t testing.TB, name string) *Grammar {
	t.Helper()
	src, err := cudaFind(name)
	if err != nil {
		t.Skipf("%s not found (set PGA_CORPUS, PGA_CONFIGS): %v", name, err)
	}
	g, err := Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// cudaModes are the schedulers and flags every equivalence test runs.
var cudaModes = []struct {
	name string
	opt  Options
}{
	{"levels", Options{CUDATuning: CUDATuning{Scheduler: Levels}}},
	{"persistent", Options{CUDATuning: CUDATuning{Scheduler: Persistent}}},
	{"persistent-nogroup", Options{CUDATuning: CUDATuning{Scheduler: Persistent, NoLocalGrouping: true}}},
	{"persistent-noopar", Options{CUDATuning: CUDATuning{Scheduler: Persistent, NoOpParallel: true}}},
	{"persistent-plain", Options{CUDATuning: CUDATuning{Scheduler: Persistent, NoLocalGrouping: true, NoOpParallel: true}}},
}

// gridLots are n lots of a seeded grid (as `procgen pga city --grid`).
func gridLots(t testing.TB, n int, seed uint64, w, d, lo, hi float64) []Lot {
	t.Helper()
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	lots, err := Grid{Cols: cols, Rows: (n + cols - 1) / cols, Seed: seed, LotWidth: w, LotDepth: d, MinHeight: lo, MaxHeight: hi}.Lots()
	if err != nil {
		t.Fatal(err)
	}
	return lots[:n]
}

// termKey names a terminal by what derived it; seeds are unique per
// derivation path.
func termKey(s TerminalShape) string {
	return fmt.Sprintf("%d/%d/%d/%d", s.Term, s.Lot, s.Seed, s.Kind)
}

func cudaNear(a, b float64) bool { return math.Abs(a-b) <= 1e-5*math.Max(1, math.Abs(a)) }

// sameTerminals compares two terminal lists as sets.
func sameTerminals(t *testing.T, cpu, dev []TerminalShape) {
	t.Helper()
	if len(cpu) != len(dev) {
		t.Fatalf("%d terminals on the device, %d on the CPU", len(dev), len(cpu))
	}
	byKey := map[string]TerminalShape{}
	for _, s := range cpu {
		byKey[termKey(s)] = s
	}
	if len(byKey) != len(cpu) {
		t.Logf("%d of %d CPU terminals share a key", len(cpu)-len(byKey), len(cpu))
	}
	bad := 0
	for _, d := range dev {
		c, ok := byKey[termKey(d)]
		if !ok {
			bad++
			if bad < 5 {
				t.Errorf("device terminal %d %v %v not made by the CPU", d.Term, d.Transform, d.Size)
			}
			continue
		}
		okT := c.Geometry == d.Geometry && c.Material == d.Material && cudaNear(c.Attr, d.Attr) && c.Phase == d.Phase &&
			c.Roof == d.Roof && c.Profile == d.Profile && c.Index == d.Index && c.Siblings == d.Siblings &&
			c.Mat == d.Mat && c.UV == d.UV
		for k := range c.Transform {
			okT = okT && cudaNear(c.Transform[k], d.Transform[k])
		}
		for k := range c.Size {
			okT = okT && cudaNear(c.Size[k], d.Size[k])
		}
		if !okT {
			bad++
			if bad < 5 {
				t.Errorf("%d seed %d: device %+v, CPU %+v", d.Term, d.Seed, d, c)
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d terminals differ", bad, len(dev))
	}
}

// sameProjections checks that the terminals under ProjectUV have the same
// texture projection on both backends (float32 of the same double steps:
// equal but for a last-bit rounding), so the host draws the same UVs.
func sameProjections(t *testing.T, cpu []TerminalShape, cpuProj [][8]float32, r *Result) {
	t.Helper()
	byKey := map[string]*TerminalShape{}
	for i := range cpu {
		byKey[termKey(cpu[i])] = &cpu[i]
	}
	bad, uv := 0, 0
	for i := range r.Terminals {
		d := &r.Terminals[i]
		c, ok := byKey[termKey(*d)]
		if !ok || !c.UV {
			continue
		}
		uv++
		cp, dp := projection1(cpuProj, c), r.Projection(d)
		for k := range cp {
			if math.Abs(float64(cp[k])-float64(dp[k])) > 1e-6*max(1, math.Abs(float64(cp[k]))) {
				bad++
				if bad < 5 {
					t.Errorf("terminal %d seed %d: device projection %v, CPU %v", d.Term, d.Seed, dp, cp)
				}
				break
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d projected terminals differ", bad, uv)
	}
}

// checkMesh compares the device mesh with the CPU's geometry of the same
// terminals: counts as Stats, sums of float32 coordinates, indices inside the
// vertex range.
func checkMesh(t *testing.T, g *Grammar, cpu []TerminalShape, r *Result) {
	t.Helper()
	st := g.Stats(cpu)
	if r.Stats.Vertices != st.Vertices || r.Stats.Triangles != st.Triangles {
		t.Fatalf("mesh %d vertices %d triangles, CPU Stats %d %d", r.Stats.Vertices, r.Stats.Triangles, st.Vertices, st.Triangles)
	}
	if len(r.Stats.ByPhase) != len(st.ByPhase) || (len(st.ByPhase) == 1 && r.Stats.ByPhase[0] != st.ByPhase[0]) {
		t.Fatalf("phases %+v, CPU %+v", r.Stats.ByPhase, st.ByPhase)
	}
	for name, n := range st.ByName {
		if r.Stats.ByName[name] != n {
			t.Fatalf("%s: %d on the device, %d on the CPU", name, r.Stats.ByName[name], n)
		}
	}
	// The same float32 corners, as a multiset: bit for bit, but for the
	// rare corner whose float64 value (sin and cos round differently on the
	// device) lands on the other side of a float32 rounding boundary.
	type v3 [3]float32
	want := map[v3]int{}
	for i := range cpu {
		corners, _, _ := g.worldSolid(&cpu[i].Shape)
		for _, p := range corners {
			want[v3{float32(p[0]), float32(p[1]), float32(p[2])}]++
		}
	}
	for _, ix := range r.Indices {
		if int64(ix) >= r.Stats.Vertices {
			t.Fatalf("index %d of %d vertices", ix, r.Stats.Vertices)
		}
	}
	var missed []v3
	for i := 0; i+2 < len(r.Vertices); i += 3 {
		k := v3{r.Vertices[i], r.Vertices[i+1], r.Vertices[i+2]}
		if want[k] > 0 {
			want[k]--
		} else {
			missed = append(missed, k)
		}
	}
	if len(missed) == 0 {
		return
	}
	// A vertex the multiset did not match must still be a CPU corner left
	// over, to within one float32 unit in the last place of its largest
	// coordinate (a float64 a last bit apart rounds the other way, or a zero
	// carries the other sign).
	var left []v3
	for k, n := range want {
		for ; n > 0; n-- {
			left = append(left, k)
		}
	}
	worst, far := 0.0, 0
	for _, m := range missed {
		best := math.Inf(1)
		for _, w := range left {
			d, mag := 0.0, 0.0
			for c := 0; c < 3; c++ {
				d = max(d, math.Abs(float64(m[c])-float64(w[c])))
				mag = max(mag, math.Abs(float64(m[c])))
			}
			best = min(best, d/max(mag*0x1p-23, 0x1p-126))
		}
		if !(best <= 1) {
			far++
		}
		worst = max(worst, best)
	}
	t.Logf("%d of %d device vertices are not bit for bit the CPU's float32 corners; the farthest is %.1f ulp from one",
		len(missed), len(r.Vertices)/3, worst)
	if far > 0 {
		t.Fatalf("%d device vertices are more than 1 ulp from every CPU corner", far)
	}
}

func runEquivalence(t *testing.T, g *Grammar, axioms []Shape, wantCount int) {
	runEquivalenceOpt(t, g, axioms, Options{}, wantCount)
}

func runEquivalenceOpt(t *testing.T, g *Grammar, axioms []Shape, base Options, wantCount int) {
	dev := gputest.Device(t, nil)
	cpu, cpuProj, err := g.evaluateTerms(axioms, base)
	if err != nil {
		t.Fatal(err)
	}
	if wantCount > 0 && len(cpu) != wantCount {
		t.Fatalf("CPU made %d terminals, want %d", len(cpu), wantCount)
	}
	c, err := NewCUDA(dev, g)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, m := range cudaModes {
		t.Run(m.name, func(t *testing.T) {
			opt := base
			opt.CUDATuning = m.opt.CUDATuning
			opt.Mesh, opt.KeepTerminals = true, true
			if len(g.Assets) > 0 {
				// Assets are drawn on the host (Grammar.Mesh): the device
				// mesh is refused, the terminals are what must agree.
				if _, err := c.Evaluate(context.Background(), axioms, opt); err == nil {
					t.Fatal("the device mesh of a grammar with assets was not refused")
				}
				opt.Mesh = false
			}
			r, err := c.Evaluate(context.Background(), axioms, opt)
			if err != nil {
				t.Fatal(err)
			}
			sameTerminals(t, cpu, r.Terminals)
			sameProjections(t, cpu, cpuProj, r)
			if opt.Mesh {
				checkMesh(t, g, cpu, r)
			} else if got, want := g.Stats(r.Terminals), g.Stats(cpu); got.Vertices != want.Vertices || got.Triangles != want.Triangles {
				t.Fatalf("host mesh of the device's terminals: %d vertices %d triangles, CPU %d %d", got.Vertices, got.Triangles, want.Vertices, want.Triangles)
			}
			// Twice gives the same sorted terminals.
			r2, err := c.Evaluate(context.Background(), axioms, opt)
			if err != nil {
				t.Fatal(err)
			}
			for i := range r.Terminals {
				if r.Terminals[i] != r2.Terminals[i] {
					t.Fatalf("terminal %d differs between two runs", i)
				}
			}
			t.Logf("%d terminals, %d shapes, %v device", len(r.Terminals), r.Shapes, r.DeviceTime)
		})
	}
}

func TestCUDAEquivalenceCorpus(t *testing.T) {
	for _, c := range []struct {
		file string
		size Vec3
		want int
	}{
		{"3d_tree_4_3.pga", Vec3{1, 1, 1}, 283},
		{"3d_tree_8_3.pga", Vec3{1, 1, 1}, 22963},
		{"3d_tree_12_2.pga", Vec3{1, 1, 1}, 0},
		{"menger_sponge_3.pga", Vec3{1, 1, 1}, 8000},
		{"mc_skyscraper.pga", Vec3{30, 120, 30}, 0},
		{"suburban_house.pga", Vec3{10, 30, 10}, 0},
		{"suburban_house.pga", Vec3{30, 10, 16}, 372}, // OperatorGraph's test runner's lot
	} {
		t.Run(c.file, func(t *testing.T) {
			g := cudaGrammar(t, c.file)
			runEquivalence(t, g, []Shape{NewAxiom(g.Axioms[0].Kind, c.size, 7)}, c.want)
		})
	}
}

// Many lots at once, as procgen pga city lays them out.
func TestCUDAEquivalenceLots(t *testing.T) {
	for _, c := range []struct {
		file   string
		lots   int
		lo, hi float64
	}{
		{"mc_skyscraper.pga", 60, 60, 200},
		{"suburban_house.pga", 300, 8, 12},
		{"tower.pga", 200, 9, 60},
		{"textured.pga", 50, 9, 60}, // Texture, Color, SetupProjection, ProjectUV
		{"assets.pga", 50, 9, 60},   // I("ac_unit.obj"): the asset's own terminal kind
	} {
		t.Run(c.file, func(t *testing.T) {
			g := cudaGrammar(t, c.file)
			axioms := LotAxioms(g.Axioms[0].Kind, gridLots(t, c.lots, 11, 0, 0, c.lo, c.hi), 5, 0)
			runEquivalence(t, g, axioms, 0)
		})
	}
}

// The paper's scenes as configs/pga writes them, on part of their grids.
func TestCUDAEquivalenceScenes(t *testing.T) {
	for _, name := range []string{"Tree4,3", "Tree8,3", "Residential", "CrossTowers", "Skyscrapers", "CityOverview", "Suburban"} {
		t.Run(name, func(t *testing.T) {
			g, axioms, opt := cudaScene(t, name, 12, 10)
			var ue *UnsupportedError
			if _, err := compileGrammar(g); errors.As(err, &ue) {
				t.Skip(err)
			}
			runEquivalenceOpt(t, g, axioms, opt, 0)
		})
	}
}

// Phases with colliders and snap planes on several lots at once: each lot
// queries only its own earlier shapes.
func TestCUDAPhasesManyLots(t *testing.T) {
	for _, file := range []string{"residential.pga", "cross_towers.pga"} {
		t.Run(file, func(t *testing.T) {
			g := cudaGrammar(t, file)
			lots, err := Grid{Cols: 3, Rows: 2, Seed: 4, LotWidth: 50, LotDepth: 50}.Lots()
			if err != nil {
				t.Fatal(err)
			}
			runEquivalenceOpt(t, g, LotAxioms(g.Axioms[0].Kind, lots, 1, 20), Options{LotAttrs: LotAttrValues(lots)}, 0)
		})
	}
}

func TestCUDALimitsNameTheRule(t *testing.T) {
	g := cudaGrammar(t, "3d_tree_8_3.pga")
	c, err := NewCUDA(gputest.Device(t, nil), g)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ax := []Shape{NewAxiom(Box, Vec3{1, 1, 1}, 1)}
	for _, m := range cudaModes[:2] {
		opt := m.opt
		opt.MaxShapes = 1000
		_, err := c.Evaluate(context.Background(), ax, opt)
		if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "rule \"") || !strings.Contains(err.Error(), "MaxShapes") {
			t.Fatalf("%s MaxShapes: got %v", m.name, err)
		}
		opt = m.opt
		opt.MaxDepth = 5
		_, err = c.Evaluate(context.Background(), ax, opt)
		if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "MaxDepth") {
			t.Fatalf("%s MaxDepth: got %v", m.name, err)
		}
		// The same evaluator still works after an error.
		opt = m.opt
		opt.KeepTerminals = true
		r, err := c.Evaluate(context.Background(), ax, opt)
		if err != nil || r.Stats.Terminals != 22963 {
			t.Fatalf("%s after errors: %v", m.name, err)
		}
	}
}

// A small persistent queue and terminal buffer grow and the run is redone.
func TestCUDAPersistentGrows(t *testing.T) {
	g := cudaGrammar(t, "suburban_house.pga")
	c, err := NewCUDA(gputest.Device(t, nil), g)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.minCap = 256
	axioms := LotAxioms(Box, gridLots(t, 30, 1, 0, 0, 8, 12), 5, 0)
	r, err := c.Evaluate(context.Background(), axioms, Options{CUDATuning: CUDATuning{Scheduler: Persistent}})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := c.Evaluate(context.Background(), axioms, Options{CUDATuning: CUDATuning{Scheduler: Levels}})
	if err != nil {
		t.Fatal(err)
	}
	if c.qcap <= 256 || c.tcap <= 256 {
		t.Fatalf("queue %d, terminal buffer %d: nothing grew", c.qcap, c.tcap)
	}
	if r.Stats.Terminals != r2.Stats.Terminals || r.Shapes != r2.Shapes {
		t.Fatalf("persistent %d terminals %d shapes, levels %d %d", r.Stats.Terminals, r.Shapes, r2.Stats.Terminals, r2.Shapes)
	}
	t.Logf("%d lots: %d terminals, queue %d, terminal buffer %d", len(axioms), r.Stats.Terminals, c.qcap, c.tcap)
}

// Statistics-only evaluations count terminals by name on the device; the
// counts, vertices and triangles equal the CPU's.
func TestCUDAStatsWithoutDownload(t *testing.T) {
	for _, name := range []string{"Skyscrapers", "Suburban", "Residential"} {
		g, axioms, opt := scenes[name].load(t, 6, 5)
		cpu, err := g.Evaluate(axioms, opt)
		if err != nil {
			t.Fatal(err)
		}
		want := g.Stats(cpu)
		c, err := NewCUDA(gputest.Device(t, nil), g)
		if err != nil {
			t.Fatal(err)
		}
		opt.Mesh = true
		res, err := c.Evaluate(context.Background(), axioms, opt)
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		got := res.Stats
		if got.Terminals != want.Terminals || got.Vertices != want.Vertices || got.Triangles != want.Triangles || len(got.ByName) != len(want.ByName) {
			t.Fatalf("%s: device %d/%d/%d %v, CPU %d/%d/%d %v", name, got.Terminals, got.Vertices, got.Triangles, got.ByName,
				want.Terminals, want.Vertices, want.Triangles, want.ByName)
		}
		for k, n := range want.ByName {
			if got.ByName[k] != n {
				t.Fatalf("%s: %s %d on the device, %d on the CPU", name, k, got.ByName[k], n)
			}
		}
	}
}

// OperatorGraph's constructs beyond the corpus (parse_og.go): Rand, && and
// ||, ShapePos, probability prefixes, variables, numeric collider tags,
// polygons extruded to prisms and the other axiom kinds. The device has
// no concave profiles (UnsupportedError): the convex grammar only.
func TestCUDAEquivalenceOperatorGraph(t *testing.T) {
	convexOnly := strings.Replace(ogGrammar, "SetAsDynamicConcavePolygon((-0.5,-0.5),(0.5,-0.5),(0.5,0.5),(0,0),(-0.5,0.5))",
		"SetAsDynamicConvexPolygon((-0.5,-0.5),(0.5,-0.5),(0.5,0.5),(-0.5,0.3))", 1)
	for _, c := range []struct{ name, src string }{
		{"constructs", convexOnly},
		{"colliders", ogColliders},
		{"repeat", "axiom Box A;\nterminal T U V (1,0);\nA = Replicate() { Repeat(X, 1.3, ANCHOR_TO_START) T | Repeat(Y, 0.7, ANCHOR_TO_END) U | Repeat(Z, -0.3, ANCHOR_TO_END) Repeat(X, 2, ANCHOR_TO_START) V };"},
		// Zero-size pieces (OperatorGraph's SubDiv and Repeat): relative
		// branches with nothing left, tiles longer than the extent, empty
		// extents tiled in every mode.
		{"zero", "axiom Box A;\nterminal T U V (1,0);\nA = Replicate() { SubDiv(X) { 4: T | -1: Repeat(Y, 2.5, ANCHOR_TO_END) U | 0: T | -2: Repeat(X, 0.5, ANCHOR_TO_START) V | 1: Repeat(X, 1) V } | Repeat(Y, 4.5) T | Repeat(Z, 2.5, ANCHOR_TO_END) U | Repeat(Z, 1.7, ANCHOR_TO_START) V };"},
		// Probability prefixes inside blocks and chains are read and dropped.
		{"inner probabilities", "axiom Box A;\nterminal T U V (1,0);\nA = 30%: Replicate() { 20%: T | else: SubDiv(Y) { 1: 50%: U | -1: Translate(1, 0, 0) 5%: V } } else: Replicate() { 90%: V | 10%: U };"},
		{"prism5", "axiom Prism5 A;\nterminal T U V (1,0);\nA = Replicate() { T | CompSplit() { U | U | Extrude(0.3) V } };"},
		{"triangle", "axiom Triangle A;\nterminal T U V (1,0);\nA = Extrude(2) Translate(0, ShapeSize(Y) / 2, 0) CompSplit() { T | U | If(ShapeNormal(Y) > 0.5 || ShapeNormal(Y) < -0.5) { U | Repeat(X, 0.3) V } };"},
		{"rotations", "axiom Quad A;\nterminal T U V (1,0);\nA = Rotate(30, 40, 50) Extrude(2) Rotate(90, 90, 0) SetAsDynamicConvexRightPrism((0,0.5),(-0.5,-0.5),(0.5,-0.5)) CompSplit() { T | U | Translate(0, 0, ShapeRotation(Y)) V };"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := Parse(c.name+".pga", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			var axioms []Shape
			for i := 0; i < 300; i++ {
				a := NewAxiom(g.Axioms[0].Kind, Vec3{3 + float64(i%7), 2 + float64(i%5), 1 + float64(i%3)}, uint64(i))
				a.Transform = Translation(Vec3{float64(i) * 20, 0, 0})
				axioms = append(axioms, a)
			}
			runEquivalence(t, g, axioms, 0)
		})
	}
}
