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
	parallel.For(st.N, 16, func(_, lo, hi int) {
		for s := lo; s < hi; s++ {
			for w, v := range st.State(s) {
				out[layoutIndex(l, s, w, st.N, wp)] = v
			}
		}
	})
	return out
}

// fromLayout is toLayout's inverse.
func fromLayout(st *States, l Layout, dev []uint32) {
	wp := ptx.PadWords(st.Words)
	parallel.For(st.N, 16, func(_, lo, hi int) {
		for s := lo; s < hi; s++ {
			dst := st.State(s)
			for w := range dst {
				dst[w] = dev[layoutIndex(l, s, w, st.N, wp)]
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
