package lsys

// Go mirrors of the structures and constants in cuda/lsys_types.cuh. Field
// order, types and sizes must match; TestGPUTypesMatchHeader compiles the
// header with the host C++ compiler and compares every size, offset and
// constant.

// Launch shapes (LSYS_* in the header).
const (
	gpuK          = 8                         // modules per thread in the general path
	gpuThreads    = 256                       // threads per block
	gpuGenTile    = gpuThreads * gpuK         // modules per block in the general path
	gpuTileItems  = 16                        // modules per thread in the fast path, depths and cut
	gpuTile       = gpuThreads * gpuTileItems // modules per block there
	gpuFastBytes  = 16384                     // successor bytes the fast path holds in shared memory
	gpuFanout     = 32                        // bracket depth minima per group
	gpuMaxLevels  = 8
	gpuCopy       = -1 // LsysSym.Rule: no production
	gpuDynamic    = -2 // LsysSym.Rule: chosen per module
	gpuNoError    = ^uint64(0)
	gpuStatusLen  = 8 // LsysStatus in 64-bit words
	gpuArgExpr    = 0
	gpuArgConst   = 1
	gpuArgSlot    = 2
	gpuArgSlotMul = 3
)

// LsysHeader.Flags
const (
	gpuParametric = 1 << iota
	gpuHasCtx
	gpuCtxParams
	gpuDynamicRules
	gpuHasCut
)

type gpuSym struct {
	Rule      int32
	CandStart uint32
	NCand     uint32
	Arity     uint32
	Ignore    uint32
	OutMods   uint32
	OutParams uint32
	SuccStart uint32
}

type gpuRule struct {
	Pred                 uint32
	SuccStart, SuccLen   uint32
	ArgStart, NArgs      uint32
	LeftStart, LeftLen   uint32
	RightStart, RightLen uint32
	Cond                 int32
	NLeft, NPred, NSlots uint32
	Stochastic           uint32
	Prob                 float64
}

type gpuArg struct {
	Kind uint32
	Slot uint32
	Expr int32
	Pad  uint32
	Val  float64
}

type gpuExpr struct {
	CodeStart, CodeLen, ConstStart, NConsts uint32
}

type gpuHeader struct {
	Flags                                                     uint32
	NRules, NArgs, NExprs, NCode, NConsts, NCands, NBytes     uint32
	OffRules, OffArgs, OffExprs, OffCode, OffConsts, OffCands uint32
	OffBytes, OffBpoff                                        uint32
	MaxSucc                                                   uint32
	Syms                                                      [256]gpuSym
}

// gpuStatus is LsysStatus, read back as 64-bit words.
type gpuStatus struct {
	OutMods, OutParams, CountErr, RewriteErr, Unbalanced uint64
	Depth                                                int64
	Done, Pad0                                           uint32
	Scratch                                              uint64
}
