package flame

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/layouttest"
)

// TestGPUTypesMatchHeader checks the Go mirrors against cuda/flame_types.cuh
// as the host C++ compiler lays it out.
func TestGPUTypesMatchHeader(t *testing.T) {
	layouttest.Check(t, layouttest.Header{Dir: "../../cuda", File: "flame_types.cuh", Structs: []layouttest.Struct{
		{C: "FlameXform", Go: gpuXform{}}, {C: "FlameGenome", Go: gpuGenome{}},
		{C: "FlameDE", Go: gpuDE{}}, {C: "FlameTone", Go: gpuTone{}},
	}})
}
