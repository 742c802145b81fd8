package pga

import (
	"context"
	"time"
)

// Engine evaluates one grammar's axioms: the CPU (CPU), or a CUDA device
// (NewCUDA). Both make the same set of terminals from the same options;
// only their order, and what CUDATuning tunes, differ.
type Engine interface {
	Evaluate(ctx context.Context, axioms []Shape, opt Options) (*Result, error)
}

var (
	_ Engine = CPU{}
	_ Engine = (*CUDA)(nil)
)

// Options bound and shape an evaluation, on either engine.
type Options struct {
	Axiom     string // start rule; "" means the grammar's first axiom
	MaxShapes int    // shapes made (operator outputs, rule applications, terminals) over all axioms; 0 means 1<<24
	MaxDepth  int    // rule applications along one derivation; 0 means 1000
	Workers   int    // CPU: axioms expanded at once; 0 means GOMAXPROCS
	// LotAttrs, when set, holds per axiom the numeric properties that
	// LotAttr(name, default) reads (the GeoJSON properties of its lot).
	LotAttrs []map[string]float64
	// Context, when set, stops a Grammar.Evaluate early with its error
	// (an Engine takes its context as an argument instead).
	Context context.Context
	// Progress (CPU), when set, hears how many (axiom, phase) pairs are
	// done out of axioms x phases; calls are serialized.
	Progress func(done, total int64)
	// KeepTerminals returns the terminals in Result.Terminals (from the
	// device, on CUDA). Without it none is kept: the CPU counts them as they
	// are made (Result.Stats, complete), CUDA counts them on the device.
	KeepTerminals bool
	// Lots, when set, are the lots the axioms stand on (axiom i on
	// lots[i]): Result.Overflows then lists the buildings reaching more
	// than OverflowTol metres outside them, as Grammar.Overflows does.
	Lots        []Lot
	OverflowTol float64
	CUDATuning
}

// Result is what an evaluation made.
type Result struct {
	// Terminals (with Options.KeepTerminals): on the CPU axiom by axiom in
	// depth-first order (Grammar.Evaluate's); on CUDA sorted by axiom, then
	// seed, then name. The same set either way.
	Terminals []TerminalShape
	// Projections are the texture projections the terminals refer to
	// (Result.Projection), for Grammar.Mesh; none without SetupProjection.
	Projections [][8]float32
	// Stats counts terminals, vertices and triangles as Grammar.Stats does.
	// With KeepTerminals only Stats.Terminals is sure: Grammar.Stats of the
	// terminals gives the rest.
	Stats MeshStats
	// Vertices (x, y, z float32 per vertex) and Indices (uint32, three per
	// triangle) of the terminal geometry (CUDA with Mesh and KeepTerminals),
	// per terminal in the device's terminal order: 8 corners and 12
	// triangles a box, 4 and 2 a quad.
	Vertices []float32
	Indices  []uint32
	// Overflows lists the lots the terminals reach outside (Options.Lots).
	Overflows []Overflow
	// Shapes (CUDA) is the number of shapes made, as MaxShapes counts them.
	Shapes int64
	// DeviceTime (CUDA) is the device time of the evaluation and mesh kernels.
	DeviceTime time.Duration
	// GLB (CUDA with CUDATuning.GLB) is the terminals' GLB, built on the
	// device.
	GLB *GLB
	// Steps (CUDA) are the wall times of the evaluation's parts after the
	// grammar's kernels (reading back, ordering, the GLB's, the overflow
	// check), for -v.
	Steps []Step
}

// Step is the wall time of a named part of an evaluation.
type Step struct {
	Name string
	Time time.Duration
}

// CPU is the engine that evaluates on the host's cores.
type CPU struct{ Grammar *Grammar }

// Evaluate is Grammar.Evaluate with KeepTerminals, else
// Grammar.EvaluateStatsLots, which keeps no terminal.
func (c CPU) Evaluate(ctx context.Context, axioms []Shape, opt Options) (*Result, error) {
	opt.Context = ctx
	g := c.Grammar
	if !opt.KeepTerminals {
		st, ov, err := g.EvaluateStatsLots(axioms, opt, opt.Lots, opt.OverflowTol)
		if err != nil {
			return nil, err
		}
		return &Result{Stats: st, Overflows: ov}, nil
	}
	ts, projs, err := g.evaluateTerms(axioms, opt)
	if err != nil {
		return nil, err
	}
	res := &Result{Terminals: ts, Projections: projs, Stats: MeshStats{Terminals: len(ts)}}
	if len(opt.Lots) > 0 {
		res.Overflows = g.Overflows(ts, opt.Lots, opt.OverflowTol)
	}
	return res, nil
}

// KernelFamily names the CUDA backend's kernels (gpu.Device.Preload: a job
// that opens the GPU ahead of need loads them then).
const KernelFamily = "pga"
