package rules

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/parallel"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// layoutIndex is where word w of state s lives on the GPU (n states of
// padded size wp): the twin of rules_addr in cuda/rules.cu.
func layoutIndex(l Layout, s, w, n, wp int) int {
	switch l {
	case LayoutA:
		return s*wp + w
	case LayoutB:
		return w*n + s
	}
	return ((w>>5)*n+s)*32 + w&31
}

// toLayout arranges states as layout l with padded states.
func toLayout(st *States, l Layout) []uint32 {
	wp := ptx.PadWords(st.Words)
	out := make([]uint32, st.N*wp)
	moveRuns(st, l, wp, func(s, w, at, n int) { copy(out[at:at+n], st.Data[s*st.Words+w:]) },
		func(s, w, at int) { out[at] = st.Data[s*st.Words+w] })
	return out
}

// fromLayout is toLayout's inverse.
func fromLayout(st *States, l Layout, dev []uint32) {
	wp := ptx.PadWords(st.Words)
	moveRuns(st, l, wp, func(s, w, at, n int) { copy(st.Data[s*st.Words+w:s*st.Words+w+n], dev[at:]) },
		func(s, w, at int) { st.Data[s*st.Words+w] = dev[at] })
}

// moveRuns visits every word of every state with its place in layout l,
// in parallel over runs of 32 words (a few huge states are spread over the
// cores as well as many small ones): run(s, w, at, n) for n words of state
// s from word w that lie contiguous from at (layouts A and C, and B with
// one state), one(s, w, at) for each word of B's strided states. A 16384x16384
// board (2^28 words) took seconds word by word on one core.
func moveRuns(st *States, l Layout, wp int, run func(s, w, at, n int), one func(s, w, at int)) {
	runs := (st.Words + 31) / 32
	contiguous := l != LayoutB || st.N == 1
	parallel.For(st.N*runs, 1<<12, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			s, w := i/runs, i%runs*32
			n := min(32, st.Words-w)
			if contiguous {
				run(s, w, layoutIndex(l, s, w, st.N, wp), n)
				continue
			}
			for k := w; k < w+n; k++ {
				one(s, k, layoutIndex(l, s, k, st.N, wp))
			}
		}
	})
}

// ParseLayout reads A, B or C.
func ParseLayout(s string) (Layout, error) {
	switch Layout(s) {
	case LayoutA, LayoutB, LayoutC:
		return Layout(s), nil
	}
	return "", fmt.Errorf("invalid layout %q: want A (each state contiguous), B (transposed) or C (interleaved, the paper's Figure 6)", s)
}

// ParseSchedule reads simple or compact.
func ParseSchedule(s string) (Schedule, error) {
	switch Schedule(s) {
	case Simple, Compact:
		return Schedule(s), nil
	}
	return "", fmt.Errorf("invalid schedule %q: want simple (the paper's Algorithms 1 and 2) or compact (Algorithms 3 and 4)", s)
}
