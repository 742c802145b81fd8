//go:build cuda

package lsys

import "github.com/procgen-dev/procgen/internal/gpu"

// The kernels of cuda/lsys.cu and cuda/lsys_tree.cu, each parameter list
// declared once; kerneltest checks them against the C declarations.

type countArgs struct {
	blob, syms, params, chunkp, match gpu.Ptr
	n                                 uint32
	key                               uint64
	choice, tileMods, tileParams      gpu.Ptr
	status                            gpu.Ptr
}

type fastCountArgs struct {
	blob, syms gpu.Ptr
	n          uint32
	tileCnt    gpu.Ptr
	status     gpu.Ptr
}

type fastExpandArgs struct {
	blob, syms gpu.Ptr
	n          uint32
	tileOff    gpu.Ptr
	out        gpu.Ptr
	status     gpu.Ptr
}

type rewriteArgs struct {
	blob, syms, params, chunkp, match gpu.Ptr
	n                                 uint32
	key                               uint64 // keys the random functions (random.go)
	choice, tileMods, tileParams      gpu.Ptr
	outSyms, outParams, outChunkp     gpu.Ptr
	status                            gpu.Ptr
}

// symScanArgs: (in, n, a, b), the shape of lsys_depth_tiles, lsys_match,
// lsys_cut_mark and lsys_cut_tiles.
type symScanArgs struct {
	in   gpu.Ptr
	n    uint32
	a, b gpu.Ptr
}

type depthFillArgs struct {
	syms                         gpu.Ptr
	n                            uint32
	tileBase, levels, unbalanced gpu.Ptr
}

type minLevelArgs struct {
	levels               gpu.Ptr
	offIn, lenIn, offOut uint64
}

type cutCountArgs struct {
	blob, syms                   gpu.Ptr
	n                            uint32
	delta, tileBase              gpu.Ptr
	tileMods, tileParams, status gpu.Ptr
}

type cutScatterArgs struct {
	blob, syms, params, chunkp    gpu.Ptr
	n                             uint32
	delta, tileBase               gpu.Ptr
	tileMods, tileParams          gpu.Ptr
	outSyms, outParams, outChunkp gpu.Ptr
}

var (
	lsysCount       = gpu.Kernel[countArgs]{Family: "lsys", Name: "lsys_count"}
	lsysCountStatic = gpu.Kernel[countArgs]{Family: "lsys", Name: "lsys_count_static"}
	lsysFastCount   = gpu.Kernel[fastCountArgs]{Family: "lsys", Name: "lsys_fast_count"}
	lsysFastExpand  = gpu.Kernel[fastExpandArgs]{Family: "lsys", Name: "lsys_fast_expand"}
	lsysRewrite     = gpu.Kernel[rewriteArgs]{Family: "lsys", Name: "lsys_rewrite"}
	lsysDepthTiles  = gpu.Kernel[symScanArgs]{Family: "lsys_tree", Name: "lsys_depth_tiles"}
	lsysDepthFill   = gpu.Kernel[depthFillArgs]{Family: "lsys_tree", Name: "lsys_depth_fill"}
	lsysMinLevel    = gpu.Kernel[minLevelArgs]{Family: "lsys_tree", Name: "lsys_min_level"}
	lsysMatch       = gpu.Kernel[symScanArgs]{Family: "lsys_tree", Name: "lsys_match"}
	lsysCutMark     = gpu.Kernel[symScanArgs]{Family: "lsys_tree", Name: "lsys_cut_mark"}
	lsysCutTiles    = gpu.Kernel[symScanArgs]{Family: "lsys_tree", Name: "lsys_cut_tiles"}
	lsysCutCount    = gpu.Kernel[cutCountArgs]{Family: "lsys_tree", Name: "lsys_cut_count"}
	lsysCutScatter  = gpu.Kernel[cutScatterArgs]{Family: "lsys_tree", Name: "lsys_cut_scatter"}
)
