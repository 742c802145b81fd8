//go:build cuda

package rules

import (
	"context"
	"fmt"
	"testing"
)

// TestCUDARecordMatchesCPU: --record's values on the GPU (one step a
// launch, the states reduced on the host) equal the CPU's, with fixed
// points reached early and runs in parts (RunEvery, the frames' path),
// both kernels.
func TestCUDARecordMatchesCPU(t *testing.T) {
	c := cudaEngine(t)
	life := compileConfig(t, "life.rules", map[string]string{"W": "12", "H": "10"})
	fire := compileConfig(t, "forestfire.rules", map[string]string{"W": "16", "H": "12"})
	for _, tc := range []struct {
		name string
		p    *Program
		o    Options
	}{
		{"life", life, Options{Steps: 60, UntilFixpoint: true}},
		{"forestfire", fire, Options{Steps: 25, Seed: 9}},
	} {
		f := tc.p.Fields[0].Name
		tc.o.Record = mustObservables(t, tc.p, "sum("+f+")", "count("+f+" == 1)", "max("+f+")")
		want := Generate(tc.p, 37, 2)
		wantRes, err := (CPU{}).Run(context.Background(), tc.p, want, tc.o)
		if err != nil {
			t.Fatal(err)
		}
		for _, interp := range []bool{true, false} {
			o := tc.o
			o.Interpreter = interp
			for _, every := range []int{0, 7} {
				got := Generate(tc.p, 37, 2)
				var res *Result
				if every == 0 {
					res, err = c.Run(context.Background(), tc.p, got, o)
				} else {
					res, err = RunEvery(context.Background(), c, tc.p, got, o, every, func(int) error { return nil })
				}
				if err != nil {
					t.Fatal(err)
				}
				if k := differ(tc.p, want.Data, got.Data); k >= 0 {
					t.Errorf("%s interpreter=%v every=%d: word %d differs", tc.name, interp, every, k)
				}
				if a, b := fmt.Sprint(wantRes.Records, wantRes.Steps, wantRes.StableAt), fmt.Sprint(res.Records, res.Steps, res.StableAt); a != b {
					t.Errorf("%s interpreter=%v every=%d: records differ:\n got %s\nwant %s", tc.name, interp, every, b, a)
				}
			}
		}
	}
}
