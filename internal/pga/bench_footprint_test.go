package pga

import (
	"context"
	"io"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// BenchmarkFootprintCity is the CPU backend's whole city on 2,500 polygon
// lots (scripts/polygon-lots.sh's kinds) with parts.pga and roofs.pga:
// the grammar (slabs, insets, straight-skeleton roofs) and the GLB built
// from its terminals, as `pga city ... -o c.glb --device cpu` runs them.
func BenchmarkFootprintCity(b *testing.B) {
	lots := polygonLots(2500, 3)
	for _, name := range []string{"parts.pga", "roofs.pga"} {
		b.Run(name, func(b *testing.B) {
			g, axioms := footprintCase(b, name, "", Quad, lots)
			opt := Options{LotAttrs: LotAttrValues(lots)}
			var n int
			for b.Loop() {
				ts, err := g.Evaluate(axioms, opt)
				if err != nil {
					b.Fatal(err)
				}
				if err := mesh.EncodeGLB(context.Background(), io.Discard, g.Mesh(ts, nil), mesh.Options{}); err != nil {
					b.Fatal(err)
				}
				n = len(ts)
			}
			b.ReportMetric(float64(n), "terminals")
		})
	}
}
