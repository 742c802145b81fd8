package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A 1024x1024 Life board (2^20 indices: past the narrow GPU kernels'
// 2^19) runs under --device auto, and the GPU backend no longer turns it
// away (internal/rules' wide kernels take up to 2^31 indices).
// internal/rules' TestCUDALife1024MatchesCPU runs such boards on the GPU.
func TestRulesBoardBeyondGPURange(t *testing.T) {
	life, _ := filepath.Abs("../../configs/rules/life.rules")
	isolate(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-v", "--device", "auto", "rules", "run", life, "-D", "W=1024", "-D", "H=1024",
		"--generate", "1", "--steps", "2", "-o", "out.csv"}, nil, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	// The cost model may still pick the CPU for one board of two steps
	// (the GPU would run it on one block); what must not appear is a refusal
	// of the range.
	if msg := stderr.String(); strings.Contains(msg, "1048576 indices") {
		t.Errorf("the board's range is refused on the GPU:\n%s", msg)
	}
	if fi, err := os.Stat("out.csv"); err != nil || fi.Size() < 2<<20 {
		t.Errorf("out.csv: %v", err)
	}
}

// -o boards.png draws the first states' Life boards in black and white;
// a rule file without a board is a usage error and writes nothing.
func TestRulesBoardPNG(t *testing.T) {
	life, _ := filepath.Abs("../../configs/rules/life.rules")
	eca, _ := filepath.Abs("../../configs/rules/eca.rules")
	isolate(t)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"-q", "rules", "run", life, "-D", "W=20", "-D", "H=10",
		"--generate", "5", "--steps", "4", "-o", "boards.png"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	f, err := os.Open("boards.png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// 5 boards: 3 columns, 2 rows of 20x10 cells at 8 pixels, 2-pixel gaps.
	if b := img.Bounds(); b.Dx() != 3*(160+2)+2 || b.Dy() != 2*(80+2)+2 {
		t.Fatalf("sheet %v", b)
	}
	inked := 0
	for y := range img.Bounds().Dy() {
		for x := range img.Bounds().Dx() {
			r, g, b, _ := img.At(x, y).RGBA()
			if r != g || g != b || (r != 0 && r != 0xffff && r>>8 != 128) {
				t.Fatalf("pixel (%d,%d) neither black, white nor the gap", x, y)
			}
			if r == 0 {
				inked++
			}
		}
	}
	if inked == 0 {
		t.Error("no live cells drawn")
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"-q", "rules", "run", eca, "-D", "N=7", "--generate", "2", "--steps", "1", "-o", "eca.png"},
		nil, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "no board") {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	if _, err := os.Stat("eca.png"); err == nil {
		t.Error("eca.png written")
	}
}
