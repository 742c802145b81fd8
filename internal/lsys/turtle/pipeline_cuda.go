//go:build cuda

package turtle

import (
	"context"
	"errors"
	"fmt"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/lsys"
)

// NewPipeline returns the device pipeline on dev, or the host pipeline with
// the CPU backends when dev is nil.
func NewPipeline(dev *gpu.Device) Pipeline {
	if dev == nil {
		return &hostPipeline{deriver: lsys.CPU{}, interp: CPU{}}
	}
	return &devicePipeline{dev: dev}
}

// devicePipeline keeps the string on the device: DeriveOnDevice, then
// ApplyHomomorphismOnDevice, then InterpretDevice. A homomorphism the device
// cannot apply (contexts with branches) runs on the host, and the
// interpreter uploads its result.
type devicePipeline struct {
	dev     *gpu.Device
	sys     *lsys.System
	derived *lsys.DeviceString // nil once the homomorphism consumed it
	final   *lsys.String       // the derived string, once downloaded
	dev2    *lsys.DeviceString // the string to interpret, on the device
	host    *lsys.String       // or on the host
	set     *[256]bool         // the symbols of dev2
}

func (p *devicePipeline) Derive(ctx context.Context, sys *lsys.System, o lsys.DeriveOptions) (*lsys.Derivation, error) {
	p.Close()
	ds, d, err := lsys.CUDA{Dev: p.dev}.DeriveOnDevice(ctx, sys, o)
	if err != nil {
		return nil, err
	}
	p.sys, p.derived = sys, ds
	return d, nil
}

func (p *devicePipeline) Final() (*lsys.String, error) {
	if p.final != nil {
		return p.final, nil
	}
	if p.derived == nil {
		return nil, errPipelineOrder
	}
	s, err := p.derived.Download()
	if err != nil {
		return nil, fmt.Errorf("lsys: download the derived string: %w", err)
	}
	p.final = s
	return s, nil
}

func (p *devicePipeline) Homomorphism(ctx context.Context) (int, error) {
	if p.derived == nil {
		return 0, errPipelineOrder
	}
	if lsys.HomomorphismOnGPU(p.sys) != nil {
		final, err := p.Final()
		if err != nil {
			return 0, err
		}
		s, err := lsys.ApplyHomomorphism(ctx, p.sys, final, 0)
		if err != nil {
			return 0, err
		}
		p.host = s
		return s.Len(), nil
	}
	ds := p.derived
	out, err := lsys.CUDA{Dev: p.dev}.ApplyHomomorphismOnDevice(ctx, p.sys, ds)
	if ds.Syms() == nil {
		p.derived = nil // consumed: freed, or part of out
	}
	if err != nil {
		return 0, err
	}
	p.dev2 = out
	return out.Len(), nil
}

func (p *devicePipeline) Has(syms ...lsys.Symbol) (bool, error) {
	if p.host != nil {
		h := hostPipeline{s: p.host}
		return h.Has(syms...)
	}
	if p.dev2 == nil {
		return false, errPipelineOrder
	}
	if p.set == nil {
		set, err := symbolSet(p.dev, p.dev2.Syms(), p.dev2.Len())
		if err != nil {
			return false, err
		}
		p.set = set
	}
	for _, c := range syms {
		if p.set[c] {
			return true, nil
		}
	}
	return false, nil
}

func (p *devicePipeline) Interpret(ctx context.Context, o Options) (*Geometry, error) {
	c := CUDA{Dev: p.dev}
	switch {
	case p.host != nil:
		return c.Interpret(ctx, p.sys, p.host, o)
	case p.dev2 != nil:
		return c.InterpretDevice(ctx, p.sys, p.dev2, o)
	}
	return nil, errPipelineOrder
}

func (p *devicePipeline) Close() error {
	var err error
	if p.dev2 != nil && p.dev2 != p.derived {
		err = p.dev2.Free()
	}
	if p.derived != nil {
		err = errors.Join(err, p.derived.Free())
	}
	p.derived, p.dev2, p.final, p.host, p.set = nil, nil, nil, nil, nil
	return err
}
