//go:build cuda

package lsys

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/gpu/kerneltest"
)

// TestKernelSignatures checks every lsys kernel's Go declaration against its
// C declaration (no GPU needed), and that every kernel of cuda/lsys.cu and
// cuda/lsys_tree.cu is declared.
func TestKernelSignatures(t *testing.T) {
	kerneltest.Check(t, "internal/lsys", []gpu.KernelDecl{lsysCount, lsysCountStatic, lsysFastCount, lsysFastExpand,
		lsysRewrite, lsysDepthTiles, lsysDepthFill, lsysMinLevel, lsysMatch, lsysCutMark, lsysCutTiles, lsysCutCount,
		lsysCutScatter}, nil)
}
