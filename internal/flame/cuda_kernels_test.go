//go:build cuda

package flame

import (
	"slices"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/gpu/kerneltest"
)

// pg_flame_vartest (cuda/flame_vartest.cu) is launched only by tests.
type vartestArgs struct {
	in, out       gpu.Ptr
	n             uint32
	ids, weights  gpu.Ptr
	nvars         int32
	coefs, params gpu.Ptr
	seed          uint64
}

var flameVartest = gpu.Kernel[vartestArgs]{Family: "flame_vartest", Name: "pg_flame_vartest"}

// TestKernelSignatures checks every flame kernel's Go declaration against
// its C declaration (no GPU needed), and that every kernel of the flame
// families is declared.
func TestKernelSignatures(t *testing.T) {
	kerneltest.Check(t, "internal/flame", []gpu.KernelDecl{flameIterate, flameIteratePlugins, flameHitsFromAlpha, flameAddHist,
		flameLogscale, flameDensity, flameEarlyclip, flameFinish, logCount, logScatter, logAccumulate,
		coarseCursors, flameVartest, flameVartest3, flameIterate3D}, nil)
}

// TestSpecialKernelSignature: the iterate kernel NVRTC compiles for a
// genome's shape (cuda_special_src.go) is launched with iterateArgs too.
func TestSpecialKernelSignature(t *testing.T) {
	gg, xs := heavyInputs(t)
	sigs, err := kerneltest.Parse(specialSource(xs, int(gg.NXforms)))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := sigs[flameIterate.Name]
	if !ok {
		t.Fatalf("the generated source declares no %s (it has %v)", flameIterate.Name, sigs)
	}
	want, err := flameIterate.Params()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("generated %s takes %v, iterateArgs declares %v", flameIterate.Name, got, want)
	}
}
