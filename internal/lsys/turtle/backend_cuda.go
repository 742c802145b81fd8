//go:build cuda

package turtle

import "github.com/procgen-dev/procgen/internal/gpu"

var _ Interpreter = CUDA{}

// NewInterpreter returns the CUDA backend on dev, or the CPU backend when dev is nil.
func NewInterpreter(dev *gpu.Device) Interpreter {
	if dev != nil {
		return CUDA{Dev: dev}
	}
	return CPU{}
}
