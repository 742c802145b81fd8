//go:build !cuda

package flame

import "github.com/procgen-dev/procgen/internal/gpu"

// NewRenderer returns the CPU backend: this build has no CUDA backend, and
// gpu.Open never yields a device in it.
func NewRenderer(*gpu.Device) Renderer { return CPU{} }

// NewMultiRenderer returns the CPU backend: this build has no CUDA backend.
func NewMultiRenderer([]*gpu.Device) Renderer { return CPU{} }
