//go:build cuda

package rules

import (
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/gpu/kerneltest"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// TestKernelSignatures checks the interpreter kernels' Go declaration
// against cuda/rules.cu's RULES_KERNEL_PARAMS (no GPU needed), and that
// every kernel there is declared.
func TestKernelSignatures(t *testing.T) {
	var decls []gpu.KernelDecl
	for _, name := range interpKernelNames() {
		decls = append(decls, interpKernel(name))
	}
	decls = append(decls, tileKernelDecls()...)
	kerneltest.Check(t, "internal/rules", decls, nil)
}

// TestGeneratedKernelSignatures: the kernels generated for a rule set (with
// and without draws, narrow and wide) take the parameters launchGenerated
// passes, in count, order and width. No GPU needed.
func TestGeneratedKernelSignatures(t *testing.T) {
	plain := ptxConfigs(t)["life"]
	draws, _ := drawRandomPrograms(t, 1)
	if plain.Draws || !draws[0].Draws {
		t.Fatal("test programs: want one without draws and one with")
	}
	for _, c := range []struct {
		p          *Program
		wide, tile bool
		decl       func(ptx.Kernel) gpu.KernelDecl
	}{
		{plain, false, false, func(k ptx.Kernel) gpu.KernelDecl { return genKernel[genArgs](k) }},
		{plain, true, false, func(k ptx.Kernel) gpu.KernelDecl { return genKernel[genWideArgs](k) }},
		{draws[0], false, false, func(k ptx.Kernel) gpu.KernelDecl { return genKernel[genRandArgs](k) }},
		{draws[0], true, false, func(k ptx.Kernel) gpu.KernelDecl { return genKernel[genWideRandArgs](k) }},
		// The tiled kernels (launchTileExec's four kinds).
		{plain, false, true, func(k ptx.Kernel) gpu.KernelDecl { return genKernel[genTileArgs](k) }},
		{plain, true, true, func(k ptx.Kernel) gpu.KernelDecl { return genKernel[genTileWideArgs](k) }},
		{draws[0], false, true, func(k ptx.Kernel) gpu.KernelDecl { return genKernel[genTileRandArgs](k) }},
		{draws[0], true, true, func(k ptx.Kernel) gpu.KernelDecl { return genKernel[genTileWideRandArgs](k) }},
	} {
		ks := allPTXKernels()
		if c.tile {
			ks = nil
			for _, l := range []Layout{LayoutA, LayoutB, LayoutC} {
				ks = append(ks, ptx.TileKernels(c.p, l, c.wide)...)
			}
		}
		for _, k := range ks {
			k.Wide = c.wide
			module, err := ptx.Generate(c.p, k)
			if err != nil {
				t.Fatalf("%s wide=%v draws=%v: %v", k.Name(), c.wide, c.p.Draws, err)
			}
			entries, err := kerneltest.ParsePTX(module)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := entries[k.Name()]
			if !ok {
				t.Fatalf("no .entry %s in the generated PTX", k.Name())
			}
			kinds, err := c.decl(k).Params()
			if err != nil {
				t.Fatal(err)
			}
			want := make([]string, len(kinds))
			for i, kind := range kinds {
				want[i] = kerneltest.PTXType(kind)
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%s wide=%v draws=%v: PTX takes (%s), the declaration (%s)", k.Name(), c.wide, c.p.Draws,
					strings.Join(got, ", "), strings.Join(want, ", "))
			}
		}
	}
}
