//go:build cuda

package rules

// observeAll adds every state's words, downloaded in layout l (dev), to
// rec's row t (hold: to t and every later step). --record on the GPU runs
// one step a launch and reduces on the host: the download costs 4 bytes a
// word of every state a step.
func observeAll(rec *recorder, t int, st *States, l Layout, dev []uint32, hold bool) {
	wp := padWords(st.Words)
	words := make([]uint32, st.Words)
	for s := range st.N {
		for w := range words {
			words[w] = dev[layoutIndex(l, s, w, st.N, wp)]
		}
		if hold {
			rec.hold(t, words)
		} else {
			rec.observe(t, words)
		}
	}
}
