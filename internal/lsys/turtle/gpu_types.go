package turtle

import (
	"fmt"
	"math"
)

// Go mirrors of the structures in cuda/turtle_types.cuh. Field order, types
// and sizes must match; TestGPUTypesMatchHeader compiles the header with the
// host C++ compiler and compares every size and offset, and the command
// numbers. Segment and Polygon are written by the kernels directly (as
// TurtleSegment and TurtlePolygon), so the test checks them too. They live
// outside the cuda build so that the test runs everywhere.

// Launch shapes; they must match cuda/turtle.cu.
const (
	gpuMaxLevels   = 32
	gpuScanThreads = 256  // TT_SCAN_THREADS: chunks per survey/prep block
	gpuScanLog     = 8    // TT_SCAN_LOG: min-tree levels built by prep
	gpuWalkThreads = 128  // TT_WALK_THREADS: chunks per block of the walks
	gpuPJThreads   = 256  // TT_PJ_THREADS: chunks per block of pointer jumping in shared memory
	gpuMaxChunk    = 4096 // chunk-relative positions fit in 16 bits (cuda/turtle.cu: spine)
)

type gpuProgram struct {
	Step, Cos, Sin, Winc float64
	Tropism              [3]float64
	Elasticity           float64
	Width0               float64
	N                    uint64
	Chunk, NChunks       int32
	Tropic, Levels       int32
	MoveVertices, Pad    int32
	TreeOff, TreeLen     [gpuMaxLevels]int32
	Table                [256]uint16
}

type gpuChunk struct {
	Segs, Events, Params, Pushes    uint32
	Pops, MaxRel, MaxStack, LastPop int32
	SegOff, EvOff, YsOff, StackOff  uint32
	ParamOff                        uint64
	Depth, M, Level, Pad            int32
}

// Sizes in 32-bit words of what the host allocates device buffers of
// (checked against the types by TestGPUTypesMatchHeader).
const (
	gpuChunkWords   = 18 // TurtleChunk
	gpuSumsWords    = 8  // TurtleSums
	gpuTotalsWords  = 10 // TurtleTotals
	gpuXformWords   = 32 // TurtleXform
	gpuStateWords   = 28 // TurtleState
	gpuEventWords   = 4  // TurtleEvent
	gpuBoxWords     = 8  // TurtleBox
	gpuSegmentWords = 8  // Segment
	gpuPolygonWords = 3  // Polygon
	gpuVertexWords  = 3  // [3]float32
)

type gpuSums struct {
	Params                  uint64
	Segs, Events, Ys, Stack uint32
	Delta, Level            int32
}

type gpuTotals struct {
	Params                  uint64
	Segs, Events, Ys, Stack uint32
	MaxDepth, Level         int32
	BadChunk, Pad           int32
}

type gpuXform struct {
	P, H, L, U [3]float64
	Wadd, Wmin float64
	Cset, Cv   int32
	Pad        [2]int32
}

type gpuState struct {
	P, H, L, U [3]float64
	Width      float64
	Color, Pad int32
}

type gpuEvent struct {
	P         [3]float32
	ColorKind uint32
}

type gpuBox struct {
	Lo, Hi    [3]float32
	Wmax      float32
	Nonfinite int32
}

// newGPUProgram is p's constants for a string of n modules in chunks of
// chunk modules, with the shape of the min tree over the chunks.
func newGPUProgram(p *program, n, chunk int) (gpuProgram, error) {
	nchunks := (n + chunk - 1) / chunk
	if n <= 0 || chunk < 16 || chunk > gpuMaxChunk || chunk&(chunk-1) != 0 || nchunks > math.MaxInt32 {
		return gpuProgram{}, fmt.Errorf("turtle: %d modules in chunks of %d", n, chunk)
	}
	g := gpuProgram{
		Step: p.step, Cos: p.cos, Sin: p.sin, Winc: p.winc,
		Tropism:    [3]float64{p.tropismDir.x, p.tropismDir.y, p.tropismDir.z},
		Elasticity: p.elasticity, Width0: p.initial.width,
		N: uint64(n), Chunk: int32(chunk), NChunks: int32(nchunks),
	}
	if p.tropic {
		g.Tropic = 1
	}
	if p.moveVertices {
		g.MoveVertices = 1
	}
	// Level k of the min tree holds ceil(nchunks / 2^k) entries, up to one.
	for off, m := 0, nchunks; ; m = (m + 1) / 2 {
		g.TreeOff[g.Levels], g.TreeLen[g.Levels] = int32(off), int32(m)
		g.Levels++
		off += m
		if m == 1 {
			break
		}
	}
	for s := range 256 {
		g.Table[s] = uint16(p.cmds[s]) | uint16(p.arity[s])<<8
	}
	return g, nil
}

// treeSize is the number of entries of all the min tree's levels.
func (g *gpuProgram) treeSize() int {
	k := g.Levels - 1
	return int(g.TreeOff[k] + g.TreeLen[k])
}
