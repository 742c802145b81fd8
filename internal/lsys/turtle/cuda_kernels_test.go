//go:build cuda

package turtle

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/gpu/kerneltest"
)

// TestKernelSignatures checks every turtle kernel's Go declaration against
// its C declaration (no GPU needed), and that every kernel of cuda/turtle.cu
// is declared.
func TestKernelSignatures(t *testing.T) {
	kerneltest.Check(t, "internal/lsys/turtle", []gpu.KernelDecl{turtleSurvey, turtleScanBlocks, turtlePrep,
		turtleTreeTop, turtleSummarize, turtleSpines, turtleEmit, turtleBounds, turtlePJBlock, turtlePJRound,
		turtleAbsolutize, turtleEvDelta, turtlePolyCount, turtlePolyWrite, turtleSymbolSet}, nil)
}
