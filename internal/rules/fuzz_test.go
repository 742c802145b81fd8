package rules

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// FuzzCompile feeds the parser and compiler arbitrary text: no input may
// crash or hang them, and whatever compiles runs a step on the CPU without
// crashing (faults are errors, never panics).
func FuzzCompile(f *testing.F) {
	files, _ := filepath.Glob("../../configs/rules/*.rules")
	for _, path := range files {
		if src, err := os.ReadFile(path); err == nil {
			f.Add(string(src))
		}
	}
	f.Add("state { int a[4] }\nrule r over i in 0..4 when a[(i+1)%4] > 0 { a[i*2] = a[i] / (i - 1) }")
	f.Add("const N = 3\nstate { float x[N] = 1.5  int k ~ uniform(0, 9) }\nrule r over i in 0..N let y = x[i] { if y < 2.0 { x[i] = sqrt(y) } else { k += 1 } }")
	f.Add("state{int a}rule r over i in 0..1{repeat 3{a=a+1}}")
	f.Add("state { int a[8]  float u }\nrule r over i in 0..8 let v = rand() when v < 0.5 { repeat 2 { a[uniform(0, 7)] = uniform(a[i], i) } u = uniform(-1.0, v) }")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Compile("fuzz.rules", []byte(src), nil)
		if err != nil {
			return
		}
		if p.Words > 1<<12 {
			return
		}
		// Runaway loops (repeat 1e9) are the user's to avoid: bound the run.
		cycles := 0
		for _, r := range p.Rules {
			cycles += r.Hi - r.Lo
		}
		if cycles > 1<<12 || hasBigRepeat(p) {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		st := Generate(p, 2, 1)
		_, _ = CPU{}.Run(ctx, p, st, Options{Steps: 2})
	})
}

func hasBigRepeat(p *Program) bool {
	for pc := 0; pc < len(p.Code); pc++ {
		op, _, _, _ := bytecode.Decode(p.Code[pc])
		if op == bytecode.OpLDI && p.Code[pc+1] > 1000 {
			return true
		}
		if bytecode.HasImm(op) {
			pc++
		}
	}
	return false
}
