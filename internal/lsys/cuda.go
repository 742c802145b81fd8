//go:build cuda

package lsys

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// CUDA derives on a GPU (cuda/lsys.cu, cuda/lsys_tree.cu): every step is the
// paper's count, scan and rewrite on the device, with the string kept there
// from step to step; only the final string comes back. It derives exactly
// the CPU's string (symbols and parameters bit for bit, the same stochastic
// draws, the same cut and context semantics) and reports the same errors:
// an expression or bracket error found on the device is reproduced by the
// CPU backend on that step's string, so its message is the CPU's own.
//
// A step is two kernel launches and a read of their status (two reads with
// parameters, whose errors the rewrite reports): count (each thread chooses
// the productions of gpuK consecutive modules; the last block to finish
// scans the per-tile counts), then rewrite, which writes the output by
// output position: aligned 16-byte words of symbols and one parameter per
// thread in turn, each thread finding the module behind it, so stores are
// coalesced whatever the successor lengths. Parameters are evaluated by a
// bytecode interpreter over lsys_math.cuh, the twin of mathfn.go. Systems
// without parameters whose every symbol has a static production take a
// fast path (a table expansion of one byte per module). Systems with
// context first match brackets on the device, systems with cut compact the
// string after each step.
type CUDA struct {
	Dev *gpu.Device
	// StepTime, when set, is called after each step with the device time
	// it took, from an event before the step to one after it (for
	// benchmarks; the step is timed whole, host round trips included).
	StepTime func(step int, t time.Duration)
}

var _ Deriver = CUDA{}

// Strings on the device are indexed with 32 bits.
const (
	maxDeviceModules = 1<<32 - 1<<16
	maxDeviceParams  = 1<<32 - 1<<16
)

// Derive runs the derivation on the device and downloads the final string.
func (c CUDA) Derive(ctx context.Context, sys *System, o DeriveOptions) (*Derivation, error) {
	ds, d, err := c.DeriveOnDevice(ctx, sys, o)
	if err != nil {
		return nil, err
	}
	defer ds.Free()
	if d.String, err = ds.Download(); err != nil {
		return nil, fmt.Errorf("lsys: download the derived string: %w", err)
	}
	return d, nil
}

// DeriveOnDevice is Derive, leaving the final string in device memory (for
// a consumer on the device, and for benchmarks that leave out the copy to
// the host). The Derivation has no String; the caller frees the
// DeviceString.
func (c CUDA) DeriveOnDevice(ctx context.Context, sys *System, o DeriveOptions) (*DeviceString, *Derivation, error) {
	if sys == nil {
		return nil, nil, errors.New("lsys: no system")
	}
	if c.Dev == nil {
		return nil, nil, errors.New("lsys: cuda: no device")
	}
	if err := GPUSupports(sys); err != nil {
		return nil, nil, fmt.Errorf("%w (derive it with --device cpu)", err)
	}
	r, err := compileRules(sys, sys.Prods, "production")
	if err != nil {
		return nil, nil, err
	}
	tab, err := flattenRules(r)
	if err != nil {
		return nil, nil, err
	}
	ax, err := axiom(sys)
	if err != nil {
		return nil, nil, err
	}
	cutBranches(ax, &r.arity)
	if err := query(ctx, sys, &o, ax, 0); err != nil {
		return nil, nil, err
	}
	steps := o.Steps
	if steps < 0 {
		steps = sys.Steps
	}
	d := &Derivation{Steps: make([]StepStats, 0, steps+1)}
	record := func(k, m, p int) {
		d.Steps = append(d.Steps, StepStats{Step: int64(k), Modules: int64(m), Params: int64(p)})
		d.Total += int64(m)
	}
	record(0, ax.Len(), len(ax.Params))
	if o.MaxModules > 0 && int64(ax.Len()) > o.MaxModules {
		return nil, nil, &LimitError{Step: 0, Modules: int64(ax.Len()), Max: o.MaxModules}
	}
	if ax.Len() > maxDeviceModules || len(ax.Params) > maxDeviceParams {
		return nil, nil, fmt.Errorf("lsys: cuda: an axiom of %d modules is too long for the device", ax.Len())
	}
	run := &cudaRun{dev: c.Dev, r: r, tab: tab, steps: steps}
	defer run.free()
	if err := run.start(ax); err != nil {
		return nil, nil, err
	}
	if o.OnStep != nil {
		if err := o.OnStep(0, ax); err != nil {
			return nil, nil, err
		}
	}
	for k := 0; k < steps; k++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		step := func() error { return run.step(ctx, k, o.Seed, o.MaxModules, fmt.Sprintf("step %d", k+1)) }
		if c.StepTime != nil {
			dt, err := c.Dev.Time(func() error {
				if err := step(); err != nil {
					return err
				}
				return run.flush() // the step's last launch, inside the timing
			})
			if err != nil {
				return nil, nil, err
			}
			c.StepTime(k+1, dt)
		} else if err := step(); err != nil {
			return nil, nil, err
		}
		record(k+1, run.cur.n, run.cur.np)
		if HasQueries(sys) {
			if err := run.query(ctx, sys, &o, k+1); err != nil {
				return nil, nil, err
			}
		}
		if o.OnStep != nil {
			s, err := run.download(&run.cur)
			if err != nil {
				return nil, nil, fmt.Errorf("lsys: download w%d: %w", k+1, err)
			}
			if err := o.OnStep(k+1, s); err != nil {
				return nil, nil, err
			}
		}
		if o.Progress != nil {
			o.Progress(int64(k+1), int64(steps))
		}
	}
	ds, err := run.take()
	if err != nil {
		return nil, nil, err
	}
	return ds, d, nil
}

// query fills the query modules of w_k on the CPU (the turtle runs there):
// the string goes to the host and its parameters come back, so that the
// device derives exactly what the CPU does, one round trip per step.
func (run *cudaRun) query(ctx context.Context, sys *System, o *DeriveOptions, k int) error {
	s, err := run.download(&run.cur)
	if err != nil {
		return fmt.Errorf("lsys: download w%d for its query modules: %w", k, err)
	}
	if err := query(ctx, sys, o, s, k); err != nil {
		return err
	}
	if len(s.Params) == 0 {
		return nil
	}
	if err := run.cur.params.Write(s.Params); err != nil {
		return fmt.Errorf("lsys: upload the queried parameters of w%d: %w", k, err)
	}
	return nil
}

// DeviceString is a derived string in device memory, in the layout of
// String: Len symbols, one byte each, and NumParams float64 parameters in
// module order. The buffers may be longer than the string.
type DeviceString struct {
	dev    *gpu.Device
	syms   *gpu.Buffer[uint8]
	params *gpu.Buffer[float64] // nil when the system has no parameters
	chunkp *gpu.Buffer[uint32]  // parametric systems: the first parameter of every gpuK modules
	n, np  int
}

// Len is the number of modules.
func (s *DeviceString) Len() int { return s.n }

// NumParams is the number of parameters.
func (s *DeviceString) NumParams() int { return s.np }

// Syms holds the symbols in its first Len values.
func (s *DeviceString) Syms() *gpu.Buffer[uint8] { return s.syms }

// Params holds the parameters in its first NumParams values; nil for a
// system without parameters.
func (s *DeviceString) Params() *gpu.Buffer[float64] { return s.params }

// Download copies the string to the host.
func (s *DeviceString) Download() (*String, error) {
	out := &String{Syms: make([]Symbol, s.n), Params: make([]float64, s.np)}
	if err := s.syms.ReadLarge(out.Syms, 0); err != nil {
		return nil, err
	}
	if s.np > 0 {
		if err := s.params.ReadLarge(out.Params, 0); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Free releases the device memory. Freeing twice is harmless.
func (s *DeviceString) Free() error {
	return errors.Join(s.syms.Free(), s.params.Free(), s.chunkp.Free())
}
