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

// TestCUDARecordOnDevice: observables of integer values reduce on the
// device (recordMode), float sums, means and extremes on the host; both
// equal the CPU's, on a board that goes tiled, on per-state kernels with
// fixed points reached early, and on a mix of float and int fields.
func TestCUDARecordOnDevice(t *testing.T) {
	c := cudaEngine(t)
	big := compileConfig(t, "life.rules", map[string]string{"W": "1024", "H": "1024"})
	small := compileConfig(t, "life.rules", map[string]string{"W": "12", "H": "10"})
	mixed := compileSrc(t, `state { int a[50] ~ uniform(-5, 5)  float f[30] ~ uniform(-1, 1) }
rule r over i in 0..50 when a[i] > -3 { a[i] = a[i] - 1 }
rule g over i in 0..30 when f[i] < 0.5 { f[i] = f[i] * 2 }`)
	for _, tc := range []struct {
		name   string
		p      *Program
		states int
		o      Options
		obs    []string
	}{
		{"big-tiled", big, 2, Options{Steps: 15}, []string{"sum(c)", "count(c == 1)", "min(c)", "max(c)", "mean(c)"}},
		{"small-fixpoint", small, 37, Options{Steps: 80, UntilFixpoint: true}, []string{"sum(c)", "count(c)", "max(c > 0)"}},
		{"mixed-device", mixed, 9, Options{Steps: 6}, []string{"sum(a)", "min(a)", "count(f > 0.25)", "count(f)", "max(f <= -0.5)"}},
		{"mixed-host", mixed, 9, Options{Steps: 6}, []string{"sum(a)", "sum(f)", "max(f)"}},
	} {
		tc.o.Record = mustObservables(t, tc.p, tc.obs...)
		want := Generate(tc.p, tc.states, 4)
		wantRes, err := (CPU{}).Run(context.Background(), tc.p, want, tc.o)
		if err != nil {
			t.Fatal(err)
		}
		for _, interp := range []bool{false, true} {
			o := tc.o
			o.Interpreter = interp
			got := Generate(tc.p, tc.states, 4)
			res, err := c.Run(context.Background(), tc.p, got, o)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := fmt.Sprint(wantRes.Records, wantRes.Steps, wantRes.StableAt), fmt.Sprint(res.Records, res.Steps, res.StableAt); a != b {
				t.Errorf("%s interpreter=%v: records differ:\n got %s\nwant %s", tc.name, interp, b, a)
			}
		}
	}
}

// TestRecordMode: which observables the device reduces (no GPU needed).
func TestRecordMode(t *testing.T) {
	p := compileSrc(t, "state { int a[4]  float f[4] }\nrule r over i in 0..4 { a[i] = 1 }")
	for text, want := range map[string]bool{
		"sum(a)": true, "mean(a)": true, "min(a)": true, "count(a)": true, "max(a >= 2)": true,
		"count(f)": true, "sum(f > 0)": true, "min(f == 1.5)": true,
		"sum(f)": false, "mean(f)": false, "min(f)": false, "max(f)": false,
	} {
		o := mustObservables(t, p, text)[0]
		if _, got := recordMode(p, o); got != want {
			t.Errorf("%s: on the device %v, want %v", text, got, want)
		}
	}
}
