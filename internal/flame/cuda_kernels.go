//go:build cuda

package flame

import "github.com/procgen-dev/procgen/internal/gpu"

// The kernels of cuda/flame.cu and cuda/flame_accum.cu, each parameter list
// declared once; kerneltest checks them against the C declarations (and the
// NVRTC-compiled iterate kernel's, cuda_special_src.go, against iterateArgs).

type iterateArgs struct {
	genome, xforms, hist, hits gpu.Ptr
	seed, chainBase            uint64
	nchains, samples           uint32
	badTotal, log              gpu.Ptr
}

type hitsFromAlphaArgs struct {
	hist, hits gpu.Ptr
	n          uint64
}

type addHistArgs struct {
	hist, part, hits, partHits gpu.Ptr
	n                          uint64
}

type logscaleArgs struct {
	hist, acc gpu.Ptr
	n         uint64
	k1, k2    float32
}

type densityArgs struct{ hist, hits, acc, coefs, widths, de gpu.Ptr }

type earlyclipArgs struct {
	acc  gpu.Ptr
	n    uint64
	tone gpu.Ptr
}

type finishArgs struct {
	acc, out, filter                               gpu.Ptr
	fw, width, height, bw, ss, deOffset, earlyClip int32
	tone                                           gpu.Ptr
}

type logCountArgs struct {
	log    gpu.Ptr
	n      uint64
	counts gpu.Ptr
	ntiles uint32
}

type logScatterArgs struct {
	log     gpu.Ptr
	n       uint64
	cursors gpu.Ptr
	nbins   uint32
	shift   uint32
	out     gpu.Ptr
}

type coarseCursorsArgs struct {
	starts, cursors gpu.Ptr
	nbins, shift    uint32
}

type logAccumulateArgs struct {
	sorted   gpu.Ptr
	total    uint64
	genome   gpu.Ptr
	hist     gpu.Ptr
	nbuckets uint64
}

var (
	flameIterate = gpu.Kernel[iterateArgs]{Family: "flame", Name: "pg_flame_iterate"}
	// The same with JWildfire's plugin variations (cuda/flame_plugins.cu),
	// for genomes that use them (gpuUsesPlugins).
	flameIteratePlugins = gpu.Kernel[iterateArgs]{Family: "flame_plugins", Name: "pg_flame_iterate"}
	// The chaos game with points that carry z and the 3D camera
	// (cuda/flame3d.cu), for genomes gpuCarriesZ picks.
	flameIterate3D     = gpu.Kernel[iterateArgs]{Family: "flame3d", Name: "pg_flame_iterate"}
	flameHitsFromAlpha = gpu.Kernel[hitsFromAlphaArgs]{Family: "flame", Name: "pg_flame_hits_from_alpha"}
	flameAddHist       = gpu.Kernel[addHistArgs]{Family: "flame", Name: "pg_flame_add_hist"}
	flameLogscale      = gpu.Kernel[logscaleArgs]{Family: "flame", Name: "pg_flame_logscale"}
	flameDensity       = gpu.Kernel[densityArgs]{Family: "flame", Name: "pg_flame_density"}
	flameEarlyclip     = gpu.Kernel[earlyclipArgs]{Family: "flame", Name: "pg_flame_earlyclip"}
	flameFinish        = gpu.Kernel[finishArgs]{Family: "flame", Name: "pg_flame_finish"}
	logCount           = gpu.Kernel[logCountArgs]{Family: "flame_accum", Name: "pg_flame_log_count"}
	logScatter         = gpu.Kernel[logScatterArgs]{Family: "flame_accum", Name: "pg_flame_log_scatter"}
	logAccumulate      = gpu.Kernel[logAccumulateArgs]{Family: "flame_accum", Name: "pg_flame_log_accumulate"}
	coarseCursors      = gpu.Kernel[coarseCursorsArgs]{Family: "flame_accum", Name: "pg_flame_coarse_cursors"}
)
