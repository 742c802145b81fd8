package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/procgen-dev/procgen/internal/flame"
)

// runFlameSequence runs procgen with args, with 'flame sequence' wired in
// even where newFlameCmd does not add it yet.
func runFlameSequence(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	a := newApp(nil, &stdout, &stderr)
	root := a.newRootCmd()
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	if err != nil {
		stderr.WriteString(err.Error())
	}
	return exitCode(err), stderr.String()
}

// TestFlameSequence: two genomes make loops and an edge that 'flame
// animate' reads and renders; --rotate and --inter make one loop or edge;
// wrong genome counts are usage errors and write nothing.
func TestFlameSequence(t *testing.T) {
	a, _ := filepath.Abs("../../testdata/flame/simple.flam3")
	b, _ := filepath.Abs("../../testdata/flame/heavy.flam3")
	isolate(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "ab.flam3")
	if code, msg := runFlameSequence(t, "-q", "flame", "sequence", a, b, "--loop-frames", "2", "--edge-frames", "3",
		"--temporal-samples", "3", "--temporal-filter", "exp", "--temporal-filter-exp", "2", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	an, _, err := flame.ParseAnimationFile(out, flame.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(an.Keys); n != 2+3+2+1 {
		t.Fatalf("%d keyframes, want 8 (loop 2, edge 3, loop 2, closing 1)", n)
	}
	for _, k := range an.Keys {
		if k.TemporalSamples != 3 || k.TemporalFilter != flame.TemporalExp || k.TemporalFilterExp != 2 {
			t.Fatalf("keyframe at %g: temporal samples %d, filter %d exp %g", k.Time, k.TemporalSamples, k.TemporalFilter, k.TemporalFilterExp)
		}
	}
	frames := filepath.Join(dir, "f%d.png")
	if code, msg := runFlameSequence(t, "-q", "--device", "cpu", "flame", "animate", out, "--begin", "3", "--end", "3",
		"--width", "32", "--quality", "2", "-o", frames); code != 0 {
		t.Fatalf("animate: exit %d: %s", code, msg)
	}
	if _, err := os.Stat(filepath.Join(dir, "f3.png")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		keys int
	}{
		{[]string{a, "--rotate", "--loop-frames", "4"}, 5},
		{[]string{a, b, "--inter", "--edge-frames", "6"}, 7},
	} {
		o := filepath.Join(dir, "one.flam3")
		args := append([]string{"-q", "flame", "sequence", "-o", o}, tc.args...)
		if code, msg := runFlameSequence(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, msg)
		}
		an, _, err := flame.ParseAnimationFile(o, flame.ParseOptions{})
		if err != nil || len(an.Keys) != tc.keys {
			t.Fatalf("%v: %v, want %d keyframes", tc.args, err, tc.keys)
		}
	}
	for _, args := range [][]string{{a, b, "--rotate"}, {a, "--inter"}, {a, b, "--edge-frames", "0"}, {a, "--rotate", "--inter"},
		{a, "--temporal-filter", "sinc"}} {
		o := filepath.Join(dir, "bad.flam3")
		code, msg := runFlameSequence(t, append([]string{"flame", "sequence", "-o", o}, args...)...)
		if code != exitUsage {
			t.Errorf("%v: exit %d (%s), want %d", args, code, msg, exitUsage)
		}
		if _, err := os.Stat(o); err == nil {
			t.Errorf("%v: wrote %s", args, o)
		}
	}
}
