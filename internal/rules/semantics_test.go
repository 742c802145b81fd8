package rules

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
)

func TestPlainWritesHighestIndexWins(t *testing.T) {
	p := compileSrc(t, `state { int a[3]  int s  int b[10] }
rule w over i in 0..10 {
  s = i
  a[i % 3] = i
  b[i] = 100     # one-to-one: in place
  b[i] = b[i] + i
}`)
	r := p.Rules[0]
	if r.PendMask != 1<<0|1<<1 || r.SnapMask != 1<<2 {
		t.Fatalf("pend %b snap %b", r.PendMask, r.SnapMask)
	}
	st := NewStates(p, 1)
	runCPU(t, p, st, Options{Steps: 1})
	if got := field(p, st, 0, "a"); fmt.Sprint(got) != "[9 7 8]" {
		t.Errorf("a = %v", got)
	}
	if got := field(p, st, 0, "s"); got[0] != 9 {
		t.Errorf("s = %v", got)
	}
	// b[i] reads the snapshot (0), not the 100 just written.
	if got := field(p, st, 0, "b"); fmt.Sprint(got) != "[0 1 2 3 4 5 6 7 8 9]" {
		t.Errorf("b = %v", got)
	}
}

func TestReadsSeeTheStateBeforeTheRule(t *testing.T) {
	p := compileSrc(t, `const N = 5
state { int a[N] }
rule rotate over i in 0..N { a[(i + 1) % N] = a[i] }`)
	st := NewStates(p, 1)
	setField(p, st, 0, "a", []int32{1, 2, 3, 4, 5})
	runCPU(t, p, st, Options{Steps: 2})
	if got := field(p, st, 0, "a"); fmt.Sprint(got) != "[4 5 1 2 3]" {
		t.Fatalf("a = %v", got)
	}
}

func TestAtomicAddSums(t *testing.T) {
	p := compileSrc(t, `state { int a[100] = 3  int total  float f }
rule sum over i in 0..100 when a[i] > 0 {
  total += a[i] * i
  f += 0.5
  a[i] += -1
}`)
	st := NewStates(p, 2)
	res := runCPU(t, p, st, Options{Steps: 10, UntilFixpoint: true})
	if got := field(p, st, 1, "total"); got[0] != 6*4950 {
		t.Errorf("total %d", got[0])
	}
	if f := math.Float32frombits(st.State(0)[p.Fields[2].Off]); f != 150 {
		t.Errorf("f %g", f)
	}
	if !res.FixpointReached || res.Steps != 4 || res.Fired[0][0] != 200 || res.StableAt[1] != 4 {
		t.Errorf("result %+v", res)
	}
}

func TestRuntimeErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`state { int a[10] }
rule bad over i in 0..10 when i >= 2 {
  a[i + 1] = 1
}`, "test.rules:3:3: rule bad, state 0, index 9, step 1: index 10 out of range for a[10]"},
		{`state { int a[4] }
rule bad over i in 0..4 {
  a[i] = 10 / (i - 2)
}`, "test.rules:3:13: rule bad, state 0, index 2, step 1: integer division by zero"},
		{`state { int a[4]  int k = 2 }
rule grow over i in 0..1 { k += 1 }
rule bad over i in 0..4 when a[k] == 0 { a[i] = 0 }`, "test.rules:3:30: rule bad, state 0, index 0, step 2: index 4 out of range for a[4]"},
	} {
		p := compileSrc(t, tc.src)
		st := NewStates(p, 3)
		_, err := CPU{}.Run(context.Background(), p, st, Options{Steps: 3})
		var re *RuntimeError
		if !errors.As(err, &re) || err.Error() != tc.want {
			t.Errorf("got %v\nwant %s", err, tc.want)
		}
	}
}
