package layouttest

import (
	"fmt"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
)

func TestSnake(t *testing.T) {
	for in, want := range map[string]string{"ColorSpeed": "color_speed", "NXforms": "nxforms", "BW": "bw",
		"X0": "x0", "IDs": "ids", "LinearW": "linear_w", "TreeOff": "tree_off", "Width0": "width0", "A": "a"} {
		if got := Snake(in); got != want {
			t.Errorf("Snake(%q) = %q, want %q", in, got, want)
		}
	}
}

// recorder is a testing.TB that keeps the errors Check reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

type sampleItem struct {
	PosX   float32
	N      int32
	Weight float64
}

type sampleItemWrong struct { // the C struct has padding-free pos_x, n: this one swaps them
	N      int32
	PosX   float32
	Weight float32
}

func TestCheck(t *testing.T) {
	h := Header{Dir: "testdata", File: "sample.cuh", Consts: map[string]int64{"SAMPLE_COUNT": 7},
		Structs: []Struct{{C: "SampleItem", Go: sampleItem{}}}}
	Check(t, h) // must pass

	r := &recorder{TB: t}
	h.Structs = []Struct{{C: "SampleItem", Go: sampleItemWrong{}, Fields: []string{"n", "pos_x", "weight"}}}
	h.Consts = map[string]int64{"SAMPLE_COUNT": 8}
	Check(r, h)
	if len(r.errs) != 4 { // size, two offsets, the constant
		t.Errorf("a wrong mirror gave %d errors, want 4: %q", len(r.errs), r.errs)
	}
}

func TestWordsRoundTrip(t *testing.T) {
	in := sampleItem{PosX: 1.5, N: -3, Weight: 2.25}
	w := gpu.Words(in)
	if len(w) != 4 {
		t.Fatalf("%d words, want 4", len(w))
	}
	var out sampleItem
	if err := gpu.Decode(w, &out); err != nil || out != in {
		t.Errorf("Decode(Words(%v)) = %v, %v", in, out, err)
	}
}
