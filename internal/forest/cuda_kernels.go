//go:build cuda

package forest

import "github.com/procgen-dev/procgen/internal/gpu"

// The kernels of cuda/forest.cu and cuda/forest_fft.cu (with
// forest_fix.cuh), each parameter list declared once; kerneltest checks them
// against the C declarations.

// exactArgs are FOREST_EXACT's parameters, the same for every exact kernel.
type exactArgs struct {
	params, xy, w, ranges, rangeOff, items gpu.Ptr
	item0                                  int32
	out                                    gpu.Ptr
}

// exactKernel is the FOREST_EXACT kernel of that name (cudaExactPlan.kernel).
func exactKernel(name string) gpu.Kernel[exactArgs] {
	return gpu.Kernel[exactArgs]{Family: "forest", Name: name}
}

// exactKernelNames are the FOREST_EXACT kernels cuda/forest.cu defines; the
// _np variants are for tests of the polynomial orders.
func exactKernelNames() []string {
	return []string{"pg_forest_exact_w3", "pg_forest_exact_w3_cut", "pg_forest_exact_w", "pg_forest_exact_w_cut",
		"pg_forest_exact_ln", "pg_forest_exact_ln_cut", "pg_forest_exact_t", "pg_forest_exact_t_cut", "pg_forest_exact_w3_np0", "pg_forest_exact_w3_np5",
		"pg_forest_exact_w3_np6"}
}

type rowsFwdArgs struct {
	plan, perm, tw, in     gpu.Ptr
	inPitch, rowLen, nrows int32
	out                    gpu.Ptr
	h                      int32
}

type rowsInvArgs struct {
	plan, perm, tw, in      gpu.Ptr
	h, nrows                int32
	out                     gpu.Ptr
	outPitch, ncols, colOff int32
	scale                   float64
	mode                    int32
}

type colsArgs struct {
	plan, perm, tw, in gpu.Ptr
	h, rowsIn          int32
	khat, out          gpu.Ptr
	rowsOut, rowOff    int32
	c, mode            int32
	scale              float64
}

type ktableArgs struct {
	kp, t  gpu.Ptr
	qx, qy int32
}

type erawArgs struct {
	kp, kt gpu.Ptr
	qx, qy int32
	raw    gpu.Ptr
	ex, ey int32
}

type etableArgs struct {
	raw    gpu.Ptr
	ex, ey int32
	safety float64
	t      gpu.Ptr
}

type fillArgs struct {
	out    gpu.Ptr
	px, py int32
	table  gpu.Ptr
	qx, qy int32
}

type binArgs struct {
	parents            gpu.Ptr
	n                  int32
	grid               gpu.Ptr
	px, py, off, torus int32
}

type fixMaxArgs struct {
	dens    gpu.Ptr
	n       int64
	maxBits gpu.Ptr
}

type fixScanArgs struct {
	dens, errEst           gpu.Ptr
	nx, ny                 int32
	maxBits                gpu.Ptr
	floor, tol             float64
	mask, rowCells, rowRel gpu.Ptr
	tiles                  gpu.Ptr
	tilesX                 int32
}

type fixMergeArgs struct {
	dens, exact, mask gpu.Ptr
	n                 int64
	maxW              float64
}

var (
	fftRowsFwd = gpu.Kernel[rowsFwdArgs]{Family: "forest_fft", Name: "pg_forest_fft_rows_fwd"}
	fftRowsInv = gpu.Kernel[rowsInvArgs]{Family: "forest_fft", Name: "pg_forest_fft_rows_inv"}
	fftCols    = gpu.Kernel[colsArgs]{Family: "forest_fft", Name: "pg_forest_fft_cols"}
	fftKtable  = gpu.Kernel[ktableArgs]{Family: "forest_fft", Name: "pg_forest_fft_ktable"}
	fftEraw    = gpu.Kernel[erawArgs]{Family: "forest_fft", Name: "pg_forest_fft_eraw"}
	fftEtable  = gpu.Kernel[etableArgs]{Family: "forest_fft", Name: "pg_forest_fft_etable"}
	fftFill    = gpu.Kernel[fillArgs]{Family: "forest_fft", Name: "pg_forest_fft_fill"}
	fftBin     = gpu.Kernel[binArgs]{Family: "forest_fft", Name: "pg_forest_fft_bin"}
	fixMax     = gpu.Kernel[fixMaxArgs]{Family: "forest_fft", Name: "pg_forest_fix_max"}
	fixScanK   = gpu.Kernel[fixScanArgs]{Family: "forest_fft", Name: "pg_forest_fix_scan"}
	fixMerge   = gpu.Kernel[fixMergeArgs]{Family: "forest_fft", Name: "pg_forest_fix_merge"}
)
