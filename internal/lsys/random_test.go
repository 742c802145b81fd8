package lsys_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
	"github.com/procgen-dev/procgen/internal/rng"
)

func deriveRandom(t *testing.T, src string, n int, seed uint64) (*lsys.System, *lsys.String) {
	t.Helper()
	sys, err := syntax.Parse("r.l", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	d, err := lsys.CPU{}.Derive(context.Background(), sys, lsys.DeriveOptions{Steps: n, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return sys, d.String
}

func params(sys *lsys.System, s *lsys.String, sym lsys.Symbol) [][]float64 {
	var out [][]float64
	po := 0
	for _, c := range s.Syms {
		n := int(sys.Arity[c])
		if c == sym {
			out = append(out, s.Params[po:po+n])
		}
		po += n
	}
	return out
}

func meanSD(xs []float64) (m, sd float64) {
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	for _, x := range xs {
		sd += (x - m) * (x - m)
	}
	return m, math.Sqrt(sd / float64(len(xs)-1))
}

func TestRandomDeterminism(t *testing.T) {
	grow := func(seed uint64) *lsys.String {
		_, s := deriveRandom(t, "axiom: A\nA --> A A B(ran(1))\n", 8, seed)
		return s
	}
	s1, s1b, s2 := grow(1), grow(1), grow(2)
	if !slices.Equal(s1.Params, s1b.Params) {
		t.Fatal("the same seed drew different numbers")
	}
	if slices.Equal(s1.Params, s2.Params) {
		t.Fatal("seeds 1 and 2 drew the same numbers")
	}
	// Draws differ from module to module and from step to step: no two of
	// the 255 B parameters (one per A per step) are equal.
	seen := map[float64]bool{}
	for _, v := range s1.Params {
		if seen[v] {
			t.Fatalf("two modules drew %v", v)
		}
		seen[v] = true
	}
	if len(seen) != 255 {
		t.Fatalf("%d draws, want 255", len(seen))
	}
}

func TestRandomStatistics(t *testing.T) {
	// 2^13 Z, then one more step turns each into the draws.
	sys, s := deriveRandom(t, "axiom: Z(0)\nZ(n) : n < 13 --> Z(n+1) Z(n+1)\n"+
		"Z(n) : n >= 13 --> R(ran(10)) N(nran(3, 2)) U(uniform(-1, 1)) T(ran(1), ran(1))\n", 14, 5)
	const n = 1 << 13
	col := func(sym lsys.Symbol, k int) []float64 {
		var out []float64
		for _, p := range params(sys, s, sym) {
			out = append(out, p[k])
		}
		if len(out) != n {
			t.Fatalf("%d %c modules, want %d", len(out), sym, n)
		}
		return out
	}
	r, nr, u, t0, t1 := col('R', 0), col('N', 0), col('U', 0), col('T', 0), col('T', 1)
	// Standard errors: ran(10) mean 5, sd 10/√12 = 2.887, so the mean's
	// sd is 0.032; nran(3,2): mean 3 (sd 0.022), sd 2; uniform(-1,1): mean
	// 0 (sd 0.0064). Bounds of 5 standard errors.
	checks := []struct {
		what           string
		xs             []float64
		mean, sd, tolM float64
		lo, hi         float64
	}{
		{"ran(10)", r, 5, 10 / math.Sqrt(12), 0.16, 0, 10},
		{"nran(3,2)", nr, 3, 2, 0.11, math.Inf(-1), math.Inf(1)},
		{"uniform(-1,1)", u, 0, 2 / math.Sqrt(12), 0.032, -1, 1},
		{"ran(1)", t0, 0.5, 1 / math.Sqrt(12), 0.016, 0, 1},
	}
	for _, c := range checks {
		m, sd := meanSD(c.xs)
		if math.Abs(m-c.mean) > c.tolM || math.Abs(sd-c.sd) > 0.05*c.sd {
			t.Errorf("%s: mean %.4f sd %.4f, want %.4f and %.4f", c.what, m, sd, c.mean, c.sd)
		}
		for _, x := range c.xs {
			if x < c.lo || x >= c.hi {
				t.Fatalf("%s drew %v, outside [%v, %v)", c.what, x, c.lo, c.hi)
			}
		}
	}
	// Two calls in one successor draw independently: their correlation
	// is within 5 standard errors (1/√n) of 0.
	m0, s0 := meanSD(t0)
	m1, s1 := meanSD(t1)
	cov := 0.0
	for i := range t0 {
		cov += (t0[i] - m0) * (t1[i] - m1)
	}
	if rho := cov / float64(n-1) / (s0 * s1); math.Abs(rho) > 5/math.Sqrt(n) {
		t.Errorf("ran(1), ran(1) in one module correlate: %.4f", rho)
	}
}

// TestRandomCondition: a condition with ran(1) < 0.25 holds for a quarter
// of 4096 modules (within 5 standard errors, 0.034).
func TestRandomCondition(t *testing.T) {
	sys, s := deriveRandom(t, "axiom: Z(0)\nZ(n) : n < 12 --> Z(n+1) Z(n+1)\n"+
		"Z(n) : ran(1) < 0.25 --> Y\nZ(n) --> W\n", 13, 9)
	y := len(params(sys, s, 'Y')) // Y has no parameters: count the modules
	if got := float64(y) / 4096; math.Abs(got-0.25) > 0.034 || s.Len() != 4096 {
		t.Errorf("%d of %d modules took the ran(1) < 0.25 branch (%.3f)", y, s.Len(), got)
	}
}

// TestRandomSiteChecked: Check refuses a random call whose last operand is
// not a constant call site, which the backends could convert differently.
func TestRandomSiteChecked(t *testing.T) {
	call := lsys.Instr{Op: lsys.OpCall, Arg: uint16(lsys.FnRan)}
	cases := []struct {
		name string
		e    lsys.Expr
		ok   bool
	}{
		{"site", lsys.Expr{Code: []lsys.Instr{{Op: lsys.OpConst}, {Op: lsys.OpConst, Arg: 1}, call}, Consts: []float64{2, 7}}, true},
		{"slot as site", lsys.Expr{Code: []lsys.Instr{{Op: lsys.OpConst}, {Op: lsys.OpSlot}, call}, Consts: []float64{2}}, false},
		{"negative site", lsys.Expr{Code: []lsys.Instr{{Op: lsys.OpConst}, {Op: lsys.OpConst, Arg: 1}, call}, Consts: []float64{2, -3}}, false},
		{"fractional site", lsys.Expr{Code: []lsys.Instr{{Op: lsys.OpConst}, {Op: lsys.OpConst, Arg: 1}, call}, Consts: []float64{2, 1.5}}, false},
	}
	for _, c := range cases {
		if err := c.e.Check(1); (err == nil) != c.ok {
			t.Errorf("%s: Check = %v, want ok %v", c.name, err, c.ok)
		}
	}
}

// TestRandomFormula pins the documented draw (random.go), which the CUDA
// interpreter reproduces: module i of step k draws from
// Hash64(Hash64(Hash64(Key(seed, k), i), site), 0), where site is the call's
// byte offset in the source plus one.
func TestRandomFormula(t *testing.T) {
	src := "axiom: AAA\nA --> B(ran(10))\n"
	site := uint64(strings.Index(src, "ran") + 1)
	_, s := deriveRandom(t, src, 1, 3)
	if len(s.Params) != 3 {
		t.Fatalf("%d parameters, want 3", len(s.Params))
	}
	for i, got := range s.Params {
		want := 10 * rng.Float64(rng.Hash64(rng.Hash64(rng.Hash64(rng.Key(3, 0), uint64(i)), site), 0))
		if got != want {
			t.Errorf("module %d drew %v, want %v", i, got, want)
		}
	}
}
