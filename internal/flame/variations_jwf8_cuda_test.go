//go:build cuda

package flame

import (
	"math/rand/v2"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The parameters of cuda/flame_variations_jwf8.cuh's variations in the
// pointwise runs, drawn with vtJwf4Ranges' (vtRandJwf4Params, in ParamID
// order: these come after the earlier ones, whose draws stay as they were).

// vtJwf8Ranges reach every branch: crackle's cells of both signs, with and
// without the noise's displacement (distort 0 about a fifth of the time),
// slices of the noise apart.
var vtJwf8Ranges = map[ParamID]vtRange{
	PCrackleCellsize: {lo: 0.2, hi: 2, signed: true}, PCracklePower: {lo: 0, hi: 1.2},
	PCrackleDistort: {lo: -0.4, hi: 2, zeroBelow0: true}, PCrackleScale: {lo: 0.3, hi: 2, signed: true},
	PCrackleZ: {lo: -3, hi: 3},
}

// vtJwf8BranchCases set the branches random parameters miss: crackle with
// no cells, and with cells so small and displaced so far that a neighbour
// is often the closest centre (the recentring).
func vtJwf8BranchCases(r *rand.Rand) []vtCase {
	sets := []struct {
		name string
		id   VarID
		set  func(p *Params)
	}{
		{"crackle/nocells", VarCrackle, func(p *Params) { p[PCrackleCellsize] = 0 }},
		{"crackle/recentre", VarCrackle, func(p *Params) { p[PCrackleCellsize], p[PCrackleDistort] = 0.15, 2.5 }},
	}
	var cases []vtCase
	for i, c := range sets {
		x := vtXform(VarTerm{ID: c.id, Weight: 1})
		x.Params = DefaultParams()
		c.set(&x.Params)
		cases = append(cases, vtCase{name: c.name, x: x, in: vtRandPoints(r, vtPoints, false),
			seed: rng.Hash64(0x4b8, uint64(i))})
	}
	return cases
}
