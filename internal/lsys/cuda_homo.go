//go:build cuda

package lsys

import (
	"bytes"
	"context"
	"errors"
	"fmt"
)

// HomomorphismOnGPU reports why the homomorphism of sys cannot be applied on
// the device (contexts with branches, as GPUSupports refuses them for
// productions), or nil.
func HomomorphismOnGPU(sys *System) error {
	for i := range sys.Homo {
		p := &sys.Homo[i]
		if bytes.IndexByte(p.Left, SymPush) >= 0 || bytes.IndexByte(p.Right, SymPush) >= 0 {
			return fmt.Errorf("lsys: homomorphism contexts with branches (%s at %s:%d): %w",
				describe(p, &sys.Arity), p.Pos.File, p.Pos.Line, ErrNotOnGPU)
		}
	}
	return nil
}

// ApplyHomomorphismOnDevice is ApplyHomomorphism on a string in device
// memory: one rewrite with sys.Homo by the derivation's kernels (draws keyed
// by seed 0 and step 0, then the cut, as on the CPU), so the result is the
// CPU's bit for bit. It takes s over: s is freed, or becomes part of the
// result, and must not be used again (it is returned as is when sys has no
// homomorphism). Errors are the CPU backend's, reproduced on the host.
func (c CUDA) ApplyHomomorphismOnDevice(ctx context.Context, sys *System, s *DeviceString) (*DeviceString, error) {
	if sys == nil || s == nil {
		return nil, errors.New("lsys: no system or string")
	}
	if len(sys.Homo) == 0 {
		return s, nil
	}
	if c.Dev == nil {
		return nil, errors.New("lsys: cuda: no device")
	}
	if err := HomomorphismOnGPU(sys); err != nil {
		return nil, err
	}
	r, err := compileRules(sys, sys.Homo, "homomorphism")
	if err != nil {
		return nil, err
	}
	tab, err := flattenRules(r)
	if err != nil {
		return nil, err
	}
	if r.parametric != (s.chunkp != nil) && s.n > 0 {
		return nil, errors.New("lsys: cuda: the string's layout does not match the system's parameters")
	}
	run := &cudaRun{dev: c.Dev, r: r, tab: tab, steps: 1}
	run.cur = devString{syms: s.syms, params: s.params, chunkp: s.chunkp, n: s.n, np: s.np}
	*s = DeviceString{} // run owns its buffers now
	defer run.free()
	if err := run.load(); err != nil {
		return nil, err
	}
	if err := run.step(ctx, 0, 0, 0, "homomorphism"); err != nil {
		return nil, err
	}
	return run.take()
}
