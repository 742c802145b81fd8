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
