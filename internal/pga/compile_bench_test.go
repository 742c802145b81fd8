package pga

import "testing"

// BenchmarkCompileFootprints is the host's part of the CUDA backend's
// start on 2,500 polygon lots: the grammar's tables with every lot's
// roofs, cuts, slabs and tiles (compile_footroof.go, compile_footcut.go,
// compile_footslab.go), which the device waits for.
func BenchmarkCompileFootprints(b *testing.B) {
	lots := polygonLots(2500, 3)
	for _, c := range footprintGrammars {
		switch c.name {
		case "roofs.pga", "parts.pga", "tiles", "courtyard.pga", "cuts six deep":
		default:
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			g, _ := footprintCase(b, c.name, c.src, c.kind, lots)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := compileGrammar(g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
