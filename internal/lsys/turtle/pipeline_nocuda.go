//go:build !cuda

package turtle

import (
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/lsys"
)

// NewPipeline returns the host pipeline with the CPU backends: this build
// has no CUDA backend, and gpu.Open never yields a device in it.
func NewPipeline(*gpu.Device) Pipeline {
	return &hostPipeline{deriver: lsys.CPU{}, interp: CPU{}}
}
