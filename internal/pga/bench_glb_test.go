package pga

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// BenchmarkCityGLB: the CPU backend's GLB of CityOverview once it is
// evaluated (Grammar.Mesh and mesh.EncodeGLB: what `pga city ... -o c.glb
// --device cpu` does after the grammar) on 100x100 lots (220,000
// terminals) and on the 300x300 of bench-e2e (2 M terminals, 2 GB).
func BenchmarkCityGLB(b *testing.B) {
	for _, n := range []int{100, 300} {
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			g, axioms, opt := scenes["CityOverview"].load(b, n, n)
			ts, err := g.Evaluate(axioms, opt)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := mesh.EncodeGLB(context.Background(), io.Discard, g.Mesh(ts, nil), mesh.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(ts)), "terminals")
		})
	}
}
