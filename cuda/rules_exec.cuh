// The rules interpreter's machinery shared by its schedules (rules.cu): the
// layouts' addressing, the fault and pending-write encodings, the draws, the
// bytecode evaluation (rules_exec) and the snapshot and flush passes. The
// per-state schedules and the tiled kernels (one state over the whole GPU)
// run the same evaluation, so a rule means the same on both.
#pragma once
#include "common.cuh"
#include "rules_types.cuh"

enum { LAYOUT_A = 0, LAYOUT_B = 1, LAYOUT_C = 2 };

template <int L>
__device__ __forceinline__ size_t rules_addr(int s, int w, int nstates, int words) {
	if (L == LAYOUT_A) return (size_t)s * (uint32_t)words + w;
	if (L == LAYOUT_B) return (size_t)w * nstates + s;
	return ((size_t)(w >> 5) * nstates + s) * 32 + (w & 31);
}

__device__ __forceinline__ float u2f(uint32_t u) { return __uint_as_float(u); }
__device__ __forceinline__ uint32_t f2u(float f) { return __float_as_uint(f); }

// rules_fault_key orders faults: lowest index first, then pc, then value.
__device__ __forceinline__ unsigned long long rules_fault_key(int rel, int pc, int32_t value) {
	return ((unsigned long long)rel << 45) | ((unsigned long long)pc << 32) | (uint32_t)value;
}

// RulesEnc is what differs between the narrow and the wide kernels: the
// compacted (rel, warp) pairs and the firing counts.
template <bool WIDE> struct RulesEnc {
	typedef uint32_t pair;
	typedef int count;
};
template <> struct RulesEnc<true> {
	typedef unsigned long long pair;
	typedef unsigned long long count;
};

// RulesFault is a thread's fault: the key (narrow: rules_fault_key; wide:
// rel<<32 | uint32(value)) and, wide, the pc.
struct RulesFault {
	unsigned long long key;
	int pc;
};

template <bool WIDE>
__device__ __forceinline__ void rules_fault_set(RulesFault *f, int rel, int pc, int32_t value) {
	if (WIDE) {
		f->key = ((unsigned long long)(uint32_t)rel << 32) | (uint32_t)value;
		f->pc = pc;
	} else {
		f->key = rules_fault_key(rel, pc, value);
	}
}

// rules_fault_record keeps state s's lowest fault. Wide: a state's faults
// have distinct rel (one thread an index, stopping at its first fault), so
// the lowest rel wins both atomicMins with its own value and pc.
template <bool WIDE>
__device__ __forceinline__ void rules_fault_record(unsigned long long *err_key, unsigned long long *err_pc, int s,
                                                   const RulesFault &f) {
	atomicMin(&err_key[s], f.key);
	if (WIDE) atomicMin(&err_pc[s], (f.key & 0xffffffff00000000ull) | (uint32_t)f.pc);
}

// RulesRegs indexes a thread's registers in shared memory.
template <int BS> struct RulesRegsT {
	uint32_t *base;
	__device__ __forceinline__ uint32_t &operator[](int k) const { return base[k * BS]; }
};
#define RulesRegs RulesRegsT<BS>

struct RulesCtx {
	uint32_t *regs;
	const uint32_t *code;
	const RulesField *fields;
	uint32_t *cur;
	const uint32_t *snap;
	unsigned long long *pend;
	int nstates, words;
	// Draws (rand.go): the current rule's key pg_hash64(pg_hash64(seed,
	// first_step + step), rule) and the run's number of state 0.
	unsigned long long rkey;
	int first_state;
};

// rules_draw is the draw of state s at index i, call site site, k repeat
// iterations in: drawBits(stateKey(rkey, first_state + s), i, site, k).
__device__ __forceinline__ uint64_t rules_draw(const RulesCtx &x, int s, int i, int site, uint32_t k) {
	const uint64_t sk = pg_hash64(x.rkey, (uint64_t)(uint32_t)(x.first_state + s));
	return pg_hash64(pg_hash64(sk, (uint64_t)(uint32_t)i), ((uint64_t)site << 32) | k);
}

// rules_exec runs from pc for state s and index i (rel = i - lo): 1 when a
// precondition holds or a consequence completed, 0 when a precondition does
// not hold, -1 on a fault (*key set).
//
// The register file lives in shared memory, register k of thread t at
// regs[k * BS + t]: a warp's accesses hit 32 banks at once, and the working
// set is explicit (local memory would spill to L2 at full occupancy).
template <int L, int BS, bool WIDE>
__device__ int rules_exec(const RulesCtx &x, int pc, int s, int i, int rel, RulesFault *key) {
	RulesRegs r{x.regs + threadIdx.x};
	r[0] = (uint32_t)i;
	int npend = 0;
	for (;;) {
		const uint32_t w = x.code[pc];
		const int op = w & 255, a = (w >> 8) & 255, b = (w >> 16) & 255, c = w >> 24;
		// Hot path: nvcc lowers the switch below to a search tree (no jump
		// tables), about eight compare-and-branch pairs before any case. The
		// commonest arithmetic is tested first, predicated, one branch back.
		// x - y is x + (-y) exactly in IEEE arithmetic and in int32 wrapping.
		if (op == RULES_OP_FMUL) {
			r[a] = f2u(__fmul_rn(u2f(r[b]), u2f(r[c])));
			pc++;
			continue;
		}
		if (op == RULES_OP_FADD || op == RULES_OP_FSUB) {
			const float y = u2f(r[c]);
			r[a] = f2u(__fadd_rn(u2f(r[b]), op == RULES_OP_FSUB ? -y : y));
			pc++;
			continue;
		}
		if (op == RULES_OP_IADD || op == RULES_OP_ISUB) {
			const uint32_t y = r[c];
			r[a] = r[b] + (op == RULES_OP_ISUB ? 0u - y : y);
			pc++;
			continue;
		}
		if (op == RULES_OP_MOV) {
			r[a] = r[b];
			pc++;
			continue;
		}
		switch (op) {
		case RULES_OP_LDI: r[a] = x.code[pc + 1]; pc += 2; continue;
		case RULES_OP_MOV: r[a] = r[b]; break;
		case RULES_OP_LD: case RULES_OP_LDS: case RULES_OP_ST: case RULES_OP_STP:
		case RULES_OP_ADDI: case RULES_OP_ADDF: {
			const RulesField f = x.fields[c];
			const int32_t idx = b == RULES_NO_REG ? 0 : (int32_t)r[b];
			if (idx < 0 || idx >= f.size) {
				rules_fault_set<WIDE>(key, rel, pc, idx);
				return -1;
			}
			const size_t ad = rules_addr<L>(s, f.off + idx, x.nstates, x.words);
			switch (op) {
			case RULES_OP_LD: r[a] = x.cur[ad]; break;
			case RULES_OP_LDS: r[a] = x.snap[ad]; break;
			case RULES_OP_ST: x.cur[ad] = r[a]; break;
			case RULES_OP_STP:
				if (++npend > RULES_MAX_PEND) {
					rules_fault_set<WIDE>(key, rel, pc, npend);
					return -1;
				}
				if (WIDE) {
					// Highest rel wins; a thread's later write to the word
					// replaces its own earlier one unless a higher rel came.
					const uint32_t v = r[a];
					const unsigned long long k = ((unsigned long long)((uint32_t)rel + 1u) << 32) | v;
					const unsigned long long prev = atomicMax(&x.pend[ad], k);
					if ((prev >> 32) == (uint32_t)rel + 1u && (uint32_t)prev > v) atomicCAS(&x.pend[ad], prev, k);
				} else {
					atomicMax(&x.pend[ad], ((unsigned long long)(rel + 1) << 40) |
					                           ((unsigned long long)npend << 32) | r[a]);
				}
				break;
			case RULES_OP_ADDI: atomicAdd(&x.cur[ad], r[a]); break;
			default: atomicAdd((float *)&x.cur[ad], u2f(r[a])); break;
			}
			break;
		}
		case RULES_OP_JMP: pc = x.code[pc + 1]; continue;
		case RULES_OP_JZ: pc = r[a] == 0 ? (int)x.code[pc + 1] : pc + 2; continue;
		case RULES_OP_LOOP:
			r[a]--;
			pc = (int32_t)r[a] > 0 ? (int)x.code[pc + 1] : pc + 2;
			continue;
		case RULES_OP_RET: return r[a] != 0;
		case RULES_OP_END: return 1;
		case RULES_OP_IADD: r[a] = r[b] + r[c]; break;
		case RULES_OP_ISUB: r[a] = r[b] - r[c]; break;
		case RULES_OP_IMUL: r[a] = r[b] * r[c]; break;
		case RULES_OP_IDIV: case RULES_OP_IMOD: {
			const int32_t y = (int32_t)r[c], v = (int32_t)r[b];
			if (y == 0) {
				rules_fault_set<WIDE>(key, rel, pc, 0);
				return -1;
			}
			if (op == RULES_OP_IDIV) {
				r[a] = y == -1 ? 0u - (uint32_t)v : (uint32_t)(v / y);
			} else if (y == 1 || y == -1) {
				r[a] = 0;
			} else {
				int32_t m = v % y;
				if (m < 0) m += y < 0 ? -y : y;
				r[a] = (uint32_t)m;
			}
			break;
		}
		case RULES_OP_IAND: r[a] = r[b] & r[c]; break;
		case RULES_OP_IOR: r[a] = r[b] | r[c]; break;
		case RULES_OP_IXOR: r[a] = r[b] ^ r[c]; break;
		case RULES_OP_ISHL: r[a] = r[b] << (r[c] & 31); break;
		case RULES_OP_ISHR: r[a] = (uint32_t)((int32_t)r[b] >> (r[c] & 31)); break;
		case RULES_OP_IEQ: r[a] = r[b] == r[c]; break;
		case RULES_OP_INE: r[a] = r[b] != r[c]; break;
		case RULES_OP_ILT: r[a] = (int32_t)r[b] < (int32_t)r[c]; break;
		case RULES_OP_ILE: r[a] = (int32_t)r[b] <= (int32_t)r[c]; break;
		case RULES_OP_IMIN: r[a] = (uint32_t)min((int32_t)r[b], (int32_t)r[c]); break;
		case RULES_OP_IMAX: r[a] = (uint32_t)max((int32_t)r[b], (int32_t)r[c]); break;
		case RULES_OP_INEG: r[a] = 0u - r[b]; break;
		case RULES_OP_INOT: r[a] = ~r[b]; break;
		case RULES_OP_ILNOT: r[a] = r[b] == 0; break;
		case RULES_OP_IABS: r[a] = (int32_t)r[b] < 0 ? 0u - r[b] : r[b]; break;
		case RULES_OP_BOOL: r[a] = r[b] != 0; break;
		case RULES_OP_FADD: r[a] = f2u(__fadd_rn(u2f(r[b]), u2f(r[c]))); break;
		case RULES_OP_FSUB: r[a] = f2u(__fsub_rn(u2f(r[b]), u2f(r[c]))); break;
		case RULES_OP_FMUL: r[a] = f2u(__fmul_rn(u2f(r[b]), u2f(r[c]))); break;
		case RULES_OP_FDIV: r[a] = f2u(__fdiv_rn(u2f(r[b]), u2f(r[c]))); break;
		case RULES_OP_FEQ: r[a] = u2f(r[b]) == u2f(r[c]); break;
		case RULES_OP_FNE: r[a] = u2f(r[b]) != u2f(r[c]); break;
		case RULES_OP_FLT: r[a] = u2f(r[b]) < u2f(r[c]); break;
		case RULES_OP_FLE: r[a] = u2f(r[b]) <= u2f(r[c]); break;
		case RULES_OP_FMIN: r[a] = u2f(r[b]) < u2f(r[c]) ? r[b] : r[c]; break;
		case RULES_OP_FMAX: r[a] = u2f(r[b]) > u2f(r[c]) ? r[b] : r[c]; break;
		case RULES_OP_FNEG: r[a] = r[b] ^ 0x80000000u; break;
		case RULES_OP_FABS: r[a] = r[b] & 0x7fffffffu; break;
		case RULES_OP_FSQRT: r[a] = f2u(__fsqrt_rn(u2f(r[b]))); break;
		case RULES_OP_I2F: r[a] = f2u(__int2float_rn((int32_t)r[b])); break;
		case RULES_OP_F2I: r[a] = (uint32_t)__float2int_rz(u2f(r[b])); break;
		case RULES_OP_RAND: case RULES_OP_RANDF: {
			const uint64_t bits = rules_draw(x, s, i, c, b == RULES_NO_REG ? 0u : r[b]);
			// rng.Float32: the top 24 bits times 2^-24, exact.
			r[a] = op == RULES_OP_RAND ? (uint32_t)(bits >> 32) : f2u((float)(uint32_t)(bits >> 40) * 0x1p-24f);
			break;
		}
		case RULES_OP_URANGE:
			r[a] = r[c] == 0 ? r[b] : (uint32_t)(((uint64_t)r[b] * r[c]) >> 32);
			break;
		default:
			rules_fault_set<WIDE>(key, rel, pc, op);
			return -1;
		}
		pc++;
	}
}

// Program and field table in shared memory: every thread reads the same
// instruction at once (a broadcast).
__device__ __forceinline__ void rules_load_program(uint32_t *sm, const uint32_t *code, const RulesField *fields,
                                                   const RulesArgs &g) {
	for (int k = threadIdx.x; k < g.ncode; k += blockDim.x) sm[k] = code[k];
	RulesField *sf = (RulesField *)(sm + g.ncode);
	for (int k = threadIdx.x; k < g.nfields; k += blockDim.x) sf[k] = fields[k];
}

// rules_fields_copy copies (snapshot) or flushes (pending) state s's fields
// in mask, thread t of n.
template <int L, bool FLUSH>
__device__ void rules_fields_pass(const RulesCtx &x, uint32_t mask, uint32_t *snap, int s, uint32_t t, uint32_t n) {
	while (mask) {
		const int fi = __ffs(mask) - 1;
		mask &= mask - 1;
		const RulesField f = x.fields[fi];
		// k in uint32: near a field of 2^31 - 32 cells, k + n would wrap an int32.
		for (uint32_t k = t; k < (uint32_t)f.size; k += n) {
			const size_t ad = rules_addr<L>(s, f.off + k, x.nstates, x.words);
			if (FLUSH) {
				const unsigned long long v = x.pend[ad];
				if (v) {
					x.cur[ad] = (uint32_t)v;
					x.pend[ad] = 0;
				}
			} else {
				snap[ad] = x.cur[ad];
			}
		}
	}
}

// rules_last_fired stores state s's firings of the step: wide, an int64 a
// state (a state's step may fire more than 2^31 times).
template <bool WIDE, typename C>
__device__ __forceinline__ void rules_last_fired(int32_t *last_fired, int s, C n) {
	if (WIDE) ((long long *)last_fired)[s] = (long long)n;
	else last_fired[s] = (int32_t)n;
}
