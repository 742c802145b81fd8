package pga

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

// CUDATuning is how the CUDA engine runs an evaluation; the CPU engine
// ignores it. None of it changes the terminals.
type CUDATuning struct {
	Scheduler Scheduler
	// NoLocalGrouping (persistent) sends every new shape to the global queue
	// and runs batches in arrival order, instead of keeping shapes in a
	// block's shared-memory pool and sorting each batch by rule.
	NoLocalGrouping bool
	// NoOpParallel (persistent) makes each thread write all outputs of its
	// Repeat/SubDiv/CompSplit/Replicate, instead of spreading them over the
	// block's threads.
	NoOpParallel bool
	// Mesh builds the terminals' triangle mesh on the device: Result.Stats
	// then counts its vertices and triangles (and, with KeepTerminals,
	// Result.Vertices/Indices hold it). Without Mesh and KeepTerminals only
	// the terminals per phase are counted (benchmarks).
	Mesh bool
	// GLB builds a GLB's vertex data on the device (Result.GLB), the file
	// Grammar.Mesh and mesh.EncodeGLB would make of the terminals, which
	// stay on the device (no KeepTerminals, no Mesh); Result.Stats counts
	// as with Mesh. Not for grammars with assets.
	GLB bool
}
