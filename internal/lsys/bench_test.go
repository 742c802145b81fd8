package lsys

import (
	"fmt"
	"testing"
)

// reportPerMS reports n items per millisecond of each iteration.
func reportPerMS(b *testing.B, n int64, unit string) {
	if us := b.Elapsed().Microseconds(); us > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/float64(us)*1000, unit)
	}
}

// BenchmarkDeriveCPU derives the paper's systems (Table 2's iteration
// counts) and larger ones. modules/ms counts every module written, as the
// paper's "modules" column does; out/ms counts the last string only.
func BenchmarkDeriveCPU(b *testing.B) {
	for _, c := range []struct {
		name  string
		sys   *System
		steps int
	}{
		{"hilbert3D", hilbert3D(), 6},
		{"koch", kochIsland(), 6},
		{"rowOfTrees", rowOfTrees(), 9},
		{"plant2D", plant2D(), 6},
		{"tree3D", tree3D(), 10},
		{"stochastic", stochasticPlant(), 9},
		{"contextPlant", contextPlant(), 30},
		{"koch-large", kochIsland(), 9},
		{"hilbert3D-large", hilbert3D(), 8},
		{"plant2D-large", plant2D(), 8},
		{"rowOfTrees-large", rowOfTrees(), 11},
	} {
		b.Run(fmt.Sprintf("%s-%d", c.name, c.steps), func(b *testing.B) {
			var d *Derivation
			for b.Loop() {
				d = derive(b, c.sys, DeriveOptions{Steps: c.steps, Seed: 1})
			}
			reportPerMS(b, d.Total, "modules/ms")
			reportPerMS(b, int64(d.String.Len()), "out/ms")
		})
	}
}
