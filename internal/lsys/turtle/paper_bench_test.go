package turtle_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
	"github.com/procgen-dev/procgen/internal/lsys/turtle"
)

// paperRows are the seven systems of the paper's Table 2 with its figures:
// modules (the paper's count) and single-core CPU times in ms for derivation
// and interpretation (Core 2 Q6600; ../shared/corpus/lsys/abop-benchmarks.md).
var paperRows = []struct {
	config             string
	modules            float64
	deriveMS, interpMS float64
}{
	{"hilbert3d", 1266864, 4.70, 31.50},
	{"koch-island", 915049, 3.45, 22.56},
	{"row-of-trees", 815545, 10.21, 77.04},
	{"plant2d", 813169, 3.31, 22.45},
	{"tree3d", 622334, 8.53, 31.44},
	{"stochastic-plant", 835481, 6.45, 14.70},
	{"context-plant", 25174, 0.73, 0.11},
}

var paperDev struct {
	once sync.Once
	dev  *gpu.Device
}

// paperBackends are the CPU and, in a CUDA build with a device, the GPU.
func paperBackends() []string {
	paperDev.once.Do(func() {
		if d, err := gpu.Open(0); err == nil {
			paperDev.dev = d
		}
	})
	if paperDev.dev != nil {
		return []string{"cpu", "cuda"}
	}
	return []string{"cpu"}
}

func paperDevice(backend string) *gpu.Device {
	if backend == "cuda" {
		return paperDev.dev
	}
	return nil
}

// BenchmarkPaper runs the paper's seven systems at the configured
// derivation lengths (configs/lsys) on each backend and reports the time
// per derivation and per interpretation beside the paper's single-core
// times (paper-ms), and modules per millisecond: for derivation every
// module written (|w_0|+...+|w_n|, the paper's count), for interpretation
// the final string. tree3d and stochastic-plant are not the paper's exact
// variants (see their files), so their rows compare only roughly. Run with
// -cpu 1 for the single-core CPU comparison.
func BenchmarkPaper(b *testing.B) {
	ctx := context.Background()
	for _, row := range paperRows {
		sys, err := syntax.ParseFile("../../../configs/lsys/" + row.config + ".l")
		if err != nil {
			b.Fatal(err)
		}
		for _, backend := range paperBackends() {
			dev := paperDevice(backend)
			var d *lsys.Derivation
			b.Run(fmt.Sprintf("%s/%s/derive", row.config, backend), func(b *testing.B) {
				deriver := lsys.NewDeriver(dev)
				for b.Loop() {
					if d, err = deriver.Derive(ctx, sys, lsys.DeriveOptions{Steps: -1, Seed: 1}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(d.Total)*float64(b.N)/(b.Elapsed().Seconds()*1e3), "modules/ms")
				b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms")
				b.ReportMetric(row.deriveMS, "paper-ms")
				b.ReportMetric(float64(d.Total), "modules")
			})
			if d == nil {
				continue
			}
			s, err := lsys.ApplyHomomorphism(ctx, sys, d.String, 0)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/%s/interpret", row.config, backend), func(b *testing.B) {
				interp := turtle.NewInterpreter(dev)
				for b.Loop() {
					if _, err := interp.Interpret(ctx, sys, s, turtle.Options{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(s.Len())*float64(b.N)/(b.Elapsed().Seconds()*1e3), "modules/ms")
				b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms")
				b.ReportMetric(row.interpMS, "paper-ms")
				b.ReportMetric(float64(s.Len()), "modules")
			})
		}
	}
}
