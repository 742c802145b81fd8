package forest

// Go mirrors of the structures in cuda/forest_types.cuh. Field order, types
// and sizes must match; TestForestGPUTypesMatchHeader compiles the header
// with the host C++ compiler and compares every size and offset.

// gpuMaxStages is FOREST_MAX_STAGES.
const gpuMaxStages = 32

// Kernel kinds of the exact kernels (FOREST_WEIBULL3 ...).
const (
	gpuWeibull3 = iota
	gpuWeibull
	gpuLognormal
	gpuTwoDt
)

// gpuExactParams is ForestExact: one species' exact-sum launch.
type gpuExactParams struct {
	NX, NY, TilesX, Pad0      int32
	H, ThetaHalf, LognC, Cut2 float32
	HD                        float64
}

// gpuFFTPlan is ForestFftPlan: a transform length and its radices.
type gpuFFTPlan struct {
	N, NStages, Generic, Pad0 int32
	Radix                     [gpuMaxStages]int32
}

// gpuTableKern is ForestTableKern: a kernel on the fft lattice.
type gpuTableKern struct {
	Logn, Torus, PX, PY, AX, AY                   int32
	H, D, Theta, HalfTheta, LnX0, Inv2xb2, Reach2 float64
}
