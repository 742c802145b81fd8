//go:build cuda

package rules

import (
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// The rules kernels' parameter lists, each declared once: the bytecode
// interpreter's (cuda/rules.cu's RULES_KERNEL_PARAMS, checked against the C
// declaration by kerneltest) and the generated kernels' (rules/ptx kernels.go's
// .entry, checked against the generated PTX).

// interpArgs are RULES_KERNEL_PARAMS.
type interpArgs struct {
	code, fields, rules, cur, snap, pend gpu.Ptr
	stableAt, failed, errRule            gpu.Ptr
	errKey, errPC, fired, lastFired      gpu.Ptr
	nstates, words, nrules, ncode        int32
	nfields, step0, nsteps, nregs        int32
	seed                                 uint64
	firstState, nofix, firstStep         int32
}

// interpKernel is cuda/rules.cu's interpreter kernel of that name
// (rules_simple_A ... rules_compact_small_wide_C).
func interpKernel(name string) gpu.Kernel[interpArgs] {
	return gpu.Kernel[interpArgs]{Family: "rules", Name: name}
}

// interpKernelNames are the interpreter kernels cuda/rules.cu defines.
func interpKernelNames() []string {
	var names []string
	for _, sched := range []string{"simple", "compact", "compact_small"} {
		for _, enc := range []string{"", "_wide"} {
			for _, layout := range []Layout{LayoutA, LayoutB, LayoutC} {
				names = append(names, "rules_"+sched+enc+"_"+string(layout))
			}
		}
	}
	return names
}

// The generated kernels' parameters (ptx.Kernel.params and generateKernel):
// pointers, err_pc only in a wide kernel; the steps; the draws' three only
// for a program with draws.
type (
	genNarrow struct {
		cur, snap, pend, stableAt, failed, errRule, errKey, fired, lastFired gpu.Ptr
	}
	genWide struct {
		cur, snap, pend, stableAt, failed, errRule, errKey, errPC, fired, lastFired gpu.Ptr
	}
	genSteps struct{ nstates, step0, nsteps int32 }
	genDraws struct {
		seed                  uint64
		firstState, firstStep int32
	}
	genArgs struct {
		ptrs  genNarrow
		steps genSteps
	}
	genRandArgs struct {
		ptrs  genNarrow
		steps genSteps
		draws genDraws
	}
	genWideArgs struct {
		ptrs  genWide
		steps genSteps
	}
	genWideRandArgs struct {
		ptrs  genWide
		steps genSteps
		draws genDraws
	}
)

// genKernel declares generated kernel k with parameters P; its module is
// loaded at run time (LoadPTXModule), so Family only names it in messages.
func genKernel[P any](k ptx.Kernel) gpu.Kernel[P] {
	return gpu.Kernel[P]{Family: "rules-generated", Name: k.Name()}
}
