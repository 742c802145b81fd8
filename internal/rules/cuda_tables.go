//go:build cuda

package rules

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// The tables the interpreter kernels (and the tiled path's passes) read, and
// the interpreter's shared memory.

// gpuTables are the field and rule tables as the kernels read them
// (RulesField and RulesRule words).
func gpuTables(p *Program) ([]uint32, []uint32) {
	fs := make([]gpuField, len(p.Fields))
	for k, f := range p.Fields {
		fs[k] = gpuField{int32(f.Off), int32(f.Size)}
	}
	rs := make([]gpuRule, len(p.Rules))
	for k, r := range p.Rules {
		rs[k] = gpuRule{int32(r.Lo), int32(r.Hi), int32(r.CondPC), int32(r.BodyPC), r.SnapMask, r.PendMask, r.AtomMask, 0}
	}
	return gpu.Words(fs), gpu.Words(rs)
}

// interpTables uploads what the interpreter kernels read: the code, the
// field and rule tables, and sizes their shared memory.
func (r *cudaRun) interpTables() error {
	if err := r.setShared(r.interp); err != nil {
		return err
	}
	return r.uploadTables()
}

// setShared sizes the interpreter kernel f's shared memory: the code, the
// field table and the register file (p.Regs per thread).
func (r *cudaRun) setShared(f interface{ SetMaxDynamicShared(int) error }) error {
	p := r.p
	r.shared = 4 * (len(p.Code) + 2*len(p.Fields) + p.Regs*r.threads)
	// Beside the compact kernels' own arrays (s_pairs and the warp sums)
	// this may pass the 48 KiB a block gets without the opt-in, which
	// SetMaxDynamicShared takes when it must.
	if err := f.SetMaxDynamicShared(r.shared); err != nil {
		return fmt.Errorf("%d bytes of shared memory a block: %w", r.shared, err)
	}
	return nil
}

// uploadTables uploads the code and the field and rule tables.
func (r *cudaRun) uploadTables() (err error) {
	p, dev := r.p, r.dev
	fields, rules := gpuTables(p)
	if r.code, err = gpu.Upload(dev, p.Code); err != nil {
		return err
	}
	if r.fields, err = gpu.Upload(dev, fields); err != nil {
		return err
	}
	r.rules, err = gpu.Upload(dev, rules)
	return err
}
