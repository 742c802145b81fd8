//go:build !cuda

package rules

import "github.com/procgen-dev/procgen/internal/gpu"

// NewEngine returns the CPU backend: this build has no CUDA backend, and
// gpu.Open never yields a device in it.
func NewEngine(*gpu.Device) Engine { return CPU{} }
