//go:build cuda

package pga

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu/gputest"
)

// cudaScene loads one of the paper's scenes (scenes_test.go) from
// configs/pga (or PGA_CONFIGS on the GPU machine), cut to cols x rows lots
// when cols > 0. Until configs/pga/suburban.pga lands, Suburban stands in
// with the corpus suburban_house.pga on 66 x 64 large lots.
func cudaScene(t testing.TB, name string, cols, rows int) (*Grammar, []Shape, Options) {
	t.Helper()
	sc, ok := scenes[name]
	if !ok {
		t.Fatalf("no scene %s", name)
	}
	file := sc.file
	if _, err := cudaFind(file); err != nil && name == "Suburban" {
		file = "suburban_house.pga"
		sc.grid = Grid{Cols: 66, Rows: 64, LotWidth: 36, LotDepth: 45, MinHeight: 9, MaxHeight: 13}
	}
	g := cudaGrammar(t, file)
	if sc.grid.Cols == 0 {
		return g, []Shape{NewAxiom(g.Axioms[0].Kind, sc.unit, 1)}, Options{}
	}
	grid := sc.grid
	grid.Seed = 1
	if cols > 0 {
		grid.Cols, grid.Rows = min(cols, grid.Cols), min(rows, grid.Rows)
	}
	lots, err := grid.Lots()
	if err != nil {
		t.Fatal(err)
	}
	return g, LotAxioms(g.Axioms[0].Kind, lots, 1, 20), Options{LotAttrs: LotAttrValues(lots)}
}

var benchScenes = []string{"Skyscrapers", "CityOverview", "Suburban", "Tree8,3", "Residential", "CrossTowers"}

// BenchmarkCUDA runs each scene with each scheduler and flag setting: the
// device time of evaluation plus mesh generation (ms), and terminals/s.
func BenchmarkCUDA(b *testing.B) {
	for _, name := range benchScenes {
		for _, m := range cudaModes {
			b.Run(name+"/"+m.name, func(b *testing.B) {
				g, axioms, base := cudaScene(b, name, 0, 0)
				c, err := NewCUDA(gputest.Device(b, nil), g)
				if err != nil {
					b.Fatal(err)
				}
				defer c.Close()
				opt := base
				opt.CUDATuning = m.opt.CUDATuning
				opt.Mesh = true
				r, err := c.Evaluate(context.Background(), axioms, opt) // warm up: buffers grow here
				if err != nil {
					b.Fatal(err)
				}
				var times []time.Duration
				b.ResetTimer()
				for b.Loop() {
					r, err = c.Evaluate(context.Background(), axioms, opt)
					if err != nil {
						b.Fatal(err)
					}
					times = append(times, r.DeviceTime)
				}
				sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
				med := times[len(times)/2]
				b.ReportMetric(float64(med.Microseconds())/1000, "dev-ms")
				b.ReportMetric(float64(r.Stats.Terminals), "terminals")
				b.ReportMetric(float64(r.Stats.Terminals)/med.Seconds()/1e6, "Mterm/s")
				b.ReportMetric(float64(r.Stats.Triangles), "triangles")
			})
		}
		b.Run(name+"/cpu", func(b *testing.B) {
			g, axioms, opt := cudaScene(b, name, 0, 0)
			var ts []TerminalShape
			var err error
			for b.Loop() {
				if ts, err = g.Evaluate(axioms, opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(ts)), "terminals")
			b.ReportMetric(float64(len(ts))/(b.Elapsed().Seconds()/float64(b.N))/1e6, "Mterm/s")
			b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "threads")
		})
	}
}

// TestCUDASceneSizes logs what each benchmark scene makes (for the report).
func TestCUDASceneSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, name := range benchScenes {
		g, axioms, opt := cudaScene(t, name, 0, 0)
		ts, err := g.Evaluate(axioms, opt)
		if err != nil {
			t.Fatal(err)
		}
		st := g.Stats(ts)
		fmt.Printf("scene %s (%s): %d lots, %d terminals, %d vertices, %d triangles\n", name, g.File, len(axioms), st.Terminals, st.Vertices, st.Triangles)
	}
}
