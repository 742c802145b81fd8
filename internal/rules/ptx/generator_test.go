package ptx

import (
	"fmt"
	"os/exec"
	"sync"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

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
		p         *bytecode.Program
		ks        []Kernel
	}
	var jobs []job
	for name, p := range shippedConfigs(t) {
		jobs = append(jobs, job{name, "", p, allKernels()})
	}
	// Each random program gets one kernel, the nine (schedule, block shape,
	// layout) taking turns: the evaluation code is the same in all nine, the
	// configs above have every kernel, and 300 ptxas runs of nine kernels
	// each would take many minutes.
	ps, srcs := randomPrograms(t, n, nil)
	all := allKernels()
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

// TestPTXTranslatesEveryOpcode: each opcode of the bytecode becomes PTX of
// its own; only NOP and unknown opcodes become the interpreter's fault.
func TestPTXTranslatesEveryOpcode(t *testing.T) {
	for op := 0; op <= bytecode.OpTotal; op++ {
		code := []uint32{bytecode.Encode(op, 1, 2, 0)}
		if bytecode.HasImm(op) {
			code = append(code, 2) // LDI's value, or a jump to the END
		}
		code = append(code, bytecode.Encode(bytecode.OpEND, 0, 0, 0))
		p := &bytecode.Program{File: "ops", Fields: []bytecode.Field{{Name: "a", Size: 4}}, Words: 4, Code: code, Regs: 3,
			Rules: []bytecode.Rule{{Name: "r", Lo: 0, Hi: 4, CondPC: -1, BodyPC: 0}}}
		g := &generator{p: p, layout: LayoutC, wp: 32, cur: "%rd1", snap: "%rd2", pend: "%rd3", nstates: "%r1",
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
		p := &bytecode.Program{File: "bad", Fields: []bytecode.Field{{Name: "a", Size: 4}}, Words: 4, Code: tc.code, Regs: 3,
			Rules: []bytecode.Rule{{Name: "r", Lo: 0, Hi: 4, CondPC: -1, BodyPC: 0}}}
		if _, err := Generate(p, allKernels()...); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// A program past 2^19 indices needs the wide kernels: the narrow ones are
// not generated for it.
func TestPTXNarrowRefusesWideRange(t *testing.T) {
	p := compileSrc(t, "state { int a }\nrule r over i in 0..1048577 when i == 1048576 { a = i }")
	if !NeedsWide(p) {
		t.Fatal("a rule over 2^20+1 indices is not wide")
	}
	if _, err := Generate(p, Kernel{Sched: Simple, Layout: LayoutA}); err == nil {
		t.Fatal("narrow kernel generated for a wide range")
	}
	if _, err := Generate(p, Kernel{Sched: Simple, Layout: LayoutA, Wide: true}); err != nil {
		t.Fatal(err)
	}
}
