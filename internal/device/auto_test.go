package device

import (
	"io"
	"math"
	"runtime"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// The model's decisions at the sizes measured on the H100 host (16 cores):
// small work stays on the CPU (the GPU's fixed cost dominates), large work
// goes to the GPU.
func TestCostModelDecisions(t *testing.T) {
	tests := []struct {
		job     string
		work    float64
		wantGPU bool
		items   float64 // independent pieces; 0: plenty
	}{
		{"flame", 48 * 36 * 50, false, 0},      // a thumbnail
		{"flame", 1920 * 1080 * 2000, true, 0}, // a 1080p still at quality 2000
		{"pga", 300, false, 0},                 // a handful of buildings
		{"pga", 5e7, true, 0},                  // a city of tens of millions of terminals
		{"forest-exact", 5e5 * 1e3, false, 0},  // a small plot
		{"forest-exact", 5e5 * 1e5, true, 0},   // the exact sum over 1e5 trees
		{"rules", 0.05, false, 0},              // a few boards: 0.05 core-seconds
		{"rules", 21, true, 0},                 // Life, 4096 boards x 200 steps: 0.39-0.54 s on 16 cores, 0.37-0.40 s on the GPU (e9b36dc)
		{"rules", 1.8, false, 0},               // the synthetic rule, 2048 x 10: 0.29 s on 16 cores, 0.58 s on the GPU
		{"rules", 200, true, 0},                // ten times that
		{"lsys", 3.1e8, false, 0},              // koch-island -n 9: the CPU wins
		{"pga", 1.6e6, false, 0},               // Skyscrapers 23x23
		{"pga", 6.1e6, false, 0},               // Suburban 66x64, --stats-only: 0.46 s on 16 cores (f25e66b)
		{"forest-fft", 5e5, false, 0},
		{"rules", 200, false, 8},  // the same work on 8 big boards: 8 blocks of the GPU
		{"rules", 200, true, 256}, // on 256 boards
	}
	for _, tt := range tests {
		m := costModels[tt.job]
		items := tt.items
		if items == 0 {
			items = math.Inf(1)
		}
		cpu, gpu := m.predict(tt.work, 16, items)
		if got := gpu < cpu; got != tt.wantGPU {
			t.Errorf("%s at %.3g %s: cpu %.3g s, gpu %.3g s: GPU chosen = %v, want %v", tt.job, tt.work, m.unit,
				cpu, gpu, got, tt.wantGPU)
		}
	}
	for job, m := range costModels {
		if !(m.cpuRate > 0 && m.gpuRate > 0 && m.gpuFixed >= 0 && m.cpuFixed >= 0) || m.unit == "" {
			t.Errorf("%s: incomplete model %+v", job, m)
		}
	}
}

// PrefetchFor opens ahead only where the model picks the GPU on 16 cores:
// a city of 2.16 M terminals written as GLB (city_overview 300x300), but
// not the same counted only, and not a few buildings.
func TestPrefetchForFollowsTheModel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(16))
	p := New(Settings{Device: "auto", Calibration: CalibrationNone}, &testLog{w: io.Discard})
	for _, c := range []struct {
		job  string
		work float64
		want bool
	}{
		{"pga-glb", 2.16e6, true},
		{"pga-glb", 2e4, false},
		{"pga", 2.16e6, false},
		{"no such job", 1e12, false},
	} {
		if got := p.gpuLikely(c.job, c.work); got != c.want {
			t.Errorf("%s at %g: GPU likely = %v, want %v", c.job, c.work, got, c.want)
		}
	}
	if !gpu.BuiltWithCUDA {
		p.PrefetchFor("pga-glb", 2.16e6)
		if p.devOpen != nil {
			t.Error("a build without CUDA started opening a GPU")
		}
	}
}

// MayOpenFor answers before OpenFor whether it may open a GPU: as the
// model decides under auto (a job without one tries the GPU), never under
// cpu, always under cuda; never in a build without CUDA.
func TestMayOpenForFollowsOpenFor(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(16))
	for _, c := range []struct {
		device, job string
		work        float64
		want        bool
	}{
		{"auto", "pga-glb", 2.16e6, true},
		{"auto", "pga-glb", 2e4, false},
		{"auto", "pga", 2.16e6, false},
		{"auto", "no such job", 1, true},
		{"cpu", "pga-glb", 2.16e6, false},
		{"cuda", "pga", 1, true},
	} {
		p := New(Settings{Device: c.device, Calibration: CalibrationNone}, &testLog{w: io.Discard})
		if got := p.mayOpen(c.job, c.work); got != c.want {
			t.Errorf("%s, %s at %g: may open = %v, want %v", c.device, c.job, c.work, got, c.want)
		}
		if got := p.MayOpenFor(c.job, c.work); got != (c.want && gpu.BuiltWithCUDA) {
			t.Errorf("%s, %s at %g: MayOpenFor = %v in a build with CUDA %v", c.device, c.job, c.work, got, gpu.BuiltWithCUDA)
		}
	}
}
