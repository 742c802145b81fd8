package rules

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/batch"
	"github.com/procgen-dev/procgen/internal/rules/progtest"
)

// TestFastPathsMatchInterpreter runs random programs through the bytecode
// interpreter and the batch evaluator (whole and split): final states bit for bit, fired
// counts, fixed points and runtime errors (the same text) must agree.
func TestFastPathsMatchInterpreter(t *testing.T) {
	n, seen := 400, 0
	if testing.Short() {
		n = 150
	}
	faults := 0
	g := progtest.New(rand.New(rand.NewPCG(1, 2)), false)
	for k := 0; seen < n && k < 20*n; k++ {
		src := g.Program()
		p, err := Compile("gen.rules", []byte(src), nil)
		if err != nil {
			continue
		}
		seen++
		o := Options{Steps: 1 + g.Pick(5), UntilFixpoint: g.Pick(2) == 0, Trace: []int{0}}
		states := 1 + g.Pick(4)
		for _, path := range []CPU{{Path: PathBatch}, {Path: PathBatch, parts: 1 + g.Pick(5), minSplit: 1}} {
			if ok, msg := pathAgrees(path, p, states, uint64(k), o); !ok {
				t.Fatalf("path %+v, program %d:\n%s\n%s", path, k, src, msg)
			} else if msg == "fault" && path.parts == 0 {
				faults++
			}
		}
	}
	if seen < n {
		t.Fatalf("only %d of the generated programs compiled", seen)
	}
	t.Logf("%d programs, %d ending in a runtime error", seen, faults)
}

// pathAgrees runs p on states generated from seed through the interpreter
// and through path.
func pathAgrees(path CPU, p *Program, states int, seed uint64, o Options) (bool, string) {
	if !batch.Fits(p) {
		return false, "does not fit the fast paths"
	}
	ref, got := Generate(p, states, seed), Generate(p, states, seed)
	wantRes, wantErr := CPU{Path: PathInterpret}.Run(context.Background(), p, ref, o)
	gotRes, gotErr := path.Run(context.Background(), p, got, o)
	if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
		return false, fmt.Sprintf("errors differ:\n got %v\nwant %v", gotErr, wantErr)
	}
	if wantErr != nil {
		return true, "fault"
	}
	if k := differ(p, ref.Data, got.Data); k >= 0 {
		return false, fmt.Sprintf("word %d: %#x, want %#x", k, got.Data[k], ref.Data[k])
	}
	if fmt.Sprint(wantRes.Fired, wantRes.StableAt, wantRes.Steps) != fmt.Sprint(gotRes.Fired, gotRes.StableAt, gotRes.Steps) {
		return false, fmt.Sprintf("results differ:\n got %v %v\nwant %v %v", gotRes.Fired, gotRes.StableAt, wantRes.Fired, wantRes.StableAt)
	}
	if len(wantRes.Trace) != len(gotRes.Trace) {
		return false, "traces differ in length"
	}
	for k, w := range wantRes.Trace {
		g := gotRes.Trace[k]
		if w.Step != g.Step || w.State != g.State || w.Fired != g.Fired || differ(p, w.Words, g.Words) >= 0 {
			return false, fmt.Sprintf("trace record %d differs", k)
		}
	}
	return true, ""
}

// differ returns the first word in which states differ, or -1: int words
// bit for bit, float words too except that any NaN equals any NaN (Go may
// swap the operands of a float multiplication, and with them which NaN's
// sign and payload survive; the GPU returns its canonical NaN).
func differ(p *Program, want, got []uint32) int {
	float := make([]bool, p.Words)
	for _, f := range p.Fields {
		for k := range f.Size {
			float[f.Off+k] = f.Type == Float
		}
	}
	for k := range want {
		if want[k] != got[k] && !(float[k%p.Words] && isNaN(want[k]) && isNaN(got[k])) {
			return k
		}
	}
	return -1
}

// TestFastPathsMatchInterpreterConfigs: the shipped rule files agree too.
func TestFastPathsMatchInterpreterConfigs(t *testing.T) {
	for _, tc := range []struct {
		name    string
		defines map[string]string
		steps   int
	}{
		{"eca.rules", map[string]string{"RULE": "30"}, 30},
		{"life.rules", map[string]string{"W": "13", "H": "11"}, 40},
		{"sandpile.rules", map[string]string{"W": "9", "H": "7"}, 200},
		{"synthetic.rules", map[string]string{"RANGE": "100", "LOAD": "7", "PHI": "3"}, 2},
	} {
		p := compileConfig(t, tc.name, tc.defines)
		for _, path := range []CPU{{Path: PathBatch}, {Path: PathBatch, parts: 3, minSplit: 1}} {
			if ok, msg := pathAgrees(path, p, 9, 5, Options{Steps: tc.steps, UntilFixpoint: true}); !ok {
				t.Errorf("%s: path %+v: %s", tc.name, path, msg)
			}
		}
	}
}
