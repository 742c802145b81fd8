package syntax

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

const configDir = "../../../configs/lsys"

func TestConfigsParse(t *testing.T) {
	tests := map[string]struct {
		steps      int
		angle      float64
		prods      int
		homo       int
		axiom      string
		stochastic bool
	}{
		"hilbert3d.l":         {6, 90, 4, 0, "A", false},
		"koch-island.l":       {6, 90, 1, 0, "F-F-F-F", false},
		"row-of-trees.l":      {9, 86, 1, 0, "F(1)", false},
		"plant2d.l":           {6, 22.5, 1, 0, "F", false},
		"tree3d.l":            {10, 18.95, 3, 0, "!(1)F(200)/(45)A", false},
		"stochastic-plant.l":  {10, 22.5, 3, 0, "F", true},
		"context-plant.l":     {29, 22.5, 10, 0, "F1F1F1", false},
		"plant-fig124a.l":     {5, 25.7, 1, 0, "F", false},
		"plant-fig124d.l":     {7, 20, 2, 0, "X", false},
		"sierpinski-gasket.l": {6, 60, 2, 2, "R", false},
		"dragon-curve.l":      {10, 90, 2, 2, "L", false},
		"monopodial-tree.l":   {10, 90, 3, 0, "A(1,10)", false},
		"bush-fig125.l":       {7, 22.5, 4, 0, "A", false},
		"pruned-bush.l":       {8, 30, 2, 0, "!(0.03)F(1)A?P(0,0,0)", false},
		"plant-fig126.l":      {5, 18, 7, 0, "P", false},
		"plant-fig32.l":       {16, 90, 6, 2, "a(1)", false},
		"lychnis-fig33.l":     {24, 90, 5, 2, "A(7)", false},
	}
	files, err := filepath.Glob(filepath.Join(configDir, "*.l"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no configs: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			want, ok := tests[name]
			if !ok {
				t.Fatalf("%s has no expectations in this test", name)
			}
			sys, err := ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			checkSystem(t, sys)
			if sys.Steps != want.steps || sys.Angle != want.angle || len(sys.Prods) != want.prods ||
				len(sys.Homo) != want.homo || modules(sys.Axiom) != want.axiom {
				t.Errorf("got steps %d angle %g prods %d homo %d axiom %s", sys.Steps, sys.Angle,
					len(sys.Prods), len(sys.Homo), modules(sys.Axiom))
			}
			for _, p := range sys.Prods {
				if p.Stochastic != want.stochastic {
					t.Errorf("production at %v: stochastic %v", p.Pos, p.Stochastic)
				}
			}
		})
	}
	if len(files) != len(tests) {
		t.Errorf("%d config files, %d expectations", len(files), len(tests))
	}
}

// lengths derives a context-free, deterministic, unconditional system by
// counting symbols only, and returns |w_0| .. |w_n|.
func lengths(t *testing.T, sys *lsys.System, n int) []int {
	t.Helper()
	var succ [256][]lsys.Module
	var has [256]bool
	for _, p := range sys.Prods {
		if len(p.Left)+len(p.Right) > 0 || p.Cond != nil || p.Stochastic || has[p.Pred] {
			t.Fatalf("production at %v is not context-free and deterministic", p.Pos)
		}
		succ[p.Pred], has[p.Pred] = p.Succ, true
	}
	var count [256]int
	for _, m := range sys.Axiom {
		count[m.Sym]++
	}
	var out []int
	for k := 0; ; k++ {
		total := 0
		for _, c := range count {
			total += c
		}
		out = append(out, total)
		if k == n {
			return out
		}
		var next [256]int
		for s, c := range count {
			if !has[s] {
				next[s] += c
				continue
			}
			for _, m := range succ[s] {
				next[m.Sym] += c
			}
		}
		count = next
	}
}

// TestBenchmarkCounts checks the benchmark configs against the string lengths
// of ../shared/corpus/lsys/abop-benchmarks.md and the module totals of the
// paper's Table 2.
func TestBenchmarkCounts(t *testing.T) {
	tests := []struct {
		file  string
		want  []int
		from  int // first length in the paper's total
		total int
	}{
		{"hilbert3d.l", []int{1, 29, 271, 2155, 17331, 138531, 1108547}, 1, 1266864},
		{"koch-island.l", []int{7, 47, 327, 2287, 16007, 112047, 784327}, 0, 915049},
		{"row-of-trees.l", []int{1, 8, 36, 148, 596, 2388, 9556, 38228, 152916, 611668}, 0, 815545},
		{"plant2d.l", []int{1, 20, 172, 1388, 11116, 88940, 711532}, 0, 813169},
		{"tree3d.l", []int{4, 22, 76, 238, 724, 2182, 6556, 19678, 59044, 177142, 531436}, 0, 797102},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			sys, err := ParseFile(filepath.Join(configDir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got := lengths(t, sys, sys.Steps)
			if len(got) != len(tt.want) {
				t.Fatalf("derivation length %d, want %d", sys.Steps, len(tt.want)-1)
			}
			total := 0
			for k := range got {
				if got[k] != tt.want[k] {
					t.Errorf("|w%d| = %d, want %d", k, got[k], tt.want[k])
				}
				if k >= tt.from {
					total += got[k]
				}
			}
			if total != tt.total {
				t.Errorf("total %d, want %d", total, tt.total)
			}
		})
	}
}

func TestContextPlant(t *testing.T) {
	sys, err := ParseFile(filepath.Join(configDir, "context-plant.l"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range sys.Prods {
		got = append(got, string(p.Left)+"<"+string(p.Pred)+">"+string(p.Right)+"->"+modules(p.Succ))
	}
	want := "0<0>0->0 0<0>1->1[+F1F1] 0<1>0->1 0<1>1->1 1<0>0->0 1<0>1->1F1 1<1>0->0 1<1>1->0 <+>->- <->->+"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	for s := 0; s < 256; s++ {
		if want := s == '+' || s == '-' || s == 'F'; sys.Ignore[s] != want {
			t.Errorf("Ignore[%q] = %v", rune(s), sys.Ignore[s])
		}
	}
}

// TestStochasticPlantExpectation checks the header of stochastic-plant.l:
// with its weights, w10 holds 1,078,326 modules on average.
func TestStochasticPlantExpectation(t *testing.T) {
	sys, err := ParseFile(filepath.Join(configDir, "stochastic-plant.l"))
	if err != nil {
		t.Fatal(err)
	}
	var sum, fs, others float64 // weights, and F and other modules per rewrite, weighted
	for _, p := range sys.Prods {
		if p.Pred != 'F' || !p.Stochastic {
			t.Fatalf("production at %v", p.Pos)
		}
		nf := strings.Count(modules(p.Succ), "F")
		sum += p.Prob
		fs += p.Prob * float64(nf)
		others += p.Prob * float64(len(p.Succ)-nf)
	}
	f, e := fs/sum, others/sum
	fn := math.Pow(f, float64(sys.Steps))
	if got := math.Round(fn + e*(fn-1)/(f-1)); sys.Steps != 10 || got != 1078326 {
		t.Errorf("expected |w%d| = %.0f, the header says 1,078,326", sys.Steps, got)
	}
}
