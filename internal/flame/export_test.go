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

// FrameHostWork is what the host does for one animation frame on the GPU
// before launching it: the frame's plan (every temporal sample's camera and
// chaos game) and each sample's device inputs.
func FrameHostWork(fs *FrameSpec, o Options) error {
	fp, err := fs.framePlan(o)
	if err != nil {
		return err
	}
	for i, cg := range fp.games {
		if _, _, err := fp.plans[i].gpuInputs(cg); err != nil {
			return err
		}
	}
	return nil
}
