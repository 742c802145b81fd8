// Structures and opcodes the rules interpreter kernels (rules.cu) share with
// Go (internal/rules/gpu_types.go, whose test checks sizes, offsets and the
// opcode values against internal/rules/program.go). Fixed-size fields only.
#pragma once
#include <stdint.h>

#define RULES_MAX_REGS 32   // registers per evaluation (MaxRegs)
#define RULES_MAX_FIELDS 32 // fields per state (masks are 32 bits)
#define RULES_MAX_PEND 255  // scattered writes per evaluation (MaxPendings)
#define RULES_NO_REG 255    // index operand: element 0 (scalars)
#define RULES_COMPACT_BLOCK 1024 // compact schedule: 32 warps, a state each
#define RULES_COMPACT_SMALL 8    // compact with few states: 8 warps (states) a block
#define RULES_SIMPLE_BLOCK 256   // simple schedule: a block per state

// Opcodes: an instruction is op | a<<8 | b<<16 | c<<24; LDI, JMP, JZ and
// LOOP take one more word. Semantics in internal/rules/interp.go.
enum RulesOp {
	RULES_OP_NOP = 0,
	RULES_OP_LDI,
	RULES_OP_MOV,
	RULES_OP_LD,
	RULES_OP_LDS,
	RULES_OP_ST,
	RULES_OP_STP,
	RULES_OP_ADDI,
	RULES_OP_ADDF,
	RULES_OP_JMP,
	RULES_OP_JZ,
	RULES_OP_LOOP,
	RULES_OP_RET,
	RULES_OP_END,
	RULES_OP_IADD,
	RULES_OP_ISUB,
	RULES_OP_IMUL,
	RULES_OP_IDIV,
	RULES_OP_IMOD,
	RULES_OP_IAND,
	RULES_OP_IOR,
	RULES_OP_IXOR,
	RULES_OP_ISHL,
	RULES_OP_ISHR,
	RULES_OP_IEQ,
	RULES_OP_INE,
	RULES_OP_ILT,
	RULES_OP_ILE,
	RULES_OP_IMIN,
	RULES_OP_IMAX,
	RULES_OP_INEG,
	RULES_OP_INOT,
	RULES_OP_ILNOT,
	RULES_OP_IABS,
	RULES_OP_BOOL,
	RULES_OP_FADD,
	RULES_OP_FSUB,
	RULES_OP_FMUL,
	RULES_OP_FDIV,
	RULES_OP_FEQ,
	RULES_OP_FNE,
	RULES_OP_FLT,
	RULES_OP_FLE,
	RULES_OP_FMIN,
	RULES_OP_FMAX,
	RULES_OP_FNEG,
	RULES_OP_FABS,
	RULES_OP_FSQRT,
	RULES_OP_I2F,
	RULES_OP_F2I,
	RULES_OP_COUNT,
	// Random draws (internal/rules/rand.go), after the arithmetic.
	RULES_OP_RAND = RULES_OP_COUNT, // r[a] = the draw's top 32 bits (site c, k = r[b] or 0)
	RULES_OP_RANDF,                 // r[a] = the draw as a float in [0, 1)
	RULES_OP_URANGE,                // r[a] = hi32(r[b] * r[c]), r[c] == 0: r[b]
	RULES_OP_TOTAL
};

// RulesField is where a field lives in a state.
struct RulesField {
	int32_t off;  // first word
	int32_t size; // elements
};

// RulesRule is one compiled rule (Rule in program.go).
struct RulesRule {
	int32_t lo, hi;      // value range [lo, hi)
	int32_t cond_pc;     // precondition entry, -1: always
	int32_t body_pc;     // consequence entry
	uint32_t snap_mask;  // fields read from the snapshot
	uint32_t pend_mask;  // fields written "highest index wins"
	uint32_t atom_mask;  // fields accumulated into (informational)
	int32_t pad0;
};

// RulesArgs is a launch's scalars (one struct: the kernels take many pointers).
struct RulesArgs {
	int32_t nstates;
	int32_t words;  // per state, padded to a multiple of 32
	int32_t nrules;
	int32_t ncode;
	int32_t nfields;
	int32_t step0;  // steps before this launch
	int32_t nsteps; // steps in this launch
	int32_t nregs;  // registers per thread (shared memory after the code)
};
