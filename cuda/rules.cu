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
#include "rules_exec.cuh"
#include <climits>

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

// Tiled kernels: a state larger than a block's share spread over the whole
// GPU (internal/rules/cuda_tile.go picks them by size). A rule of a step is
// four launches over a grid whose x covers the state's index range in tiles
// of RULES_SIMPLE_BLOCK and whose y is the state: the snapshot
// (rules_tile_snap_*), the evaluation (rules_tile_exec_*), the flush of
// pending writes (rules_tile_flush_*) and the rule's verdict per state
// (rules_tile_end). The launch boundaries are the grid-wide barriers the
// per-state schedules get from __syncthreads, and the halo exchange is
// global memory itself: a tile reads its neighbours' cells from cur or snap
// as the previous launch left them. Faults, pending writes and draws use the
// per-state keys and global atomics of the per-state kernels, so a run is
// the same bit for bit whichever way it is cut.
#define RULES_TILE_PARAMS                                                                                           \
	const uint32_t *__restrict__ code, const RulesField *__restrict__ fields, const RulesRule *__restrict__ rules,   \
	    uint32_t *cur, uint32_t *snap, unsigned long long *pend, const int32_t *stable_at, const int32_t *failed,   \
	    unsigned long long *err_key, unsigned long long *err_pc, unsigned long long *tcount, int nstates, int words, \
	    int ri, int ncode, int nfields, int step, unsigned long long seed, int first_state, int first_step
#define RULES_TILE_ARGS                                                                                             \
	code, fields, rules, cur, snap, pend, stable_at, failed, err_key, err_pc, tcount, nstates, words, ri, ncode,    \
	    nfields, step, seed, first_state, first_step

// rules_tile_exec evaluates rule ri of step `step` (the run's, 1-based) for
// state blockIdx.y, thread rel of the range at blockIdx.x * BS + tid and
// every grid's width on; the state's firings add up in tcount[s].
template <int L, bool WIDE>
__device__ void rules_tile_exec(RULES_TILE_PARAMS) {
	constexpr int BS = RULES_SIMPLE_BLOCK;
	const RulesArgs g{nstates, words, 0, ncode, nfields, 0, 0, 0};
	extern __shared__ uint32_t sm[];
	rules_load_program(sm, code, fields, g);
	__syncthreads();
	const int s = blockIdx.y; // the whole block has the same s: returns are uniform
	if (s >= nstates || stable_at[s] != 0 || failed[s] != 0) return;
	RulesCtx x{sm + ncode + 2 * nfields, sm, (const RulesField *)(sm + ncode), cur, snap, pend, nstates, words,
	           0, first_state};
	const RulesRule R = rules[ri];
	x.rkey = pg_hash64(pg_hash64(seed, (uint64_t)(uint32_t)(first_step + step)), (uint64_t)ri);
	// rel in uint32 as in rules_simple; rel + stride stays below 2^32.
	const uint32_t nidx = (uint32_t)R.hi - (uint32_t)R.lo;
	const uint32_t stride = gridDim.x * (uint32_t)BS;
	unsigned mine = 0;
	for (uint32_t rel = blockIdx.x * (uint32_t)BS + threadIdx.x; rel < nidx; rel += stride) {
		const int i = (int)((uint32_t)R.lo + rel);
		RulesFault key;
		int en = R.cond_pc < 0 ? 1 : rules_exec<L, BS, WIDE>(x, R.cond_pc, s, i, (int)rel, &key);
		if (en > 0) {
			mine++;
			en = rules_exec<L, BS, WIDE>(x, R.body_pc, s, i, (int)rel, &key);
		}
		if (en < 0) rules_fault_record<WIDE>(err_key, err_pc, s, key);
	}
	mine += __shfl_xor_sync(PG_FULL_MASK, mine, 16);
	mine += __shfl_xor_sync(PG_FULL_MASK, mine, 8);
	mine += __shfl_xor_sync(PG_FULL_MASK, mine, 4);
	mine += __shfl_xor_sync(PG_FULL_MASK, mine, 2);
	mine += __shfl_xor_sync(PG_FULL_MASK, mine, 1);
	// One global atomic a block: a warp's each would put millions a step
	// on the one counter of a big state.
	__shared__ unsigned s_fired;
	if (threadIdx.x == 0) s_fired = 0;
	__syncthreads();
	if ((threadIdx.x & 31) == 0 && mine) atomicAdd(&s_fired, mine);
	__syncthreads();
	if (threadIdx.x == 0 && s_fired) atomicAdd(&tcount[s], (unsigned long long)s_fired);
}

#define RULES_TILE_PASS_PARAMS                                                                                      \
	const RulesField *__restrict__ fields, const RulesRule *__restrict__ rules, uint32_t *cur, uint32_t *snap,      \
	    unsigned long long *pend, const int32_t *stable_at, const int32_t *failed, int nstates, int words, int ri

// rules_tile_pass snapshots (FLUSH false) or flushes (true) rule ri's fields
// of state blockIdx.y, the grid's threads striding over each field.
template <int L, bool FLUSH>
__device__ void rules_tile_pass(RULES_TILE_PASS_PARAMS) {
	const int s = blockIdx.y;
	if (s >= nstates || stable_at[s] != 0 || failed[s] != 0) return;
	const RulesRule R = rules[ri];
	const RulesCtx x{nullptr, nullptr, fields, cur, snap, pend, nstates, words, 0, 0};
	rules_fields_pass<L, FLUSH>(x, FLUSH ? R.pend_mask : R.snap_mask, snap, s, blockIdx.x * blockDim.x + threadIdx.x,
	                            gridDim.x * blockDim.x);
}

// rules_record reduces one --record observable (internal/rules/record.go)
// over field [off, off + size) of every state on the device, so a recorded
// run downloads three numbers a step, not every state. The values are
// integers on this path (an int field, a count or a comparison, made in
// double as the host makes them; cuda_record.go keeps float sums, means and
// extremes on the host, whose float64 order it could not match), added into
// out[0] and kept least in out[1] and greatest in out[2]. mode: 0 the
// element (int field), 1 x != 0 (count), 2..7 x ==, !=, <, <=, >, >= than.
// Blocks stride over the elements in x and over the states in y.
template <int L>
__device__ void rules_record(const uint32_t *cur, int nstates, int words, int off, int size, int isfloat, int mode,
                             double than, long long *out) {
	__shared__ long long s_sum, s_min, s_max;
	if (threadIdx.x == 0) {
		s_sum = 0;
		s_min = LLONG_MAX;
		s_max = LLONG_MIN;
	}
	__syncthreads();
	long long sum = 0, lo = LLONG_MAX, hi = LLONG_MIN;
	const uint32_t stride = gridDim.x * blockDim.x;
	for (int s = blockIdx.y; s < nstates; s += gridDim.y) {
		for (uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < (uint32_t)size; k += stride) {
			const uint32_t w = cur[rules_addr<L>(s, off + (int)k, nstates, words)];
			long long v = (int32_t)w;
			if (mode != 0) {
				const double x = isfloat ? (double)__uint_as_float(w) : (double)(int32_t)w;
				bool ok;
				switch (mode) {
				case 1: ok = x != 0; break;
				case 2: ok = x == than; break;
				case 3: ok = x != than; break;
				case 4: ok = x < than; break;
				case 5: ok = x <= than; break;
				case 6: ok = x > than; break;
				default: ok = x >= than; break;
				}
				v = ok;
			}
			sum += v;
			lo = min(lo, v);
			hi = max(hi, v);
		}
	}
	atomicAdd((unsigned long long *)&s_sum, (unsigned long long)sum);
	atomicMin(&s_min, lo);
	atomicMax(&s_max, hi);
	__syncthreads();
	if (threadIdx.x == 0) {
		atomicAdd((unsigned long long *)&out[0], (unsigned long long)s_sum);
		atomicMin(&out[1], s_min);
		atomicMax(&out[2], s_max);
	}
}

#define RULES_RECORD_PARAMS                                                                                         \
	const uint32_t *cur, int nstates, int words, int off, int size, int isfloat, int mode, double than, long long *out

extern "C" {
// rules_tile_end is rule ri's verdict for each live state, what the
// per-state schedules do after a rule's barrier: a fault fails the state
// (failed = step, err_rule = ri); else the rule's firings go to fired[ri]
// (fired points at the step's row) and the step's sum, which after the last
// rule is the state's last_fired (an int64 a state when wide) and, when zero
// and nofix is not set, its fixed point.
__global__ void rules_tile_end(int32_t *stable_at, int32_t *failed, int32_t *err_rule,
                               const unsigned long long *err_key, unsigned long long *tcount,
                               unsigned long long *sfired, unsigned long long *fired, int32_t *last_fired,
                               int nstates, int ri, int last, int step, int nofix, int wide) {
	const int s = blockIdx.x * blockDim.x + threadIdx.x;
	if (s >= nstates || stable_at[s] != 0 || failed[s] != 0) return;
	if (err_key[s] != ~0ull) {
		failed[s] = step;
		err_rule[s] = ri;
		return;
	}
	const unsigned long long n = tcount[s];
	tcount[s] = 0;
	if (n) atomicAdd(&fired[ri], n);
	const unsigned long long f = sfired[s] + n;
	sfired[s] = last ? 0 : f;
	if (!last) return;
	if (wide) ((long long *)last_fired)[s] = (long long)f;
	else last_fired[s] = (int32_t)f;
	if (f == 0 && !nofix) stable_at[s] = step;
}

#define RULES_TILE_KERNELS(LS, L)                                                                                   \
	__global__ void __launch_bounds__(RULES_SIMPLE_BLOCK) rules_tile_exec_##LS(RULES_TILE_PARAMS) {                  \
		rules_tile_exec<L, false>(RULES_TILE_ARGS);                                                                 \
	}                                                                                                               \
	__global__ void __launch_bounds__(RULES_SIMPLE_BLOCK) rules_tile_exec_wide_##LS(RULES_TILE_PARAMS) {             \
		rules_tile_exec<L, true>(RULES_TILE_ARGS);                                                                  \
	}                                                                                                               \
	__global__ void rules_tile_snap_##LS(RULES_TILE_PASS_PARAMS) {                                                  \
		rules_tile_pass<L, false>(fields, rules, cur, snap, pend, stable_at, failed, nstates, words, ri);           \
	}                                                                                                               \
	__global__ void rules_tile_flush_##LS(RULES_TILE_PASS_PARAMS) {                                                 \
		rules_tile_pass<L, true>(fields, rules, cur, snap, pend, stable_at, failed, nstates, words, ri);            \
	}                                                                                                               \
	__global__ void rules_record_##LS(RULES_RECORD_PARAMS) {                                                        \
		rules_record<L>(cur, nstates, words, off, size, isfloat, mode, than, out);                                  \
	}
RULES_TILE_KERNELS(A, LAYOUT_A)
RULES_TILE_KERNELS(B, LAYOUT_B)
RULES_TILE_KERNELS(C, LAYOUT_C)
}
