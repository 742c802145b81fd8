package forest

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/layouttest"
)

// TestForestGPUTypesMatchHeader checks the Go mirrors and kernel kinds
// against cuda/forest_types.cuh as the host C++ compiler lays it out.
func TestForestGPUTypesMatchHeader(t *testing.T) {
	layouttest.Check(t, layouttest.Header{Dir: "../../cuda", File: "forest_types.cuh", Structs: []layouttest.Struct{
		{C: "ForestExact", Go: gpuExactParams{}, Fields: []string{"nx", "ny", "tiles_x", "pad0", "h",
			"theta_half", "logn_c", "cut2", "hd"}},
		{C: "ForestFftPlan", Go: gpuFFTPlan{}, Fields: []string{"n", "nstages", "generic", "pad0", "radix"}},
		{C: "ForestTableKern", Go: gpuTableKern{}, Fields: []string{"logn", "torus", "px", "py", "ax", "ay", "h", "d",
			"theta", "half_theta", "ln_x0", "inv2xb2", "reach2"}},
	}, Consts: map[string]int64{"FOREST_MAX_STAGES": gpuMaxStages,
		"FOREST_WEIBULL3": gpuWeibull3, "FOREST_WEIBULL": gpuWeibull, "FOREST_LOGNORMAL": gpuLognormal, "FOREST_2DT": gpuTwoDt}})
}
