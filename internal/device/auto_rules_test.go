package device

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/rules"
	"github.com/procgen-dev/procgen/internal/rules/lifepack"
)

// TestCostModelRulesBoards: with the tiled path, --device auto weighs a few
// big boards by their tiles (rules.GPUItems) and takes the GPU for them,
// while many small boards and small work keep the choices they had.
// Work is in single-core CPU seconds (rules' unit), for 16 cores.
func TestCostModelRulesBoards(t *testing.T) {
	life := func(w, h string) *rules.Program {
		src, err := probeInputs.ReadFile("calibration/life.rules")
		if err != nil {
			t.Fatal(err)
		}
		p, err := rules.Compile("life.rules", src, map[string]string{"W": w, "H": h})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	m := costModels["rules"]
	for _, c := range []struct {
		name    string
		p       *rules.Program
		boards  int
		work    float64
		wantGPU bool
	}{
		// 8 x 512x512 x 1000 steps: 3.0-3.9 s on 16 cores (the issue), about 170 core-s.
		{"8 boards 512x512 x 1000", life("512", "512"), 8, 170, true},
		// 16384x16384 x 1000 steps: 268e9 cell-steps, thousands of core-s.
		{"1 board 16384x16384 x 1000", life("16384", "16384"), 1, 5000, true},
		{"1 board 4096x4096 x 100", life("4096", "4096"), 1, 60, true},
		// 4096 boards 64x64 x 200: Life's calibration row, 21 core-s.
		{"4096 boards 64x64 x 200", life("64", "64"), 4096, 21, true},
		// Small work stays on the CPU whatever the shape.
		{"8 boards 512x512 x 2", life("512", "512"), 8, 0.3, false},
		{"4 boards 64x64 x 100", life("64", "64"), 4, 0.05, false},
	} {
		items := rules.GPUItems(c.p, c.boards)
		cpu, gpu := m.predict(c.work, 16, items)
		if got := gpu < cpu; got != c.wantGPU {
			t.Errorf("%s: %.0f items, cpu %.3g s, gpu %.3g s: GPU chosen = %v, want %v", c.name, items, cpu, gpu, got, c.wantGPU)
		}
	}
	// Without the tiles (a state a block) 8 big boards stayed on the CPU.
	if cpu, gpu := m.predict(170, 16, 8); gpu < cpu {
		t.Errorf("8 items: gpu %.3g s < cpu %.3g s", gpu, cpu)
	}
}

// TestCostModelRulesPacked: a B/S rule given by notation is weighed by its
// cell-steps and the packed kernel's blocks, without a probe: the GPU for
// big boards and for many small ones with enough steps, the CPU for small
// work.
func TestCostModelRulesPacked(t *testing.T) {
	m := costModels["rules-packed"]
	for _, c := range []struct {
		name    string
		w, h, n int
		steps   int
		wantGPU bool
	}{
		{"16384x16384 x 1000", 16384, 16384, 1, 1000, true},
		{"16384x16384 x 1", 16384, 16384, 1, 1, true}, // 0.6 s a step on 16 cores
		{"4096x4096 x 100", 4096, 4096, 1, 100, true},
		{"8 x 512x512 x 1000", 512, 512, 8, 1000, true},
		{"4096 x 64x64 x 200", 64, 64, 4096, 200, true},
		{"512x512 x 100", 512, 512, 1, 100, false},
		{"64x64 x 1000", 64, 64, 1, 1000, false},
		{"4 x 64x64 x 100", 64, 64, 4, 100, false},
	} {
		b := lifepack.Board{W: c.w, H: c.h}
		work := float64(c.w) * float64(c.h) * float64(c.n) * float64(c.steps)
		cpu, gpu := m.predict(work, 16, float64(b.Blocks(c.n)))
		if got := gpu < cpu; got != c.wantGPU {
			t.Errorf("%s: %d blocks, cpu %.3g s, gpu %.3g s: GPU chosen = %v, want %v", c.name, b.Blocks(c.n), cpu, gpu, got, c.wantGPU)
		}
	}
}
