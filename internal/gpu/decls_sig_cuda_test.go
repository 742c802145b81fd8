//go:build cuda

package gpu_test

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/gpu/kerneltest"
)

// TestKernelSignatures checks the declarations of cuda/prims.cu's and
// cuda/selftest.cu's kernels against their C declarations (no GPU needed).
func TestKernelSignatures(t *testing.T) {
	kerneltest.Check(t, "internal/gpu", gpu.KernelDecls(), nil)
}
