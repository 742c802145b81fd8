package forest

import (
	"bytes"
	"encoding/binary"
)

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
)

// gpuExactParams is ForestExact: one species' exact-sum launch.
type gpuExactParams struct {
	NX, NY, TilesX, Torus             int32
	H, LX, LY, ThetaHalf, LognC, Cut2 float32
	HD, LXD, LYD, ILXD, ILYD          float64
}

// gpuFFTPlan is ForestFftPlan: a transform length and its radices.
type gpuFFTPlan struct {
	N, NStages, Generic, Pad0 int32
	Radix                     [gpuMaxStages]int32
}

// gpuTableKern is ForestTableKern: a kernel on the fft lattice.
type gpuTableKern struct {
	Logn, Torus, PX, PY                   int32
	H, D, Theta, HalfTheta, LnX0, Inv2xb2 float64
}

// gpuWords encodes fixed-size structs as the little-endian 32-bit words a
// device buffer holds.
func gpuWords(vs ...any) []uint32 {
	var b bytes.Buffer
	for _, v := range vs {
		if err := binary.Write(&b, binary.LittleEndian, v); err != nil {
			panic(err) // only fixed-size types are passed: a programming error
		}
	}
	for b.Len()%4 != 0 {
		b.WriteByte(0)
	}
	out := make([]uint32, b.Len()/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b.Bytes()[4*i:])
	}
	return out
}
