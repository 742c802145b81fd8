//go:build cuda

package flame

import "errors"

// errLinearGPU is a GPU render asked for linear light: the device's finish
// kernel tone-maps; a linear still comes from the device's accumulation
// finished on the host (Accum.FinishLinear), a linear frame from the CPU.
var errLinearGPU = errors.New("flame: linear (OpenEXR) output is finished on the CPU: render the accumulation and call FinishLinear, or use the CPU")
