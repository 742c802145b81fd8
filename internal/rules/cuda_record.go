//go:build cuda

package rules

import (
	"github.com/procgen-dev/procgen/internal/parallel"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// observeAll adds every state's words, downloaded in layout l (dev), to
// rec's row t (hold: to t and every later step). --record on the GPU runs
// one step a launch and reduces on the host: the download costs 4 bytes a
// word of every state a step. The states are observed on every core, each
// into its own accumulators, which are then merged in state order, so the
// result does not depend on how the cores split them.
func observeAll(rec *recorder, t int, st *States, l Layout, dev []uint32, hold bool) {
	if rec == nil {
		return
	}
	wp := ptx.PadWords(st.Words)
	per := make([][]Acc, st.N)
	parallel.For(st.N, 1, func(_, lo, hi int) {
		var words []uint32
		if l != LayoutA {
			words = make([]uint32, st.Words)
		}
		for s := lo; s < hi; s++ {
			if l == LayoutA { // a state's words are contiguous
				words = dev[s*wp : s*wp+st.Words]
			} else {
				for w := range words {
					words[w] = dev[layoutIndex(l, s, w, st.N, wp)]
				}
			}
			accs := make([]Acc, len(rec.obs))
			for k, o := range rec.obs {
				o.observe(rec.p, words, &accs[k])
			}
			per[s] = accs
		}
	})
	rows := rec.rows
	if hold {
		rows = rec.tail
	}
	if t >= len(rows) {
		return
	}
	if rows[t] == nil {
		rows[t] = make([]Acc, len(rec.obs))
	}
	for _, accs := range per {
		for k := range accs {
			rows[t][k].merge(accs[k])
		}
	}
}
