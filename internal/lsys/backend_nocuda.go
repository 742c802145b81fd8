//go:build !cuda

package lsys

import "github.com/procgen-dev/procgen/internal/gpu"

// NewDeriver returns the CPU backend: this build has no CUDA backend, and
// gpu.Open never yields a device in it.
func NewDeriver(*gpu.Device) Deriver { return CPU{} }
