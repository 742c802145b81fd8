package gpu

import (
	"errors"
	"fmt"
)

// ErrUnavailable is wrapped by every error that means "no usable CUDA device":
// built without CUDA, no driver, no device, driver too old. Callers test it with
// errors.Is to choose between falling back to the CPU and failing.
var ErrUnavailable = errors.New("CUDA unavailable")

// HowToGetCUDA is the advice printed when CUDA was asked for and cannot be had.
const HowToGetCUDA = "a CUDA build needs nvcc at build time (scripts/install-cuda.sh, then `make`), " +
	"and an NVIDIA driver with libcuda.so.1 and a GPU at run time; `procgen devices` says what is missing"

// DeviceInfo describes one CUDA device as the driver reports it.
type DeviceInfo struct {
	Ordinal      int    `json:"ordinal"`
	Name         string `json:"name"`
	Major        int    `json:"cc_major"`
	Minor        int    `json:"cc_minor"`
	SMs          int    `json:"sms"`
	MemoryBytes  uint64 `json:"memory_bytes"`
	ClockKHz     int    `json:"clock_khz,omitempty"`
	L2Bytes      int    `json:"l2_bytes,omitempty"`
	BusWidthBits int    `json:"memory_bus_bits,omitempty"`
	// Runnable is false when none of the embedded kernel architectures can run
	// on this device (and its driver cannot JIT the embedded PTX).
	Runnable bool `json:"runnable"`
}

// ComputeCapability is the "sm_XY" name of the device's architecture.
func (d DeviceInfo) ComputeCapability() string { return fmt.Sprintf("%d.%d", d.Major, d.Minor) }

// Report is what Probe found: whether CUDA can be used and, if not, exactly why.
type Report struct {
	BuiltWithCUDA bool `json:"built_with_cuda"`
	Available     bool `json:"available"`
	// Reason is empty when Available, else one line saying what is missing.
	Reason string `json:"reason,omitempty"`
	// DriverVersion is the CUDA version the driver supports, e.g. 13000 for 13.0.
	DriverVersion int          `json:"driver_version,omitempty"`
	Devices       []DeviceInfo `json:"devices,omitempty"`
	// EmbeddedArchs lists the kernel code in the binary: "sm_80", "sm_90" (SASS)
	// and "compute_90" (PTX the driver can JIT for newer GPUs).
	EmbeddedArchs []string `json:"embedded_archs,omitempty"`
	// RuntimeCompiler is the NVRTC found ("NVRTC 13.0"), which compiles
	// kernels for one input at run time (flame: per genome), or why there
	// is none; empty in a build without CUDA. Probe leaves it empty (it
	// runs at the start of renders, which need not load NVRTC); the
	// devices report fills it from RuntimeCompiler.
	RuntimeCompiler string `json:"runtime_compiler,omitempty"`
}

// DriverVersionString formats a driver API version number such as 12040 as "12.4".
func DriverVersionString(v int) string { return fmt.Sprintf("%d.%d", v/1000, (v%1000)/10) }
