//go:build cuda

package turtle

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu/gputest"
	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
)

// cudaInterpreter opens device 0 once; tests skip without one, unless
// PROCGEN_REQUIRE_GPU is set (on the GPU machine), where they fail.
func cudaInterpreter(t testing.TB) CUDA {
	t.Helper()
	return CUDA{Dev: gputest.Device(t, nil)}
}

// sameGeometry checks the CUDA geometry against the CPU's: counts, stats,
// colours and polygon indices exactly; coordinates, bounds and vertices to
// tol of the drawing's extent; widths to tol relative. It returns the
// largest coordinate difference over the extent.
func sameGeometry(t *testing.T, want, got *Geometry, tol float64) float64 {
	t.Helper()
	if got.Stats.Modules != want.Stats.Modules || got.Stats.Segments != want.Stats.Segments ||
		got.Stats.Polygons != want.Stats.Polygons || got.Stats.MaxDepth != want.Stats.MaxDepth {
		t.Fatalf("stats %+v, CPU %+v", got.Stats, want.Stats)
	}
	if len(got.Segments) != len(want.Segments) || len(got.Polygons) != len(want.Polygons) ||
		len(got.PolyVerts) != len(want.PolyVerts) {
		t.Fatalf("%d segments, %d polygons, %d vertices; CPU %d, %d, %d", len(got.Segments), len(got.Polygons),
			len(got.PolyVerts), len(want.Segments), len(want.Polygons), len(want.PolyVerts))
	}
	b := want.Stats.Bounds
	ext := 1.0
	for k := range 3 {
		ext = max(ext, float64(b.Max[k]-b.Min[k]))
	}
	worst := 0.0
	near := func(what string, i int, a, w [3]float32) {
		for k := range 3 {
			d := math.Abs(float64(a[k])-float64(w[k])) / ext
			if !(d <= tol) {
				t.Fatalf("%s %d: %v, CPU %v (extent %g)", what, i, a, w, ext)
			}
			worst = max(worst, d)
		}
	}
	near("bounds min", 0, got.Stats.Bounds.Min, b.Min)
	near("bounds max", 0, got.Stats.Bounds.Max, b.Max)
	for i := range want.Segments {
		g, w := &got.Segments[i], &want.Segments[i]
		near("segment A", i, g.A, w.A)
		near("segment B", i, g.B, w.B)
		if !(math.Abs(float64(g.Width-w.Width)) <= tol*max(1, math.Abs(float64(w.Width)))) || g.Color != w.Color {
			t.Fatalf("segment %d: width %v colour %d, CPU %v %d", i, g.Width, g.Color, w.Width, w.Color)
		}
	}
	for i := range want.Polygons {
		if got.Polygons[i] != want.Polygons[i] {
			t.Fatalf("polygon %d: %+v, CPU %+v", i, got.Polygons[i], want.Polygons[i])
		}
	}
	for i := range want.PolyVerts {
		near("polygon vertex", i, got.PolyVerts[i], want.PolyVerts[i])
	}
	return worst
}

// compare interprets s on both backends, with each chunk size on the GPU.
func compare(t *testing.T, cu CUDA, sys *lsys.System, s *lsys.String, chunks ...int) {
	t.Helper()
	want, err := CPU{}.Interpret(context.Background(), sys, s, Options{})
	if err != nil {
		t.Fatalf("CPU: %v", err)
	}
	for _, c := range chunks {
		cu.Chunk = c
		got, err := cu.Interpret(context.Background(), sys, s, Options{})
		if err != nil {
			t.Fatalf("chunk %d: %v", c, err)
		}
		worst := sameGeometry(t, want, got, 1e-5)
		t.Logf("chunk %d: %d modules, %d segments, %d polygons, depth %d, largest difference %.2g of the extent",
			c, s.Len(), len(got.Segments), len(got.Polygons), got.Stats.MaxDepth, worst)
	}
}

const configDir = "../../../configs/lsys"

var derived sync.Map // "file/steps" -> [2]any{*lsys.System, *lsys.String}

// deriveConfig derives configs/lsys/<file> for steps steps (-1: the file's
// own) on the CPU and applies its homomorphism, as `procgen lsys` does.
func deriveConfig(t testing.TB, file string, steps int) (*lsys.System, *lsys.String) {
	t.Helper()
	key := fmt.Sprintf("%s/%d", file, steps)
	if v, ok := derived.Load(key); ok {
		p := v.([2]any)
		return p[0].(*lsys.System), p[1].(*lsys.String)
	}
	sys, err := syntax.ParseFile(filepath.Join(configDir, file))
	if err != nil {
		t.Fatal(err)
	}
	d, err := lsys.CPU{}.Derive(context.Background(), sys, lsys.DeriveOptions{Steps: steps, Seed: 1, Env: Queries{}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := lsys.ApplyHomomorphism(context.Background(), sys, d.String, 0)
	if err != nil {
		t.Fatal(err)
	}
	derived.Store(key, [2]any{sys, s})
	return sys, s
}

// Every example system, derived as its file says: 2D and 3D, parametric,
// stochastic, context-sensitive, with homomorphisms, tropism (tree3d) and
// '$' (monopodial-tree), which take the non-linear path.
func TestCUDAMatchesCPUConfigs(t *testing.T) {
	cu := cudaInterpreter(t)
	files, err := filepath.Glob(filepath.Join(configDir, "*.l"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no configs: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			sys, s := deriveConfig(t, filepath.Base(f), -1)
			compare(t, cu, sys, s, 0, 16, 128)
		})
	}
}

// Random strings across many chunks, with parameters, tropism, '$',
// polygons and chunk boundaries inside branches (cpu_test.go's bigCases).
func TestCUDAMatchesCPUBig(t *testing.T) {
	cu := cudaInterpreter(t)
	cases := bigCases(t)
	names := make([]string, 0, len(cases))
	for name := range cases {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			sys, s := cases[name]()
			compare(t, cu, sys, s, 0, 16, 64)
		})
	}
}

// Short strings of every length around the chunk and block sizes, random
// systems, each against the CPU and the reference interpreter.
func TestCUDAMatchesCPURandom(t *testing.T) {
	cu := cudaInterpreter(t)
	rng := rand.New(rand.NewPCG(11, 12))
	sizes := []int{1, 2, 15, 16, 17, 31, 33, 100, 255, 256, 257, 1000, 2049, 4095, 4097, 16384 + 3, 40000}
	for i, n := range sizes {
		for _, variant := range []string{"plain", "parametric", "tropism", "level"} {
			t.Run(fmt.Sprintf("%d/%s", n, variant), func(t *testing.T) {
				sys := &lsys.System{Angle: 5 + rng.Float64()*80, Step: 1, Width: 0.5 + rng.Float64()}
				alpha, params := alphabet, ""
				switch variant {
				case "parametric":
					params = "F+&/!'"
				case "tropism":
					sys.Tropism, sys.Elasticity = [3]float64{0.3, -1, 0.1}, 0.1
					params = "Ff"
				case "level":
					alpha += "$$"
				}
				s := randomString(rand.New(rand.NewPCG(uint64(i), uint64(len(variant)))), sys, n, alpha, params)
				compare(t, cu, sys, s, 16, 32)
				g, err := cu.Interpret(context.Background(), sys, s, Options{})
				if err != nil {
					t.Fatal(err)
				}
				sameAsReference(t, sys, s, g, 1e-5)
			})
		}
	}
}

// Deep nesting that spans many chunks, strings with little branching and
// tropism (the non-linear path's longest waits), and a string of brackets
// only.
func TestCUDAMatchesCPUShapes(t *testing.T) {
	cu := cudaInterpreter(t)
	deep := strings.Repeat("F[+F", 3000) + strings.Repeat("F]-F", 2999)
	koch := derive("F-F-F-F", map[byte]string{'F': "F-F+F+FF-F-F+F"}, 4)
	cases := []struct {
		name string
		sys  lsys.System
		str  string
	}{
		{"deep", lsys.System{Angle: 7, Step: 1, Width: 1}, deep},
		{"deep tropism", lsys.System{Angle: 7, Step: 1, Width: 1, Tropism: [3]float64{0, -1, 0}, Elasticity: 0.01}, deep},
		{"koch tropism", lsys.System{Angle: 90, Step: 1, Tropism: [3]float64{1, 0, 0}, Elasticity: 0.001}, string(koch)},
		{"koch level", lsys.System{Angle: 90, Step: 1}, strings.ReplaceAll(string(koch), "F-F", "F-&F$")},
		{"brackets", lsys.System{Angle: 30, Step: 1}, strings.Repeat("[[]][][[[]]]", 5000) + "F"},
		{"polygons", lsys.System{Angle: 30, Step: 1},
			strings.Repeat("{.f.+f.{.f.f.}+f.}", 3000) + "{.{.}.f.f}" + strings.Repeat(".{f.+f.", 200)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sys := tc.sys
			compare(t, cu, &sys, &lsys.String{Syms: []byte(tc.str)}, 0, 16, 256)
		})
	}
}

func TestCUDAErrors(t *testing.T) {
	cu := cudaInterpreter(t)
	for _, tc := range []struct {
		src  string
		want error
	}{
		{"F]F", ErrUnbalanced},
		{"F[F]]", ErrUnbalanced},
		{"F}", ErrUnbalanced},
		{"{.}}", ErrUnbalanced},
		{"F(1e308)F(1e308)", ErrNonFinite},
		{"F(nan)", ErrNonFinite},
		{"!(inf)F", ErrNonFinite},
		{"{.f(nan).f(1).}", ErrNonFinite},
	} {
		sys := &lsys.System{Angle: 90, Step: 1}
		s := parseModules(t, sys, tc.src)
		if _, err := cu.Interpret(context.Background(), sys, s, Options{}); !errors.Is(err, tc.want) {
			t.Errorf("%q: error %v, want %v", tc.src, err, tc.want)
		}
	}
	sys := &lsys.System{Angle: 90, Step: 1}
	s := parseModules(t, sys, "F(1)F(2)")
	for _, ps := range [][]float64{{1}, {1, 2, 3}} {
		s.Params = ps
		if _, err := cu.Interpret(context.Background(), sys, s, Options{}); !errors.Is(err, ErrParams) {
			t.Errorf("%d parameters: error %v", len(ps), err)
		}
	}
	// A ']' or '}' that closes nothing deep in a long string, and the same
	// module named as on the CPU.
	str := derive("X", map[byte]string{'X': "F[+X][-X]"}, 14)
	for _, tail := range []string{"]]", "}"} {
		s := &lsys.String{Syms: append(append([]byte(nil), str...), tail...)}
		_, cerr := CPU{}.Interpret(context.Background(), &lsys.System{Step: 1}, s, Options{})
		cu.Chunk = 16
		_, gerr := cu.Interpret(context.Background(), &lsys.System{Step: 1}, s, Options{})
		if !errors.Is(gerr, ErrUnbalanced) || cerr == nil || gerr.Error() != cerr.Error() {
			t.Errorf("trailing %q: error %v, CPU %v", tail, gerr, cerr)
		}
	}
}

// Random strings with edge parameters (NaN, infinities, huge values, zero):
// the backends agree on failing, and on the geometry when they do not.
func TestCUDAEdgeValues(t *testing.T) {
	cu := cudaInterpreter(t)
	rng := rand.New(rand.NewPCG(7, 8))
	sentinels := []error{ErrUnbalanced, ErrNonFinite, ErrParams}
	for i := range 300 {
		n := rng.IntN(300)
		if i%50 == 0 {
			n = rng.IntN(20000)
		}
		syms := make([]byte, n)
		for k := range syms {
			syms[k] = alphabet[rng.IntN(len(alphabet))]
		}
		sys := &lsys.System{Angle: rng.Float64() * 90, Step: 1, Width: 1}
		if i%3 == 0 {
			sys.Tropism, sys.Elasticity = [3]float64{0, -1, 0}, 0.3
		}
		s := &lsys.String{Syms: syms}
		for _, c := range []byte("F+!'") {
			if rng.IntN(2) == 0 {
				sys.Arity[c] = uint8(1 + rng.IntN(2))
			}
		}
		for _, c := range syms {
			for range sys.Arity[c] {
				s.Params = append(s.Params, []float64{0, -1, 1e300, math.NaN(), math.Inf(1), 2.5}[rng.IntN(6)])
			}
		}
		want, cerr := CPU{}.Interpret(context.Background(), sys, s, Options{})
		cu.Chunk = 16
		got, gerr := cu.Interpret(context.Background(), sys, s, Options{})
		if (cerr == nil) != (gerr == nil) {
			t.Fatalf("case %d: error %v, CPU %v", i, gerr, cerr)
		}
		if cerr != nil {
			for _, e := range sentinels {
				if errors.Is(cerr, e) != errors.Is(gerr, e) {
					t.Fatalf("case %d: error %v, CPU %v", i, gerr, cerr)
				}
			}
			continue
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { sameGeometry(t, want, got, 1e-5) })
	}
}

func TestCUDAEmptyAndCancel(t *testing.T) {
	cu := cudaInterpreter(t)
	sys := &lsys.System{Angle: 90, Step: 1}
	for _, src := range []string{"", "+-X[]"} {
		g, err := cu.Interpret(context.Background(), sys, parseModules(t, sys, src), Options{})
		if err != nil || len(g.Segments) != 0 || g.Stats.Bounds != (Box{}) {
			t.Fatalf("%q: %+v %v", src, g, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := &lsys.String{Syms: []byte("F+F")}
	if _, err := cu.Interpret(ctx, sys, s, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: error %v", err)
	}
}

// benchConfigs are the paper's kinds of system at about a million modules
// and at the first derivation step past a hundred million.
var benchConfigs = []struct {
	file  string
	steps int
}{
	{"koch-island.l", 6}, {"koch-island.l", 9},
	{"plant2d.l", 6}, {"plant2d.l", 9},
	{"tree3d.l", 11}, {"tree3d.l", 15},
}

// BenchmarkCUDAInterpret times the device passes, strings already on the
// device and geometry left there (CUDA events around each stage, summed):
// modules/ms is the figure to hold against the memory bound. Per-stage
// times are reported as <stage>-ms.
func BenchmarkCUDAInterpret(b *testing.B) {
	cu := cudaInterpreter(b)
	for _, bc := range benchConfigs {
		b.Run(fmt.Sprintf("%s/n=%d", strings.TrimSuffix(bc.file, ".l"), bc.steps), func(b *testing.B) {
			sys, s := deriveConfig(b, bc.file, bc.steps)
			p := newProgram(sys, Options{})
			up := &cudaRun{dev: cu.Dev}
			defer up.free()
			in, err := up.upload(s)
			if err != nil {
				b.Fatal(err)
			}
			// Warm up: module load and first-touch costs stay out of the figures.
			warm := &cudaRun{dev: cu.Dev}
			_, err = warm.interpret(context.Background(), p, in, cu.chunkFor(s.Len()))
			warm.free()
			if err != nil {
				b.Fatal(err)
			}
			stages := map[string]time.Duration{}
			var segs int
			for b.Loop() {
				r := &cudaRun{dev: cu.Dev, stages: stages}
				dg, err := r.interpret(context.Background(), p, in, cu.chunkFor(s.Len()))
				r.free()
				if err != nil {
					b.Fatal(err)
				}
				segs = dg.nsegs
			}
			var total time.Duration
			for name, dt := range stages {
				total += dt
				b.ReportMetric(dt.Seconds()*1000/float64(b.N), name+"-ms")
			}
			b.ReportMetric(float64(s.Len())*float64(b.N)/(total.Seconds()*1000), "modules/ms")
			b.ReportMetric(float64(s.Len()), "modules")
			b.ReportMetric(float64(segs), "segments")
		})
	}
}

// BenchmarkCUDAInterpretEndToEnd times Interpret as a caller sees it:
// upload, device passes, download into Go slices; "cpu" is the CPU backend
// on the same string.
func BenchmarkCUDAInterpretEndToEnd(b *testing.B) {
	cu := cudaInterpreter(b)
	for _, bc := range benchConfigs {
		for _, backend := range []Interpreter{cu, CPU{}} {
			name := "cuda"
			if _, ok := backend.(CPU); ok {
				name = "cpu"
			}
			b.Run(fmt.Sprintf("%s/n=%d/%s", strings.TrimSuffix(bc.file, ".l"), bc.steps, name), func(b *testing.B) {
				sys, s := deriveConfig(b, bc.file, bc.steps)
				for b.Loop() {
					if _, err := backend.Interpret(context.Background(), sys, s, Options{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(s.Len())*float64(b.N)/(b.Elapsed().Seconds()*1000), "modules/ms")
			})
		}
	}
}
