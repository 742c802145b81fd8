//go:build !cuda

package turtle

import "github.com/procgen-dev/procgen/internal/gpu"

// NewInterpreter returns the CPU backend: this build has no CUDA backend, and
// gpu.Open never yields a device in it.
func NewInterpreter(*gpu.Device) Interpreter { return CPU{} }
