package pga

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// The CPU engine is Grammar.Evaluate with KeepTerminals and
// Grammar.EvaluateStatsLots without: the same terminals, statistics and
// overflows as calling those directly, under the context it is given.
func TestCPUEngine(t *testing.T) {
	g, axioms, opt := scenes["Skyscrapers"].load(t, 6, 5)
	grid := scenes["Skyscrapers"].grid
	grid.Seed, grid.Cols, grid.Rows = 1, 6, 5
	lots, err := grid.Lots()
	if err != nil {
		t.Fatal(err)
	}
	want, err := g.Evaluate(axioms, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("the scene made no terminals")
	}
	wantOver := g.Overflows(want, lots, 0.01)
	var e Engine = CPU{Grammar: g}

	keep := opt
	keep.KeepTerminals, keep.Lots, keep.OverflowTol = true, lots, 0.01
	res, err := e.Evaluate(context.Background(), axioms, keep)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Terminals, want) || res.Stats.Terminals != len(want) {
		t.Fatalf("kept %d terminals (stats %d), Grammar.Evaluate made %d", len(res.Terminals), res.Stats.Terminals, len(want))
	}
	if !reflect.DeepEqual(res.Overflows, wantOver) {
		t.Fatalf("overflows %v, want %v", res.Overflows, wantOver)
	}

	count := opt
	count.Lots, count.OverflowTol = lots, 0.01
	res, err = e.Evaluate(context.Background(), axioms, count)
	if err != nil {
		t.Fatal(err)
	}
	if res.Terminals != nil {
		t.Fatalf("kept %d terminals without KeepTerminals", len(res.Terminals))
	}
	if ws := g.Stats(want); !reflect.DeepEqual(res.Stats, ws) {
		t.Fatalf("statistics %+v, want %+v", res.Stats, ws)
	}
	if !reflect.DeepEqual(res.Overflows, wantOver) {
		t.Fatalf("counted overflows %v, want %v", res.Overflows, wantOver)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, o := range []Options{keep, count} {
		if _, err := e.Evaluate(ctx, axioms, o); !errors.Is(err, context.Canceled) {
			t.Fatalf("KeepTerminals %v under a cancelled context: %v", o.KeepTerminals, err)
		}
	}
}
