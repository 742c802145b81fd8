//go:build cuda

package turtle

import (
	"context"
	"fmt"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/lsys"
)

// InterpretDevice is Interpret on a string that a derivation left in
// device memory (lsys.CUDA.DeriveOnDevice): nothing is uploaded, and only
// which symbols occur (32 bytes) and the geometry come back. It zeroes the
// up to 15 bytes after the string's symbols (the kernels read 16 at a
// time), which the string's buffer holds beyond its length. The string
// stays the caller's. The geometry is Interpret's on the downloaded string,
// bit for bit.
func (c CUDA) InterpretDevice(ctx context.Context, sys *lsys.System, s *lsys.DeviceString, o Options) (*Geometry, error) {
	if sys == nil || s == nil {
		return nil, fmt.Errorf("turtle: nil system or string")
	}
	if c.Dev == nil {
		return nil, fmt.Errorf("turtle: CUDA backend without a device")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n, np := s.Len(), s.NumParams()
	if n == 0 {
		if np != 0 {
			return nil, paramsError(uint64(np), 0)
		}
		return &Geometry{Segments: []Segment{}}, nil
	}
	if n > maxModules {
		return nil, fmt.Errorf("turtle: %d modules, the CUDA backend takes at most %d", n, maxModules)
	}
	padded := (n + 15) / 16 * 16
	if s.Syms().Len() < padded {
		// Not a buffer of the derivation's: interpret a copy on the host side.
		h, err := s.Download()
		if err != nil {
			return nil, fmt.Errorf("turtle: %w", err)
		}
		return c.Interpret(ctx, sys, h, o)
	}
	if pad := padded - n; pad > 0 {
		var zeros [16]byte
		if err := s.Syms().WriteAt(zeros[:pad], n); err != nil {
			return nil, fmt.Errorf("turtle: %w", err)
		}
	}
	set, err := symbolSet(c.Dev, s.Syms(), n)
	if err != nil {
		return nil, err
	}
	if hostOnly(func(c lsys.Symbol) bool { return set[c] }) {
		h, err := s.Download()
		if err != nil {
			return nil, fmt.Errorf("turtle: %w", err)
		}
		return CPU{}.Interpret(ctx, sys, h, o)
	}
	p := newProgram(sys, o)
	p.moveVertices = set['{']
	r := &cudaRun{dev: c.Dev, stages: c.Stages}
	defer r.free()
	return c.finish(ctx, r, p, &cudaInput{syms: s.Syms(), params: s.Params(), n: n, np: np}, o)
}

// symbolSet reports which symbols occur in syms[0..n), computed on the
// device (turtle_symbol_set, in the family the interpretation loads anyway):
// one trip to the device, 32 bytes back.
func symbolSet(dev *gpu.Device, syms *gpu.Buffer[uint8], n int) (*[256]bool, error) {
	var set [256]bool
	if n == 0 {
		return &set, nil
	}
	bits, err := gpu.Alloc[uint32](dev, 8)
	if err != nil {
		return nil, fmt.Errorf("turtle: %w", err)
	}
	defer bits.Free()
	f, err := turtleSymbolSet.Load(dev)
	if err != nil {
		return nil, err
	}
	var w [8]uint32
	grid := min(blocks(n, gpuScanThreads*16), max(dev.Info().SMs, 1)*8)
	b := dev.NewBatch()
	gpu.BatchZero(b, bits, 8)
	f.Queue(b, gpu.Dim(grid), gpu.Dim(gpuScanThreads), 0, countedArgs{syms.Ptr(), uint32(n), bits.Ptr()})
	gpu.BatchRead(b, bits, w[:], 0)
	if err := b.Run(); err != nil {
		return nil, fmt.Errorf("turtle: %w", err)
	}
	for c := range set {
		set[c] = w[c>>5]>>(c&31)&1 != 0
	}
	return &set, nil
}

// hostOnly reports whether a string with these symbols must be
// interpreted on the host.
func hostOnly(has func(lsys.Symbol) bool) bool {
	for _, s := range hostOnlySyms {
		if has(s) {
			return true
		}
	}
	return false
}
