//go:build cuda

package flame

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The parameters and branch runs of cuda/flame_variations_jwf12.cuh's and
// flame_variations_3d6.cuh's variations (flam3's elliptic, splits, log and
// waves2 with other programs' parameters) in the pointwise runs
// (TestPluginVariationsHostTwin, TestCUDAPluginVariationsMatchCPU;
// Test3DVariationsHostTwin, TestCUDA3DVariationsMatchCPU). The draws come
// from a generator of their own, seeded by earlier draws, so the earlier
// variations' parameters stay the ones their runs had.

// vtRandParams12 draws their parameters into p: elliptic's three modes,
// shears of either sign, log bases on both sides of 1, a z wave,
// spherical3D_wf's regular and power forms and heart_wf's halves (t past
// T_MAX among them).
func vtRandParams12(p *Params) {
	// The 2D runs draw bcircle's scale, the 3D ones cone's weight.
	r := rand.New(rand.NewPCG(math.Float64bits(p[PBcircleScale])^math.Float64bits(p[PConeWeight]), math.Float64bits(p[PPowBlockRoot])))
	u := func(lo, hi float64) float64 { return vtF32(lo + (hi-lo)*r.Float64()) }
	p[PEllipticMode] = float64(r.IntN(3))
	p[PSplitsLshear], p[PSplitsRshear], p[PSplitsUshear], p[PSplitsDshear] = u(-0.6, 0.6), u(-0.6, 0.6), u(-0.6, 0.6), u(-0.6, 0.6)
	p[PLogBase] = []float64{u(0.2, 0.8), u(1.3, 12)}[r.IntN(2)]
	p[PWaves2Scalez], p[PWaves2Freqz] = u(-1, 1), u(-4, 4)
	p[PWaves23DFreq], p[PWaves23DScale] = u(-4, 4), u(-1.2, 1.2)
	p[PSpherical3DWfInvert], p[PSpherical3DWfExponent] = float64(r.IntN(2)), []float64{2, u(0.3, 4)}[r.IntN(2)]
	p[PHeartWfScaleX], p[PHeartWfShiftT] = u(-1.5, 1.5), u(-20, 20)
	p[PHeartWfScaleRLeft], p[PHeartWfScaleRRight] = u(0.2, 3), u(0.2, 3)
}

// vtJwf12BranchCases run elliptic in each mode (the flam3 mode 0 and an
// out-of-range value clamped to 2 too) and log with a base below 1.
func vtJwf12BranchCases(r *rand.Rand) []vtCase {
	var cases []vtCase
	for i, mode := range []float64{0, 1, 2, 7} {
		x := vtXform(VarTerm{ID: VarEllipticMode, Weight: 0.9})
		x.Params = DefaultParams()
		x.Params[PEllipticMode] = mode
		cases = append(cases, vtCase{name: fmt.Sprintf("elliptic/mode%g", mode), x: x,
			in: vtRandPoints(r, vtPoints, false), seed: rng.Hash64(0xe11, uint64(i))})
	}
	x := vtXform(VarTerm{ID: VarLogBase, Weight: 1.1})
	x.Params = DefaultParams()
	x.Params[PLogBase] = 0.5
	cases = append(cases, vtCase{name: "log/base0.5", x: x, in: vtRandPoints(r, vtPoints, false), seed: rng.Hash64(0x10b, 0)})
	x = vtXform(VarTerm{ID: VarSplitsShear, Weight: 0.8})
	x.Params = DefaultParams()
	x.Params[PSplitsX], x.Params[PSplitsY] = 0.2, -0.3
	x.Params[PSplitsLshear], x.Params[PSplitsRshear], x.Params[PSplitsUshear], x.Params[PSplitsDshear] = 0.1, -0.2, 0.3, -0.4
	return append(cases, vtCase{name: "splits/shears", x: x, in: vtRandPoints(r, vtPoints, false), seed: rng.Hash64(0x5b1, 0)})
}
