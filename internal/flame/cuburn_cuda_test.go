//go:build cuda

package flame

import (
	"context"
	"path/filepath"
	"testing"
)

// TestCUDACuburnFrameMatchesCPU: a motion-blurred frame of a corpus cuburn
// edge (1024 temporal genomes, a final xform on the destination side) on
// the GPU is as close to the CPU's as two CPU seeds are to each other.
func TestCUDACuburnFrameMatchesCPU(t *testing.T) {
	needFlock(t)
	r := cudaRenderer(t)
	a, err := LoadCuburnFile(filepath.Join(flockDir, "edges", "electricsheep.244.80674=electricsheep.244.80692.json"),
		DefaultCuburnProfile(), CuburnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Override(Options{Width: 320, Height: 180, Quality: 200}); err != nil {
		t.Fatal(err)
	}
	fs, err := a.Frame(0.5)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cpu1, _, err := CPU{}.RenderFrame(ctx, fs, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	cpu2, _, err := CPU{}.RenderFrame(ctx, fs, Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	gp, st, err := r.RenderFrame(ctx, fs, Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	noise := refMAD(cpu1.NRGBA(), cpu2.NRGBA())
	got := refMAD(gp.NRGBA(), cpu1.NRGBA())
	t.Logf("cuburn frame: MAD(gpu, cpu) %.3f, MAD(cpu seeds) %.3f, %d samples", got, noise, st.Samples)
	if got > 1.5*noise+0.5 {
		t.Fatalf("GPU frame differs from CPU by %.3f, more than the CPU's seed noise %.3f allows", got, noise)
	}
}
