//go:build cuda

package flame

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestCUDASequenceRoundtrip: the frames of procgen's loop+edge sequence of
// the two round-trip genomes, rendered on the GPU, are within flam3's noise
// of flam3-animate's render where flam3 is on PATH (and -short is not set),
// else within the CPU's seed noise of the CPU's frame (which the CPU round
// trip holds to flam3's).
func TestCUDASequenceRoundtrip(t *testing.T) {
	r := cudaRenderer(t)
	srcs := roundtripSources(t)
	seq := filepath.Join(t.TempDir(), "procgen_seq.flam3")
	if err := os.WriteFile(seq, ourSequence(t, srcs), 0o644); err != nil {
		t.Fatal(err)
	}
	a := roundtripAnimation(t, seq)
	if animate, err := exec.LookPath("flam3-animate"); err == nil && !testing.Short() {
		compareWithFlam3(t, r, animate, seq, a, roundtripFrames)
		return
	}
	t.Log("no flam3-animate on PATH (or -short): the GPU frames are compared with the CPU's")
	for _, n := range roundtripFrames {
		fs, err := a.Frame(float64(n))
		if err != nil {
			t.Fatal(err)
		}
		frameWithinCPUNoise(t, r, fs, fmt.Sprintf("sequence frame %d", n))
	}
}
