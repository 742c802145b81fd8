package flame

// This file hands internals to the external tests (package flame_test) that
// render frames of cuburn edges: flame/cuburn imports flame, so only an
// external test can use both.

// FrameAlphaHits reports how many of fs's temporal samples, planned with o,
// count their hits from alpha alone, out of how many samples there are.
func FrameAlphaHits(fs *FrameSpec, o Options) (alpha, total int, err error) {
	fp, err := fs.framePlan(o)
	if err != nil {
		return 0, 0, err
	}
	for _, cg := range fp.games {
		if cg.alphaHits() {
			alpha++
		}
	}
	return alpha, len(fp.games), nil
}
