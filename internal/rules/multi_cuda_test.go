//go:build cuda

package rules

import (
	"context"
	"reflect"
	"testing"
)

// TestCUDAMultiMatchesOneDevice: states cut over "several GPUs" (the test
// device named three times) end as on one GPU, with the same counts and
// fixed points.
func TestCUDAMultiMatchesOneDevice(t *testing.T) {
	e := cudaEngine(t)
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"life.rules", Options{Steps: 10, Trace: []int{3}}},
		{"sandpile.rules", Options{Steps: 2000, UntilFixpoint: true}},
	} {
		p := compileConfig(t, tc.name, nil)
		want := Generate(p, 50, 4)
		got := &States{N: want.N, Words: want.Words, Data: append([]uint32(nil), want.Data...)}
		wres, err := e.Run(context.Background(), p, want, tc.o)
		if err != nil {
			t.Fatal(err)
		}
		gres, err := Multi{Engines: []Engine{e, e, e}}.Run(context.Background(), p, got, tc.o)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Data, want.Data) || gres.Steps != wres.Steps ||
			!reflect.DeepEqual(gres.FiredTotal, wres.FiredTotal) || !reflect.DeepEqual(gres.StableAt, wres.StableAt) ||
			!reflect.DeepEqual(gres.Trace, wres.Trace) {
			t.Fatalf("%s: three parts differ from one run (steps %d, want %d)", tc.name, gres.Steps, wres.Steps)
		}
	}
}
