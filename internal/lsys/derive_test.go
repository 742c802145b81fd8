package lsys

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

func derive(t testing.TB, sys *System, o DeriveOptions) *Derivation {
	t.Helper()
	d, err := CPU{}.Derive(context.Background(), sys, o)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPaperBenchmarks checks the string lengths of abop-benchmarks.md step by
// step, and the paper's module totals.
func TestPaperBenchmarks(t *testing.T) {
	for _, c := range []struct {
		name  string
		sys   *System
		lens  []int64
		paper int64 // Table 2's "modules"
		w0    bool  // the paper's count includes the axiom
	}{
		{"hilbert3D", hilbert3D(), []int64{1, 29, 271, 2155, 17331, 138531, 1108547}, 1266864, false},
		{"koch", kochIsland(), []int64{7, 47, 327, 2287, 16007, 112047, 784327}, 915049, true},
		{"rowOfTrees", rowOfTrees(), []int64{1, 8, 36, 148, 596, 2388, 9556, 38228, 152916, 611668}, 815545, true},
		{"plant2D", plant2D(), []int64{1, 20, 172, 1388, 11116, 88940, 711532}, 813169, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, workers := range []int{1, 3} {
				d := derive(t, c.sys, DeriveOptions{Steps: len(c.lens) - 1, Workers: workers})
				for k, s := range d.Steps {
					if s.Step != int64(k) || s.Modules != c.lens[k] {
						t.Fatalf("workers %d: step %d has %d modules, want %d", workers, s.Step, s.Modules, c.lens[k])
					}
				}
				total := c.paper
				if !c.w0 {
					total += c.lens[0]
				}
				if d.Total != total {
					t.Errorf("total %d modules, want %d", d.Total, total)
				}
			}
		})
	}
}

func TestRowOfTreesParameters(t *testing.T) {
	sys := rowOfTrees()
	d := derive(t, sys, DeriveOptions{Steps: 2})
	if got, want := render(d.String, &sys.Arity)[:40], "F(0.09)+F"; !strings.HasPrefix(got, want) {
		t.Errorf("w_2 starts %q, want %q", got, want)
	}
	p, h, q := rowP, rowH, rowQ
	want := []float64{p * p, p * h, p * h, p * q, h * p, h * h, h * h, h * q}
	got := d.String.Params[:8]
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("w_2 parameters start %v, want %v", got, want)
		}
	}
	if d.Steps[2].Params != 16 {
		t.Errorf("w_2 has %d parameters, want 16", d.Steps[2].Params)
	}
	// h = (p*q)^0.5 is sqrt exactly, as the GPU computes it.
	d1 := derive(t, sys, DeriveOptions{Steps: 1})
	if d1.String.Params[1] != rowH || rowH != 0.458257569495584 {
		t.Errorf("h = %v", d1.String.Params[1])
	}
}

func TestTree3D(t *testing.T) {
	sys := tree3D()
	d := derive(t, sys, DeriveOptions{Steps: 5})
	if d.Steps[1].Modules != 22 || bytes.Count(d.String.Syms, []byte{'A'}) != 243 {
		t.Errorf("|w_1| = %d, A count in w_5 = %d", d.Steps[1].Modules, bytes.Count(d.String.Syms, []byte{'A'}))
	}
	// !(1)F(200)/(45)A: after 5 steps the trunk is !(vr^5) F(200 lr^5).
	want := 1.0
	for i := 0; i < 5; i++ {
		want *= 1.732
	}
	if got := d.String.Params[0]; got != want {
		t.Errorf("trunk width %v, want %v", got, want)
	}
}

func TestContextPlant(t *testing.T) {
	sys := contextPlant()
	want := []string{"F1F1F1", "F1F0F1", "F1F1F1F1", "F1F0F0F1", "F1F0F1[+F1F1]F1", "F1F1F1F1[-F0F1]F1"}
	for k, w := range want {
		d := derive(t, sys, DeriveOptions{Steps: k})
		if got := string(d.String.Syms); got != w {
			t.Errorf("w_%d = %s, want %s", k, got, w)
		}
	}
	// The paper ran 30 steps; all worker counts agree.
	ref := derive(t, sys, DeriveOptions{Steps: 30, Workers: 1})
	for _, w := range []int{2, 8} {
		if d := derive(t, sys, DeriveOptions{Steps: 30, Workers: w}); !bytes.Equal(d.String.Syms, ref.String.Syms) {
			t.Fatalf("workers %d derive a different w_30", w)
		}
	}
	t.Logf("w_30 has %d modules, %d written in all", ref.String.Len(), ref.Total)
}

func countF(s *String) int { return bytes.Count(s.Syms, []byte{'F'}) }

func TestStochasticPlant(t *testing.T) {
	sys := stochasticPlant()
	const steps = 9
	d := derive(t, sys, DeriveOptions{Steps: steps, Seed: 42, Workers: 1})
	if d.String.Len() < 3*chunkSize {
		t.Fatalf("w_%d has %d modules: too few to span several chunks", steps, d.String.Len())
	}
	// Each F becomes 5 F with weight 0.33 and 3 F otherwise: 3.66 on average.
	prev := countF(derive(t, sys, DeriveOptions{Steps: steps - 1, Seed: 42}).String)
	ratio := float64(countF(d.String)) / float64(prev)
	if ratio < 3.66*0.98 || ratio > 3.66*1.02 {
		t.Errorf("F count grew %.4fx in the last step, want about 3.66x", ratio)
	}
	for _, w := range []int{3, 8} {
		o := derive(t, sys, DeriveOptions{Steps: steps, Seed: 42, Workers: w})
		if !bytes.Equal(o.String.Syms, d.String.Syms) {
			t.Fatalf("workers %d derive a different string", w)
		}
	}
	if o := derive(t, sys, DeriveOptions{Steps: steps, Seed: 43}); bytes.Equal(o.String.Syms, d.String.Syms) {
		t.Error("seeds 42 and 43 derive the same string")
	}
	// The first step draws rng.Key(seed, 0, 0).
	one := derive(t, sys, DeriveOptions{Steps: 1, Seed: 7})
	if got := string(one.String.Syms); got != "F[+F]F[-F]F" && got != "F[+F]F" && got != "F[-F]F" {
		t.Errorf("w_1 = %s", got)
	}
}

func TestCut(t *testing.T) {
	x := slot(0, "x")
	sys := system(mods("X"), map[byte]int{'G': 1, 'B': 1},
		prod('X', mods("F[A%"), []Module{mod('B', num(1))}, mods("C[D]E]"), []Module{mod('G', num(2))},
			mods("%H[I]J")),
		prod('G', []Module{mod('G', bin(OpAdd, x, num(1)))}, mods("[%K]L")))
	d := derive(t, sys, DeriveOptions{Steps: 2, Workers: 2})
	if got := render(d.String, &sys.Arity); got != "F[A]G(3)[]L" {
		t.Errorf("w_2 = %s, want F[A]G(3)[]L", got)
	}
	if d.Steps[1].Modules != 5 || d.Steps[1].Params != 1 {
		t.Errorf("w_1 stats %+v", d.Steps[1])
	}
	// Cut applies to the axiom too.
	sys2 := system(mods("A[B%C]%D"), nil)
	if got := string(Axiom(sys2).Syms); got != "A[B]" {
		t.Errorf("axiom with cut = %s", got)
	}
}

func TestHomomorphism(t *testing.T) {
	x := slot(0, "x")
	sys := system([]Module{mod('A', num(2))}, map[byte]int{'A': 1, 'F': 1},
		prod('A', []Module{mod('A', bin(OpMul, x, num(2)))}))
	sys.Homo = []Production{
		prod('A', []Module{mod('F', x)}, mods("+"), []Module{mod('A', neg(x))}).Production,
	}
	d := derive(t, sys, DeriveOptions{Steps: 2})
	h, err := ApplyHomomorphism(context.Background(), sys, d.String, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := render(h, &sys.Arity); got != "F(8)+A(-8)" {
		t.Errorf("homomorphism gives %s, want F(8)+A(-8) (applied once)", got)
	}
	if got := render(d.String, &sys.Arity); got != "A(8)" {
		t.Errorf("homomorphism changed its input to %s", got)
	}
}

func TestMaxModules(t *testing.T) {
	_, err := CPU{}.Derive(context.Background(), kochIsland(), DeriveOptions{Steps: 5, MaxModules: 1000})
	var le *LimitError
	if !errors.As(err, &le) || le.Step != 3 || le.Modules != 2287 {
		t.Fatalf("err = %v, want a limit error at step 3 (2287 modules)", err)
	}
	if want := "lsys: step 3 would produce 2,287 modules, over --max-modules 1,000"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	if got := (&LimitError{Step: 7, Modules: 1234567890, Max: 500000000}).Error(); got !=
		"lsys: step 7 would produce 1,234,567,890 modules, over --max-modules 500,000,000" {
		t.Errorf("message %q", got)
	}
	// Parametric systems check before writing too.
	if _, err := (CPU{}).Derive(context.Background(), rowOfTrees(), DeriveOptions{Steps: 9, MaxModules: 100}); !errors.As(err, &le) || le.Step != 3 {
		t.Errorf("row of trees: err = %v", err)
	}
}

func TestDivisionByZero(t *testing.T) {
	x := slot(0, "x")
	sys := system([]Module{mod('F', num(3))}, map[byte]int{'F': 1},
		prod('F', []Module{mod('F', bin(OpSub, x, num(1)))}).cond(bin(OpGt, x, num(1))).at(4),
		prod('F', []Module{mod('F', bin(OpDiv, num(1), bin(OpSub, x, num(1))))}).at(5))
	_, err := CPU{}.Derive(context.Background(), sys, DeriveOptions{Steps: 4})
	if !errors.Is(err, ErrDivZero) {
		t.Fatalf("err = %v, want division by zero", err)
	}
	msg := err.Error()
	for _, want := range []string{"step 3", "module 0", "test.l:5:1", `F(...) -> F((1/(x-1)))`, `"(1/(x-1))"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not mention %q", msg, want)
		}
	}
	t.Log(msg)
	// A condition that fails to evaluate is an error too.
	sys.Prods[0].Cond = bin(OpGt, call(FnLog, neg(x)), num(0)).ptr()
	if _, err := (CPU{}).Derive(context.Background(), sys, DeriveOptions{Steps: 1}); !errors.Is(err, ErrDomain) {
		t.Errorf("log of a negative in a condition: err = %v", err)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (CPU{}).Derive(ctx, kochIsland(), DeriveOptions{Steps: 3}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestProgressAndDefaults(t *testing.T) {
	sys := kochIsland()
	sys.Steps = 2
	var calls [][2]int64
	d := derive(t, sys, DeriveOptions{Steps: -1, Progress: func(done, total int64) { calls = append(calls, [2]int64{done, total}) }})
	if d.String.Len() != 327 || len(calls) != 2 || calls[1] != [2]int64{2, 2} {
		t.Errorf("len %d, progress %v", d.String.Len(), calls)
	}
}

func TestCompileErrors(t *testing.T) {
	x := slot(0, "x")
	for _, c := range []struct {
		name string
		sys  *System
		want string
	}{
		{"arity", system(mods("F"), map[byte]int{'F': 1}, prod('A', mods("F"))), "successor module 'F' has 0 parameters"},
		{"axiom arity", system(mods("F"), map[byte]int{'F': 1}), "axiom module 0"},
		{"bracket context", system(mods("F"), nil, prod('F', mods("F")).ctx("", "[")), "brackets do not balance"},
		{"bad slot", system([]Module{mod('F', num(1))}, map[byte]int{'F': 1}, prod('F', []Module{mod('F', slot(3, "y"))})), "slot 3 of 1"},
		{"unbalanced", system(mods("A]B"), nil, prod('B', mods("B")).ctx("A", "")), "lsys: step 1: context matching: unbalanced brackets: ']' at module 1"},
		{"probability", system(mods("F"), nil, prod('F', mods("F")).prob(-1)), "probability -1"},
		{"fine", system([]Module{mod('F', num(1))}, map[byte]int{'F': 1}, prod('F', []Module{mod('F', x)})), ""},
	} {
		_, err := CPU{}.Derive(context.Background(), c.sys, DeriveOptions{Steps: 1})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
}
