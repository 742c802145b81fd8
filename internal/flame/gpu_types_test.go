package flame

import (
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/layouttest"
)

// TestGPUTypesMatchHeader checks the Go mirrors against cuda/flame_types.cuh
// as the host C++ compiler lays it out.
func TestGPUTypesMatchHeader(t *testing.T) {
	layouttest.Check(t, layouttest.Header{Dir: "../../cuda", File: "flame_types.cuh", Structs: []layouttest.Struct{
		{C: "FlameXform", Go: gpuXform{}}, {C: "FlameGenome", Go: gpuGenome{}},
		{C: "FlameDE", Go: gpuDE{}}, {C: "FlameTone", Go: gpuTone{}},
	}, Consts: map[string]int64{
		// The flame family's xform in shared memory (sharedBytes): the
		// header without PG_FLAME_PLUGINS, as flame.cu includes it.
		"sizeof(SmemXform)": int64(smemXformFlam3Bytes),
	}})
}

// TestGPUTypesCopyAsMemory: the genomes and xforms a frame uploads by the
// thousand have no padding, so gpu.WordsOf copies them as memory instead of
// encoding them field by field.
func TestGPUTypesCopyAsMemory(t *testing.T) {
	for _, v := range []any{gpuGenome{}, gpuXform{}} {
		if b, m := binary.Size(v), int(reflect.TypeOf(v).Size()); b != m || m%4 != 0 {
			t.Errorf("%T: %d bytes encoded, %d in memory: gpu.WordsOf falls back to encoding/binary", v, b, m)
		}
	}
}
