//go:build !cuda

package gpu

import "fmt"

// BuiltWithCUDA reports whether this binary contains the CUDA backend.
const BuiltWithCUDA = false

// Device is an open CUDA device. In a build without CUDA none can be opened.
type Device struct{}

// Probe reports why CUDA is unavailable in this build.
func Probe() Report {
	return Report{Reason: "built without CUDA support (this binary is the pure-Go build)"}
}

// RuntimeCompiler is "" without CUDA: there is nothing to compile for.
func RuntimeCompiler() string { return "" }

// Open always fails in a build without CUDA.
func Open(ordinal int) (*Device, error) {
	return nil, fmt.Errorf("gpu: open device %d: %w: built without CUDA support", ordinal, ErrUnavailable)
}

// Info is never called on a build without CUDA; it exists so callers compile.
func (d *Device) Info() DeviceInfo { return DeviceInfo{} }

// SetSync is a no-op without CUDA.
func (d *Device) SetSync(bool) {}

// Close is a no-op without CUDA.
func (d *Device) Close() error { return nil }

// Preload is a no-op without CUDA.
func (d *Device) Preload(string) error { return nil }

// SetJIT is a no-op without CUDA.
func (d *Device) SetJIT(JITPolicy, string) error { return nil }

// PrepareKernels has nothing to prepare without CUDA.
func (d *Device) PrepareKernels() ([]string, error) { return nil, nil }

// KernelVariant is "" without CUDA: nothing is ever loaded.
func (d *Device) KernelVariant(string) string { return "" }

// VectorReductionsSupported is false without CUDA.
func (d *Device) VectorReductionsSupported() bool { return false }
