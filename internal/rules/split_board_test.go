package rules_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules"
	"github.com/procgen-dev/procgen/internal/rules/golly"
	"github.com/procgen-dev/procgen/internal/rules/progtest"
)

// TestSplitBoardMatchesOneCore: one board split over many goroutines (the
// CPU's way to use every core when there are fewer states than cores) ends
// in the words, firings and records of the one-goroutine run, for Life,
// a Generations rule, a Hensel rule, Larger-than-Life of radius 3 and the
// forest fire (whose draws are keyed by step, rule, state and index, so no
// split may change them), on a torus and a plane of odd sizes, with bands
// down to a few cells: narrower than a neighbourhood's radius.
func TestSplitBoardMatchesOneCore(t *testing.T) {
	const w, h = 517, 301
	type board struct {
		name  string
		prog  func(t *testing.T, w, h int) *rules.Program
		steps int
	}
	notation := func(s string) func(t *testing.T, w, h int) *rules.Program {
		return func(t *testing.T, w, h int) *rules.Program {
			r, err := golly.Parse(fmt.Sprintf("%s%d,%d", s, w, h))
			if err != nil {
				t.Fatal(err)
			}
			p, err := golly.Compile(r, nil)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	config := func(name string) func(t *testing.T, w, h int) *rules.Program {
		return func(t *testing.T, w, h int) *rules.Program {
			return progtest.CompileConfig(t, name, map[string]string{"W": fmt.Sprint(w), "H": fmt.Sprint(h)})
		}
	}
	boards := []board{
		{"life.rules", config("life.rules"), 12},
		{"forestfire.rules", config("forestfire.rules"), 12},
		{"B3/S23 torus", notation("B3/S23:T"), 12},
		{"B3/S23 plane", notation("B3/S23:P"), 12},
		{"Brian's Brain torus", notation("/2/3:T"), 12},
		{"B2/S/C4 plane", notation("B2/S/C4:P"), 12},
		{"Hensel B2-a/S12 torus", notation("B2-a/S12:T"), 8},
		{"LtL R3 plane", notation("R3,C0,M1,S9..19,B10..15,NM:P"), 6},
		{"LtL R3 torus", notation("R3,C0,M1,S9..19,B10..15,NM:T"), 6},
	}
	for _, b := range boards {
		t.Run(b.name, func(t *testing.T) {
			// The big board in bands of hundreds of rows; a small one in
			// bands of a few cells, fewer than a row, and one index each.
			for _, c := range []struct{ w, h, parts, min int }{
				{w, h, 2, 0}, {w, h, 7, 1}, {23, 17, 9, 1}, {23, 17, 23 * 17, 1},
			} {
				p := b.prog(t, c.w, c.h)
				init := rules.Generate(p, 1, 5)
				o := rules.Options{Steps: b.steps, Seed: 3, FirstState: 2,
					Record: []rules.Observable{mustObservable(t, p)}}
				one := &rules.States{N: 1, Words: init.Words, Data: slices.Clone(init.Data)}
				want, err := rules.CPU{Path: rules.PathBatch}.Run(context.Background(), p, one, withWorkers(o, 1))
				if err != nil {
					t.Fatal(err)
				}
				split := &rules.States{N: 1, Words: init.Words, Data: slices.Clone(init.Data)}
				got, err := rules.SplitCPU(c.parts, c.min).Run(context.Background(), p, split, o)
				if err != nil {
					t.Fatal(err)
				}
				if slices.Equal(init.Data, one.Data) {
					t.Fatalf("%dx%d: %d steps changed nothing: the test would not see a split's mistake", c.w, c.h, b.steps)
				}
				if k := firstDiff(one.Data, split.Data); k >= 0 {
					t.Fatalf("%dx%d in %d parts: word %d is %d, one goroutine ends with %d", c.w, c.h, c.parts, k, split.Data[k], one.Data[k])
				}
				if fmt.Sprint(got.Fired, got.Records) != fmt.Sprint(want.Fired, want.Records) {
					t.Fatalf("%dx%d in %d parts: firings or records differ from one goroutine's", c.w, c.h, c.parts)
				}
			}
		})
	}
}

func withWorkers(o rules.Options, n int) rules.Options {
	o.Workers = n
	return o
}

// mustObservable counts the cells of the program's first field that are 1.
func mustObservable(t *testing.T, p *rules.Program) rules.Observable {
	ob, err := rules.ParseObservable(p, fmt.Sprintf("count(%s == 1)", p.Fields[0].Name))
	if err != nil {
		t.Fatal(err)
	}
	return ob
}

func firstDiff(a, b []uint32) int {
	for k := range a {
		if a[k] != b[k] {
			return k
		}
	}
	return -1
}
