package ptx

import (
	"math/rand/v2"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/progtest"
	"github.com/procgen-dev/procgen/internal/rules/ptx/ptxtest"
)

// The generator's own tests: its text assembles, every opcode translates,
// what it cannot translate is an error, narrow kernels stay byte-identical.
// The tests running its kernels against the CPU engine live in rules
// (ptx_semantics_test.go and beside it), whose ptx_helpers_test.go has the
// twins of these helpers.

// allKernels is every narrow kernel the CUDA engine may ask for.
func allKernels() []Kernel {
	var ks []Kernel
	for _, l := range []Layout{LayoutA, LayoutB, LayoutC} {
		ks = append(ks,
			Kernel{Sched: Simple, Layout: l},
			Kernel{Sched: Compact, Layout: l, Warps: 32},
			Kernel{Sched: Compact, Layout: l, Warps: CompactSmall})
	}
	return ks
}

// compileConfig compiles configs/rules/NAME with defines (progtest).
func compileConfig(t testing.TB, name string, defines map[string]string) *bytecode.Program {
	t.Helper()
	return progtest.CompileConfig(t, name, defines)
}

func compileSrc(t testing.TB, src string) *bytecode.Program {
	t.Helper()
	return progtest.CompileSrc(t, src)
}

// shippedConfigs compiles the shipped rule files at test sizes.
func shippedConfigs(t testing.TB) map[string]*bytecode.Program {
	return map[string]*bytecode.Program{
		"eca30":     compileConfig(t, "eca.rules", map[string]string{"RULE": "30", "N": "100"}),
		"life":      compileConfig(t, "life.rules", map[string]string{"W": "13", "H": "11"}),
		"sandpile":  compileConfig(t, "sandpile.rules", map[string]string{"W": "9", "H": "7"}),
		"synthetic": compileConfig(t, "synthetic.rules", nil),
	}
}

// gpuRanges is the condition of rules.GPUSupports (which this package
// cannot import): no rule over more indices than the GPU backend takes.
func gpuRanges(p *bytecode.Program) bool {
	for _, r := range p.Rules {
		if r.Hi-r.Lo > bytecode.MaxRangeGPU {
			return false
		}
	}
	return true
}

// randomPrograms returns n random programs the GPU backend accepts and keep
// (if not nil) keeps, with their sources: the programs rules'
// ptxRandomPrograms returns.
func randomPrograms(t testing.TB, n int, keep func(*bytecode.Program) bool) ([]*bytecode.Program, []string) {
	g := progtest.New(rand.New(rand.NewPCG(16, 1)), false)
	ps, srcs := progtest.Compiled(g, n, 20*n, func(p *bytecode.Program) bool {
		return gpuRanges(p) && (keep == nil || keep(p))
	})
	if len(ps) < n {
		t.Fatalf("only %d of the generated programs compiled", len(ps))
	}
	return ps, srcs
}

// assemble generates kernels ks for p and assembles them with ptxas: "" or
// what went wrong.
func assemble(ptxas, dir, name string, p *bytecode.Program, ks []Kernel) string {
	src, err := Generate(p, ks...)
	if err != nil {
		return err.Error()
	}
	if err := ptxtest.Assemble(ptxas, dir, name, src); err != nil {
		return err.Error()
	}
	return ""
}
