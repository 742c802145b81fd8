package main

import (
	"runtime"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// costModel predicts a job's run time on each backend from its work, in the
// job's own unit, so that --device auto takes the faster one without paying
// for opening a GPU it will not use. A run costs
//
//	CPU: work / (cpuRate · cores)      GPU: gpuFixed + work / gpuRate
//
// where gpuFixed is what the GPU path pays whatever the size (driver and
// context, kernel modules, buffers, transfers) and the rates are sustained
// throughputs of the whole command, measured end to end (make bench-e2e).
type costModel struct {
	unit     string
	cpuRate  float64 // units per second per CPU core
	gpuRate  float64 // units per second on the GPU
	gpuFixed float64 // seconds
}

// costModels are calibrated on the H100 host (16 cores) with
// scripts/bench-e2e.sh; see the README's table.
var costModels = map[string]costModel{
	"flame":           {unit: "samples", cpuRate: 2.0e7, gpuRate: 6e9, gpuFixed: 0.45},
	"lsys":            {unit: "modules", cpuRate: 6e8, gpuRate: 1.5e9, gpuFixed: 0.5},
	"pga":             {unit: "terminals", cpuRate: 2e5, gpuRate: 3e7, gpuFixed: 0.35},
	"forest-exact":    {unit: "cell-parent pairs", cpuRate: 3e8, gpuRate: 5e11, gpuFixed: 0.45},
	"forest-fft":      {unit: "cells", cpuRate: 4e6, gpuRate: 2e9, gpuFixed: 0.5},
	"forest-multires": {unit: "cells", cpuRate: 2e6, gpuRate: 1e9, gpuFixed: 0.5},
	"rules":           {unit: "index evaluations", cpuRate: 4e7, gpuRate: 2e10, gpuFixed: 0.45},
}

// predict returns the model's CPU and GPU times for work on cores cores.
func (m costModel) predict(work float64, cores int) (cpu, gpu float64) {
	return work / (m.cpuRate * float64(max(cores, 1))), m.gpuFixed + work/m.gpuRate
}

// autoWeighs says whether --device auto has a choice to make, so that jobs
// whose estimate costs a little work (a probe derivation or evaluation) pay
// it only then.
func (a *app) autoWeighs() bool { return a.opts.Device == "auto" && gpu.BuiltWithCUDA }

// openDeviceFor opens the device for a job whose work is estimated: with
// --device auto the GPU only when the model says it is faster (-v says what
// was estimated and why); cpu and cuda are obeyed as they are.
func (a *app) openDeviceFor(job string, work float64) (*gpu.Device, error) {
	m, ok := costModels[job]
	if !a.autoWeighs() || !ok {
		return a.openDevice()
	}
	cores := runtime.GOMAXPROCS(0)
	cpuT, gpuT := m.predict(work, cores)
	if cpuT <= gpuT {
		a.releasePrefetched()
		a.log.Debugf("device: cpu (auto: %s, %.3g %s: about %.3g s on %d cores against %.3g s on a GPU)",
			job, work, m.unit, cpuT, cores, gpuT)
		return nil, nil
	}
	dev, err := a.openDevice()
	if dev != nil {
		a.log.Debugf("device: cuda (auto: %s, %.3g %s: about %.3g s on a GPU against %.3g s on %d cores)",
			job, work, m.unit, gpuT, cpuT, cores)
	}
	return dev, err
}
