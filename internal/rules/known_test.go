package rules

import (
	"fmt"
	"testing"
)

// Rule 90 from one live cell draws Pascal's triangle mod 2: after t steps,
// cell c+x is C(t, (t+x)/2) mod 2, which is 1 when k&(t-k) == 0 (Lucas).
func TestECARule90IsPascalMod2(t *testing.T) {
	p := compileConfig(t, "eca.rules", map[string]string{"RULE": "90", "N": "128"})
	for _, steps := range []int{1, 5, 17, 31, 63} {
		st := NewStates(p, 1)
		cell := make([]int32, 128)
		cell[64] = 1
		setField(p, st, 0, "cell", cell)
		runCPU(t, p, st, Options{Steps: steps})
		got := field(p, st, 0, "cell")
		for x := -64; x < 64; x++ {
			want := int32(0)
			if (steps+x)%2 == 0 && x >= -steps && x <= steps {
				k := (steps + x) / 2
				if k&(steps-k) == 0 {
					want = 1
				}
			}
			if got[64+x] != want {
				t.Fatalf("step %d cell %d: %d, want %d", steps, 64+x, got[64+x], want)
			}
		}
	}
}

// Rules 30 and 110 on random rings match a direct implementation.
func TestECAMatchesDirect(t *testing.T) {
	for _, rule := range []int{30, 110, 184} {
		p := compileConfig(t, "eca.rules", map[string]string{"RULE": fmt.Sprint(rule)})
		st := Generate(p, 50, 7)
		want := make([][]int32, st.N)
		for s := range want {
			c := field(p, st, s, "cell")
			for range 40 {
				n := len(c)
				next := make([]int32, n)
				for i := range c {
					v := 4*c[(i+n-1)%n] + 2*c[i] + c[(i+1)%n]
					next[i] = int32(rule>>v) & 1
				}
				c = next
			}
			want[s] = c
		}
		runCPU(t, p, st, Options{Steps: 40})
		for s := range want {
			if got := field(p, st, s, "cell"); fmt.Sprint(got) != fmt.Sprint(want[s]) {
				t.Fatalf("rule %d state %d:\n got %v\nwant %v", rule, s, got, want[s])
			}
		}
	}
}
