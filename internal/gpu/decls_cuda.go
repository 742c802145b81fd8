//go:build cuda

package gpu

// The kernels of cuda/prims.cu and cuda/selftest.cu, each parameter list
// declared once; kerneltest checks them against the C declarations.

type scanArgs struct {
	in, out    Ptr
	n          uint64
	state, tot Ptr
}

type compactArgs struct {
	flags, values, out Ptr
	n                  uint64
	state, count       Ptr
}

type reducePartialArgs struct {
	in       Ptr
	n        uint64
	partials Ptr
}

type reduceFinalArgs struct {
	partials Ptr
	count    uint32
	result   Ptr
}

type selftestParams struct {
	a   int32
	b   int64
	c   float32
	d   float64
	e   uint32
	out Ptr
}

var (
	scanExclusiveU32 = Kernel[scanArgs]{"prims", "pg_scan_exclusive_u32"}
	compactU32       = Kernel[compactArgs]{"prims", "pg_compact_u32"}
	selftestArgs     = Kernel[selftestParams]{"selftest", "pg_selftest_args"}
)

// reduceKernels are the two passes of reduction name (sum_i32, max_f32, ...).
func reduceKernels(name string) (Kernel[reducePartialArgs], Kernel[reduceFinalArgs]) {
	return Kernel[reducePartialArgs]{"prims", "pg_reduce_" + name + "_partial"},
		Kernel[reduceFinalArgs]{"prims", "pg_reduce_" + name + "_final"}
}

// reduceNames are the reductions prims_cuda.go runs.
func reduceNames() []string { return []string{"sum_i32", "max_i32", "sum_f32", "max_f32"} }
