package rules

import (
	"math/rand/v2"
	"os/exec"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/progtest"
)

// drawPTXPrograms are drawPrograms at sizes the emulator runs quickly.
func drawPTXPrograms(t testing.TB) map[string]*Program {
	out := map[string]*Program{}
	for name, src := range drawPrograms {
		p, err := Compile(name+".rules", []byte(src), map[string]string{"N": "37"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = p
	}
	return out
}

// drawRandomPrograms returns n random programs with draws the GPU takes.
func drawRandomPrograms(t testing.TB, n int) ([]*Program, []string) {
	g := progtest.New(rand.New(rand.NewPCG(16, 7)), true)
	ps, srcs := progtest.Compiled(g, n, 50*n, func(p *Program) bool {
		return p.Draws && GPUSupports(p) == nil && !hasOpcode(p, bytecode.OpADDF)
	})
	if len(ps) < n {
		t.Fatalf("only %d of the generated programs drew", len(ps))
	}
	return ps, srcs
}

// TestPTXEmulatedDraws: the generated kernels draw what the CPU draws
// (every kernel, a seed and a first state that are not zero), and keep
// running states whose preconditions draw when no rule fired.
func TestPTXEmulatedDraws(t *testing.T) {
	for name, p := range drawPTXPrograms(t) {
		for _, k := range allPTXKernels() {
			if msg := emuAgreesOpts(p, k, 3, 2, Options{Steps: 3, Seed: 99, FirstState: 5, FirstStep: 4}); msg != "" {
				t.Errorf("%s/%s: %s", name, k.Name(), msg)
			}
		}
	}
	n := 40
	if testing.Short() {
		n = 10
	}
	ps, srcs := drawRandomPrograms(t, n)
	for k, p := range ps {
		l := []Layout{LayoutA, LayoutB, LayoutC}[k%3]
		for _, kern := range ptxKernels(l, false) {
			o := Options{Steps: 1 + k%3, Seed: uint64(k), FirstState: k % 4}
			if msg := emuAgreesOpts(p, kern, 1+k%3, uint64(k), o); msg != "" {
				t.Fatalf("program %d, %s:\n%s\n%s", k, kern.Name(), srcs[k], msg)
			}
		}
	}
}

// TestPTXDrawsAssemble: kernels with draws are valid PTX for ptxas.
func TestPTXDrawsAssemble(t *testing.T) {
	ptxas, err := exec.LookPath("ptxas")
	if err != nil {
		t.Skip("no ptxas on PATH")
	}
	dir := t.TempDir()
	for name, p := range drawPTXPrograms(t) {
		if msg := assemble(ptxas, dir, name, p, allPTXKernels()); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
	}
	ps, srcs := drawRandomPrograms(t, 10)
	all := allPTXKernels()
	for k, p := range ps {
		if msg := assemble(ptxas, dir, "random", p, all[k%len(all):k%len(all)+1]); msg != "" {
			t.Errorf("random %d: %s\n%s", k, msg, srcs[k])
		}
	}
}
