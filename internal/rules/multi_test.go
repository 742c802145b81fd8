package rules

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// TestMultiMatchesOneEngine: the states cut over several engines give the
// one engine's states, firing counts, fixed points, trace and step count,
// for step counts and runs to a fixed point, with more engines than states
// too.
func TestMultiMatchesOneEngine(t *testing.T) {
	for _, tc := range []struct {
		name    string
		defines map[string]string
		n       int
		o       Options
	}{
		{"eca.rules", map[string]string{"RULE": "110"}, 37, Options{Steps: 20, Trace: []int{0, 11, 36}}},
		{"life.rules", nil, 9, Options{Steps: 12, Trace: []int{4}}},
		{"sandpile.rules", map[string]string{"W": "6", "H": "5"}, 23, Options{Steps: 500, UntilFixpoint: true, Trace: []int{2, 22}}},
		{"synthetic.rules", nil, 5, Options{Steps: 2, NoFiredPerStep: true}},
	} {
		p := compileConfig(t, tc.name, tc.defines)
		for _, engines := range []int{2, 3, 7, 64} {
			want := Generate(p, tc.n, 9)
			got := &States{N: want.N, Words: want.Words, Data: append([]uint32(nil), want.Data...)}
			wres := runCPU(t, p, want, tc.o)
			m := Multi{}
			for i := 0; i < engines; i++ {
				m.Engines = append(m.Engines, CPU{})
			}
			var last, total int64
			o := tc.o
			o.Progress = func(d, t int64) { last, total = d, t }
			gres, err := m.Run(context.Background(), p, got, o)
			if err != nil {
				t.Fatalf("%s on %d engines: %v", tc.name, engines, err)
			}
			if !reflect.DeepEqual(got.Data, want.Data) {
				t.Fatalf("%s on %d engines: the states differ", tc.name, engines)
			}
			if gres.Steps != wres.Steps || gres.FixpointReached != wres.FixpointReached ||
				!reflect.DeepEqual(gres.Fired, wres.Fired) || !reflect.DeepEqual(gres.FiredTotal, wres.FiredTotal) ||
				!reflect.DeepEqual(gres.StableAt, wres.StableAt) || !reflect.DeepEqual(gres.Trace, wres.Trace) {
				t.Fatalf("%s on %d engines: results differ:\n%+v\nwant\n%+v", tc.name, engines, gres, wres)
			}
			if last != total || total == 0 {
				t.Fatalf("%s on %d engines: progress ended at %d of %d", tc.name, engines, last, total)
			}
		}
	}
}

// TestMultiReportsTheFirstFault: a fault in a later part at an earlier step
// wins over one in an earlier part, with the state numbered in the whole run.
func TestMultiReportsTheFirstFault(t *testing.T) {
	// k grows by one a step; once k > 7, a[k - 4] is out of range.
	p := compileSrc(t, `state { int a[4]  int k }
rule grow over i in 0..1 { k = k + 1 }
rule bad over i in 0..1 when k > 7 { a[k - 4] = 1 }
`)
	st := NewStates(p, 8)
	// State s starts with k = s: state 7 faults in step 1, state 6 in
	// step 2 ..., so the last part holds the fault to report.
	for s := 0; s < st.N; s++ {
		setField(p, st, s, "k", []int32{int32(s)})
	}
	one := &States{N: st.N, Words: st.Words, Data: append([]uint32(nil), st.Data...)}
	_, werr := CPU{}.Run(context.Background(), p, one, Options{Steps: 5})
	_, gerr := Multi{Engines: []Engine{CPU{}, CPU{}, CPU{}}}.Run(context.Background(), p, st, Options{Steps: 5})
	var we, ge *RuntimeError
	if !errors.As(werr, &we) || !errors.As(gerr, &ge) {
		t.Fatalf("errors %v and %v, want runtime errors", werr, gerr)
	}
	if we.State != 7 || we.Error() != ge.Error() {
		t.Fatalf("Multi reports %q, one engine %q", ge, we)
	}
}
