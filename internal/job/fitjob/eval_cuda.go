//go:build cuda

package fitjob

import (
	"github.com/procgen-dev/procgen/internal/forest/fit"
	"github.com/procgen-dev/procgen/internal/gpu"
)

// evaluator is the device's when one is open, else the CPU's.
func evaluator(dev *gpu.Device, p *fit.Problem) (fit.Evaluator, func(), error) {
	if dev == nil {
		return fit.NewCPU(p, 0), func() {}, nil
	}
	g, err := fit.NewCUDA(dev, p)
	if err != nil {
		return nil, nil, err
	}
	return g, g.Close, nil
}
