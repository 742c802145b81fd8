package lsys

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestGPUTypesMatchHeader compiles cuda/lsys_types.cuh with the host C++
// compiler, prints every field's offset, each struct's size and the
// constants both sides use, and checks the Go mirrors against them. Skips
// when no C++ compiler is installed.
func TestGPUTypesMatchHeader(t *testing.T) {
	cxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++ to compile the CUDA header with")
	}
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
	}
	var prog strings.Builder
	prog.WriteString("#include <cstdio>\n#include <cstddef>\n#include \"lsys_types.cuh\"\nint main(){\n")
	for _, ty := range types {
		rt := reflect.TypeOf(ty.goType)
		prog.WriteString("printf(\"" + ty.c + " %zu\\n\", sizeof(" + ty.c + "));\n")
		for i := 0; i < rt.NumField(); i++ {
			f := lsysSnake(rt.Field(i).Name)
			prog.WriteString("printf(\"" + ty.c + "." + f + " %zu\\n\", offsetof(" + ty.c + ", " + f + "));\n")
		}
	}
	for name := range consts {
		prog.WriteString("printf(\"" + name + " %lld\\n\", (long long)(" + name + "));\n")
	}
	prog.WriteString("printf(\"LSYS_NO_ERROR %llu\\n\", (unsigned long long)LSYS_NO_ERROR);\n}\n")
	dir := t.TempDir()
	src := filepath.Join(dir, "layout.cpp")
	if err := os.WriteFile(src, []byte(prog.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "layout")
	if out, err := exec.Command(cxx, "-I../../cuda", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("compile header: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, _ := strings.Cut(line, " ")
		got[k] = v
	}
	num := func(k string) int64 {
		n, err := strconv.ParseInt(got[k], 10, 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", k, got[k], err)
		}
		return n
	}
	for _, ty := range types {
		rt := reflect.TypeOf(ty.goType)
		if num(ty.c) != int64(rt.Size()) {
			t.Errorf("sizeof(%s) = %d in C, %d in Go", ty.c, num(ty.c), rt.Size())
		}
		if bs := binary.Size(ty.goType); bs != int(rt.Size()) {
			t.Errorf("%s encodes to %d bytes, size %d", ty.c, bs, rt.Size())
		}
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			key := ty.c + "." + lsysSnake(f.Name)
			if num(key) != int64(f.Offset) {
				t.Errorf("offsetof(%s) = %d in C, %d in Go", key, num(key), f.Offset)
			}
		}
	}
	for name, want := range consts {
		if num(name) != want {
			t.Errorf("%s = %d in C, %d in Go", name, num(name), want)
		}
	}
	if got["LSYS_NO_ERROR"] != strconv.FormatUint(gpuNoError, 10) {
		t.Errorf("LSYS_NO_ERROR = %s in C, %d in Go", got["LSYS_NO_ERROR"], uint64(gpuNoError))
	}
	if n := reflect.TypeOf(gpuStatus{}).Size() / 8; n != gpuStatusLen {
		t.Errorf("gpuStatus is %d words, gpuStatusLen %d", n, gpuStatusLen)
	}
}

// lsysSnake maps a Go field name to the C one: CandStart -> cand_start,
// NCand -> ncand, OffRules -> off_rules, NLeft -> nleft.
func lsysSnake(s string) string {
	if len(s) > 1 && s[0] == 'N' && s[1] >= 'A' && s[1] <= 'Z' {
		return strings.ToLower(s)
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return strings.ToLower(b.String())
}
