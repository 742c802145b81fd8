// The rules interpreter: a generic bytecode interpreter (internal/rules
// compiles the rule language to its bytecode) applied to many states at once,
// after Köster, Groß and Krüger, "Massively Parallel Rule-Based Interpreter
// Execution on GPUs using Thread Compaction". Two schedules:
//   rules_simple_*:  Algorithms 1 and 2, a block per state looping over the
//                    value range of each rule;
//   rules_compact_*: Algorithms 3 and 4, a warp per state, 32 states per
//                    1024-thread block, the enabled (index, state) pairs
//                    compacted in shared memory with a warp-shuffle prefix sum;
// and three layouts (A: each state contiguous, B: transposed, C: 32-word
// blocks of every state interleaved, the paper's Figure 6).
//
// Semantics (docs/rules-language.md) are those of the CPU interpreter
// (internal/rules/interp.go), bit for bit on int32 state: reads of fields a
// rule writes in place come from a snapshot taken before the rule; "pending"
// writes go through a 64-bit atomicMax keyed by (index, write number) and are
// flushed after the rule; += is an atomic add. Faults (index out of range,
// division by zero) record, per state, the lowest (index, pc, value) with
// atomicMin, and the state stops after that rule. Those records and the
// compacted pairs come in two encodings (internal/rules/ptx/encoding.go): the
// narrow kernels for rules over at most 2^19 indices, the wide ones
// (rules_*_wide_*) for rules up to 2^31.
#include "common.cuh"
#include "rules_types.cuh"

enum { LAYOUT_A = 0, LAYOUT_B = 1, LAYOUT_C = 2 };

template <int L>
__device__ __forceinline__ size_t rules_addr(int s, int w, int nstates, int words) {
	if (L == LAYOUT_A) return (size_t)s * words + w;
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
__device__ void rules_fields_pass(const RulesCtx &x, uint32_t mask, uint32_t *snap, int s, int t, int n) {
	while (mask) {
		const int fi = __ffs(mask) - 1;
		mask &= mask - 1;
		const RulesField f = x.fields[fi];
		for (int k = t; k < f.size; k += n) {
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

#define RULES_KERNEL_PARAMS                                                                                         \
	const uint32_t *__restrict__ code, const RulesField *__restrict__ fields, const RulesRule *__restrict__ rules,   \
	    uint32_t *cur, uint32_t *snap, unsigned long long *pend, int32_t *stable_at, int32_t *failed,               \
	    int32_t *err_rule, unsigned long long *err_key, unsigned long long *err_pc, unsigned long long *fired,       \
	    int32_t *last_fired,                                                                                        \
	    int nstates, int words, int nrules, int ncode, int nfields, int step0, int nsteps, int nregs,                \
	    unsigned long long seed, int first_state, int nofix, int first_step

// Algorithms 1 and 2: block s applies every rule to state s, its threads
// striding over the value range, a barrier between rules.
template <int L, bool WIDE>
__device__ void rules_simple(RULES_KERNEL_PARAMS) {
	typedef typename RulesEnc<WIDE>::count count_t;
	const RulesArgs g{nstates, words, nrules, ncode, nfields, step0, nsteps, nregs};
	extern __shared__ uint32_t sm[];
	__shared__ unsigned s_fired;
	rules_load_program(sm, code, fields, g);
	const int s = blockIdx.x;
	if (s >= g.nstates || stable_at[s] != 0 || failed[s] != 0) return;
	RulesCtx x{sm + g.ncode + 2 * g.nfields, sm, (const RulesField *)(sm + g.ncode), cur, snap, pend, g.nstates, g.words,
	           0, first_state};
	__syncthreads();
	for (int t = g.step0 + 1; t <= g.step0 + g.nsteps; t++) {
		count_t step_fired = 0;
		const uint64_t tkey = pg_hash64(seed, (uint64_t)(uint32_t)(first_step + t));
		for (int ri = 0; ri < g.nrules; ri++) {
			const RulesRule R = rules[ri];
			x.rkey = pg_hash64(tkey, (uint64_t)ri);
			if (threadIdx.x == 0) s_fired = 0;
			if (R.snap_mask) rules_fields_pass<L, false>(x, R.snap_mask, snap, s, threadIdx.x, blockDim.x);
			__syncthreads();
			int mine = 0;
			// rel in uint32: hi - lo is up to 2^31 (hi itself 2^31 wraps in
			// int32) and the index lo + rel wraps as the CPU's int32 does.
			const uint32_t nidx = (uint32_t)R.hi - (uint32_t)R.lo;
			for (uint32_t rel = threadIdx.x; rel < nidx; rel += blockDim.x) {
				const int i = (int)((uint32_t)R.lo + rel);
				RulesFault key;
				int en = R.cond_pc < 0 ? 1
				                       : rules_exec<L, RULES_SIMPLE_BLOCK, WIDE>(x, R.cond_pc, s, i, (int)rel, &key);
				if (en > 0) {
					mine++;
					en = rules_exec<L, RULES_SIMPLE_BLOCK, WIDE>(x, R.body_pc, s, i, (int)rel, &key);
				}
				if (en < 0) rules_fault_record<WIDE>(err_key, err_pc, s, key);
			}
			mine += __shfl_xor_sync(PG_FULL_MASK, mine, 16);
			mine += __shfl_xor_sync(PG_FULL_MASK, mine, 8);
			mine += __shfl_xor_sync(PG_FULL_MASK, mine, 4);
			mine += __shfl_xor_sync(PG_FULL_MASK, mine, 2);
			mine += __shfl_xor_sync(PG_FULL_MASK, mine, 1);
			if ((threadIdx.x & 31) == 0 && mine) atomicAdd(&s_fired, (unsigned)mine);
			__syncthreads();
			if (R.pend_mask) rules_fields_pass<L, true>(x, R.pend_mask, snap, s, threadIdx.x, blockDim.x);
			const unsigned n = s_fired;
			const bool bad = *(volatile unsigned long long *)&err_key[s] != ~0ull;
			__syncthreads(); // everyone has read s_fired and err_key; pending writes are flushed
			if (bad) {
				if (threadIdx.x == 0) {
					failed[s] = t;
					err_rule[s] = ri;
				}
				return;
			}
			if (threadIdx.x == 0 && n) atomicAdd(&fired[(size_t)(t - g.step0 - 1) * g.nrules + ri], (unsigned long long)n);
			step_fired += n;
		}
		if (threadIdx.x == 0) rules_last_fired<WIDE>(last_fired, s, step_fired);
		if (step_fired == 0 && !nofix) {
			if (threadIdx.x == 0) stable_at[s] = t;
			return;
		}
	}
}

// Algorithms 3 and 4: warp w of block b owns state 32b + w. For each rule,
// the block walks the value range 32 indices at a time; every lane checks
// one (index, state) precondition, a block-wide prefix sum (warp shuffles,
// then the warp totals scanned by warp 0) packs the enabled pairs into shared
// memory, and the block runs their consequences. Pairs wait in shared memory
// until there is one for every thread of the block (or the range ends), so
// consequences run on full warps: running each 32-index chunk's pairs at
// once left half the block idle when half the preconditions held.
// W warps (W states) a block: the paper's 32 when there are states enough to
// fill the GPU, fewer when 32 a block would leave SMs idle.
template <int L, int W, bool WIDE>
__device__ void rules_compact(RULES_KERNEL_PARAMS) {
	constexpr int BS = 32 * W;
	typedef typename RulesEnc<WIDE>::count count_t;
	typedef typename RulesEnc<WIDE>::pair pair_t;
	const RulesArgs g{nstates, words, nrules, ncode, nfields, step0, nsteps, nregs};
	extern __shared__ uint32_t sm[];
	__shared__ pair_t s_pairs[2 * BS];
	__shared__ int s_warp[32];
	__shared__ int s_waiting;
	rules_load_program(sm, code, fields, g);
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	const int s = blockIdx.x * W + warp;
	bool live = s < g.nstates && stable_at[s] == 0 && failed[s] == 0;
	RulesCtx x{sm + g.ncode + 2 * g.nfields, sm, (const RulesField *)(sm + g.ncode), cur, snap, pend, g.nstates, g.words,
	           0, first_state};
	const unsigned lanemask_le = 0xffffffffu >> (31 - lane);
	for (int t = g.step0 + 1; t <= g.step0 + g.nsteps; t++) {
		if (!__syncthreads_or(live)) return;
		count_t state_fired = 0;
		const uint64_t tkey = pg_hash64(seed, (uint64_t)(uint32_t)(first_step + t));
		for (int ri = 0; ri < g.nrules; ri++) {
			const RulesRule R = rules[ri];
			x.rkey = pg_hash64(tkey, (uint64_t)ri);
			if (live && R.snap_mask) rules_fields_pass<L, false>(x, R.snap_mask, snap, s, lane, 32);
			count_t block_fired = 0;
			if (threadIdx.x == 0) s_waiting = 0;
			// rel in uint32, as in rules_simple.
			const uint32_t nidx = (uint32_t)R.hi - (uint32_t)R.lo;
			for (uint32_t base = 0; base < nidx; base += 32) {
				__syncthreads(); // snapshot taken; s_warp free again, s_waiting set
				const uint32_t rel = base + lane;
				const int i = (int)((uint32_t)R.lo + rel);
				int en = 0;
				if (live && rel < nidx) {
					RulesFault key;
					en = R.cond_pc < 0 ? 1 : rules_exec<L, BS, WIDE>(x, R.cond_pc, s, i, (int)rel, &key);
					if (en < 0) {
						rules_fault_record<WIDE>(err_key, err_pc, s, key);
						en = 0;
					}
				}
				const unsigned ballot = __ballot_sync(PG_FULL_MASK, en);
				state_fired += __popc(ballot);
				int offset = __popc(ballot & lanemask_le); // inclusive, within the warp
				if (lane == 31) s_warp[warp] = offset;
				__syncthreads();
				if (warp == 0) s_warp[lane] = pg_warp_inclusive_scan(lane < W ? s_warp[lane] : 0);
				__syncthreads();
				if (warp > 0) offset += s_warp[warp - 1];
				const int total = s_warp[31];
				const int waiting = s_waiting;
				if (en) s_pairs[waiting + offset - 1] = ((pair_t)rel << 5) | (pair_t)warp;
				__syncthreads();
				// waiting < BS and total <= BS: a full round, then the
				// rest moves down (fewer than BS: no overlap); at the end
				// of the range the rest runs too. avail is the same in every
				// thread, so the loop and its barriers are uniform.
				int avail = waiting + total;
				const bool last = base + 32 >= nidx;
				while (avail >= BS || (last && avail > 0)) {
					const int run = min(avail, BS);
					if ((int)threadIdx.x < run) {
						const pair_t pair = s_pairs[threadIdx.x];
						const uint32_t prel = (uint32_t)(pair >> 5);
						const int cs = blockIdx.x * W + (int)(pair & 31);
						RulesFault key;
						if (rules_exec<L, BS, WIDE>(x, R.body_pc, cs, (int)((uint32_t)R.lo + prel), (int)prel, &key) < 0)
							rules_fault_record<WIDE>(err_key, err_pc, cs, key);
					}
					__syncthreads();
					pair_t moved = 0;
					const int rest = avail - run;
					if ((int)threadIdx.x < rest) moved = s_pairs[run + threadIdx.x];
					__syncthreads();
					if ((int)threadIdx.x < rest) s_pairs[threadIdx.x] = moved;
					avail = rest;
					__syncthreads();
				}
				if (threadIdx.x == 0) s_waiting = avail;
				block_fired += total;
			}
			__syncthreads(); // every consequence of the rule has run
			if (live && R.pend_mask) rules_fields_pass<L, true>(x, R.pend_mask, snap, s, lane, 32);
			if (live && *(volatile unsigned long long *)&err_key[s] != ~0ull) {
				if (lane == 0) {
					failed[s] = t;
					err_rule[s] = ri;
				}
				live = false;
			}
			if (threadIdx.x == 0 && block_fired)
				atomicAdd(&fired[(size_t)(t - g.step0 - 1) * g.nrules + ri], (unsigned long long)block_fired);
			__syncwarp();
		}
		if (live) {
			if (lane == 0) rules_last_fired<WIDE>(last_fired, s, state_fired);
			if (state_fired == 0 && !nofix) {
				if (lane == 0) stable_at[s] = t;
				live = false;
			}
		}
	}
}

#define RULES_ARGS                                                                                                  \
	code, fields, rules, cur, snap, pend, stable_at, failed, err_rule, err_key, err_pc, fired, last_fired, nstates, words,  \
	    nrules, ncode, nfields, step0, nsteps, nregs, seed, first_state, nofix, first_step
extern "C" {
#define RULES_KERNELS(SUFFIX, WIDE)                                                                                 \
	__global__ void __launch_bounds__(RULES_SIMPLE_BLOCK) rules_simple##SUFFIX##A(RULES_KERNEL_PARAMS) {             \
		rules_simple<LAYOUT_A, WIDE>(RULES_ARGS);                                                                   \
	}                                                                                                               \
	__global__ void __launch_bounds__(RULES_SIMPLE_BLOCK) rules_simple##SUFFIX##B(RULES_KERNEL_PARAMS) {             \
		rules_simple<LAYOUT_B, WIDE>(RULES_ARGS);                                                                   \
	}                                                                                                               \
	__global__ void __launch_bounds__(RULES_SIMPLE_BLOCK) rules_simple##SUFFIX##C(RULES_KERNEL_PARAMS) {             \
		rules_simple<LAYOUT_C, WIDE>(RULES_ARGS);                                                                   \
	}                                                                                                               \
	__global__ void __launch_bounds__(RULES_COMPACT_BLOCK) rules_compact##SUFFIX##A(RULES_KERNEL_PARAMS) {           \
		rules_compact<LAYOUT_A, 32, WIDE>(RULES_ARGS);                                                              \
	}                                                                                                               \
	__global__ void __launch_bounds__(RULES_COMPACT_BLOCK) rules_compact##SUFFIX##B(RULES_KERNEL_PARAMS) {           \
		rules_compact<LAYOUT_B, 32, WIDE>(RULES_ARGS);                                                              \
	}                                                                                                               \
	__global__ void __launch_bounds__(RULES_COMPACT_BLOCK) rules_compact##SUFFIX##C(RULES_KERNEL_PARAMS) {           \
		rules_compact<LAYOUT_C, 32, WIDE>(RULES_ARGS);                                                              \
	}                                                                                                               \
	__global__ void __launch_bounds__(RULES_COMPACT_SMALL * 32) rules_compact_small##SUFFIX##A(RULES_KERNEL_PARAMS) { \
		rules_compact<LAYOUT_A, RULES_COMPACT_SMALL, WIDE>(RULES_ARGS);                                             \
	}                                                                                                               \
	__global__ void __launch_bounds__(RULES_COMPACT_SMALL * 32) rules_compact_small##SUFFIX##B(RULES_KERNEL_PARAMS) { \
		rules_compact<LAYOUT_B, RULES_COMPACT_SMALL, WIDE>(RULES_ARGS);                                             \
	}                                                                                                               \
	__global__ void __launch_bounds__(RULES_COMPACT_SMALL * 32) rules_compact_small##SUFFIX##C(RULES_KERNEL_PARAMS) { \
		rules_compact<LAYOUT_C, RULES_COMPACT_SMALL, WIDE>(RULES_ARGS);                                             \
	}
// rules_simple_A ... rules_compact_small_C, and the wide rules_simple_wide_A ...
RULES_KERNELS(_, false)
RULES_KERNELS(_wide_, true)
}
