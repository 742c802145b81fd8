package flame

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func corpusAnimGenome(t *testing.T, name string) *AnimGenome {
	data, err := os.ReadFile(filepath.Join(animDir, "sources", name+".flam3"))
	if err != nil {
		t.Skipf("no flam3 animation corpus: %v", err)
	}
	ks, _, err := ParseAnimGenomes(data, name, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ks[0]
}

// TestSequenceMatchesFlam3Genome: the keyframes of a loop (one genome, 8
// frames) and of an edge (two genomes, no loops, 10 frames) are the ones
// flam3-genome sequence= wrote for the corpus (its raw output, before the
// times were stretched): xforms turned, aligned, padded and blended at
// smoothstep, palettes, camera.
func TestSequenceMatchesFlam3Genome(t *testing.T) {
	for _, tc := range []struct {
		raw   string
		src   []string
		loops int
		edges int
	}{
		{"A1_loop.raw", []string{"46_es243-16906_coppercat"}, 8, 0},
		{"A2_edge.raw", []string{"02_es247-16704_Jo1252", "25_es244-62750_Bananablob"}, 0, 10},
	} {
		var gs []*AnimGenome
		for _, s := range tc.src {
			gs = append(gs, corpusAnimGenome(t, s))
		}
		keys, err := Sequence(gs, SequenceOptions{LoopFrames: tc.loops, EdgeFrames: tc.edges})
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := ParseFile(filepath.Join(animDir, "sequences", tc.raw+".flam3"), ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) != len(want) {
			t.Fatalf("%s: %d keyframes, flam3-genome wrote %d", tc.raw, len(keys), len(want))
		}
		for i := range keys {
			if keys[i].Time != float64(i) {
				t.Errorf("%s: keyframe %d at time %g", tc.raw, i, keys[i].Time)
			}
			got := keys[i].Genome
			got.TemporalSamples = want[i].TemporalSamples // set by flam3-genome's template
			for _, d := range genomeDiffs(&got, want[i]) {
				t.Errorf("%s keyframe %d: %s", tc.raw, i, d)
			}
		}
		// What WriteAnimation writes reads back as the same animation.
		var buf bytes.Buffer
		if err := WriteAnimation(&buf, keys); err != nil {
			t.Fatal(err)
		}
		a, _, err := ParseAnimation(buf.Bytes(), tc.raw, ParseOptions{})
		if err != nil {
			t.Fatalf("%s: written sequence does not parse: %v", tc.raw, err)
		}
		for _, tm := range []float64{0.5, 3.25, float64(len(keys)) - 1.5} {
			ref := (&Animation{Keys: keys}).At(tm)
			for _, d := range genomeDiffs(&a.At(tm).Genome, &ref.Genome) {
				t.Errorf("%s: written and read back, time %g: %s", tc.raw, tm, d)
			}
		}
	}
}

// TestSequenceErrors: impossible sequences are refused.
func TestSequenceErrors(t *testing.T) {
	g := twoKeys(t).Keys[0]
	for name, tc := range map[string]struct {
		gs []*AnimGenome
		o  SequenceOptions
	}{
		"none":        {nil, SequenceOptions{LoopFrames: 4}},
		"no loop":     {[]*AnimGenome{g}, SequenceOptions{}},
		"no edges":    {[]*AnimGenome{g, g}, SequenceOptions{LoopFrames: 3}},
		"negative":    {[]*AnimGenome{g}, SequenceOptions{LoopFrames: -1}},
		"stagger > 1": {[]*AnimGenome{g, g}, SequenceOptions{EdgeFrames: 3, Stagger: 2}},
	} {
		if _, err := Sequence(tc.gs, tc.o); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
