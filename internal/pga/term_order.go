package pga

import (
	"cmp"
	"slices"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// The CUDA backend hands out terminals sorted by lot, then seed, then
// terminal kind (orderDeviceTerms, planGLB); the CPU's are lot by lot in
// depth-first order, which its tests and callers rely on. A city's files are
// written in the device's order on both (SortLikeDevice), so that the OBJ,
// GLB and preview are the same files on every backend, not only the same
// buildings.

// termRef is a terminal's key within its lot and its place there.
type termRef struct {
	seed uint64
	term int32
	at   int32
}

// SortLikeDevice sorts ts as the CUDA backend orders its terminals: by lot,
// then seed, then terminal kind, ties (one lot's terminals of the same seed
// and kind, which few grammars make) in their order in ts. Each lot's
// terminals must lie together, as Grammar.Evaluate gives them; lots are
// sorted on every core.
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
	sorted := true
	for k := 1; k < nl; k++ {
		sorted = sorted && ts[starts[k]].Lot > ts[starts[k-1]].Lot
	}
	if !sorted {
		// Not lot by lot: a stable sort by lot first (not Evaluate's
		// output, so never a city's worth).
		slices.SortStableFunc(ts, func(a, b TerminalShape) int { return cmp.Compare(a.Lot, b.Lot) })
		SortLikeDevice(ts)
		return
	}
	parallel.For(nl, 256, func(_, lo, hi int) {
		var refs []termRef
		var scratch []TerminalShape
		for l := lo; l < hi; l++ {
			lot := ts[starts[l]:starts[l+1]]
			if len(lot) < 2 {
				continue
			}
			refs = refs[:0]
			for i := range lot {
				refs = append(refs, termRef{lot[i].Seed, lot[i].Term, int32(i)})
			}
			if sortTermRefs(refs) {
				continue // already in order
			}
			scratch = append(scratch[:0], lot...)
			for i, r := range refs {
				lot[i] = scratch[r.at]
			}
		}
	})
}

// sortTermRefs sorts by seed, kind and place (an insertion sort for a lot's
// few dozen terminals, as sortLotKeys) and says whether they were in order.
func sortTermRefs(s []termRef) bool {
	less := func(a, b *termRef) bool {
		if a.seed != b.seed {
			return a.seed < b.seed
		}
		if a.term != b.term {
			return a.term < b.term
		}
		return a.at < b.at
	}
	if len(s) > 64 {
		if slices.IsSortedFunc(s, cmpTermRef) {
			return true
		}
		slices.SortFunc(s, cmpTermRef)
		return false
	}
	inOrder := true
	for i := 1; i < len(s); i++ {
		x, j := s[i], i
		for ; j > 0 && less(&x, &s[j-1]); j-- {
			s[j] = s[j-1]
			inOrder = false
		}
		s[j] = x
	}
	return inOrder
}

func cmpTermRef(a, b termRef) int {
	return cmp.Or(cmp.Compare(a.seed, b.seed), cmp.Compare(a.term, b.term), cmp.Compare(a.at, b.at))
}
