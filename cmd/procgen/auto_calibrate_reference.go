package main

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
// fitted on the reference host, so its factors are 1 there.
//
// Measured on the 2-core dev VM (no GPU): medians of 10 calibrations at
// a5562ff + this branch, on a VM shared with other builds (load 1-2): the
// rates of one probe spread by 1.1-1.5x over them, and by 3x for
// multires, whose time is bimodal from process to process. To be
// replaced from an H100 host run: 'procgen devices --calibrate -v' on a
// one-GPU H100 host (where costModels were fitted) prints this comment and
// table with its own rates, to paste over these (to the end of the file).
// Until then the factors on a GPU host compare its cores with this VM's,
// not with the hosts the constants come from.
var calibrationReference = calibrationRef{
	ID:   "devvm-2c-a5562ff",
	Host: "2-core dev VM, no GPU; procgen at a5562ff",
	CPU: map[string]float64{
		"flame":           2.7e7,
		"lsys":            2.5e9,
		"pga":             1.5e6,
		"forest-exact":    1.6e8,
		"forest-fft":      3.2e6,
		"forest-multires": 1.7e4,
		"rules":           1.7e5,
		"rules-1core":     9.4e4,
	},
	GPUOpenSeconds: 0,
}
