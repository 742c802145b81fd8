//go:build cuda

package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/gpu/kerneltest"
)

// TestKernelSignatures checks the interpreter kernels' Go declaration
// against cuda/rules.cu's RULES_KERNEL_PARAMS (no GPU needed), and that
// every kernel there is declared.
func TestKernelSignatures(t *testing.T) {
	var decls []gpu.KernelDecl
	for _, name := range interpKernelNames() {
		decls = append(decls, interpKernel(name))
	}
	kerneltest.Check(t, "internal/rules", decls, nil)
}

// ptxEntryWidths returns the parameter widths of kernel name's .entry in
// ptx: "u32", "u64", "f32" or "f64" each.
func ptxEntryWidths(ptx, name string) ([]string, error) {
	_, rest, ok := strings.Cut(ptx, ".entry "+name+"(")
	if !ok {
		return nil, fmt.Errorf("no .entry %s", name)
	}
	params, _, _ := strings.Cut(rest, ")")
	var ws []string
	for _, line := range strings.Split(params, ",") {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != ".param" {
			return nil, fmt.Errorf(".entry %s: parameter %q", name, line)
		}
		ws = append(ws, strings.TrimPrefix(f[1], "."))
	}
	return ws, nil
}

// ptxWidth is the PTX parameter type a kind is passed as: generated kernels
// take pointers as .u64 and signed integers as unsigned ones.
func ptxWidth(k gpu.ParamKind) string {
	switch k {
	case gpu.PtrParam, gpu.U64Param, gpu.S64Param:
		return "u64"
	case gpu.U32Param, gpu.S32Param:
		return "u32"
	case gpu.F32Param:
		return "f32"
	}
	return "f64"
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
		p    *Program
		wide bool
		decl func(ptxKernel) gpu.KernelDecl
	}{
		{plain, false, func(k ptxKernel) gpu.KernelDecl { return genKernel[genArgs](k) }},
		{plain, true, func(k ptxKernel) gpu.KernelDecl { return genKernel[genWideArgs](k) }},
		{draws[0], false, func(k ptxKernel) gpu.KernelDecl { return genKernel[genRandArgs](k) }},
		{draws[0], true, func(k ptxKernel) gpu.KernelDecl { return genKernel[genWideRandArgs](k) }},
	} {
		for _, k := range allPTXKernels() {
			k.Wide = c.wide
			ptx, err := generatePTX(c.p, k)
			if err != nil {
				t.Fatalf("%s wide=%v draws=%v: %v", k.name(), c.wide, c.p.Draws, err)
			}
			got, err := ptxEntryWidths(ptx, k.name())
			if err != nil {
				t.Fatal(err)
			}
			kinds, err := c.decl(k).Params()
			if err != nil {
				t.Fatal(err)
			}
			want := make([]string, len(kinds))
			for i, kind := range kinds {
				want[i] = ptxWidth(kind)
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%s wide=%v draws=%v: PTX takes (%s), the declaration (%s)", k.name(), c.wide, c.p.Draws,
					strings.Join(got, ", "), strings.Join(want, ", "))
			}
		}
	}
}
