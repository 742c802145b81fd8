package flame_test

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/flame/cuburn"
)

// simpleEdge is the flock's simple-a=simple-b edge at 64x36, 10 samples per
// pixel, in frames frames.
func simpleEdge(t *testing.T, frames int) *cuburn.Anim {
	t.Helper()
	prof := cuburn.DefaultProfile()
	prof.Width, prof.Height, prof.SPP = 64, 36, 10
	a, err := cuburn.LoadFile("../../configs/flame/flock/edges/simple-a=simple-b.json", prof,
		cuburn.Options{DB: "../../configs/flame/flock"})
	if err != nil {
		t.Fatal(err)
	}
	a.SetFrameCount(frames)
	return a
}

// TestEdgeFramesCountHitsFromAlpha: every temporal sample of a cuburn edge's
// frames plots full, unweighted alpha (the nodes' xforms are opaque), so
// hit counts come from alpha. The xforms' opacity splines evaluate to
// 1 - 2e-15 at some times; before nearOne (TestNearOneOpacity), 68 of frame
// 11's 1024 samples failed the test, and the whole frame (a third of the
// edge's frames) kept a count array: the GPU iterated them at half speed.
func TestEdgeFramesCountHitsFromAlpha(t *testing.T) {
	a := simpleEdge(t, 120)
	for _, i := range []int{0, 10, 34, 60} {
		fs, err := a.Frame((float64(i) + 0.5) / 120)
		if err != nil {
			t.Fatal(err)
		}
		alpha, total, err := flame.FrameAlphaHits(fs, flame.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if alpha != total {
			t.Errorf("frame %d: %d of %d temporal samples do not count hits from alpha", i+1, total-alpha, total)
		}
	}
}

// TestFitShapesEdgeStart: see flame.CheckFitShapesEdgeStart.
func TestFitShapesEdgeStart(t *testing.T) {
	fs, err := simpleEdge(t, 24).Frame(0.5 / 24)
	if err != nil {
		t.Fatal(err)
	}
	flame.CheckFitShapesEdgeStart(t, fs)
}

// BenchmarkFlockFrameHost is the host's work for one frame of `make
// bench-anim`'s edge at cuburn's 1080p profile (1024 temporal samples):
// interpolating the samples' genomes, planning them and packing their
// device inputs, as the animation pipeline does beside the device's
// rendering (the packing one sample after another here, on every core
// there).
func BenchmarkFlockFrameHost(b *testing.B) {
	prof, err := cuburn.ReadProfile("../../configs/flame/flock/profiles/1080p.json")
	if err != nil {
		b.Fatal(err)
	}
	a, err := cuburn.LoadFile("../../configs/flame/flock/edges/simple-a=simple-b.json", prof,
		cuburn.Options{DB: "../../configs/flame/flock"})
	if err != nil {
		b.Fatal(err)
	}
	a.SetFrameCount(120)
	for i := 0; i < b.N; i++ {
		fs, err := a.Frame((float64(i%120) + 0.5) / 120)
		if err != nil {
			b.Fatal(err)
		}
		if err := flame.FrameHostWork(fs, flame.Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
