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

// The identity of the 3x3 sandpile group is stab(6 - stab(6)) =
// [2 1 2; 1 0 1; 2 1 2] (Creutz; Le Borgne and Rossin).
func TestSandpileIdentity3x3(t *testing.T) {
	p := compileConfig(t, "sandpile.rules", map[string]string{"W": "3", "H": "3"})
	st := NewStates(p, 1)
	six := []int32{6, 6, 6, 6, 6, 6, 6, 6, 6}
	setField(p, st, 0, "s", six)
	if res := runCPU(t, p, st, Options{Steps: 1000, UntilFixpoint: true}); !res.FixpointReached {
		t.Fatal("no fixed point")
	}
	s1 := field(p, st, 0, "s")
	for k := range s1 {
		s1[k] = 6 - s1[k]
	}
	setField(p, st, 0, "s", s1)
	runCPU(t, p, st, Options{Steps: 1000, UntilFixpoint: true})
	if got := field(p, st, 0, "s"); fmt.Sprint(got) != "[2 1 2 1 0 1 2 1 2]" {
		t.Fatalf("identity %v", got)
	}
}

// Parallel toppling reaches the sequential process's fixed point, and grains
// are conserved except those lost over the edge.
func TestSandpileMatchesSequential(t *testing.T) {
	p := compileConfig(t, "sandpile.rules", map[string]string{"W": "12", "H": "9"})
	st := Generate(p, 20, 3)
	want := make([][]int32, st.N)
	tops := make([]int32, st.N)
	for s := range want {
		g := field(p, st, s, "s")
		for changed := true; changed; {
			changed = false
			for k := range g {
				if g[k] >= 4 {
					changed = true
					g[k] -= 4
					tops[s]++
					x, y := k%12, k/12
					if x > 0 {
						g[k-1]++
					}
					if x < 11 {
						g[k+1]++
					}
					if y > 0 {
						g[k-12]++
					}
					if y < 8 {
						g[k+12]++
					}
				}
			}
		}
		want[s] = g
	}
	res := runCPU(t, p, st, Options{Steps: 10000, UntilFixpoint: true})
	if !res.FixpointReached {
		t.Fatal("no fixed point")
	}
	for s := range want {
		if got := field(p, st, s, "s"); fmt.Sprint(got) != fmt.Sprint(want[s]) {
			t.Fatalf("state %d: %v, want %v", s, got, want[s])
		}
		if got := field(p, st, s, "topplings")[0]; got != tops[s] {
			t.Fatalf("state %d: %d topplings, want %d", s, got, tops[s])
		}
	}
}

// Game of Life: a block is still (a fixed point after one step), a blinker
// has period 2 (never a fixed point), a glider moves one cell diagonally
// every 4 generations.
func TestLifePatterns(t *testing.T) {
	p := compileConfig(t, "life.rules", nil)
	grid := func(cells ...[2]int) []int32 {
		g := make([]int32, 256)
		for _, c := range cells {
			g[(c[1]%16)*16+c[0]%16] = 1
		}
		return g
	}
	st := NewStates(p, 3)
	block := grid([2]int{5, 5}, [2]int{6, 5}, [2]int{5, 6}, [2]int{6, 6})
	blinker := grid([2]int{3, 8}, [2]int{4, 8}, [2]int{5, 8})
	glider := func(dx, dy int) []int32 {
		return grid([2]int{1 + dx, 0 + dy}, [2]int{2 + dx, 1 + dy}, [2]int{0 + dx, 2 + dy}, [2]int{1 + dx, 2 + dy}, [2]int{2 + dx, 2 + dy})
	}
	setField(p, st, 0, "c", block)
	setField(p, st, 1, "c", blinker)
	setField(p, st, 2, "c", glider(0, 0))
	res := runCPU(t, p, st, Options{Steps: 64, UntilFixpoint: true, Trace: []int{1}})
	if res.FixpointReached || res.StableAt[0] != 1 || res.StableAt[1] != 0 {
		t.Fatalf("stable at %v", res.StableAt)
	}
	if got := field(p, st, 0, "c"); fmt.Sprint(got) != fmt.Sprint(block) {
		t.Error("block changed")
	}
	if got := field(p, st, 1, "c"); fmt.Sprint(got) != fmt.Sprint(blinker) {
		t.Error("blinker not back after an even number of steps")
	}
	if got := field(p, st, 2, "c"); fmt.Sprint(got) != fmt.Sprint(glider(16, 16)) {
		t.Error("glider not back after 64 steps on a 16x16 torus")
	}
	if len(res.Trace) != 65 || res.Trace[1].Fired != 4 {
		t.Errorf("trace: %d records, first fired %d", len(res.Trace), res.Trace[1].Fired)
	}
	st2 := NewStates(p, 1)
	setField(p, st2, 0, "c", glider(0, 0))
	runCPU(t, p, st2, Options{Steps: 8})
	if got := field(p, st2, 0, "c"); fmt.Sprint(got) != fmt.Sprint(glider(2, 2)) {
		t.Error("glider did not move (2,2) in 8 steps")
	}
}
