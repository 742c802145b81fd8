//go:build cuda

package flame

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The JWildfire plugin variations the kernels have (gpuPluginVars) against
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
}

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
		p[id] = vtF32(v)
	}
	return p
}

// TestCUDAPluginVariationsMatchCPU runs each ported plugin variation alone,
// weight 1, identity affine, several parameter sets each.
func TestCUDAPluginVariationsMatchCPU(t *testing.T) {
	dev, fn := vtDevice(t)
	r := rand.New(rand.NewPCG(7, 8))
	var cases []vtCase
	for _, id := range gpuPluginVars {
		for run := range 4 {
			x := vtXform(VarTerm{ID: id, Weight: 1})
			x.Params = vtRandPluginParams(r)
			cases = append(cases, vtCase{name: VarNames[id] + "/" + string(rune('a'+run)), x: x,
				in: vtRandPoints(r, vtPoints, false), seed: rng.Hash64(0x9106, uint64(id)<<8|uint64(run))})
		}
	}
	vtCheck(t, dev, fn, cases)
}

// TestCUDAPluginVariationsMixedMatchCPU runs each ported plugin variation
// with two random partners (flam3's or ported, pre_blur aside) and random
// weights, so the stream and the sum cross from flam3's code into the
// plugin function and back, on a point count that is not a multiple of the
// block.
func TestCUDAPluginVariationsMixedMatchCPU(t *testing.T) {
	dev, fn := vtDevice(t)
	r := rand.New(rand.NewPCG(9, 10))
	pool := []VarID{}
	for id := VarID(0); id < GPUNumVars; id++ {
		if id != VarPreBlur && !vtPreBlurSensitive[id] {
			pool = append(pool, id)
		}
	}
	pool = append(pool, gpuPluginVars[:]...)
	const n = vtPoints - 77
	var cases []vtCase
	for _, id := range gpuPluginVars {
		used := map[VarID]bool{id: true}
		vars := []VarTerm{{ID: id, Weight: vtRandWeight(r)}}
		for len(vars) < 3 {
			o := pool[r.IntN(len(pool))]
			if used[o] {
				continue
			}
			used[o] = true
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
	vtCheck(t, dev, fn, cases)
}
