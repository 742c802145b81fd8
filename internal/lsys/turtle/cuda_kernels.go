//go:build cuda

package turtle

import "github.com/procgen-dev/procgen/internal/gpu"

// The kernels of cuda/turtle.cu (with turtle_polygons.cuh), each parameter
// list declared once; kerneltest checks them against the C declarations.
// Kernels of one shape share a parameter struct; the C names are in the
// comments.

// ptrs2: turtle_tree_top(prog, tree).
type ptrs2 struct{ a, b gpu.Ptr }

// ptrs4: turtle_survey(prog, syms, chunks, partials),
// turtle_absolutize(prog, chunks, v, ys).
type ptrs4 struct{ a, b, c, d gpu.Ptr }

// ptrs5: turtle_prep(prog, chunks, partials, tree, tot),
// turtle_pj_round(prog, vin, ain, vout, aout).
type ptrs5 struct{ a, b, c, d, e gpu.Ptr }

// pjBlockArgs: turtle_pj_block(prog, chunks, tree, ys, v, anc).
type pjBlockArgs struct{ prog, chunks, tree, ys, v, anc gpu.Ptr }

// countedArgs: (in, n, out), the shape of turtle_scan_blocks, turtle_bounds,
// turtle_ev_delta and turtle_symbol_set.
type countedArgs struct {
	in  gpu.Ptr
	n   uint32
	out gpu.Ptr
}

// walkArgs: turtle_summarize's parameters, the first of turtle_spines'.
type walkArgs struct{ prog, syms, params, chunks, tree, ys, pushpos gpu.Ptr }

type spinesArgs struct {
	walk          walkArgs
	ready, ticket gpu.Ptr
}

type emitArgs struct {
	prog, syms, params, chunks, tree, ys, stack, segs, events, boxes gpu.Ptr
}

type polyCountArgs struct {
	ev                              gpu.Ptr
	n                               uint32
	depth, vcount, pflag, open, bad gpu.Ptr
}

type polyWriteArgs struct {
	ev                                               gpu.Ptr
	n                                                uint32
	vcount, vertOff, pidx, open, polys, verts, boxes gpu.Ptr
}

var (
	turtleSurvey     = gpu.Kernel[ptrs4]{Family: "turtle", Name: "turtle_survey"}
	turtleScanBlocks = gpu.Kernel[countedArgs]{Family: "turtle", Name: "turtle_scan_blocks"}
	turtlePrep       = gpu.Kernel[ptrs5]{Family: "turtle", Name: "turtle_prep"}
	turtleTreeTop    = gpu.Kernel[ptrs2]{Family: "turtle", Name: "turtle_tree_top"}
	turtleSummarize  = gpu.Kernel[walkArgs]{Family: "turtle", Name: "turtle_summarize"}
	turtleSpines     = gpu.Kernel[spinesArgs]{Family: "turtle", Name: "turtle_spines"}
	turtleEmit       = gpu.Kernel[emitArgs]{Family: "turtle", Name: "turtle_emit"}
	turtleBounds     = gpu.Kernel[countedArgs]{Family: "turtle", Name: "turtle_bounds"}
	turtlePJBlock    = gpu.Kernel[pjBlockArgs]{Family: "turtle", Name: "turtle_pj_block"}
	turtlePJRound    = gpu.Kernel[ptrs5]{Family: "turtle", Name: "turtle_pj_round"}
	turtleAbsolutize = gpu.Kernel[ptrs4]{Family: "turtle", Name: "turtle_absolutize"}
	turtleEvDelta    = gpu.Kernel[countedArgs]{Family: "turtle", Name: "turtle_ev_delta"}
	turtlePolyCount  = gpu.Kernel[polyCountArgs]{Family: "turtle", Name: "turtle_poly_count"}
	turtlePolyWrite  = gpu.Kernel[polyWriteArgs]{Family: "turtle", Name: "turtle_poly_write"}
	turtleSymbolSet  = gpu.Kernel[countedArgs]{Family: "turtle", Name: "turtle_symbol_set"}
)
