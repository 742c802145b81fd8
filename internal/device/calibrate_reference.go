package device

import (
	"fmt"
	"hash/fnv"
	"sort"
)

// calibrationRef is a reference host's probe rates: a calibration's
// factors are this host's rates over these.
type calibrationRef struct {
	// ID names these rates; calibration files record it with a hash of
	// the rates (key), so that they are ignored once the reference changes.
	ID string
	// Host is where, with which binary and when they were measured.
	Host string
	// CPU is each probe's rate (cpuProbes, by key) in its work unit per
	// second and core, on all cores; rulesSingleKey's on one core.
	CPU map[string]float64
	// GPUOpenSeconds is timeGPUOpen's time there (0: not measured, and no
	// GPU factor is computed).
	GPUOpenSeconds float64
}

// key is r's ID and a hash of its rates: what a calibration file must name.
func (r calibrationRef) key() string {
	probes := make([]string, 0, len(r.CPU))
	for k := range r.CPU {
		probes = append(probes, k)
	}
	sort.Strings(probes)
	h := fnv.New32a()
	for _, k := range probes {
		fmt.Fprintf(h, "%s=%g;", k, r.CPU[k])
	}
	fmt.Fprintf(h, "gpu=%g", r.GPUOpenSeconds)
	return fmt.Sprintf("%s/%08x", r.ID, h.Sum32())
}

// The reference table: everything below is what 'procgen devices --calibrate
// -v' prints on the reference host.

// calibrationReference is the one table of reference rates; costModels are
// fitted on the reference host, so its factors are 1 there. Measured by
// 'procgen devices --calibrate -v' on a one-GPU H100 host (Intel(R) Xeon(R)
// Processor, 16 logical cores, GOMAXPROCS 16; procgen 0d55f9f, 2026-11-26):
// the median of three calibrations in a row, whose rates spread by up to
// 20 % (flame 3.5-4.3e6, multires 4498-4955). The cost models' constants
// come from bench-e2e runs on hosts of this kind.
//
// No GPU reference: the open-and-launch time, measured once per
// calibration (only a process's first open pays the driver's start-up),
// took 0.22, 0.30 and 0.28 s in those three runs on one host, more spread
// than between the hosts (the GPU path's fixed cost was 0.32-0.37 s on
// each), so a GPU factor would add noise, not knowledge.
var calibrationReference = calibrationRef{
	ID:   "h100-16c-0d55f9f",
	Host: "one-GPU H100 host, Intel(R) Xeon(R) Processor, 16 logical cores; procgen 0d55f9f, 2026-11-26",
	CPU: map[string]float64{
		"flame":           3.681e+06,
		"lsys":            4.755e+08,
		"pga":             6.43e+05,
		"forest-exact":    1.016e+08,
		"forest-fft":      4.841e+05,
		"forest-multires": 4762,
		"rules":           9.395e+04,
		"rules-1core":     6.727e+04,
	},
	GPUOpenSeconds: 0,
}
