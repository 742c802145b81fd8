//go:build cuda

package flame

import "github.com/procgen-dev/procgen/internal/gpu"

// NewFrameRenderer returns the CUDA frame renderer on dev, which keeps its
// device buffers from frame to frame (Close frees them), or the CPU one when
// dev is nil. A renderer renders one frame at a time.
func NewFrameRenderer(dev *gpu.Device) FrameRenderer {
	if dev != nil {
		return CUDA{Dev: dev, cache: newFrameCache(dev)}
	}
	return CPU{}
}
