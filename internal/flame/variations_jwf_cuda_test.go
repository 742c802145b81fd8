//go:build cuda

package flame

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The JWildfire plugin variations the kernels have (gpuPlugins) against
// the CPU, point by point, under the same tolerance as flam3's (vtTol,
// vtMaxMiss). Their draws walk the CPU's stream exactly: the branch draws
// and the 2³¹ integers are the CPU's own (flame_variations_jwf.cuh).

// vtPluginRanges are where a run draws the plugin parameters the device
// reads (the precalculated ones follow from Precalc): around JWildfire's
// defaults, reaching every branch (the cos/sin choices, dual and outside,
// filled on and off), away from degenerate values (a zero spirograph b, a
// julian2 or juliaq power that rounds to 0).
var vtPluginRanges = map[ParamID]vtRange{
	PSineblurPower: {lo: 0.2, hi: 3},
	PHypertile2P:   {lo: 3, hi: 9}, PHypertile2Q: {lo: 3, hi: 9},
	PHypertile1P: {lo: 3, hi: 9}, PHypertile1Q: {lo: 3, hi: 9},
	PEpispiralWfWaves: {lo: 0.5, hi: 4, signed: true},
	PBwraps7Cellsize:  {lo: 0.3, hi: 1.5, signed: true}, PBwraps7Space: {lo: 0, hi: 0.5},
	PBwraps7Gain: {lo: 0.5, hi: 3, signed: true}, PBwraps7InnerTwist: {lo: -2, hi: 2}, PBwraps7OuterTwist: {lo: -2, hi: 2},
	PBoarders2C: {lo: 0.2, hi: 0.8}, PBoarders2Left: {lo: 0.2, hi: 0.9}, PBoarders2Right: {lo: 0.2, hi: 0.9},
	PWaves4WfScalex: {lo: -1, hi: 1}, PWaves4WfScaley: {lo: -1, hi: 1},
	PWaves4WfFreqx: {lo: -4, hi: 4}, PWaves4WfFreqy: {lo: -4, hi: 4},
	PWaves4WfUseCosX: {lo: 0, hi: 1}, PWaves4WfUseCosY: {lo: 0, hi: 1},
	PWaves4WfDampx: {lo: -1, hi: 1}, PWaves4WfDampy: {lo: -1, hi: 1},
	PJulian2Power: {lo: 1, hi: 5, signed: true}, PJulian2Dist: {lo: -2, hi: 2},
	PJulian2A: {lo: -1.5, hi: 1.5}, PJulian2B: {lo: -1.5, hi: 1.5}, PJulian2C: {lo: -1.5, hi: 1.5},
	PJulian2D: {lo: -1.5, hi: 1.5}, PJulian2E: {lo: -1, hi: 1}, PJulian2F: {lo: -1, hi: 1},
	PSpirographA: {lo: 1, hi: 5}, PSpirographB: {lo: 1, hi: 4, signed: true}, PSpirographD: {lo: -1, hi: 1},
	PSpirographTmin: {lo: -3, hi: 0}, PSpirographTmax: {lo: 0, hi: 3},
	PSpirographYmin: {lo: -1, hi: 0}, PSpirographYmax: {lo: 0, hi: 1},
	PSpirographC1: {lo: -1, hi: 1}, PSpirographC2: {lo: -1, hi: 1},
	PCannabiscurveWfFilled: {lo: -0.3, hi: 1}, PCloverleafWfFilled: {lo: -0.3, hi: 1},
	PJuliacRe: {lo: 1.5, hi: 5, signed: true}, PJuliacIm: {lo: -50, hi: 50}, PJuliacDist: {lo: -2, hi: 2},
	PWaves23Scalex: {lo: -1, hi: 1}, PWaves23Scaley: {lo: -1, hi: 1},
	PWaves23Freqx: {lo: 1, hi: 15, signed: true}, PWaves23Freqy: {lo: 1, hi: 15, signed: true},
	PYinYangRadius: {lo: -0.2, hi: 1.2}, PYinYangAng1: {lo: -1, hi: 1}, PYinYangAng2: {lo: -1, hi: 1},
	PYinYangDualT: {lo: 0, hi: 1}, PYinYangOutside: {lo: 0, hi: 1},
	PJuliaqPower: {lo: 1, hi: 6, signed: true}, PJuliaqDivisor: {lo: 1, hi: 4, signed: true},
	// cuda/flame_variations_jwf2.cuh. waves2b's powers stay away from 0
	// here: vtWaves2bBranchCases reaches its sn and J1 branches.
	PWaves2bFreqx: {lo: 0.5, hi: 4, signed: true}, PWaves2bFreqy: {lo: 0.5, hi: 4, signed: true},
	PWaves2bPwx: {lo: 0.3, hi: 2.5}, PWaves2bPwy: {lo: 0.3, hi: 2.5}, // negative: |v|^pw near v = 0 is beyond float32
	PWaves2bScalex: {lo: -2, hi: 2}, PWaves2bScaleinfx: {lo: -2, hi: 2}, PWaves2bScaley: {lo: -2, hi: 2},
	PWaves2bScaleinfy: {lo: -2, hi: 2}, PWaves2bUnity: {lo: 0.2, hi: 2}, PWaves2bJacok: {lo: -1.2, hi: 1.2},
	PStarblurPower: {lo: 2.6, hi: 9, signed: true}, PStarblurRange: {lo: 0.1, hi: 0.9},
	PWaffleSlices: {lo: 1.6, hi: 10}, PWaffleXthickness: {lo: 0, hi: 1}, PWaffleYthickness: {lo: 0, hi: 1},
	PWaffleRotation: {lo: -3.2, hi: 3.2},
	PWaves3WfScalex: {lo: -1, hi: 1}, PWaves3WfScaley: {lo: -1, hi: 1},
	PWaves3WfFreqx: {lo: -4, hi: 4}, PWaves3WfFreqy: {lo: -4, hi: 4},
	PWaves3WfUseCosX: {lo: 0, hi: 1}, PWaves3WfUseCosY: {lo: 0, hi: 1},
	PWaves3WfDampx: {lo: -1, hi: 1, zeroBelow0: true}, PWaves3WfDampy: {lo: -1, hi: 1},
	PWavesnFreqx: {lo: 1, hi: 5, signed: true}, PWavesnFreqy: {lo: 1, hi: 5, signed: true},
	PWavesnScalex: {lo: -1, hi: 1}, PWavesnScaley: {lo: -1, hi: 1}, PWavesnIncx: {lo: -1, hi: 1},
	PWavesnIncy: {lo: -1, hi: 1}, PWavesnPower: {lo: 1, hi: 5.5, signed: true},
	PBlurLinearLength: {lo: 0, hi: 2}, PBlurLinearAngle: {lo: -1, hi: 7},
	PBlurZoomLength: {lo: 0, hi: 1}, PBlurZoomX: {lo: -1, hi: 1}, PBlurZoomY: {lo: -1, hi: 1},
	PEpispiralN: {lo: 1, hi: 6, signed: true}, PEpispiralThickness: {lo: -0.3, hi: 1, zeroBelow0: true},
	PEpispiralHoles: {lo: -1, hi: 1},
	PFdiscAshift:    {lo: 0.5, hi: 2}, PFdiscRshift: {lo: -1, hi: 1}, PFdiscXshift: {lo: -1, hi: 1},
	PFdiscYshift: {lo: -1, hi: 1}, PFdiscTerm1: {lo: -1, hi: 1}, PFdiscTerm2: {lo: -1, hi: 1},
	PFdiscTerm3: {lo: -1, hi: 1}, PFdiscTerm4: {lo: -1, hi: 1},
	PLinearTPowX: {lo: 0.3, hi: 3}, PLinearTPowY: {lo: 0.3, hi: 3},
	PNpolarParity: {lo: 0, hi: 4, signed: true}, PNpolarN: {lo: 0.6, hi: 6, signed: true},
	PTileHlpWidth:  {lo: 0.3, hi: 2, signed: true},
	PWaves22Scalex: {lo: -0.5, hi: 0.5}, PWaves22Scaley: {lo: -0.5, hi: 0.5},
	PWaves22Freqx: {lo: 1, hi: 15, signed: true}, PWaves22Freqy: {lo: 1, hi: 15, signed: true},
	PWaves22Modex: {lo: 0, hi: 1.4}, PWaves22Modey: {lo: 0, hi: 1.4},
	PWaves22Powerx: {lo: 1, hi: 4.5}, PWaves22Powery: {lo: 1, hi: 4.5},
	PWaves2RadialScalex: {lo: -0.5, hi: 0.5}, PWaves2RadialScaley: {lo: -0.5, hi: 0.5},
	PWaves2RadialFreqx: {lo: 1, hi: 15, signed: true}, PWaves2RadialFreqy: {lo: 1, hi: 15, signed: true},
	PWaves2RadialNull: {lo: 0, hi: 1}, PWaves2RadialDistance: {lo: 1.2, hi: 3},
	PWaves2WfScalex: {lo: -1, hi: 1}, PWaves2WfScaley: {lo: -1, hi: 1},
	PWaves2WfFreqx: {lo: -4, hi: 4}, PWaves2WfFreqy: {lo: -4, hi: 4},
	PWaves2WfUseCosX: {lo: 0, hi: 1}, PWaves2WfUseCosY: {lo: 0, hi: 1},
	PWaves2WfDampx: {lo: -1, hi: 1, zeroBelow0: true}, PWaves2WfDampy: {lo: -1, hi: 1},
	PWaves3Scalex: {lo: -0.5, hi: 0.5}, PWaves3Scaley: {lo: -0.5, hi: 0.5},
	PWaves3Freqx: {lo: 1, hi: 15, signed: true}, PWaves3Freqy: {lo: 1, hi: 15, signed: true},
	PWaves3SxFreq: {lo: 0, hi: 4, signed: true}, PWaves3SyFreq: {lo: 0, hi: 4, signed: true},
	PWaves4Scalex: {lo: -0.5, hi: 0.5}, PWaves4Scaley: {lo: -0.5, hi: 0.5},
	PWaves4Freqx: {lo: 1, hi: 15, signed: true}, PWaves4Freqy: {lo: 1, hi: 15, signed: true},
	PWaves4Cont: {lo: 0, hi: 1.5}, PWaves4Yfact: {lo: -1, hi: 1},
	PXheartAngle: {lo: -2, hi: 2}, PXheartRatio: {lo: -2, hi: 2},
	// cuda/flame_variations_jwf3.cuh; synth's modes: vtSynthCases.
	PSynthA: {lo: 0.2, hi: 2, signed: true}, PSynthPower: {lo: 0.3, hi: 1.5}, PSynthMix: {lo: 0, hi: 1.2},
	PSynthSmooth: {lo: 0, hi: 1},
	PXtrbPower:   {lo: 1, hi: 5, signed: true}, PXtrbRadius: {lo: 0.5, hi: 2}, PXtrbWidth: {lo: 0, hi: 1},
	PXtrbDist: {lo: -2, hi: 2}, PXtrbA: {lo: 0, hi: 1.4}, PXtrbB: {lo: 0, hi: 1.4},
	PNBlurNumEdges: {lo: 2.6, hi: 9}, PNBlurNumStripes: {lo: 0, hi: 4.4, signed: true},
	PNBlurRatioStripes: {lo: -0.2, hi: 2.2}, PNBlurRatioHole: {lo: -0.3, hi: 0.8, zeroBelow0: true},
	PNBlurCircumCircle: {lo: 0, hi: 1}, PNBlurAdjustToLinear: {lo: 0, hi: 1}, PNBlurEqualBlur: {lo: 0, hi: 1},
	PNBlurHighlightEdges: {lo: 0, hi: 2},
}

// vtLayerRanges are synth's per-layer parameter ranges (layer k at
// PSynthB + 6k): types up to 9 (an unknown one reuses the last wave), all
// four ways of layering, some amplitudes exactly 0 (a skipped layer).
// Frequencies from 3 on: the n-gon waves (types 7, 8) have a pole within
// each period below that, where float32 and float64 part at random.
var vtLayerRanges = [6]vtRange{{lo: -0.3, hi: 1, zeroBelow0: true}, {lo: 0, hi: 9.4}, {lo: -0.9, hi: 0.9},
	{lo: 3, hi: 6, signed: true}, {lo: -3, hi: 3}, {lo: 0, hi: 3.4}}

// vtVibrationRanges are vibration2's: each wave's dir, angle, freq, amp,
// phase, then the modulations' amplitude and frequency pairs.
var vtVibrationRanges = [5]vtRange{{lo: -3.2, hi: 3.2}, {lo: -3.2, hi: 3.2}, {lo: 0.3, hi: 3, signed: true},
	{lo: -1, hi: 1}, {lo: -1, hi: 1}}

// vtRandPluginParams is vtRandParams with the plugin parameters drawn too.
func vtRandPluginParams(r *rand.Rand) Params {
	p := vtRandParams(r)
	for id := GPUNumParams; id < NumParams; id++ { // in order: the draws must not follow map order
		rg, ok := vtPluginRanges[id]
		if !ok {
			continue
		}
		v := rg.lo + (rg.hi-rg.lo)*r.Float64()
		if rg.signed && r.IntN(2) == 0 {
			v = -v
		}
		if rg.zeroBelow0 && v < 0 {
			v = 0
		}
		p[id] = vtF32(v)
	}
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
	for k := range ParamID(synthLayers * 6) {
		draw(PSynthB+k, vtLayerRanges[k%6])
		if k%6 == 1 && ftoi(p[PSynthB+k]) == 8 { // see vtSynthCases
			p[PSynthB+k] = 7
		}
	}
	for k := range ParamID(10) {
		draw(PVibration2Dir+k, vtVibrationRanges[k%5])
	}
	for k := PVibration2Dm; k <= PVibration2A2mfreq; k += 2 {
		draw(k, vtRange{lo: -0.6, hi: 0.6})
		draw(k+1, vtRange{lo: 0, hi: 2})
	}
	vtRandJwf4Params(&p) // its own generator: r's draws stay as they were
	return p
}

// vtSynthModes are synth's modes (1005 here alone, where it adds as the
// others; beside another it stays on the CPU) and an unknown one.
var vtSynthModes = []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
	1001, 1002, 1003, 1004, 1005, 1006, 1007, 42}

// vtSynthCases run synth alone in each mode, smooth 0 and 1 in turn.
func vtSynthCases(r *rand.Rand) []vtCase {
	var cases []vtCase
	for i, mode := range vtSynthModes {
		x := vtXform(VarTerm{ID: VarSynth, Weight: 1})
		x.Params = vtRandPluginParams(r)
		x.Params[PSynthMode], x.Params[PSynthSmooth] = mode, float64(i%2)
		if mode == 19 { // the scaled radius may be negative: a whole power keeps points
			x.Params[PSynthPower] = math.Round(x.Params[PSynthPower])
		}

		cases = append(cases, vtCase{name: fmt.Sprintf("synth/mode%g", mode), x: x,
			in: vtRandPoints(r, vtPoints, false), seed: rng.Hash64(0x5e7, uint64(i))})
	}
	return cases
}

// TestCUDAPluginVariationsMatchCPU runs each ported plugin variation alone,
// weight 1, identity affine: once with JWildfire's default parameters
// (DefaultParams) and with several random parameter sets, plus the
// branches random sets do not reach (vtWaves2bBranchCases,
// vtJwf4BranchCases).
func TestCUDAPluginVariationsMatchCPU(t *testing.T) {
	dev, fn := vtDevice(t)
	vtCheck(t, dev, fn, vtPluginCases())
}

// vtPluginCases are TestCUDAPluginVariationsMatchCPU's runs.
func vtPluginCases() []vtCase {
	r := rand.New(rand.NewPCG(7, 8))
	var cases []vtCase
	for _, pl := range gpuPlugins {
		id := pl.id
		if uses3D(id) { // the flame3d family's: variations3d_cuda_test.go
			continue
		}
		x := vtXform(VarTerm{ID: id, Weight: 1})
		x.Params = DefaultParams()
		cases = append(cases, vtCase{name: VarNames[id] + "/default", x: x, in: vtRandPoints(r, vtPoints, false),
			seed: rng.Hash64(0xdef, uint64(id))})
		for run := range 4 {
			x := vtXform(VarTerm{ID: id, Weight: 1})
			x.Params = vtRandPluginParams(r)
			c := vtCase{name: VarNames[id] + "/" + string(rune('a'+run)), x: x,
				in: vtRandPoints(r, vtPoints, false), seed: rng.Hash64(0x9106, uint64(id)<<8|uint64(run))}
			// Parameters under which the CPU rejects most points (loonie2's
			// negative star and circle take square roots of negatives) test
			// little: draw again from a stream of the case's own, so that
			// the other cases keep their draws.
			for again := uint64(0); vtValidShare(c) < 0.5 && again < 16; again++ {
				c.x.Params = vtRandPluginParams(rand.New(rand.NewPCG(uint64(id), uint64(run)<<8|again)))
			}
			cases = append(cases, c)
		}
	}
	cases = append(cases, vtWaves2bBranchCases(r)...)
	cases = append(cases, vtSynthCases(r)...)
	cases = append(cases, vtJwf4BranchCases(r)...)
	cases = append(cases, vtJwf8BranchCases(r)...)
	cases = append(cases, vtJwf12BranchCases(r)...)
	return cases
}

// vtValidShare is the share of c's points the CPU accepts (not flam3's
// badvalue), with c's parameters.
func vtValidShare(c vtCase) float64 {
	x := c.x
	Precalc(&x)
	n, ok := len(c.in)/2, 0
	for i := range n {
		s := rng.NewStream(rng.Hash64(c.seed, uint64(i)))
		if _, _, good := ApplyXform(&x, float64(c.in[2*i]), float64(c.in[2*i+1]), &s); good {
			ok++
		}
	}
	return float64(ok) / float64(n)
}

// vtWaves2bBranchCases set waves2b's powers where its wave is not a sine:
// 0 (Jacobi's sn, with a positive, negative and zero jacok) and just below
// 0 (Bessel's J1).
func vtWaves2bBranchCases(r *rand.Rand) []vtCase {
	var cases []vtCase
	for i, c := range []struct{ pwx, pwy, k float64 }{{0, -5e-5, 0.5}, {5e-5, 0, -0.7}, {0, 0, 0}, {-5e-5, 0, 1}} {
		x := vtXform(VarTerm{ID: VarWaves2b, Weight: 1})
		x.Params = DefaultParams()
		x.Params[PWaves2bPwx], x.Params[PWaves2bPwy] = vtF32(c.pwx), vtF32(c.pwy)
		x.Params[PWaves2bJacok] = vtF32(c.k)
		cases = append(cases, vtCase{name: "waves2b/branch" + string(rune('a'+i)), x: x,
			in: vtRandPoints(r, vtPoints, false), seed: rng.Hash64(0x2b, uint64(i))})
	}
	// The inverse n-gon (type 8) has a pole at the middle of each period,
	// where its value's relative error is float32's error in the phase
	// over the distance to the pole: random layers leave it out
	// (vtRandPluginParams makes it 7), and it runs here alone, in a mode
	// that scales by it, on layer b.
	x := vtXform(VarTerm{ID: VarSynth, Weight: 1})
	x.Params = DefaultParams()
	x.Params[PSynthMode], x.Params[PSynthB], x.Params[PSynthBType], x.Params[PSynthBFrq] = 6, 0.5, 8, 5
	cases = append(cases, vtCase{name: "synth/type8", x: x, in: vtRandPoints(r, vtPoints, false),
		seed: rng.Hash64(0x5e8, 8)})
	return cases
}

// TestCUDAPluginVariationsMixedMatchCPU runs each ported plugin variation
// with two random partners (flam3's or ported, pre_blur aside) and random
// weights, so the stream and the sum cross from flam3's code into the
// plugin function and back, on a point count that is not a multiple of the
// block.
func TestCUDAPluginVariationsMixedMatchCPU(t *testing.T) {
	dev, fn := vtDevice(t)
	vtCheck(t, dev, fn, vtPluginMixedCases())
}

// vtPluginMixedCases are TestCUDAPluginVariationsMixedMatchCPU's runs.
func vtPluginMixedCases() []vtCase {
	r := rand.New(rand.NewPCG(9, 10))
	pool := []VarID{}
	for id := VarID(0); id < GPUNumVars; id++ {
		if id != VarPreBlur && !vtPreBlurSensitive[id] {
			pool = append(pool, id)
		}
	}
	for _, pl := range gpuPlugins {
		if !uses3D(pl.id) {
			pool = append(pool, pl.id)
		}
	}
	const n = vtPoints - 77
	var cases []vtCase
	for _, pl := range gpuPlugins {
		id := pl.id
		if uses3D(id) {
			continue
		}
		used := map[VarID]bool{id: true}
		vars := []VarTerm{{ID: id, Weight: vtRandWeight(r)}}
		room := gpuPluginSlab - 1 - len(pl.params)
		for len(vars) < 3 {
			o := pool[r.IntN(len(pool))]
			need := 0
			if op := gpuPluginOf(o); op != nil {
				need = 1 + len(op.params)
			}
			if used[o] || need > room { // partners whose parameters fit the slab beside it
				continue
			}
			used[o] = true
			room -= need
			vars = append(vars, VarTerm{ID: o, Weight: vtRandWeight(r)})
		}
		sortVars(vars)
		names := make([]string, len(vars))
		for i, v := range vars {
			names[i] = VarNames[v.ID]
		}
		x := vtXform(vars...)
		x.Params = vtRandPluginParams(r)
		cases = append(cases, vtCase{name: strings.Join(names, "+"), x: x, in: vtRandPoints(r, n, false),
			seed: rng.Hash64(0x3A1EF, uint64(id))})
	}
	return cases
}
