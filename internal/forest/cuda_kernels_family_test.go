//go:build cuda

package forest

import (
	"context"
	"testing"
)

// The device sums the 2Dt, exponential power and mixture kernels as the
// CPU does: exact within its float32 statement (cudaExactMaxRel on cells
// above cudaExactFloor of the maximum), fft within the bounds
// against the CPU's exact sum, on a plot that is not a multiple of the
// 32-cell tile, open and torus; totals agree. Skips without a GPU
// (PROCGEN_REQUIRE_GPU=1: fails).
func TestCUDAKernelFamilies(t *testing.T) {
	e := cudaEngine(t)
	g, trees := clusteredPlot(90, 71, 700, 21)
	sp := familySpecies()
	for i := range trees {
		trees[i].Species = i % len(sp)
	}
	for _, b := range []Boundary{Open, Torus} {
		ref := disperse(t, g, trees, sp, Options{Method: Exact, Boundary: b})
		for _, m := range []Method{Exact, FFT} {
			got, err := e.Disperse(context.Background(), g, trees, sp, Options{Method: m, Boundary: b})
			if err != nil {
				t.Fatalf("%s %s: %v", b, m, err)
			}
			for s := range sp {
				mean, worst, cells := relErrors(ref[s].Density, got[s].Density, cudaExactFloor)
				limit, meanLimit := 4*cudaExactMaxRel, cudaExactMaxRel
				if m == FFT {
					limit, meanLimit = 1e-3, 1e-4
				}
				t.Logf("%s %s %s: %d cells, mean %.2e max %.2e", b, m, sp[s].Name, cells, mean, worst)
				if cells == 0 || worst > limit || mean > meanLimit {
					t.Errorf("%s %s %s: device vs CPU mean %.3g max %.3g on %d cells", b, m, sp[s].Name, mean, worst, cells)
				}
				if d := got[s].Total - ref[s].Total; d > 1e-4*ref[s].Total || -d > 1e-4*ref[s].Total {
					t.Errorf("%s %s %s: total %g, CPU %g", b, m, sp[s].Name, got[s].Total, ref[s].Total)
				}
			}
		}
	}
}
