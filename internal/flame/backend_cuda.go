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

// NewMultiRenderer returns a renderer that splits each still's samples over
// devs (MultiCUDA), the one-device CUDA backend for one device, or the CPU
// backend for none.
func NewMultiRenderer(devs []*gpu.Device) Renderer {
	switch len(devs) {
	case 0:
		return CPU{}
	case 1:
		return CUDA{Dev: devs[0]}
	}
	return MultiCUDA{Devs: devs}
}
