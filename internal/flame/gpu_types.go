package flame

import "unsafe"

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
	PreBlur    int32 // index in IDs of the first pre_blur with a non-zero weight, -1 for none
	Flatten    int32 // JWildfire's flatten: z is 0 after the variations (the flame3d family)
	// Stages is how many of Fractorium's pre_/post_ stage terms follow the
	// NVars variations in IDs and Weights (the flame3d family, in document
	// order); bit k of StagePost says stage k is a post_ one, bit 31 that
	// the xform has no regular variation, so the point passes through.
	Stages    int32
	StagePost uint32
	Weights   [gpuMaxVars]float32
	IDs       [gpuMaxVars]uint16    // VarIDs: a variation's device id is its CPU id
	Params    [gpuNumParams]float32 // flam3's, then the plugin slab (gpuPluginPack)
}

// smemXformFlam3Bytes is the flame family's SmemXform (flame_types.cuh),
// the prefix of gpuXform a block keeps in shared memory: the fields before
// the parameters and flam3's GPUNumParams of them, without the plugin slab.
const smemXformFlam3Bytes = int(unsafe.Offsetof(gpuXform{}.Params)) + 4*int(GPUNumParams)

type gpuGenome struct {
	NXforms, HasFinal, Xaos, Linear, Fuse, BW, BH, Rotate int32
	AlphaHits, WarpUniform                                int32
	Chains, ChainSamples, XformStride, Pad0               int32 // batched launches (cuda_frame.go)
	// Points carry z (the flame3d family, gpuCarriesZ), and the 3D camera
	// (camera3d.go's projector) when Cam is set.
	Z3, Cam, CamJWF, CamBlurred int32
	CamM                        [9]float32 // the projector's m[col][row], column by column
	CamPersp, CamZPos, CamBlur  float32
	CamPos                      [3]float32
	CamPad                      float32
	RotCos, RotSin, CX, CY      float32
	X0, Y0, X1, Y1              float32
	SX, SY                      float32
	Choose                      [gpuMaxXforms + 1][gpuMaxXforms]float32
	Palette                     [256][4]float32
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
