//go:build !cuda

package flame

import "github.com/procgen-dev/procgen/internal/gpu"

// NewFrameRenderer returns the CPU frame renderer: this build has no CUDA
// backend, and gpu.Open never yields a device in it.
func NewFrameRenderer(*gpu.Device) FrameRenderer { return CPU{} }
