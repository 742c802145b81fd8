//go:build cuda

package forest

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/gpu/kerneltest"
)

// TestKernelSignatures checks every forest kernel's Go declaration against
// its C declaration (no GPU needed), and that every kernel of cuda/forest.cu
// and cuda/forest_fft.cu is declared.
func TestKernelSignatures(t *testing.T) {
	decls := []gpu.KernelDecl{fftRowsFwd, fftRowsInv, fftCols, fftKtable, fftEraw, fftEtable, fftFill, fftBin,
		fixMax, fixScanK, fixMerge}
	for _, name := range exactKernelNames() {
		decls = append(decls, exactKernel(name))
	}
	kerneltest.Check(t, "internal/forest", decls, nil)
}
