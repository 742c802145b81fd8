package device

import (
	"math"
	"runtime"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// costModel predicts a job's run time on each backend from its work, in the
// job's own unit, so that --device auto takes the faster one without paying
// for opening a GPU it will not use. A run costs
//
//	CPU: cpuFixed + work / (cpuRate · cores)      GPU: gpuFixed + work / gpuRate
//
// where gpuFixed is what the GPU path pays whatever the size (driver and
// context, kernel modules, buffers, transfers) and the rates are sustained
// throughputs of the whole command, measured end to end (make bench-e2e).
type costModel struct {
	unit     string
	cpuRate  float64 // units per second per CPU core
	cpuFixed float64 // seconds the CPU path pays whatever the size
	gpuRate  float64 // units per second on the GPU
	gpuFixed float64 // seconds
	// gpuFill is how many independent items (rules: states, one block each)
	// keep the whole GPU busy; with fewer, gpuRate falls in proportion. 0:
	// every input fills it.
	gpuFill float64
}

// costModels are calibrated on the H100 host (16 cores) with
// scripts/bench-e2e.sh at c335c26 (the README's table): the GPU path's fixed
// cost is 0.36-0.42 s of every command there; CPU rates are per core.
var costModels = map[string]costModel{
	// heavy.flam3 at 800x600, quality 200 (3.4e8 work): 3.88 s on 16 cores, 0.56 s on the H100.
	"flame": {unit: "samples", cpuRate: 4e6, cpuFixed: 0.05, gpuRate: 2e9, gpuFixed: 0.45},
	// koch-island -n 9 (3.1e8 modules): 0.043 s on the CPU, 0.56 s on the GPU: the CPU wins every size.
	"lsys": {unit: "modules", cpuRate: 5e8, gpuRate: 1e9, gpuFixed: 0.5},
	// Skyscrapers 23x23 (1.6e6 terminals): 0.11 s CPU, 0.60 s GPU; Suburban 66x64 (6.1e6): 0.46 s, 0.63 s
	// (f25e66b, 16 cores of the 2-GPU host: --stats-only now counts without keeping terminals).
	"pga": {unit: "terminals", cpuRate: 8.5e5, gpuRate: 5e7, gpuFixed: 0.45},
	// A city written only as GLB: the CPU builds and encodes the mesh, the
	// GPU builds the file's data and the host writes its bytes (CUDATuning.GLB).
	// On the H200 host (16 cores, pga's calibration there x1.64; medians of
	// 3, 5b97029's code): city_overview 300x300 (2.16e6 terminals as auto
	// estimates them, a 266 MB GLB) 1.48-1.71 s on the CPU, 0.84 s on the
	// GPU; courtyard.pga on 2,500 polygon lots (1.8e6) 0.97-1.27 s, 0.78 s.
	// The CPU rate is the reference host's (that one's / 1.64).
	"pga-glb": {unit: "terminals", cpuRate: 5.5e4, gpuRate: 5.5e6, gpuFixed: 0.45},
	// 2e4 trees over 500x500 m (5e9 pairs): 1.18 s CPU, 0.39 s GPU.
	"forest-exact": {unit: "cell-parent pairs", cpuRate: 2.6e8, gpuRate: 2.5e11, gpuFixed: 0.37},
	// 1e5 trees over 1000x500 m (5e5 cells): 0.32 s CPU, 0.47 s GPU.
	"forest-fft":      {unit: "cells", cpuRate: 1e5, gpuRate: 6e6, gpuFixed: 0.38},
	"forest-multires": {unit: "cells", cpuRate: 5e4, gpuRate: 3e6, gpuFixed: 0.38},
	// Rules are weighed by a timed probe on one core (RulesWork), in
	// single-core CPU seconds. The probe (32 states, one step) carries the
	// batch evaluator's set-up, so it overstates big runs. On the one-GPU
	// H100 hosts at e9b36dc, Life 4096 x 200, probed at 13-21 core-s, took
	// 0.39-0.54 s on 16 cores and 0.37-0.40 s on the GPU, whose fixed cost
	// there is 0.32-0.37 s (every command's tiny-work row); the synthetic
	// rule 2048 x 10 (1.0-1.8 core-s) 0.29 s on the CPU and 0.58 s on the GPU.
	// The GPU runs a state per block: 8 Life boards of 512x512 x 1000 steps
	// took 10.5 s there against 3.0-3.9 s on 16 cores (H200 host, 287571e),
	// about a thirtieth of the full rate, hence gpuFill 256 states. A few
	// big states now go tiled over every SM (rules.UseTiles), and count as
	// their tiles (rules.GPUItems).
	"rules": {unit: "core-seconds", cpuRate: 3, gpuRate: 500, gpuFixed: 0.35, gpuFill: 256},
	// A two-state B/S rule given by notation runs bit-packed on a GPU
	// (rules/lifepack), weighed by its cell-steps rather than a probe: a
	// probe step of a 16384x16384 board took 2.1 s of auto's 4.0 s there.
	// The CPU's rules engine steps 2.9e7 cells a second a core (that board
	// on the H200 host's 16 cores: 0.57 s a step, 493d597); the kernel 8e12
	// (0.033 ms a step), counted at a quarter of that for packing and
	// unpacking. Items are its thread blocks, of which an H200 holds 528.
	"rules-packed": {unit: "cell-steps", cpuRate: 2.9e7, gpuRate: 2e12, gpuFixed: 0.35, gpuFill: 528},
}

// predict returns the model's CPU and GPU times for work on cores cores,
// spread over items independent pieces (+Inf where gpuFill does not apply).
func (m costModel) predict(work float64, cores int, items float64) (cpu, gpu float64) {
	rate := m.gpuRate
	if m.gpuFill > 0 && items < m.gpuFill {
		rate *= max(items, 1) / m.gpuFill
	}
	return m.cpuFixed + work/(m.cpuRate*float64(max(cores, 1))), m.gpuFixed + work/rate
}

// Weighs says whether --device auto has a choice to make, so that jobs
// whose estimate costs a little work (a probe derivation or evaluation) pay
// it only then.
func (p *Policy) Weighs() bool { return p.s.Device == "auto" && gpu.BuiltWithCUDA }

// WeighsJob is Weighs for a job whose model could pick the GPU at
// some size on this many cores: where the CPU's rate matches the GPU's and
// its fixed cost is no higher (lsys on 16 cores), no estimate is made at all.
func (p *Policy) WeighsJob(job string) bool {
	if !p.Weighs() {
		return false
	}
	m, _, ok := p.model(job)
	cores := float64(runtime.GOMAXPROCS(0))
	return ok && !(m.cpuRate*cores >= m.gpuRate && m.cpuFixed <= m.gpuFixed)
}

// OpenFor opens the device for a job whose work is estimated: with
// --device auto the GPU only when the model says it is faster (-v says what
// was estimated and why); cpu and cuda are obeyed as they are.
func (p *Policy) OpenFor(job string, work float64) (*gpu.Device, error) {
	return p.OpenForItems(job, work, math.Inf(1))
}

// OpenForItems is OpenFor for work spread over items
// independent pieces, fewer of which than the model's gpuFill leave most of
// the GPU idle. The model is this host's (model: calibrated where
// 'procgen devices --calibrate' measured it), which -v says.
func (p *Policy) OpenForItems(job string, work, items float64) (*gpu.Device, error) {
	if !p.Weighs() {
		return p.Open()
	}
	m, calib, ok := p.model(job)
	if !ok {
		return p.Open()
	}
	cores := runtime.GOMAXPROCS(0)
	cpuT, gpuT := m.predict(work, cores, items)
	if cpuT <= gpuT {
		p.ReleasePrefetched()
		p.log.Debugf("device: cpu (auto: %s, %.3g %s: about %.3g s on %d cores against %.3g s on a GPU; %s)",
			job, work, m.unit, cpuT, cores, gpuT, calib)
		return nil, nil
	}
	dev, err := p.Open()
	if dev != nil {
		p.log.Debugf("device: cuda (auto: %s, %.3g %s: about %.3g s on a GPU against %.3g s on %d cores; %s)",
			job, work, m.unit, gpuT, cpuT, cores, calib)
	}
	return dev, err
}
