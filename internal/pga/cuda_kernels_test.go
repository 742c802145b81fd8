//go:build cuda

package pga

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/gpu/kerneltest"
)

// TestKernelSignatures checks every pga kernel's Go declaration against its
// C declaration (no GPU needed), and that every kernel of cuda/pga.cu is declared.
func TestKernelSignatures(t *testing.T) {
	kerneltest.Check(t, "internal/pga", []gpu.KernelDecl{levelsRun, levelsRunAsk, levelsExpand, persistentRun,
		persistentAsk, scanTiles, scanPartials, scanAdd, meshCount, meshWrite, termHist, glbKeys, glbGather, glbCount, glbWrite, overflow}, nil)
}
