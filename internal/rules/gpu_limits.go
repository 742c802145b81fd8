package rules

import (
	"errors"
	"fmt"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// ErrNotOnGPU wraps what a program asks for that the CUDA backend does not
// do; the CPU backend does it (see GPUSupports).
var ErrNotOnGPU = errors.New("not supported on the GPU")

// GPUSupports reports why the CUDA backend cannot run p (an error wrapping
// ErrNotOnGPU), or nil. A caller that picks the device by itself (--device
// auto) runs such a program on the CPU.
func GPUSupports(p *Program) error {
	if p.Words > bytecode.MaxWordsGPU {
		return fmt.Errorf("%s: a state of %d words, more than the %d the GPU backend handles (the CPU backend takes up to %d): %w",
			p.File, p.Words, bytecode.MaxWordsGPU, int64(bytecode.MaxWords), ErrNotOnGPU)
	}
	for _, r := range p.Rules {
		if n := r.Hi - r.Lo; n > bytecode.MaxRangeGPU {
			return fmt.Errorf("%s:%d:%d: rule %s ranges over %d indices, more than the %d the GPU backend handles (the CPU backend takes up to %d): %w",
				p.File, r.Pos.Line, r.Pos.Col, r.Name, n, bytecode.MaxRangeGPU, int64(bytecode.MaxRange), ErrNotOnGPU)
		}
	}
	return nil
}
