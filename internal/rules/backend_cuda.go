//go:build cuda

package rules

import "github.com/procgen-dev/procgen/internal/gpu"

// NewEngine returns the CUDA backend on dev, or the CPU backend when dev is nil.
func NewEngine(dev *gpu.Device) Engine {
	if dev != nil {
		return CUDA{Dev: dev}
	}
	return CPU{}
}
