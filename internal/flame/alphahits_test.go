package flame

import (
	"math"
	"testing"
)

// TestNearOneOpacity: an opacity that interpolation left a few ulps below 1
// is full opacity; a written one a little below 1 is not.
func TestNearOneOpacity(t *testing.T) {
	for _, tc := range []struct {
		opacity, want float64
	}{
		{1, 1},
		{0.9999999999999978, 1}, // a Catmull-Rom spline through knots of 1
		{math.Nextafter(1, 2), 1},
		{0.9999999, math.Pow(10, -math.Log(1/0.9999999)/math.Log(2))},
		{0.5, math.Pow(10, -1)},
		{0, 0},
	} {
		if got := visAdjusted(tc.opacity); got != tc.want {
			t.Errorf("visAdjusted(%v) = %v, want %v", tc.opacity, got, tc.want)
		}
	}
}

// simpleEdge is the flock's simple-a=simple-b edge at 64x36, 10 samples per
// pixel, in frames frames.
func simpleEdge(t *testing.T, frames int) *CuburnAnim {
	t.Helper()
	prof := DefaultCuburnProfile()
	prof.Width, prof.Height, prof.SPP = 64, 36, 10
	a, err := LoadCuburnFile("../../configs/flame/flock/edges/simple-a=simple-b.json", prof,
		CuburnOptions{DB: "../../configs/flame/flock"})
	if err != nil {
		t.Fatal(err)
	}
	a.SetFrameCount(frames)
	return a
}

// TestEdgeFramesCountHitsFromAlpha: every temporal sample of a cuburn edge's
// frames plots full, unweighted alpha (the nodes' xforms are opaque), so
// hit counts come from alpha. The xforms' opacity splines evaluate to
// 1 - 2e-15 at some times; before nearOne, 68 of frame 11's 1024 samples
// failed the test, and the whole frame (a third of the edge's frames) kept
// a count array: the GPU iterated them at half speed.
func TestEdgeFramesCountHitsFromAlpha(t *testing.T) {
	a := simpleEdge(t, 120)
	for _, i := range []int{0, 10, 34, 60} {
		fs, err := a.Frame((float64(i) + 0.5) / 120)
		if err != nil {
			t.Fatal(err)
		}
		fp, err := fs.framePlan(Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for _, cg := range fp.games {
			if !cg.alphaHits() {
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("frame %d: %d of %d temporal samples do not count hits from alpha", i+1, bad, len(fp.games))
		}
	}
}
