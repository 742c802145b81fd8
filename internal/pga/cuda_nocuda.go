//go:build !cuda

package pga

import (
	"context"
	"fmt"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// CUDA is the GPU evaluator; this build has none.
type CUDA struct{}

// NewCUDA fails: this binary was built without the CUDA backend.
func NewCUDA(dev *gpu.Device, g *Grammar) (*CUDA, error) {
	return nil, fmt.Errorf("pga: CUDA backend: %w: built without CUDA support", gpu.ErrUnavailable)
}

// Load fails: this binary was built without the CUDA backend.
func (cp *CUDAProgram) Load(dev *gpu.Device) (*CUDA, error) {
	return nil, fmt.Errorf("pga: CUDA backend: %w: built without CUDA support", gpu.ErrUnavailable)
}

// Evaluate is never reached in a build without CUDA.
func (c *CUDA) Evaluate(ctx context.Context, axioms []Shape, opt Options) (*Result, error) {
	return nil, fmt.Errorf("pga: CUDA backend: %w", gpu.ErrUnavailable)
}

// Close does nothing without CUDA.
func (c *CUDA) Close() error { return nil }
