// Structures and constants the L-system derivation shares between Go
// (internal/lsys/gpu_types.go, whose test compiles this header with the host
// C++ compiler and checks every size, offset and constant) and cuda/lsys.cu.
// Fixed-size fields only.
//
// The rule tables travel as one blob of 64-bit words: an LsysHeader, then
// the arrays it points to by byte offset (rules, successor arguments,
// expressions, bytecode, constants, candidate lists, symbol bytes).
#pragma once
#include <stdint.h>

// Bytecode (internal/lsys/model.go Op and Func; the values must agree).
#define LSYS_OP_CONST 0
#define LSYS_OP_SLOT 1
#define LSYS_OP_NEG 2
#define LSYS_OP_NOT 3
#define LSYS_OP_ADD 4
#define LSYS_OP_SUB 5
#define LSYS_OP_MUL 6
#define LSYS_OP_DIV 7
#define LSYS_OP_POW 8
#define LSYS_OP_LT 9
#define LSYS_OP_LE 10
#define LSYS_OP_GT 11
#define LSYS_OP_GE 12
#define LSYS_OP_EQ 13
#define LSYS_OP_NE 14
#define LSYS_OP_ANDJUMP 15
#define LSYS_OP_ORJUMP 16
#define LSYS_OP_BOOL 17
#define LSYS_OP_CALL 18

#define LSYS_FN_SIN 0
#define LSYS_FN_COS 1
#define LSYS_FN_TAN 2
#define LSYS_FN_ASIN 3
#define LSYS_FN_ACOS 4
#define LSYS_FN_ATAN 5
#define LSYS_FN_ATAN2 6
#define LSYS_FN_SQRT 7
#define LSYS_FN_EXP 8
#define LSYS_FN_LOG 9
#define LSYS_FN_FLOOR 10
#define LSYS_FN_CEIL 11
#define LSYS_FN_TRUNC 12
#define LSYS_FN_ABS 13
#define LSYS_FN_SIGN 14
#define LSYS_FN_MIN 15
#define LSYS_FN_MAX 16
#define LSYS_FN_RAN 17 // random functions: the last operand is the call site
#define LSYS_FN_NRAN 18
#define LSYS_FN_UNIFORM 19

#define LSYS_MAX_STACK 16 // lsys.MaxStack
#define LSYS_MAX_SLOTS 24 // lsys.MaxSlots

// LsysSym.rule: a production index, or one of these (rules.go symCopy,
// symDynamic).
#define LSYS_COPY (-1)
#define LSYS_DYNAMIC (-2)

// LsysArg.kind (rules.go argKind).
#define LSYS_ARG_EXPR 0
#define LSYS_ARG_CONST 1
#define LSYS_ARG_SLOT 2
#define LSYS_ARG_SLOT_MUL_CONST 3

// LsysHeader.flags
#define LSYS_PARAMETRIC 1u
#define LSYS_HAS_CTX 2u
#define LSYS_CTX_PARAMS 4u
#define LSYS_DYNAMIC_RULES 8u
#define LSYS_HAS_CUT 16u

// Launch shapes, shared with internal/lsys/cuda.go.
//
// The general path gives each thread LSYS_K consecutive modules; the string
// keeps, per group of LSYS_K modules, the index of the group's first
// parameter (the "chunk parameter offsets"), written by whatever kernel
// wrote the string, so a module's parameters are found without a scan.
#define LSYS_K 8
#define LSYS_THREADS 256
#define LSYS_GEN_TILE (LSYS_THREADS * LSYS_K)
// Every kernel over the string works on tiles of LSYS_THREADS threads: the
// general path's tiles are LSYS_THREADS*LSYS_K modules; the fast path (no
// parameters, no dynamic rules), bracket depths and cut use tiles of
// LSYS_TILE modules, LSYS_TILE_ITEMS per thread.
#define LSYS_TILE_ITEMS 16
#define LSYS_TILE (LSYS_THREADS * LSYS_TILE_ITEMS)
// The fast path keeps every successor in shared memory; a system whose
// successors need more bytes than this takes the general path.
#define LSYS_FAST_MAX_BYTES 16384
// Bracket depths are searched through levels of minima over groups of
// LSYS_FANOUT values.
#define LSYS_FANOUT 32
#define LSYS_MAX_LEVELS 8
// A bracket without a partner (unbalanced strings).
#define LSYS_NO_MATCH 0xffffffffu

// One per symbol value (256 of them).
struct LsysSym {
	int32_t rule;        // the production that always applies, LSYS_COPY or LSYS_DYNAMIC
	uint32_t cand_start; // its productions, in source order: cands[cand_start : cand_start+ncand]
	uint32_t ncand;
	uint32_t arity;      // parameters of a module with this symbol
	uint32_t ignore;     // skipped when matching context
	uint32_t out_mods;   // static rule or copy: modules written (0 for LSYS_DYNAMIC)
	uint32_t out_params; // static rule or copy: parameters written
	uint32_t succ_start; // static rule or copy: its successor's symbols, bytes[succ_start : +out_mods]
};

// One per production (rules.go rule).
struct LsysRule {
	uint32_t pred;
	uint32_t succ_start, succ_len;   // successor symbols in bytes[]
	uint32_t arg_start, nargs;       // successor parameters in args[], in order
	uint32_t left_start, left_len;   // left context in bytes[], nearest module last
	uint32_t right_start, right_len; // right context in bytes[], nearest module first
	int32_t cond;                    // condition in exprs[], or -1: none
	uint32_t nleft, npred, nslots;   // slots bound by the left context, the predecessor, all
	uint32_t stochastic;
	double prob;
};

// One per successor parameter.
struct LsysArg {
	uint32_t kind; // LSYS_ARG_*
	uint32_t slot;
	int32_t expr; // exprs[] index (LSYS_ARG_EXPR and, for messages, LSYS_ARG_SLOT_MUL_CONST)
	uint32_t pad;
	double val;
};

// One per compiled expression: code[code_start : +code_len], whose OpConst
// arguments index consts[const_start:].
struct LsysExpr {
	uint32_t code_start, code_len, const_start, nconsts;
};

struct LsysHeader {
	uint32_t flags;
	uint32_t nrules, nargs, nexprs, ncode, nconsts, ncands, nbytes;
	// Byte offsets from the start of the blob, each a multiple of 8.
	uint32_t off_rules, off_args, off_exprs, off_code, off_consts, off_cands, off_bytes;
	// bpoff[i] (nbytes values): for a successor's symbol at bytes[i], the
	// index of its first parameter among the successor's parameters.
	uint32_t off_bpoff;
	uint32_t max_succ; // longest successor
	struct LsysSym syms[256];
};

// What the kernels tell the host. Error positions are module indices,
// LSYS_NO_ERROR when none; the host reads the struct after each count.
#define LSYS_NO_ERROR 0xffffffffffffffffull
struct LsysStatus {
	uint64_t out_mods;    // totals of the last tile scan: the modules and
	uint64_t out_params;  // parameters a step writes, or that a cut keeps
	uint64_t count_err;   // lowest module whose production choice failed (reset by the previous rewrite)
	uint64_t rewrite_err; // lowest module whose successor parameters failed (reset by the count)
	uint64_t unbalanced;  // bracket depths: 1 when some ']' closes no branch (reset by the previous rewrite)
	int64_t depth;        // bracket depth at the end of the string
	uint32_t done;        // tile scans: blocks finished (the last one scans, then resets it)
	uint32_t pad0;
	uint64_t scratch;     // a total nobody reads
};
