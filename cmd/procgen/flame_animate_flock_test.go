package main

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// flockCorpus is cuburn's sample flock in the shared corpus.
const flockCorpus = "../../../shared/corpus/flames/flock"

// TestFlameAnimateFlockEdge animates three frames of a corpus edge at a
// tiny size through the command, with the corpus' preview profile (whose
// size --width/--height override), checks the files and their size, and
// that a frame differs from the next (the edge moves).
func TestFlameAnimateFlockEdge(t *testing.T) {
	if _, err := os.Stat(flockCorpus); err != nil {
		t.Skipf("no flock at %s", flockCorpus)
	}
	edge, _ := filepath.Abs(filepath.Join(flockCorpus, "edges", "electricsheep.244.00216=electricsheep.244.80674.json"))
	prof, _ := filepath.Abs(filepath.Join(flockCorpus, "profiles", "1080p.json"))
	simple, _ := filepath.Abs("../../testdata/flame/simple.flam3")
	isolate(t)
	dir := t.TempDir()
	pattern := filepath.Join(dir, "f%03d.png")
	code, msg := runFlameSequence(t, "-q", "--device", "cpu", "flame", "animate", edge, "--profile", prof,
		"--frames", "3", "--width", "32", "--height", "18", "--quality", "10", "-o", pattern)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	var pix [][]byte
	for i := 1; i <= 3; i++ {
		f, err := os.Open(filepath.Join(dir, "f00"+string(rune('0'+i))+".png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != 32 || b.Dy() != 18 {
			t.Fatalf("frame %d is %v, want 32x18", i, b)
		}
		var p []byte
		for y := 0; y < 18; y++ {
			for x := 0; x < 32; x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				p = append(p, byte(r>>8), byte(g>>8), byte(b>>8))
			}
		}
		pix = append(pix, p)
	}
	if string(pix[0]) == string(pix[1]) {
		t.Errorf("frames 1 and 2 are identical: the edge does not move")
	}
	if _, err := os.Stat(filepath.Join(dir, "f004.png")); err == nil {
		t.Errorf("a fourth frame was written for --frames 3")
	}
	// A flam3 input refuses the cuburn flags.
	code, msg = runFlameSequence(t, "flame", "animate", simple, "--profile", prof, "-o", pattern)
	if code != 2 || !strings.Contains(msg, "apply to cuburn JSON") {
		t.Errorf("--profile with a flam3 input: exit %d: %s", code, msg)
	}
}
