package rules

import (
	"context"
	"fmt"
	"testing"
)

// TestRunEveryIsOneRun: a run in parts of k steps (frames) ends where one
// run ends: states, firings, fixed points, traces, records, and draws
// keyed by the step counted from the start; after sees steps 0, k, 2k ...
func TestRunEveryIsOneRun(t *testing.T) {
	life := compileConfig(t, "life.rules", map[string]string{"W": "7", "H": "6"})
	fire := compileConfig(t, "forestfire.rules", map[string]string{"W": "9", "H": "8"})
	for _, tc := range []struct {
		name  string
		p     *Program
		o     Options
		every int
	}{
		{"life", life, Options{Steps: 40, Trace: []int{0, 3}}, 3},
		{"life-fixpoint", life, Options{Steps: 200, UntilFixpoint: true, Trace: []int{1}}, 7},
		{"forestfire", fire, Options{Steps: 11, Seed: 3, Trace: []int{2}}, 4},
		{"forestfire-every-step", fire, Options{Steps: 5, Seed: 3}, 1},
	} {
		tc.o.Record = mustObservables(t, tc.p, "sum("+tc.p.Fields[0].Name+")", "max("+tc.p.Fields[0].Name+")")
		for _, e := range []Engine{CPU{}, CPU{Path: PathInterpret}} {
			want := Generate(tc.p, 5, 8)
			wantRes, err := e.Run(context.Background(), tc.p, want, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			got := Generate(tc.p, 5, 8)
			var seen []int
			gotRes, err := RunEvery(context.Background(), e, tc.p, got, tc.o, tc.every, func(step int) error {
				seen = append(seen, step)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if k := differ(tc.p, want.Data, got.Data); k >= 0 {
				t.Errorf("%s: word %d differs", tc.name, k)
			}
			if a, b := fmt.Sprint(wantRes.Fired, wantRes.FiredTotal, wantRes.StableAt, wantRes.Steps, wantRes.FixpointReached, wantRes.Records),
				fmt.Sprint(gotRes.Fired, gotRes.FiredTotal, gotRes.StableAt, gotRes.Steps, gotRes.FixpointReached, gotRes.Records); a != b {
				t.Errorf("%s: results differ:\n got %s\nwant %s", tc.name, b, a)
			}
			if fmt.Sprint(wantRes.Trace) != fmt.Sprint(gotRes.Trace) {
				t.Errorf("%s: traces differ: %d records, want %d", tc.name, len(gotRes.Trace), len(wantRes.Trace))
			}
			if seen[0] != 0 || seen[1] != min(tc.every, gotRes.Steps) || seen[len(seen)-1] < gotRes.Steps {
				t.Errorf("%s: after saw steps %v", tc.name, seen)
			}
		}
	}
}

// TestRunEveryFaultStep: a fault in a later part names the step counted
// from the start.
func TestRunEveryFaultStep(t *testing.T) {
	p := compileSrc(t, "state { int a[4]  int n }\nrule r over i in 0..1 { n += 1 }\nrule s over i in 0..1 when n == 5 { a[n] = 1 }")
	_, err := RunEvery(context.Background(), CPU{}, p, Generate(p, 1, 1), Options{Steps: 9}, 2, func(int) error { return nil })
	_, want := (CPU{}).Run(context.Background(), p, Generate(p, 1, 1), Options{Steps: 9})
	if err == nil || fmt.Sprint(err) != fmt.Sprint(want) {
		t.Errorf("%v, want %v", err, want)
	}
}
