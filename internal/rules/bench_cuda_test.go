//go:build cuda

package rules

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkTable reproduces the paper's Tables 1-4 on the GPU with the
// kernels generated for the rule set: for every row, both schedules,
// reporting the device time of one application of the synthetic rule to
// every state (CUDA events around appsPerTiming launches), in ms/app.
// scripts/rules-table.awk prints the medians beside the paper's GTX 1080 Ti
// figures.
func BenchmarkTable(b *testing.B) { benchTable(b, false, nil) }

// BenchmarkTableInterp is BenchmarkTable with the bytecode interpreter
// kernels.
func BenchmarkTableInterp(b *testing.B) { benchTable(b, true, nil) }

// BenchmarkGoalRow is the goal row alone (2048 states, range 1024, load 20,
// phi 2; goal <= 0.04 ms/app on an H100), every layout and schedule,
// generated kernels against the interpreter's.
func BenchmarkGoalRow(b *testing.B) {
	goal := func(r tableRow) bool { return r.table == 1 && r.states == 2048 && r.rng == 1024 && r.phi == 2 }
	b.Run("gen", func(b *testing.B) { benchTable(b, false, goal) })
	b.Run("interp", func(b *testing.B) { benchTable(b, true, goal) })
}

// appsPerTiming applications, each its own launch, are timed back to back
// for ms/app: the device's time per application once the stream is busy, as
// in a run of many steps. ms/lone-app times one launch alone, which adds the
// host's launch latency (~20 us through the Go driver layer) to the kernel.
const appsPerTiming = 10

// name is the sub-benchmark name of a row, layout included.
func (r tableRow) name() string {
	return fmt.Sprintf("t%d/S=%d/R=%d/phi=%d/load=%d/L=%s", r.table, r.states, r.rng, r.phi, r.load, r.layout)
}

func benchTable(b *testing.B, interp bool, keep func(tableRow) bool) {
	c := cudaEngine(b)
	type key struct{ s, r, phi int }
	cache := map[key]*States{}
	for _, row := range paperRows() {
		if keep != nil && !keep(row) {
			continue
		}
		p := row.program(b)
		k := key{row.states, row.rng, row.phi}
		if cache[k] == nil {
			cache = map[key]*States{k: Generate(p, row.states, 1)} // one at a time: 16384 x 8192 words is 512 MiB
		}
		st := cache[k]
		for _, sched := range []Schedule{Simple, Compact} {
			b.Run(row.name()+"/"+string(sched), func(b *testing.B) {
				r, err := newCUDARun(c.Dev, p, st, sched, row.layout, 1, interp, !interp)
				if err != nil {
					b.Fatal(err)
				}
				defer r.free()
				if !interp && !r.generated {
					b.Fatalf("no generated kernel: %v", r.genErr)
				}
				if err := r.launch(0, 1); err != nil { // warm up
					b.Fatal(err)
				}
				b.ResetTimer()
				var total, single time.Duration
				for range b.N {
					dt, err := c.Dev.Time(func() error { return r.launch(0, 1) })
					if err != nil {
						b.Fatal(err)
					}
					single += dt
					dt, err = c.Dev.Time(func() error {
						for range appsPerTiming {
							if err := r.launch(0, 1); err != nil {
								return err
							}
						}
						return nil
					})
					if err != nil {
						b.Fatal(err)
					}
					total += dt
				}
				ms := float64(total.Nanoseconds()) / 1e6 / float64(b.N*appsPerTiming)
				b.ReportMetric(ms, "ms/app")
				b.ReportMetric(float64(single.Nanoseconds())/1e6/float64(b.N), "ms/lone-app")
				if row.states == 2048 && row.rng == 1024 && row.phi == 2 && row.load == 20 && row.layout == LayoutC {
					b.Logf("goal row: %s %s generated=%v %.4f ms", row.name(), sched, r.generated, ms)
				}
			})
		}
	}
}
