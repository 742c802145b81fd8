package rules

import "github.com/procgen-dev/procgen/internal/rules/ptx"

// The CUDA backend's choice between a block (or warp) a state and the tiled
// path (cuda_tile.go), here without the cuda tag: --device auto's work
// estimate (internal/device) asks it too.

// tileMinRange is the smallest rule range the tiled path takes: below 64
// tiles a state, a block per state finishes a step in about the time of the
// tiled path's four launches a rule.
const tileMinRange = 64 * ptx.SimpleBlock

// UseTiles says whether n states of p run tiled on a device with sms SMs:
// when the per-state kernels would leave SMs idle (fewer states than two
// an SM) and a rule's range is large enough that a state is many tiles.
func UseTiles(p *Program, n, sms int) bool {
	return n <= MaxTiledStates && n < 2*max(sms, 1) && maxRange(p) >= tileMinRange
}

func maxRange(p *Program) int64 {
	var m int64
	for _, r := range p.Rules {
		m = max(m, int64(r.Hi)-int64(r.Lo))
	}
	return m
}

// MaxTiledStates is the most states the tiled path takes: the grid's y is
// the state.
const MaxTiledStates = 65535

// nominalSMs is the SM count GPUItems assumes: the H100's and H200's (132),
// on which --device auto's cost model is calibrated, since it weighs the
// GPU before opening one.
const nominalSMs = 132

// GPUItems is how many independent pieces n states of p give the GPU, for
// --device auto's cost model (internal/device, whose gpuFill counts
// blocks): a state each on the per-state kernels, or, where they go tiled,
// each state's tiles of ptx.SimpleBlock indices over its largest rule, so
// a few big boards fill the GPU and many small ones count as they did.
func GPUItems(p *Program, n int) float64 {
	if !UseTiles(p, n, nominalSMs) {
		return float64(n)
	}
	tiles := (maxRange(p) + ptx.SimpleBlock - 1) / ptx.SimpleBlock
	return float64(n) * float64(tiles)
}
