package rules

import (
	"math/rand/v2"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/progtest"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
	"github.com/procgen-dev/procgen/internal/rules/ptx/ptxtest"
)

// The generated kernels' tests that compare them with the engine (in the
// emulator, on the GPU) live here; the generator's own are in rules/ptx,
// whose helpers_test.go has the twins of these helpers.

// allPTXKernels is every narrow kernel cuda.go may ask for.
func allPTXKernels() []ptx.Kernel {
	var ks []ptx.Kernel
	for _, l := range []Layout{LayoutA, LayoutB, LayoutC} {
		ks = append(ks, ptxKernels(l, false)...)
	}
	return ks
}

// ptxKernels is the three schedules and block shapes in layout l, narrow or
// wide.
func ptxKernels(l Layout, wide bool) []ptx.Kernel {
	return []ptx.Kernel{
		{Sched: Simple, Layout: l, Wide: wide},
		{Sched: Compact, Layout: l, Warps: 32, Wide: wide},
		{Sched: Compact, Layout: l, Warps: ptx.CompactSmall, Wide: wide},
	}
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

// assemble generates kernels ks for p and assembles them with ptxas: "" or
// what went wrong.
func assemble(ptxas, dir, name string, p *Program, ks []ptx.Kernel) string {
	src, err := ptx.Generate(p, ks...)
	if err != nil {
		return err.Error()
	}
	if err := ptxtest.Assemble(ptxas, dir, name, src); err != nil {
		return err.Error()
	}
	return ""
}
