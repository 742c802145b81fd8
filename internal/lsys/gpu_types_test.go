package lsys

import (
	"reflect"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/layouttest"
)

// TestGPUTypesMatchHeader checks the Go mirrors and the constants both sides
// use against cuda/lsys_types.cuh as the host C++ compiler lays it out.
func TestGPUTypesMatchHeader(t *testing.T) {
	types := []struct {
		c      string
		goType any
	}{{"LsysSym", gpuSym{}}, {"LsysRule", gpuRule{}}, {"LsysArg", gpuArg{}}, {"LsysExpr", gpuExpr{}},
		{"LsysHeader", gpuHeader{}}, {"LsysStatus", gpuStatus{}}}
	consts := map[string]int64{
		"LSYS_K": gpuK, "LSYS_THREADS": gpuThreads, "LSYS_GEN_TILE": gpuGenTile, "LSYS_TILE_ITEMS": gpuTileItems,
		"LSYS_TILE": gpuTile, "LSYS_FAST_MAX_BYTES": gpuFastBytes, "LSYS_FANOUT": gpuFanout,
		"LSYS_MAX_LEVELS": gpuMaxLevels, "LSYS_COPY": gpuCopy, "LSYS_DYNAMIC": gpuDynamic,
		"LSYS_MAX_STACK": MaxStack, "LSYS_MAX_SLOTS": MaxSlots,
		"LSYS_ARG_EXPR": gpuArgExpr, "LSYS_ARG_CONST": gpuArgConst, "LSYS_ARG_SLOT": gpuArgSlot,
		"LSYS_ARG_SLOT_MUL_CONST": gpuArgSlotMul,
		"LSYS_PARAMETRIC":         gpuParametric, "LSYS_HAS_CTX": gpuHasCtx, "LSYS_CTX_PARAMS": gpuCtxParams,
		"LSYS_DYNAMIC_RULES": gpuDynamicRules, "LSYS_HAS_CUT": gpuHasCut,
		"LSYS_OP_CONST": int64(OpConst), "LSYS_OP_SLOT": int64(OpSlot), "LSYS_OP_NEG": int64(OpNeg),
		"LSYS_OP_NOT": int64(OpNot), "LSYS_OP_ADD": int64(OpAdd), "LSYS_OP_SUB": int64(OpSub),
		"LSYS_OP_MUL": int64(OpMul), "LSYS_OP_DIV": int64(OpDiv), "LSYS_OP_POW": int64(OpPow),
		"LSYS_OP_LT": int64(OpLt), "LSYS_OP_LE": int64(OpLe), "LSYS_OP_GT": int64(OpGt), "LSYS_OP_GE": int64(OpGe),
		"LSYS_OP_EQ": int64(OpEq), "LSYS_OP_NE": int64(OpNe), "LSYS_OP_ANDJUMP": int64(OpAndJump),
		"LSYS_OP_ORJUMP": int64(OpOrJump), "LSYS_OP_BOOL": int64(OpBool), "LSYS_OP_CALL": int64(OpCall),
		"LSYS_FN_SIN": int64(FnSin), "LSYS_FN_COS": int64(FnCos), "LSYS_FN_TAN": int64(FnTan),
		"LSYS_FN_ASIN": int64(FnAsin), "LSYS_FN_ACOS": int64(FnAcos), "LSYS_FN_ATAN": int64(FnAtan),
		"LSYS_FN_ATAN2": int64(FnAtan2), "LSYS_FN_SQRT": int64(FnSqrt), "LSYS_FN_EXP": int64(FnExp),
		"LSYS_FN_LOG": int64(FnLog), "LSYS_FN_FLOOR": int64(FnFloor), "LSYS_FN_CEIL": int64(FnCeil),
		"LSYS_FN_TRUNC": int64(FnTrunc), "LSYS_FN_ABS": int64(FnAbs), "LSYS_FN_SIGN": int64(FnSign),
		"LSYS_FN_MIN": int64(FnMin), "LSYS_FN_MAX": int64(FnMax),
		"LSYS_FN_RAN": int64(FnRan), "LSYS_FN_NRAN": int64(FnNran), "LSYS_FN_UNIFORM": int64(FnUniform),
	}
	var structs []layouttest.Struct
	for _, ty := range types {
		structs = append(structs, layouttest.Struct{C: ty.c, Go: ty.goType})
	}
	consts["(LSYS_NO_ERROR&0xffffffffull)"] = int64(gpuNoError & 0xffffffff) // a 64-bit value: compared in halves
	consts["(LSYS_NO_ERROR>>32)"] = int64(gpuNoError >> 32)
	layouttest.Check(t, layouttest.Header{Dir: "../../cuda", File: "lsys_types.cuh", Structs: structs, Consts: consts})
	if n := reflect.TypeOf(gpuStatus{}).Size() / 8; n != gpuStatusLen {
		t.Errorf("gpuStatus is %d words, gpuStatusLen %d", n, gpuStatusLen)
	}
}
