package pga

import "time"

// Scheduler picks how the CUDA backend spreads derivation work over the GPU.
type Scheduler int

const (
	// Persistent is one launch of blocks that loop pulling shapes from a
	// global queue and a local pool in shared memory (the paper's scheduler).
	Persistent Scheduler = iota
	// Levels is one launch per derivation level (the paper's baseline).
	Levels
)

func (s Scheduler) String() string {
	if s == Levels {
		return "levels"
	}
	return "persistent"
}

// CUDAOptions bound and tune a CUDA evaluation. Options.Workers and
// Options.Progress do not apply.
type CUDAOptions struct {
	Options
	Scheduler Scheduler
	// NoLocalGrouping (persistent) sends every new shape to the global queue
	// and runs batches in arrival order, instead of keeping shapes in a
	// block's shared-memory pool and sorting each batch by rule.
	NoLocalGrouping bool
	// NoOpParallel (persistent) makes each thread write all outputs of its
	// Repeat/SubDiv/CompSplit/Replicate, instead of spreading them over the
	// block's threads.
	NoOpParallel bool
	// Mesh builds the terminals' triangle mesh on the device (Result.Mesh
	// counts it; Vertices/Indices hold it when Download is set).
	Mesh bool
	// Download copies terminals (and the mesh, with Mesh) back to the host.
	// Without it only counts come back (benchmarks); with Mesh, the counts
	// per terminal name too.
	Download bool
	// Lots, when set, are the lots the axioms stand on (axiom i on
	// lots[i]): Result.Overflows then lists the buildings reaching more
	// than OverflowTol metres outside them, as Grammar.Overflows does.
	Lots        []Lot
	OverflowTol float64
}

// CUDAResult is what a CUDA evaluation made.
type CUDAResult struct {
	// Terminals, sorted by axiom, then seed, then name: the same set as
	// Grammar.Evaluate's, whose order is depth-first per axiom.
	Terminals []TerminalShape
	// Stats counts terminals, vertices and triangles as Stats does.
	Stats MeshStats
	// Vertices (x, y, z float32 per vertex) and Indices (uint32, three per
	// triangle) of the terminal geometry, per terminal in the device's
	// terminal order: 8 corners and 12 triangles a box, 4 and 2 a quad.
	Vertices []float32
	Indices  []uint32
	// Overflows lists the lots the terminals reach outside (CUDAOptions.Lots).
	Overflows []Overflow
	// Shapes is the number of shapes made, as MaxShapes counts them.
	Shapes int64
	// DeviceTime is the device time of the evaluation and mesh kernels.
	DeviceTime time.Duration
}
