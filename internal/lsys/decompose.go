package lsys

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
)

// ErrNotOnGPU wraps what a system asks for that the CUDA backend does not
// do; the CPU backend does it (see GPUSupports).
var ErrNotOnGPU = errors.New("not supported on the GPU")

// GPUSupports reports why the CUDA backend cannot derive sys (an error
// wrapping ErrNotOnGPU), or nil. A caller that picks the device by itself
// (--device auto) derives such a system on the CPU instead.
func GPUSupports(sys *System) error {
	if len(sys.Decomp) > 0 {
		return fmt.Errorf("lsys: decomposition productions: %w", ErrNotOnGPU)
	}
	for i := range sys.Prods {
		p := &sys.Prods[i]
		if bytes.IndexByte(p.Left, SymPush) >= 0 || bytes.IndexByte(p.Right, SymPush) >= 0 {
			return fmt.Errorf("lsys: contexts with branches (%s at %s:%d): %w", describe(p, &sys.Arity), p.Pos.File, p.Pos.Line, ErrNotOnGPU)
		}
	}
	return nil
}

// decomposer applies the decomposition productions (System.Decomp) after
// the axiom and after every step: passes of a rewrite with the same
// matching, selection and cut as a derivation step, until a pass leaves the
// string as it was or System.DecompDepth passes are done. Stochastic
// decomposition draws with the step key 1<<30 + 1024*step + pass, apart
// from every derivation step's.
type decomposer struct {
	r     *rules
	st    *cpuState
	depth int
	limit int64
	seed  uint64
}

// newDecomposer returns nil for a system without decomposition.
func newDecomposer(sys *System, o DeriveOptions) (*decomposer, error) {
	if len(sys.Decomp) == 0 {
		return nil, nil
	}
	r, err := compileRules(sys, sys.Decomp, "decomposition")
	if err != nil {
		return nil, err
	}
	return &decomposer{r: r, st: newCPUState(r, o.Workers), depth: sys.DecompDepth, limit: o.MaxModules, seed: o.Seed}, nil
}

// apply decomposes s (w_step), returning the decomposed string (s itself
// when nothing changes).
func (d *decomposer) apply(ctx context.Context, s *String, step int) (*String, error) {
	if d == nil {
		return s, nil
	}
	for pass := 0; pass < d.depth; pass++ {
		label := fmt.Sprintf("decomposition after step %d, pass %d", step, pass+1)
		out, err := d.st.rewrite(ctx, s, nil, 1<<30+1024*step+pass, d.seed, label, d.limit)
		if err != nil {
			return nil, err
		}
		if d.r.hasCut {
			cutBranches(out, &d.r.arity)
		}
		if bytes.Equal(out.Syms, s.Syms) && slices.Equal(out.Params, s.Params) {
			return s, nil
		}
		s = out
	}
	return s, nil
}
