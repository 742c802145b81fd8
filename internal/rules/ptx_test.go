package rules

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"sync"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/progtest"
	"github.com/procgen-dev/procgen/internal/rules/ptx/ptxtest"
)

// allPTXKernels is every kernel cuda.go may ask for.
func allPTXKernels() []ptxKernel {
	var ks []ptxKernel
	for _, l := range []Layout{LayoutA, LayoutB, LayoutC} {
		ks = append(ks, ptxKernel{Simple, l, 0, false}, ptxKernel{Compact, l, 32, false}, ptxKernel{Compact, l, gpuCompactSmall, false})
	}
	return ks
}

// ptxConfigs compiles the shipped rule files at test sizes.
func ptxConfigs(t testing.TB) map[string]*Program {
	return map[string]*Program{
		"eca30":     compileConfig(t, "eca.rules", map[string]string{"RULE": "30", "N": "100"}),
		"life":      compileConfig(t, "life.rules", map[string]string{"W": "13", "H": "11"}),
		"sandpile":  compileConfig(t, "sandpile.rules", map[string]string{"W": "9", "H": "7"}),
		"synthetic": compileConfig(t, "synthetic.rules", nil),
	}
}

// ptxRandomPrograms returns n random programs the GPU backend accepts and
// keep (if not nil) keeps (progtest's generator), with their sources.
func ptxRandomPrograms(t testing.TB, n int, keep func(*Program) bool) ([]*Program, []string) {
	g := progtest.New(rand.New(rand.NewPCG(16, 1)), false)
	ps, srcs := progtest.Compiled(g, n, 20*n, func(p *Program) bool {
		return GPUSupports(p) == nil && (keep == nil || keep(p))
	})
	if len(ps) < n {
		t.Fatalf("only %d of the generated programs compiled", len(ps))
	}
	return ps, srcs
}

// TestPTXAssembles generates every kernel for every shipped rule file and
// 300 random programs (-short: 30) and assembles each module with ptxas for sm_90: the
// generated text is valid PTX (what it computes is the GPU tests' business).
func TestPTXAssembles(t *testing.T) {
	ptxas, err := exec.LookPath("ptxas")
	if err != nil {
		t.Skip("no ptxas on PATH")
	}
	n := 300
	if testing.Short() {
		n = 30
	}
	type job struct {
		name, src string
		p         *Program
		ks        []ptxKernel
	}
	var jobs []job
	for name, p := range ptxConfigs(t) {
		jobs = append(jobs, job{name, "", p, allPTXKernels()})
	}
	// Each random program gets one kernel, the nine (schedule, block shape,
	// layout) taking turns: the evaluation code is the same in all nine, the
	// configs above have every kernel, and 300 ptxas runs of nine kernels
	// each would take many minutes.
	ps, srcs := ptxRandomPrograms(t, n, nil)
	all := allPTXKernels()
	for k, p := range ps {
		jobs = append(jobs, job{fmt.Sprintf("random%d", k), srcs[k], p, all[k%len(all) : k%len(all)+1]})
	}
	dir := t.TempDir()
	work := make(chan job)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				msg := assemble(ptxas, dir, j.name, j.p, j.ks)
				if msg != "" {
					mu.Lock()
					t.Errorf("%s: %s\n%s", j.name, msg, j.src)
					mu.Unlock()
				}
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
}

// assemble generates kernels ks for p and assembles them with ptxas: "" or
// what went wrong.
func assemble(ptxas, dir, name string, p *Program, ks []ptxKernel) string {
	src, err := generatePTX(p, ks...)
	if err != nil {
		return err.Error()
	}
	if err := ptxtest.Assemble(ptxas, dir, name, src); err != nil {
		return err.Error()
	}
	return ""
}

// TestPTXTranslatesEveryOpcode: each opcode of the bytecode becomes PTX of
// its own; only NOP and unknown opcodes become the interpreter's fault.
func TestPTXTranslatesEveryOpcode(t *testing.T) {
	for op := 0; op <= bytecode.OpTotal; op++ {
		code := []uint32{bytecode.Encode(op, 1, 2, 0)}
		if bytecode.HasImm(op) {
			code = append(code, 2) // LDI's value, or a jump to the END
		}
		code = append(code, bytecode.Encode(bytecode.OpEND, 0, 0, 0))
		p := &Program{File: "ops", Fields: []Field{{Name: "a", Size: 4}}, Words: 4, Code: code, Regs: 3,
			Rules: []Rule{{Name: "r", Lo: 0, Hi: 4, CondPC: -1, BodyPC: 0}}}
		g := &ptxGen{p: p, layout: LayoutC, wp: 32, cur: "%rd1", snap: "%rd2", pend: "%rd3", nstates: "%r1",
			seed: "%rd5", first: "%r5", tkey: "%rd6", rkey: "%rd7"}
		err := g.eval(0, evalSite{s: "%r2", i: "%r3", rel: "%r4", key: "%rd4", fault: "F", enabled: "E"})
		if err != nil {
			t.Fatalf("op %d: %v", op, err)
		}
		if want := bytecode.B2U(op == bytecode.OpNop || op == bytecode.OpTotal); g.invalid != int(want) {
			t.Errorf("op %d: %d instructions became faults, want %d", op, g.invalid, want)
		}
	}
}

// TestPTXRejectsMalformedCode: what the generator cannot translate is an
// error (the run then uses the interpreter), never a panic or bad PTX.
func TestPTXRejectsMalformedCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		code []uint32
	}{
		{"jump out of the code", []uint32{bytecode.Encode(bytecode.OpJMP, 0, 0, 0), 99}},
		{"missing operand", []uint32{bytecode.Encode(bytecode.OpLDI, 1, 0, 0)}},
		{"register 40", []uint32{bytecode.Encode(bytecode.OpIADD, 40, 1, 2), bytecode.Encode(bytecode.OpEND, 0, 0, 0)}},
		{"field 3", []uint32{bytecode.Encode(bytecode.OpLD, 1, bytecode.NoReg, 3), bytecode.Encode(bytecode.OpEND, 0, 0, 0)}},
		{"runs off the end", []uint32{bytecode.Encode(bytecode.OpIADD, 1, 1, 2)}},
	} {
		p := &Program{File: "bad", Fields: []Field{{Name: "a", Size: 4}}, Words: 4, Code: tc.code, Regs: 3,
			Rules: []Rule{{Name: "r", Lo: 0, Hi: 4, CondPC: -1, BodyPC: 0}}}
		if _, err := generatePTX(p, allPTXKernels()...); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
