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

// cudaScene is one of the paper's scenes, or its stand-in until the scene
// grammars land in configs/pga: a grammar on a grid of lots.
type cudaScene struct {
	name, file string
	lots       int
	w, d       float64 // lot cell, metres
	lo, hi     float64 // heights
}

var cudaScenes = []cudaScene{
	{"Skyscrapers", "mc_skyscraper.pga", 523, 26, 30, 30, 70},
	{"CityOverview", "mc_skyscraper.pga", 38000, 8, 8, 6, 12},
	{"Suburban", "suburban_house.pga", 4244, 36, 45, 9, 13},
	{"Tree83", "3d_tree_8_3.pga", 1, 0, 0, 0, 0},
}

func (s cudaScene) axioms(b testing.TB) (*Grammar, []Shape) {
	g := cudaGrammar(b, s.file)
	if s.lots == 1 {
		return g, []Shape{NewAxiom(g.Axioms[0].Kind, Vec3{1, 1, 1}, 1)}
	}
	return g, LotAxioms(g.Axioms[0].Kind, gridLots(b, s.lots, 2026, s.w, s.d, s.lo, s.hi), 1, 0)
}

// BenchmarkCUDA runs each scene with each scheduler and flag setting: the
// device time of evaluation plus mesh generation (ms), and terminals/s.
func BenchmarkCUDA(b *testing.B) {
	for _, sc := range cudaScenes {
		for _, m := range cudaModes {
			b.Run(sc.name+"/"+m.name, func(b *testing.B) {
				g, axioms := sc.axioms(b)
				c, err := NewCUDA(gputest.Device(b, nil), g)
				if err != nil {
					b.Fatal(err)
				}
				defer c.Close()
				opt := m.opt
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
		b.Run(sc.name+"/cpu", func(b *testing.B) {
			g, axioms := sc.axioms(b)
			var ts []TerminalShape
			var err error
			for b.Loop() {
				if ts, err = g.Evaluate(axioms, Options{}); err != nil {
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
	for _, sc := range cudaScenes {
		g, axioms := sc.axioms(t)
		ts, err := g.Evaluate(axioms, Options{})
		if err != nil {
			t.Fatal(err)
		}
		st := Stats(ts)
		fmt.Printf("scene %s: %d lots, %d terminals, %d vertices, %d triangles\n", sc.name, len(axioms), st.Terminals, st.Vertices, st.Triangles)
	}
}
