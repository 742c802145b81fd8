//go:build cuda

package rules

import "testing"

// TestSweepCUDAMatchesSeparateRuns runs a forest-fire sweep on the GPU
// (the generated kernels, then the interpreter kernels; the swept
// constants read from per-state fields, the draws group by group) against
// separate CPU runs. Without a GPU it skips (PROCGEN_REQUIRE_GPU=1: fails).
func TestSweepCUDAMatchesSeparateRuns(t *testing.T) {
	c := cudaEngine(t)
	checkSweep(t, c, smallSweep, Options{RequireGenerated: true})
	checkSweep(t, c, smallSweep, Options{Interpreter: true})
}
