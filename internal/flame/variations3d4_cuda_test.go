//go:build cuda

package flame

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The parameters, branch runs and stages of cuda/flame_variations_3d4.cuh's
// and 3d5.cuh's variations and flame_variations_jwf10.cuh's in the pointwise runs
// (Test3DVariationsHostTwin, TestCUDA3DVariationsMatchCPU;
// TestPluginVariationsHostTwin, TestCUDAPluginVariationsMatchCPU). Each
// draws from a generator of its own, seeded by earlier draws, so the
// earlier variations' parameters stay the ones their runs had.

// vt3Params4 draws the 3d4 and 3d5 variations' parameters into p.
func vt3Params4(p *Params) {
	r := rand.New(rand.NewPCG(math.Float64bits(p[PConeWeight]), math.Float64bits(p[PSuperShape3dRho])))
	u := func(lo, hi float64) float64 { return vtF32(lo + (hi-lo)*r.Float64()) }
	n := func(k int) float64 { return float64(r.IntN(k)) }
	p[PCubic3DXpand], p[PCubic3DStyle] = u(0, 2), u(-2.5, 2.5)
	p[PEnnepers2A], p[PEnnepers2B], p[PEnnepers2C] = u(0.3, 1.5), u(0.1, 1), u(0, 0.3)
	p[PFarblurX], p[PFarblurY], p[PFarblurZ] = u(0.2, 1.5), u(0.2, 1.5), u(0.2, 1.5)
	p[PFarblurXOrigin], p[PFarblurYOrigin], p[PFarblurZOrigin] = u(-1, 1), u(-1, 1), u(-1, 1)
	// {4, 4}, {3, 6} and {6, 3} (cos pa + cos qa = 0) among them.
	p[PHypertile3DP], p[PHypertile3DQ], p[PHypertile3DN] = 3+n(6), 3+n(6), n(5)
	p[PLineDelta], p[PLinePhi] = u(-1, 1), u(-1, 1)
	p[PPlaneWfPosition], p[PPlaneWfSize], p[PPlaneWfAxis] = u(-1, 1), u(0.2, 3), n(3)
	p[PSphereblurPower] = u(0, 3)
	p[PFalloffFrScatter], p[PFalloffFrMindist] = u(0.5, 20), u(-0.2, 1)
	p[PFalloffFrMulX], p[PFalloffFrMulY], p[PFalloffFrMulZ] = u(-0.2, 1.2), u(-0.2, 1.2), u(-0.2, 1.2)
	p[PFalloffFrX0], p[PFalloffFrY0], p[PFalloffFrZ0] = u(-1, 1), u(-1, 1), u(-1, 1)
	p[PFalloffFrInvert], p[PFalloffFrType], p[PFalloffFrBoxpow] = n(2), n(3), u(1, 34)
	// flame_variations_3d5.cuh's
	p[PSph3DX], p[PSph3DY] = u(0.3, 1.5), u(0.3, 1.5)
	for id := PTriangleX1; id <= PTriangleZ3; id++ {
		p[id] = u(-1, 1)
	}
	p[PHypertile3D2P], p[PHypertile3D2Q] = 3+n(6), 3+n(6)
	p[PSeashell3DFinalRadius], p[PSeashell3DHeight] = u(0.1, 1), u(0, 5)
	p[PSeashell3DInnerRadius], p[PSeashell3DNSpirals] = u(0, 1), u(1, 6)
	p[PWaveblurWfCount], p[PWaveblurWfAmplitudeZ] = u(0.5, 9), []float64{0, u(-1, 1)}[r.IntN(2)]
	p[PWaveblurWfPhase], p[PWaveblurWfDampingZ] = u(-1, 1), u(-0.5, 1.5)
	vtRandParams12(p) // variations_jwf12_cuda_test.go
}

// vtRandParams10 draws blur_circle's, pow_block's and bcircle's parameters
// into p.
func vtRandParams10(p *Params) {
	r := rand.New(rand.NewPCG(math.Float64bits(p[PCos2BsX1]), math.Float64bits(p[PTanh2BsX1])))
	u := func(lo, hi float64) float64 { return vtF32(lo + (hi-lo)*r.Float64()) }
	p[PPowBlockNumerator], p[PPowBlockDenominator], p[PPowBlockRoot] = u(1, 5), u(1, 5), u(-2, 2)
	p[PPowBlockCorrectn], p[PPowBlockCorrectd] = u(0.5, 2), u(0.5, 2)
	p[PBcircleScale], p[PBcircleBorderwidth] = u(0.3, 2), u(-1, 1)
	vtRandParams12(p) // variations_jwf12_cuda_test.go
}

// vt3BranchCases4 run the branches random sets may miss: falloff's three
// types, plain and inverted; plane_wf's three axes; cubic3D's styles past
// ±1 and its expansion past 1.
func vt3BranchCases4(r *rand.Rand) []vt3Case {
	type set struct {
		name string
		id   VarID
		w    float64
		set  func(p *Params)
	}
	var sets []set
	for typ := range 3 {
		for inv := range 2 {
			sets = append(sets, set{fmt.Sprintf("falloff/type%d/invert%d", typ, inv), VarFalloffFr, 0.9, func(p *Params) {
				p[PFalloffFrType], p[PFalloffFrInvert], p[PFalloffFrScatter] = float64(typ), float64(inv), 10
				p[PFalloffFrMulZ], p[PFalloffFrBoxpow] = 0.7, 3
			}})
		}
		sets = append(sets, set{fmt.Sprintf("plane_wf/axis%d", typ), VarPlaneWf, 0.8, func(p *Params) {
			p[PPlaneWfAxis], p[PPlaneWfPosition], p[PPlaneWfSize] = float64(typ), 0.4, 1.5
		}})
	}
	for i, c := range [][2]float64{{0.5, 1.8}, {1.6, -1.7}, {0.8, 0.4}} {
		sets = append(sets, set{fmt.Sprintf("cubic3D/style%d", i), VarCubic3D, 0.7, func(p *Params) {
			p[PCubic3DXpand], p[PCubic3DStyle] = c[0], c[1]
		}})
	}
	var cases []vt3Case
	for i, c := range sets {
		x := vtXform(VarTerm{ID: c.id, Weight: c.w})
		x.Params = DefaultParams()
		c.set(&x.Params)
		cases = append(cases, vt3Case{c.name, x, vt3PointsFor(c.id, r), rng.Hash64(0x3d4, uint64(i))})
	}
	return cases
}

// vt3StageCases4 are the stages of the artists' corpus these ports brought
// to the GPU, around a regular variation as there.
func vt3StageCases4() []struct {
	vars   []VarTerm
	stages []StageTerm
} {
	pre := func(id VarID, w float64) StageTerm { return StageTerm{ID: id, Weight: w} }
	post := func(id VarID, w float64) StageTerm { return StageTerm{Post: true, ID: id, Weight: w} }
	return []struct {
		vars   []VarTerm
		stages []StageTerm
	}{
		{[]VarTerm{{VarLinear3D, 0.8}}, []StageTerm{post(VarSpherical3DFr, 1)}},
		{[]VarTerm{{VarJulia, 1}}, []StageTerm{post(VarBlurCircle, 0.6)}},
		{[]VarTerm{{VarSpherical, 0.9}}, []StageTerm{post(VarPowBlock, 1)}},
		{[]VarTerm{{VarJulia3D, 1}}, []StageTerm{post(VarRotateZ, 0.7)}},
		{[]VarTerm{{VarLinear, 1}}, []StageTerm{post(VarSphereblur, 0.5)}},
		{[]VarTerm{{VarSwirl, 0.6}}, []StageTerm{pre(VarBcircle, 1)}},
		{[]VarTerm{{VarLinear3D, 1}}, []StageTerm{pre(VarFalloffFr, 0.9)}},
		{[]VarTerm{{VarSpherical3D, 0.5}}, []StageTerm{pre(VarRotateY, 1.3), post(VarCubic3D, 0.4)}},
		{[]VarTerm{{VarBlur3D, 0.3}}, []StageTerm{pre(VarLine, 0.5), post(VarPyramid, 1)}}, // farblur is no stage (stage_xml.go)
		{[]VarTerm{{VarJulia, 0.8}}, []StageTerm{pre(VarTriangle, 1), post(VarWaveblurWf, 0.3)}},
	}
}
