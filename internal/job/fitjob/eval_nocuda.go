//go:build !cuda

package fitjob

import (
	"github.com/procgen-dev/procgen/internal/forest/fit"
	"github.com/procgen-dev/procgen/internal/gpu"
)

// evaluator is the CPU's: this build has no CUDA backend.
func evaluator(_ *gpu.Device, p *fit.Problem) (fit.Evaluator, func(), error) {
	return fit.NewCPU(p, 0), func() {}, nil
}
