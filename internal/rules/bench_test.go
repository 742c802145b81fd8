package rules

import (
	"context"
	"fmt"
	"testing"
)

// tableRow is one row of the paper's Tables 1-4 (the synthetic rule).
type tableRow struct {
	table, states, rng, phi, load int
	layout                        Layout
}

// paperRows lists Tables 1/3 (load 20) and 2/4 (value range 1024, phi 2).
func paperRows() []tableRow {
	var rows []tableRow
	for _, s := range []int{2048, 16384} {
		for _, r := range []int{1024, 4096} {
			for _, phi := range []int{2, 3} {
				for _, l := range []Layout{LayoutA, LayoutB, LayoutC} {
					rows = append(rows, tableRow{1, s, r, phi, 20, l})
				}
			}
		}
	}
	for _, s := range []int{2048, 16384} {
		for _, load := range []int{200, 2000} {
			for _, l := range []Layout{LayoutA, LayoutB, LayoutC} {
				rows = append(rows, tableRow{2, s, 1024, 2, load, l})
			}
		}
	}
	return rows
}

func (r tableRow) program(t testing.TB) *Program {
	return compileConfig(t, "synthetic.rules", map[string]string{
		"RANGE": fmt.Sprint(r.rng), "PHI": fmt.Sprint(r.phi), "LOAD": fmt.Sprint(r.load)})
}

// BenchmarkTableCPU is the CPU backend on the paper's 2048-state rows with
// value range 1024 (the larger rows take minutes a step on two cores):
// ms per application of the synthetic rule to every state. Run with -cpu 2
// for the two-core figures.
func BenchmarkTableCPU(b *testing.B) {
	for _, r := range paperRows() {
		if r.states != 2048 || r.rng != 1024 || r.layout != LayoutA {
			continue
		}
		p := r.program(b)
		st := Generate(p, r.states, 1)
		b.Run(fmt.Sprintf("t%d/S=%d/R=%d/phi=%d/load=%d", r.table, r.states, r.rng, r.phi, r.load), func(b *testing.B) {
			cpu0 := cpuNanos()
			for range b.N {
				if _, err := (CPU{}).Run(context.Background(), p, st, Options{Steps: 1}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N), "ms/app")
			// CPU time over all cores: on a shared machine the fair figure.
			b.ReportMetric(float64(cpuNanos()-cpu0)/1e6/float64(b.N), "cpu-ms/app")
		})
	}
}

// BenchmarkInterpCPU is the interpreter's speed on one core: bytecode
// instructions per second on the synthetic rule.
func BenchmarkInterpCPU(b *testing.B) {
	p := compileConfig(b, "synthetic.rules", map[string]string{"RANGE": "1024", "PHI": "2", "LOAD": "20"})
	st := Generate(p, 64, 1)
	for range b.N {
		if _, err := (CPU{}).Run(context.Background(), p, st, Options{Steps: 1, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(64*512), "ns/eval")
}
