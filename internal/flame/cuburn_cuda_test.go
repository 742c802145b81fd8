//go:build cuda

package flame

import (
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
	frameWithinCPUNoise(t, r, fs, "cuburn frame")
}
