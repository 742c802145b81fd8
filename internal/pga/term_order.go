package pga

import (
	"cmp"
	"slices"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// The CUDA backend hands out terminals sorted by lot, then seed, then
// terminal kind (orderDeviceTerms, planGLB); the CPU's are lot by lot in
// depth-first order, which its tests and callers rely on. A city's files
// are written in the device's order on both (SortLikeDevice), so that the
// OBJ, GLB and preview are the same files on every backend, not only the
// same buildings.

// SortLikeDevice sorts ts as the CUDA backend orders its terminals: by lot,
// then seed, then terminal kind, ties (one lot's terminals of the same seed
// and kind, which few grammars make) in their order in ts. Each lot's
// terminals lying together, as Grammar.Evaluate gives them, are sorted on
// every core, a lot at a time.
func SortLikeDevice(ts []TerminalShape) {
	// The lots' ranges, in order.
	var starts []int
	for i := range ts {
		if i == 0 || ts[i].Lot != ts[i-1].Lot {
			starts = append(starts, i)
		}
	}
	starts = append(starts, len(ts))
	nl := len(starts) - 1
	for k := 1; k < nl; k++ {
		if ts[starts[k]].Lot <= ts[starts[k-1]].Lot {
			// Not lot by lot: a stable sort by lot first (not Evaluate's
			// output, so never a city's worth).
			slices.SortStableFunc(ts, func(a, b TerminalShape) int { return cmp.Compare(a.Lot, b.Lot) })
			SortLikeDevice(ts)
			return
		}
	}
	parallel.For(nl, 256, func(_, lo, hi int) {
		var keys []glbSortKey
		var scratch []TerminalShape
		for l := lo; l < hi; l++ {
			lot := ts[starts[l]:starts[l+1]]
			if len(lot) < 2 {
				continue
			}
			keys = keys[:0]
			for i := range lot {
				keys = append(keys, glbSortKey{seed: lot[i].Seed, term: lot[i].Term, at: uint32(i)})
			}
			if sortLotKeys(keys) {
				continue // already in order
			}
			scratch = append(scratch[:0], lot...)
			for i, k := range keys {
				lot[i] = scratch[k.at]
			}
		}
	})
}
