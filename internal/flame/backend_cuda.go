//go:build cuda

package flame

import "github.com/procgen-dev/procgen/internal/gpu"

// NewRenderer returns the CUDA backend on dev, or the CPU backend when dev is nil.
func NewRenderer(dev *gpu.Device) Renderer {
	if dev != nil {
		return CUDA{Dev: dev}
	}
	return CPU{}
}
