package flame

import (
	"bytes"
	"encoding/binary"
)

// Go mirrors of the structures in cuda/flame_types.cuh. Field order, types
// and sizes must match; TestGPUTypesMatchHeader compiles the header with the
// host C++ compiler and compares every size and offset.

const (
	gpuMaxXforms = 64
	gpuMaxVars   = 32
)

type gpuXform struct {
	Coefs      [6]float32
	Post       [6]float32
	Color      float32
	ColorSpeed float32
	Vis        float32
	Opacity    float32
	NVars      int32
	HasPost    int32
	LinearOnly int32
	LinearW    float32
	Weights    [gpuMaxVars]float32
	IDs        [gpuMaxVars]uint8
	Params     [NumParams]float32
}

type gpuGenome struct {
	NXforms, HasFinal, Xaos, Linear, Fuse, BW, BH, Rotate int32
	AlphaHits, WarpUniform                                int32
	Pad0                                                  [2]int32
	RotCos, RotSin, CX, CY                                float32
	X0, Y0, X1, Y1                                        float32
	SX, SY                                                float32
	Choose                                                [gpuMaxXforms + 1][gpuMaxXforms]float32
	Palette                                               [256][4]float32
}

type gpuDE struct {
	K1, K2               float32
	BW, BH, SS           int32
	KernelSize, MaxIndex int32
	MaxFiltered, Curve   float32
	Pad                  [3]int32
}

type gpuTone struct {
	Gamma, Linrange, Vibrancy, Highpow float32
	BG                                 [3]float32
	Transparent                        int32
}

// words encodes fixed-size structs as the little-endian 32-bit words a
// device buffer holds.
func words(vs ...any) []uint32 {
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
