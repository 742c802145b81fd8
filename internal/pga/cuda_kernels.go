//go:build cuda

package pga

import "github.com/procgen-dev/procgen/internal/gpu"

// The kernels of cuda/pga.cu, each parameter list declared once;
// kerneltest checks them against the C declarations.

// pgaCtx is the program and PGA_CTX_PARAMS (cuda/pga_prog.cuh), the
// evaluation kernels' leading parameters.
type pgaCtx struct {
	words, lotAttrs, coll, collRng, snaps, snapRng gpu.Ptr
	collOut, snapOut, pendOut                      gpu.Ptr
	outCap                                         uint32
	phase                                          int32
	anc                                            gpu.Ptr
	ancCap                                         uint32
}

type levelsRunArgs struct {
	ctx       pgaCtx
	items     gpu.Ptr
	n         uint32
	counts    gpu.Ptr
	st        gpu.Ptr
	maxShapes uint64
	maxDepth  int32
}

type levelsExpandArgs struct {
	ctx               pgaCtx
	items             gpu.Ptr
	n                 uint32
	offs, next, terms gpu.Ptr
	termBase          uint32
	st                gpu.Ptr
}

type persistentArgs struct {
	ctx          pgaCtx
	queue, ready gpu.Ptr
	qcap         uint32
	terms        gpu.Ptr
	tcap         uint32
	st           gpu.Ptr
	maxShapes    uint64
	maxDepth     int32
	flags        int32
}

// scanArgs: pga_scan_tiles(a, n, partial), pga_scan_partials(partial, nb,
// st) and pga_scan_add(a, n, partial) share one shape.
type scanArgs struct {
	a gpu.Ptr
	n uint32
	b gpu.Ptr
}

type meshCountArgs struct {
	words, terms gpu.Ptr
	nterm        uint32
	counts       gpu.Ptr
}

type meshWriteArgs struct {
	words, terms         gpu.Ptr
	nterm                uint32
	offs, verts, indices gpu.Ptr
}

type glbKeysArgs struct {
	terms gpu.Ptr
	nterm uint32
	keys  gpu.Ptr
}

type glbGatherArgs struct {
	terms gpu.Ptr
	at    gpu.Ptr
	n     uint32
	out   gpu.Ptr
}

type glbCountArgs struct {
	words, terms, perm gpu.Ptr
	nterm              uint32
	counts             gpu.Ptr
}

type glbWriteArgs struct {
	words, terms, perm gpu.Ptr
	nterm              uint32
	offs, parts        gpu.Ptr
	nparts             uint32
	bin, bounds, bad   gpu.Ptr
}

type overflowArgs struct {
	words, terms gpu.Ptr
	nterm        uint32
	edges, erng  gpu.Ptr
	nlots        uint32
	worst        gpu.Ptr
}

type termHistArgs struct {
	terms     gpu.Ptr
	nterm, nk uint32
	hist      gpu.Ptr
}

var (
	levelsRun     = gpu.Kernel[levelsRunArgs]{Family: KernelFamily, Name: "pga_levels_run"}
	levelsRunAsk  = gpu.Kernel[levelsRunArgs]{Family: KernelFamily, Name: "pga_levels_run_ask"}
	levelsExpand  = gpu.Kernel[levelsExpandArgs]{Family: KernelFamily, Name: "pga_levels_expand"}
	persistentRun = gpu.Kernel[persistentArgs]{Family: KernelFamily, Name: "pga_persistent"}
	persistentAsk = gpu.Kernel[persistentArgs]{Family: KernelFamily, Name: "pga_persistent_ask"}
	scanTiles     = gpu.Kernel[scanArgs]{Family: KernelFamily, Name: "pga_scan_tiles"}
	scanPartials  = gpu.Kernel[scanArgs]{Family: KernelFamily, Name: "pga_scan_partials"}
	scanAdd       = gpu.Kernel[scanArgs]{Family: KernelFamily, Name: "pga_scan_add"}
	meshCount     = gpu.Kernel[meshCountArgs]{Family: KernelFamily, Name: "pga_mesh_count"}
	meshWrite     = gpu.Kernel[meshWriteArgs]{Family: KernelFamily, Name: "pga_mesh_write"}
	termHist      = gpu.Kernel[termHistArgs]{Family: KernelFamily, Name: "pga_term_hist"}
	glbKeys       = gpu.Kernel[glbKeysArgs]{Family: KernelFamily, Name: "pga_glb_keys"}
	glbGather     = gpu.Kernel[glbGatherArgs]{Family: KernelFamily, Name: "pga_glb_gather"}
	glbCount      = gpu.Kernel[glbCountArgs]{Family: KernelFamily, Name: "pga_glb_count"}
	glbWrite      = gpu.Kernel[glbWriteArgs]{Family: KernelFamily, Name: "pga_glb_write"}
	overflow      = gpu.Kernel[overflowArgs]{Family: KernelFamily, Name: "pga_overflow"}
)
