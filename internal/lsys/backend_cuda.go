//go:build cuda

package lsys

import "github.com/procgen-dev/procgen/internal/gpu"

// NewDeriver returns the CUDA backend on dev, or the CPU backend when dev is nil.
func NewDeriver(dev *gpu.Device) Deriver {
	if dev != nil {
		return CUDA{Dev: dev}
	}
	return CPU{}
}
