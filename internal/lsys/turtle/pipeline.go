package turtle

import (
	"bytes"
	"context"
	"errors"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// Pipeline is a derivation followed by its interpretation, on one backend:
// derive, then (optionally) take the derived string, apply the
// homomorphism, interpret. NewPipeline (pipeline_cuda.go,
// pipeline_nocuda.go) picks it for a device: on the host it is
// lsys.Deriver.Derive, lsys.ApplyHomomorphism and Interpreter.Interpret; on a
// GPU the string stays in device memory from the axiom to the geometry and
// only the statistics and the geometry come back (the derived string only
// when Final asks for it). Both give what the steps give on their own.
type Pipeline interface {
	// Derive derives sys. The Derivation's String is nil when the string
	// stayed on the device: Final returns it.
	Derive(ctx context.Context, sys *lsys.System, o lsys.DeriveOptions) (*lsys.Derivation, error)
	// Final is the derived string on the host. Call it before Homomorphism,
	// which may consume the derived string.
	Final() (*lsys.String, error)
	// Homomorphism applies the system's homomorphism to the derived string
	// and returns the length of the string to interpret.
	Homomorphism(ctx context.Context) (modules int, err error)
	// Has reports whether the string to interpret holds any of syms.
	Has(syms ...lsys.Symbol) (bool, error)
	// Interpret interprets the homomorphism's string.
	Interpret(ctx context.Context, o Options) (*Geometry, error)
	// Close frees what the pipeline holds; the geometry stays valid.
	Close() error
}

var errPipelineOrder = errors.New("turtle: pipeline: no derived string (Derive first)")

// hostPipeline runs the steps with the strings on the host.
type hostPipeline struct {
	deriver lsys.Deriver
	interp  Interpreter
	sys     *lsys.System
	final   *lsys.String // the derived string
	s       *lsys.String // the string to interpret
}

func (p *hostPipeline) Derive(ctx context.Context, sys *lsys.System, o lsys.DeriveOptions) (*lsys.Derivation, error) {
	d, err := p.deriver.Derive(ctx, sys, o)
	if err != nil {
		return nil, err
	}
	p.sys, p.final, p.s = sys, d.String, nil
	return d, nil
}

func (p *hostPipeline) Final() (*lsys.String, error) {
	if p.final == nil {
		return nil, errPipelineOrder
	}
	return p.final, nil
}

func (p *hostPipeline) Homomorphism(ctx context.Context) (int, error) {
	if p.final == nil {
		return 0, errPipelineOrder
	}
	s, err := lsys.ApplyHomomorphism(ctx, p.sys, p.final, 0)
	if err != nil {
		return 0, err
	}
	p.s = s
	return s.Len(), nil
}

func (p *hostPipeline) Has(syms ...lsys.Symbol) (bool, error) {
	if p.s == nil {
		return false, errPipelineOrder
	}
	for _, c := range syms {
		if bytes.IndexByte(p.s.Syms, c) >= 0 {
			return true, nil
		}
	}
	return false, nil
}

func (p *hostPipeline) Interpret(ctx context.Context, o Options) (*Geometry, error) {
	if p.s == nil {
		return nil, errPipelineOrder
	}
	return p.interp.Interpret(ctx, p.sys, p.s, o)
}

func (p *hostPipeline) Close() error {
	p.final, p.s = nil, nil
	return nil
}
