//go:build cuda

package flame

import (
	"math"
	"math/rand/v2"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The parameters of cuda/flame_variations_jwf4.cuh's variations in the
// pointwise runs (TestCUDAPluginVariationsMatchCPU and its mixed twin).
// vtRandPluginParams draws them last, from a generator of their own seeded
// by two of its earlier draws: the earlier variations' parameters and points
// stay the ones their runs had before these were added.

// vtJwf4Ranges reach every branch (chunk's two modes, sigmoid's shifts
// inside and outside (−1, 1), minkowskope's frequencyx ≤ 0, damping 0 and
// not, filled on and off, the _bs frequencies of both signs), away from
// degenerate values (a sphericalN power below 1 has no branch to turn by).
var vtJwf4Ranges = map[ParamID]vtRange{
	PMobiusFrReA: {lo: -1.5, hi: 1.5}, PMobiusFrImA: {lo: -1.5, hi: 1.5}, PMobiusFrReB: {lo: -1.5, hi: 1.5},
	PMobiusFrImB: {lo: -1.5, hi: 1.5}, PMobiusFrReC: {lo: -1.5, hi: 1.5}, PMobiusFrImC: {lo: -1.5, hi: 1.5},
	PMobiusFrReD: {lo: -1.5, hi: 1.5}, PMobiusFrImD: {lo: -1.5, hi: 1.5},
	PBwrapsCellsize: {lo: 0.3, hi: 1.5, signed: true}, PBwrapsSpace: {lo: 0, hi: 0.5},
	PBwrapsGain: {lo: 0.5, hi: 3, signed: true}, PBwrapsInnerTwist: {lo: -2, hi: 2}, PBwrapsOuterTwist: {lo: -2, hi: 2},
	PChunkA: {lo: -1.5, hi: 1.5}, PChunkB: {lo: -1.5, hi: 1.5}, PChunkC: {lo: -1.5, hi: 1.5},
	PChunkD: {lo: -1, hi: 1}, PChunkE: {lo: -1, hi: 1}, PChunkF: {lo: -1, hi: 1}, PChunkMode: {lo: 0, hi: 1.4},
	PCirclize2Hole: {lo: -0.5, hi: 0.5},
	PLissajousTmin: {lo: -4, hi: 0}, PLissajousTmax: {lo: 0, hi: 4}, PLissajousA: {lo: 1, hi: 5, signed: true},
	PLissajousB: {lo: 1, hi: 5, signed: true}, PLissajousC: {lo: -0.5, hi: 0.5}, PLissajousD: {lo: -2, hi: 2},
	PLissajousE: {lo: 0, hi: 1},
	PTargetEven: {lo: -4, hi: 4}, PTargetOdd: {lo: -4, hi: 4}, PTargetSize: {lo: 0.3, hi: 2},
	PCardioidA:           {lo: -4, hi: 4},
	PCirclesplitCsRadius: {lo: 0.3, hi: 2}, PCirclesplitCsSplit: {lo: -0.5, hi: 0.5},
	PDSphericalDSpherWeight:  {lo: -0.2, hi: 1.2},
	PJapaneseMapleLeafFilled: {lo: -0.3, hi: 1}, PMapleLeafFilled: {lo: -0.3, hi: 1},
	PLoziA: {lo: -2, hi: 2}, PLoziB: {lo: -2, hi: 2}, PLoziC: {lo: -2, hi: 2},
	PHenonA: {lo: -2, hi: 2}, PHenonB: {lo: -2, hi: 2}, PHenonC: {lo: -2, hi: 2},
	PBarycentroidA: {lo: 0.5, hi: 1.5}, PBarycentroidB: {lo: -0.5, hi: 0.5}, PBarycentroidC: {lo: -0.5, hi: 0.5},
	PBarycentroidD:         {lo: 0.5, hi: 1.5, signed: true},
	PMinkowskopeSeparation: {lo: -0.5, hi: 1}, PMinkowskopeFrequencyx: {lo: 0.5, hi: 4, signed: true},
	PMinkowskopeFrequencyy: {lo: -3, hi: 3}, PMinkowskopeAmplitude: {lo: -1, hi: 1},
	PMinkowskopePerturbation: {lo: -1, hi: 1}, PMinkowskopeDamping: {lo: -0.5, hi: 1, zeroBelow0: true},
	POscilloscope2Separation: {lo: -0.5, hi: 1}, POscilloscope2Frequencyx: {lo: -4, hi: 4},
	POscilloscope2Frequencyy: {lo: -4, hi: 4}, POscilloscope2Amplitude: {lo: -1, hi: 1},
	POscilloscope2Perturbation: {lo: -1, hi: 1}, POscilloscope2Damping: {lo: -0.5, hi: 1, zeroBelow0: true},
	PShiftShiftX: {lo: -1, hi: 1}, PShiftShiftY: {lo: -1, hi: 1}, PShiftAngle: {lo: -180, hi: 180},
	PSigmoidShiftx: {lo: 0.2, hi: 3, signed: true}, PSigmoidShifty: {lo: 0.2, hi: 3, signed: true},
	PSphericalNPower: {lo: 1, hi: 6, signed: true}, PSphericalNDist: {lo: 0.3, hi: 2.5},
	PSpligonSides: {lo: 1, hi: 8, signed: true}, PSpligonR: {lo: -1, hi: 1}, PSpligonI: {lo: -2, hi: 2},
	PMcarpetX: {lo: -1, hi: 1}, PMcarpetY: {lo: -1, hi: 1}, PMcarpetTwist: {lo: -1, hi: 1}, PMcarpetTilt: {lo: -1, hi: 1},
	// cuda/flame_variations_jwf5.cuh. cpow3's d stays off 1: there its
	// branch spread −0.095·spread/td grows without bound (d = 1 itself, its
	// default, spreads nothing) and the turns overflow float.
	PAsteriaAlpha: {lo: -1, hi: 1},
	PCpow3R:       {lo: 0.5, hi: 2, signed: true}, PCpow3D: {lo: 1.5, hi: 3, signed: true},
	PCpow3Divisor: {lo: 1, hi: 4, signed: true}, PCpow3Spread: {lo: 0, hi: 2},
	PCpow3WfR: {lo: 0.5, hi: 2}, PCpow3WfA: {lo: -1, hi: 1}, PCpow3WfDivisor: {lo: 1, hi: 4, signed: true},
	PCpow3WfSpread: {lo: 0.5, hi: 3}, PCpow3WfDiscreteSpread: {lo: 0, hi: 1.4}, PCpow3WfSpread2: {lo: -1, hi: 1},
	PCpow3WfOffset2: {lo: -1, hi: 1},
	PEScaleScale:    {lo: 0.3, hi: 2, signed: true}, PEScaleAngle: {lo: -2, hi: 2},
	PLazyTravisSpinIn: {lo: -2, hi: 2}, PLazyTravisSpinOut: {lo: -2, hi: 2}, PLazyTravisSpace: {lo: -0.5, hi: 0.5},
	PGnarlyCellsize: {lo: 0.3, hi: 1.5, signed: true}, PGnarlyTwist: {lo: -2, hi: 2},
	// cuda/flame_variations_jwf6.cuh. murl's and eJulia's powers are whole
	// numbers away from 0 (and murl's from 1, where c is not divided).
	PGlynnSim1Radius: {lo: 0.3, hi: 1.5}, PGlynnSim1Radius1: {lo: 0.05, hi: 0.5}, PGlynnSim1Phi1: {lo: -180, hi: 180},
	PGlynnSim1Thickness: {lo: -0.2, hi: 1.2}, PGlynnSim1Pow: {lo: 0.5, hi: 3, signed: true},
	PGlynnSim1Contrast: {lo: -0.2, hi: 1.2},
	PGlynnSim2Radius:   {lo: 0.3, hi: 1.5}, PGlynnSim2Thickness: {lo: -0.2, hi: 1.2}, PGlynnSim2Contrast: {lo: -0.2, hi: 1.2},
	PGlynnSim2Pow: {lo: 0.5, hi: 3, signed: true}, PGlynnSim2Phi1: {lo: -180, hi: 180}, PGlynnSim2Phi2: {lo: -180, hi: 180},
	PMurlC: {lo: -1, hi: 1}, PMurlPower: {lo: 2, hi: 6, signed: true},
	PEJuliaPower: {lo: 1, hi: 5, signed: true},
	PExp2BsX1:    {lo: -1.5, hi: 1.5}, PExp2BsY1: {lo: -3, hi: 3}, PExp2BsY2: {lo: -3, hi: 3},
	PChecksX: {lo: -2, hi: 2}, PChecksY: {lo: -2, hi: 2}, PChecksSize: {lo: 0.2, hi: 1.5}, PChecksRnd: {lo: 0, hi: 1},
	PHypertileP: {lo: 3, hi: 9}, PHypertileQ: {lo: 3, hi: 9}, PHypertileN: {lo: -1, hi: 5},
	// cuda/flame_variations_jwf7.cuh
	PHypershiftShift: {lo: -0.8, hi: 0.8}, PHypershiftStretch: {lo: -2, hi: 2},
	PLoonie2Sides: {lo: 0.6, hi: 9}, PLoonie2Star: {lo: -1.2, hi: 1.2}, PLoonie2Circle: {lo: -1.2, hi: 1.2},
	PCollideoscopeA: {lo: -0.2, hi: 1.2}, PCollideoscopeNum: {lo: 0.6, hi: 8},
	PRoseWfAmp: {lo: -2, hi: 2}, PRoseWfWaves: {lo: 0.6, hi: 9, signed: true}, PRoseWfFilled: {lo: -0.3, hi: 1},
	PPTransformRotate: {lo: -3, hi: 3}, PPTransformPower: {lo: 0.6, hi: 5}, PPTransformMove: {lo: -1, hi: 1},
	PPTransformSplit: {lo: -1, hi: 1}, PPTransformUseLog: {lo: 0, hi: 1.4},
	PKaleidoscopePull: {lo: -1, hi: 1}, PKaleidoscopeRotate: {lo: -2, hi: 2}, PKaleidoscopeLineUp: {lo: -1, hi: 1},
	PKaleidoscopeX: {lo: -1, hi: 1}, PKaleidoscopeY: {lo: -1, hi: 1},
	PEMotionMove: {lo: -1, hi: 1}, PEMotionRotate: {lo: -3, hi: 3},
	PShredlinXdistance: {lo: 0.3, hi: 2, signed: true}, PShredlinXwidth: {lo: 0, hi: 1},
	PShredlinYdistance: {lo: 0.3, hi: 2, signed: true}, PShredlinYwidth: {lo: 0, hi: 1},
	PTruchetExtended: {lo: 0, hi: 1.4}, PTruchetExponent: {lo: 0.3, hi: 2.2}, PTruchetArcWidth: {lo: 0.1, hi: 1.1},
	PTruchetRotation: {lo: -3, hi: 3}, PTruchetSize: {lo: 0.3, hi: 3}, PTruchetSeed: {lo: 0, hi: 80, signed: true},
}

// vtBsFirsts are the "_bs" variations' first parameters (x1 x2 y1 y2 each).
var vtBsFirsts = []ParamID{PCos2BsX1, PCosh2BsX1, PCot2BsX1, PCoth2BsX1, PCsc2BsX1, PSec2BsX1, PSech2BsX1,
	PSinh2BsX1, PTan2BsX1, PTanh2BsX1}

// vtRandJwf4Params draws vtJwf4Ranges' parameters and the _bs frequencies
// into p, in ParamID order, from a generator seeded by p's earlier draws.
func vtRandJwf4Params(p *Params) {
	r := rand.New(rand.NewPCG(math.Float64bits(p[PSineblurPower]), math.Float64bits(p[PXtrbDist])))
	draw := func(id ParamID, rg vtRange) {
		v := rg.lo + (rg.hi-rg.lo)*r.Float64()
		if rg.signed && r.IntN(2) == 0 {
			v = -v
		}
		if rg.zeroBelow0 && v < 0 {
			v = 0
		}
		p[id] = vtF32(v)
	}
	for id := GPUNumParams; id < NumParams; id++ {
		if rg, ok := vtJwf4Ranges[id]; ok {
			draw(id, rg)
		} else if rg, ok := vtJwf8Ranges[id]; ok {
			draw(id, rg)
		}
	}
	for _, f := range vtBsFirsts {
		for k := range ParamID(4) {
			draw(f+k, vtRange{lo: 0.3, hi: 3, signed: true})
		}
	}
	vtRandParams10(p) // variations3d4_cuda_test.go
}

// vtJwf4BranchCases set the branches random parameters miss: bwraps with
// no cells, sigmoid with a shift of exactly 0, spligon with sides that
// round to 0, chunk in each mode at JWildfire's defaults, d_spherical
// always and never spherical, the maple leaves always filled, gnarly with
// no cells, cpow3_wf's whole-number spread, and hypertile's Euclidean
// tilings, where cos pa + cos qa is 0 but for rounding (float32 took the
// other sign there before its radius was computed in double).
func vtJwf4BranchCases(r *rand.Rand) []vtCase {
	sets := []vtBranch{
		{"bwraps/nocells", VarBwraps, func(p *Params) { p[PBwrapsCellsize] = 0 }},
		{"sigmoid/zero", VarSigmoid, func(p *Params) { p[PSigmoidShiftx], p[PSigmoidShifty] = 0, -0.5 }},
		{"spligon/sides0", VarSpligon, func(p *Params) { p[PSpligonSides] = 0.25 }},
		{"chunk/mode1", VarChunk, func(p *Params) { p[PChunkMode] = 1 }},
		{"d_spherical/always", VarDSpherical, func(p *Params) { p[PDSphericalDSpherWeight] = 1 }},
		{"d_spherical/never", VarDSpherical, func(p *Params) { p[PDSphericalDSpherWeight] = 0 }},
		{"maple_leaf/filled", VarMapleLeaf, func(p *Params) { p[PMapleLeafFilled] = 1 }},
		{"japanese_maple_leaf/filled", VarJapaneseMapleLeaf, func(p *Params) { p[PJapaneseMapleLeafFilled] = 1 }},
		{"minkowskope/alt", VarMinkowskope, func(p *Params) { p[PMinkowskopeFrequencyx] = -1.5 }},
		{"gnarly/nocells", VarGnarly, func(p *Params) { p[PGnarlyCellsize] = 0 }},
		{"cpow3_wf/discrete", VarCpow3Wf, func(p *Params) { p[PCpow3WfDiscreteSpread], p[PCpow3WfSpread] = 1, 2.5 }},
		{"hypertile/euclid44", VarHypertile, func(p *Params) { p[PHypertileP], p[PHypertileQ], p[PHypertileN] = 4, 4, 1 }},
		{"hypertile/euclid36", VarHypertile, func(p *Params) { p[PHypertileP], p[PHypertileQ], p[PHypertileN] = 3, 6, 2 }},
	}
	return vtBranchCases(r, sets, 0x4b4)
}

// vtBranch is one parameter setting of a variation that random parameters
// miss.
type vtBranch struct {
	name string
	id   VarID
	set  func(p *Params)
}

// vtBranchCases are sets as pointwise cases: each variation alone at its
// setting on random points, drawing from seeds salted with salt.
func vtBranchCases(r *rand.Rand, sets []vtBranch, salt uint64) []vtCase {
	var cases []vtCase
	for i, c := range sets {
		x := vtXform(VarTerm{ID: c.id, Weight: 1})
		x.Params = DefaultParams()
		c.set(&x.Params)
		cases = append(cases, vtCase{name: c.name, x: x, in: vtRandPoints(r, vtPoints, false),
			seed: rng.Hash64(salt, uint64(i))})
	}
	return cases
}
