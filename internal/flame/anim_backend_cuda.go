//go:build cuda

package flame

import "github.com/procgen-dev/procgen/internal/gpu"

// NewFrameRenderer returns the CUDA frame renderer on dev, or the CPU one
// when dev is nil.
func NewFrameRenderer(dev *gpu.Device) FrameRenderer {
	if dev != nil {
		return CUDA{Dev: dev}
	}
	return CPU{}
}
