// L-system derivation (internal/lsys/cuda.go drives these kernels): one
// rewriting step is count, scan, rewrite, after Lipp, Wonka and Wimmer,
// "Parallel Generation of L-Systems" (2009), with the CPU backend's exact
// semantics (internal/lsys/select.go, context.go, eval.go, derive.go), so the
// derived strings agree bit for bit.
//
// The string is a byte per module, a float64 array of parameters, and, for
// parametric systems, the index of the first parameter of every group of
// LSYS_K modules (chunkp), which whoever writes the string writes too.
//
// Every tile of the string is one block. Counts are per tile; the last block
// of a counting kernel to finish scans the tile counts in place and stores
// their exact 64-bit totals in LsysStatus (scan_tiles), so a step needs no
// separate scan launch and no per-module or per-thread count array: the
// kernels that write recompute per-thread counts and scan them inside the
// block. Counting kernels are launched with one block per tile, exactly.
//
// No floating-point expression here may be contracted into an FMA: every
// arithmetic operation on parameters goes through __dadd_rn and friends, as
// in lsys_math.cuh.
#include "common.cuh"
#include "lsys_math.cuh"
#include "lsys_types.cuh"

// ---- Tables ---------------------------------------------------------------

struct Tables {
	const LsysHeader *h;
	const LsysRule *rules;
	const LsysArg *args;
	const LsysExpr *exprs;
	const uint32_t *code;
	const double *consts;
	const uint32_t *cands;
	const uint8_t *bytes;
};

__device__ __forceinline__ Tables tables(const uint64_t *blob) {
	const uint8_t *b = reinterpret_cast<const uint8_t *>(blob);
	const LsysHeader *h = reinterpret_cast<const LsysHeader *>(b);
	Tables t;
	t.h = h;
	t.rules = reinterpret_cast<const LsysRule *>(b + h->off_rules);
	t.args = reinterpret_cast<const LsysArg *>(b + h->off_args);
	t.exprs = reinterpret_cast<const LsysExpr *>(b + h->off_exprs);
	t.code = reinterpret_cast<const uint32_t *>(b + h->off_code);
	t.consts = reinterpret_cast<const double *>(b + h->off_consts);
	t.cands = reinterpret_cast<const uint32_t *>(b + h->off_cands);
	t.bytes = b + h->off_bytes;
	return t;
}

__device__ __forceinline__ uint32_t sym_arity(const Tables &T, uint8_t s) { return __ldg(&T.h->syms[s].arity); }
__device__ __forceinline__ int32_t sym_rule(const Tables &T, uint8_t s) { return __ldg(&T.h->syms[s].rule); }

// The string being rewritten.
struct Str {
	const uint8_t *syms;
	const double *params;
	const uint32_t *chunkp; // first parameter of each group of LSYS_K modules
	const uint32_t *match;  // bracket partners (systems with context)
	uint32_t n;
};

// The first parameter of module j.
__device__ uint32_t param_offset(const Tables &T, const Str &S, uint32_t j) {
	const uint32_t g = j / LSYS_K;
	uint32_t p = S.chunkp[g];
	for (uint32_t q = g * LSYS_K; q < j; q++) p += sym_arity(T, S.syms[q]);
	return p;
}

// ---- Block scans ----------------------------------------------------------

__device__ __forceinline__ uint64_t warp_inclusive_scan64(uint64_t v) {
	const unsigned lane = threadIdx.x & 31;
#pragma unroll
	for (int o = 1; o < 32; o <<= 1) {
		uint64_t y = __shfl_up_sync(PG_FULL_MASK, v, o);
		if (lane >= (unsigned)o) v += y;
	}
	return v;
}

// Exclusive prefix of v over the block's threads and the block's total. Two
// 32-bit counts travel packed in one 64-bit value (low and high halves);
// callers keep each half's block total below 2^32.
__device__ uint64_t block_exclusive_scan(uint64_t v, uint64_t *total) {
	__shared__ uint64_t warp_sums[LSYS_THREADS / 32];
	__shared__ uint64_t block_total;
	const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	const uint64_t incl = warp_inclusive_scan64(v);
	if (lane == 31) warp_sums[warp] = incl;
	__syncthreads();
	if (warp == 0) {
		const uint64_t w = lane < LSYS_THREADS / 32 ? warp_sums[lane] : 0;
		const uint64_t wi = warp_inclusive_scan64(w);
		if (lane < LSYS_THREADS / 32) warp_sums[lane] = wi - w;
		if (lane == LSYS_THREADS / 32 - 1) block_total = wi;
	}
	__syncthreads();
	const uint64_t r = warp_sums[warp] + incl - v;
	*total = block_total;
	__syncthreads(); // the shared words may be reused by the next call
	return r;
}

__device__ uint64_t block_sum(uint64_t v) {
	uint64_t total;
	block_exclusive_scan(v, &total);
	return total;
}

// scan_tiles ends every counting kernel: each block's thread 0 has written
// its tile's counts to a[blockIdx.x] (and b[blockIdx.x]); the last block to
// finish replaces both arrays by their exclusive prefix sums (32-bit, exact
// while the totals are below 2^32) and stores the 64-bit totals. Every
// thread of every block must call it.
__device__ void scan_tiles(uint32_t *a, uint32_t *b, uint32_t ntiles, LsysStatus *st, uint64_t *total_a,
			   uint64_t *total_b) {
	__shared__ bool last;
	if (threadIdx.x == 0) {
		__threadfence(); // this block's counts before its arrival
		last = atomicAdd(&st->done, 1u) == gridDim.x - 1;
	}
	__syncthreads();
	if (!last) return;
	__threadfence();
	const int ITEMS = 8;
	uint64_t ca = 0, cb = 0;
	for (uint32_t base = 0; base < ntiles; base += LSYS_THREADS * ITEMS) {
		const uint32_t i0 = base + threadIdx.x * ITEMS;
		uint32_t va[ITEMS], vb[ITEMS];
		uint64_t sa = 0, sb = 0;
#pragma unroll
		for (int k = 0; k < ITEMS; k++) {
			const bool in = i0 + k < ntiles;
			va[k] = in ? __ldcg(&a[i0 + k]) : 0;
			vb[k] = in && b ? __ldcg(&b[i0 + k]) : 0;
			sa += va[k];
			sb += vb[k];
		}
		uint64_t ta, tb;
		uint64_t ea = ca + block_exclusive_scan(sa, &ta);
		uint64_t eb = cb + block_exclusive_scan(sb, &tb);
#pragma unroll
		for (int k = 0; k < ITEMS; k++) {
			if (i0 + k < ntiles) {
				a[i0 + k] = (uint32_t)ea;
				if (b) b[i0 + k] = (uint32_t)eb;
			}
			ea += va[k];
			eb += vb[k];
		}
		ca += ta;
		cb += tb;
	}
	if (threadIdx.x == 0) {
		*total_a = ca;
		if (total_b) *total_b = cb;
		st->done = 0;
	}
}

// Ready the status for the next step's count (called by the step's last
// writing kernel, after the host has read this step's count).
__device__ __forceinline__ void reset_count_status(LsysStatus *st) {
	if (blockIdx.x == 0 && threadIdx.x == 0) {
		st->count_err = LSYS_NO_ERROR;
		st->unbalanced = 0;
	}
}

// ---- Expressions (eval.go) ------------------------------------------------

__device__ bool call1(uint32_t f, double a, double *out) {
	double v;
	switch (f) {
	case LSYS_FN_SIN: v = lsys_sin_deg(a); break;
	case LSYS_FN_COS: v = lsys_cos_deg(a); break;
	case LSYS_FN_TAN: v = lsys_tan_deg(a); break;
	case LSYS_FN_ASIN:
	case LSYS_FN_ACOS:
		if (!(a >= -1.0 && a <= 1.0)) return false;
		v = f == LSYS_FN_ASIN ? lsys_asin_deg(a) : lsys_acos_deg(a);
		break;
	case LSYS_FN_ATAN: v = lsys_atan_deg(a); break;
	case LSYS_FN_SQRT:
		if (a < 0) return false;
		v = __dsqrt_rn(a);
		break;
	case LSYS_FN_EXP: v = lsys_exp(a); break;
	case LSYS_FN_LOG:
		if (a <= 0) return false;
		v = lsys_log(a);
		break;
	case LSYS_FN_FLOOR: v = floor(a); break;
	case LSYS_FN_CEIL: v = ceil(a); break;
	case LSYS_FN_TRUNC: v = trunc(a); break;
	case LSYS_FN_ABS: v = fabs(a); break;
	case LSYS_FN_SIGN: v = LSYS_SUB(a > 0 ? 1.0 : 0.0, a < 0 ? 1.0 : 0.0); break;
	default: return false;
	}
	if (!lsys_isfinite(v)) return false;
	*out = v;
	return true;
}

__device__ bool call2(uint32_t f, double a, double b, double *out) {
	double v;
	switch (f) {
	case LSYS_FN_ATAN2: v = lsys_atan2_deg(a, b); break;
	case LSYS_FN_MIN: v = a < b ? a : b; break;
	case LSYS_FN_MAX: v = a > b ? a : b; break;
	default: return false;
	}
	if (!lsys_isfinite(v)) return false;
	*out = v;
	return true;
}

// Expression e over slots, as Expr.Eval computes it; false where Eval fails.
__device__ bool eval_expr(const Tables &T, int32_t e, const double *slots, double *out) {
	const LsysExpr ex = T.exprs[e];
	const uint32_t *code = T.code + ex.code_start;
	const double *consts = T.consts + ex.const_start;
	double st[LSYS_MAX_STACK];
	int sp = 0;
	for (uint32_t pc = 0; pc < ex.code_len; pc++) {
		const uint32_t in = __ldg(&code[pc]);
		const uint32_t op = in & 0xff, arg = in >> 8;
		switch (op) {
		case LSYS_OP_CONST: st[sp++] = __ldg(&consts[arg]); break;
		case LSYS_OP_SLOT: st[sp++] = slots[arg]; break;
		case LSYS_OP_NEG: st[sp - 1] = -st[sp - 1]; break;
		case LSYS_OP_NOT: st[sp - 1] = st[sp - 1] == 0.0 ? 1.0 : 0.0; break;
		case LSYS_OP_BOOL: st[sp - 1] = st[sp - 1] != 0.0 ? 1.0 : 0.0; break;
		case LSYS_OP_ANDJUMP:
			if (st[sp - 1] == 0.0) pc = arg - 1;
			else sp--;
			break;
		case LSYS_OP_ORJUMP:
			if (st[sp - 1] != 0.0) pc = arg - 1;
			else sp--;
			break;
		case LSYS_OP_CALL: {
			double v;
			if (arg == LSYS_FN_ATAN2 || arg == LSYS_FN_MIN || arg == LSYS_FN_MAX) {
				sp--;
				if (!call2(arg, st[sp - 1], st[sp], &v)) return false;
			} else if (!call1(arg, st[sp - 1], &v)) {
				return false;
			}
			st[sp - 1] = v;
			break;
		}
		default: {
			sp--;
			const double a = st[sp - 1], b = st[sp];
			double v;
			switch (op) {
			case LSYS_OP_ADD: v = LSYS_ADD(a, b); break;
			case LSYS_OP_SUB: v = LSYS_SUB(a, b); break;
			case LSYS_OP_MUL: v = LSYS_MUL(a, b); break;
			case LSYS_OP_DIV:
				if (b == 0.0) return false;
				v = LSYS_DIV(a, b);
				break;
			case LSYS_OP_POW:
				if (a < 0 && b != trunc(b)) return false;
				if (a == 0 && b < 0) return false;
				v = lsys_pow(a, b);
				break;
			case LSYS_OP_LT: v = a < b ? 1.0 : 0.0; break;
			case LSYS_OP_LE: v = a <= b ? 1.0 : 0.0; break;
			case LSYS_OP_GT: v = a > b ? 1.0 : 0.0; break;
			case LSYS_OP_GE: v = a >= b ? 1.0 : 0.0; break;
			case LSYS_OP_EQ: v = a == b ? 1.0 : 0.0; break;
			case LSYS_OP_NE: v = a != b ? 1.0 : 0.0; break;
			default: return false;
			}
			if (!lsys_isfinite(v)) return false;
			st[sp - 1] = v;
		}
		}
	}
	*out = st[0];
	return true;
}

// ---- Context (context.go) -------------------------------------------------

// Copies module j's parameters to slots[at:].
__device__ void bind_module(const Tables &T, const Str &S, uint32_t j, uint32_t a, double *slots, uint32_t at) {
	if (a == 0) return;
	const uint32_t p = param_offset(T, S, j);
	for (uint32_t q = 0; q < a; q++) slots[at + q] = S.params[p + q];
}

// The left context of module i, nearest module last; with bind, the matched
// modules' parameters go to slots[0:nleft].
__device__ bool ctx_left(const Tables &T, const Str &S, uint32_t i, const LsysRule &ru, double *slots, bool bind) {
	const uint8_t *want = T.bytes + ru.left_start;
	int64_t j = (int64_t)i - 1;
	uint32_t end = ru.nleft;
	for (int k = (int)ru.left_len - 1; k >= 0;) {
		if (j < 0) return false;
		const uint8_t s = S.syms[j];
		if (s == want[k]) {
			if (bind) {
				const uint32_t a = sym_arity(T, s);
				end -= a;
				bind_module(T, S, (uint32_t)j, a, slots, end);
			}
			k--;
			j--;
		} else if (s == ']') {
			const uint32_t m = S.match[j];
			if (m == LSYS_NO_MATCH) return false; // unbalanced: the step fails anyway
			j = (int64_t)m - 1;
		} else if (s == '[' || __ldg(&T.h->syms[s].ignore)) {
			j--;
		} else {
			return false;
		}
	}
	return true;
}

// The right context of module i, nearest module first; with bind, the
// matched modules' parameters go to slots[nleft+npred:].
__device__ bool ctx_right(const Tables &T, const Str &S, uint32_t i, const LsysRule &ru, double *slots, bool bind) {
	const uint8_t *want = T.bytes + ru.right_start;
	int64_t j = (int64_t)i + 1;
	uint32_t at = ru.nleft + ru.npred;
	for (uint32_t k = 0; k < ru.right_len;) {
		if (j >= (int64_t)S.n) return false;
		const uint8_t s = S.syms[j];
		if (s == want[k]) {
			if (bind) {
				const uint32_t a = sym_arity(T, s);
				bind_module(T, S, (uint32_t)j, a, slots, at);
				at += a;
			}
			k++;
			j++;
		} else if (s == '[') {
			const uint32_t m = S.match[j];
			if (m == LSYS_NO_MATCH) return false;
			j = (int64_t)m + 1;
		} else if (s == ']') {
			return false;
		} else if (__ldg(&T.h->syms[s].ignore)) {
			j++;
		} else {
			return false;
		}
	}
	return true;
}

// Whether rule ru applies to module i (parameters from po): 1 yes, 0 no, -1
// its condition failed to evaluate.
__device__ int match_rule(const Tables &T, const Str &S, const LsysRule &ru, uint32_t i, uint32_t po, double *slots) {
	const bool bind = ru.cond >= 0 && ru.nslots > 0;
	if (ru.left_len && !ctx_left(T, S, i, ru, slots, bind)) return 0;
	if (ru.right_len && !ctx_right(T, S, i, ru, slots, bind)) return 0;
	if (ru.cond < 0) return 1;
	for (uint32_t q = 0; q < ru.npred; q++) slots[ru.nleft + q] = S.params[po + q];
	double v;
	if (!eval_expr(T, ru.cond, slots, &v)) return -1;
	return v != 0.0;
}

// The production that rewrites module i, or LSYS_COPY (select.go's choose and
// draw); *failed when a condition fails to evaluate.
__device__ int32_t choose(const Tables &T, const Str &S, uint32_t i, uint32_t po, uint64_t key, double *slots,
			  bool *failed) {
	const uint8_t s = S.syms[i];
	const uint32_t start = __ldg(&T.h->syms[s].cand_start), nc = __ldg(&T.h->syms[s].ncand);
	const uint32_t *c = T.cands + start;
	for (uint32_t a = 0; a < nc; a++) {
		const int m = match_rule(T, S, T.rules[c[a]], i, po, slots);
		if (m < 0) {
			*failed = true;
			return LSYS_COPY;
		}
		if (!m) continue;
		if (!T.rules[c[a]].stochastic) return (int32_t)c[a];
		// Every stochastic production from here on that matches is a
		// candidate; weights add in float64 in source order.
		double total = 0.0;
		for (uint32_t b = a; b < nc; b++) {
			const LsysRule &ru = T.rules[c[b]];
			if (!ru.stochastic) continue;
			if (b > a) {
				const int mb = match_rule(T, S, ru, i, po, slots);
				if (mb < 0) {
					*failed = true;
					return LSYS_COPY;
				}
				if (!mb) continue;
			}
			total = LSYS_ADD(total, ru.prob);
		}
		if (!(total > 0.0)) return LSYS_COPY;
		const double u = (double)(pg_hash64(key, (uint64_t)i) >> 11) * 1.1102230246251565e-16; // 2^-53
		double cum = 0.0;
		int32_t last = (int32_t)c[a];
		for (uint32_t b = a; b < nc; b++) {
			const LsysRule &ru = T.rules[c[b]];
			if (!ru.stochastic) continue;
			if (b > a && match_rule(T, S, ru, i, po, slots) <= 0) continue; // as above: no error now
			cum = LSYS_ADD(cum, ru.prob);
			last = (int32_t)c[b];
			if (LSYS_DIV(cum, total) > u) return last;
		}
		return last;
	}
	return LSYS_COPY;
}

// ---- General path: count and rewrite -------------------------------------

// The production of module i: static, or as chosen by the count.
__device__ __forceinline__ int32_t rule_of(const Tables &T, const int32_t *choice, uint8_t s, uint32_t i) {
	const int32_t k = sym_rule(T, s);
	return k == LSYS_DYNAMIC ? choice[i] : k;
}

// Output modules (low half) and parameters (high half) of module i under rule k.
__device__ __forceinline__ uint64_t out_size(const Tables &T, uint8_t s, int32_t k) {
	if (k >= 0) return (uint64_t)T.rules[k].succ_len | ((uint64_t)T.rules[k].nargs << 32);
	return 1ull | ((uint64_t)sym_arity(T, s) << 32);
}

// The symbols of modules [lo, hi): 8 at once when the group is whole.
__device__ __forceinline__ void load_group(const uint8_t *syms, uint32_t lo, uint32_t hi, uint8_t g[LSYS_K]) {
	if (hi - lo == LSYS_K) {
		const uint2 q = *reinterpret_cast<const uint2 *>(syms + lo);
#pragma unroll
		for (int k = 0; k < 4; k++) {
			g[k] = (uint8_t)(q.x >> (8 * k));
			g[4 + k] = (uint8_t)(q.y >> (8 * k));
		}
	} else {
		for (uint32_t k = 0; k < hi - lo; k++) g[k] = syms[lo + k];
	}
}

// Count: choose every module's production (stored in choice[] for symbols
// whose production is not static), count each tile's output modules and
// parameters, and scan them; the first failing module goes to status.
extern "C" __global__ void __launch_bounds__(LSYS_THREADS)
lsys_count(const uint64_t *blob, const uint8_t *syms, const double *params, const uint32_t *chunkp, const uint32_t *match,
	   uint32_t n, uint64_t key, int32_t *choice, uint32_t *tile_mods, uint32_t *tile_params, LsysStatus *status) {
	const Tables T = tables(blob);
	const Str S = {syms, params, chunkp, match, n};
	const bool parametric = T.h->flags & LSYS_PARAMETRIC;
	const uint32_t t = blockIdx.x * LSYS_THREADS + threadIdx.x;
	const uint32_t lo = min(t * LSYS_K, n), hi = min(lo + LSYS_K, n);
	if (blockIdx.x == 0 && threadIdx.x == 0) status->rewrite_err = LSYS_NO_ERROR;
	uint64_t size = 0;
	if (lo < hi) {
		uint8_t g[LSYS_K];
		load_group(syms, lo, hi, g);
		uint32_t po = parametric ? chunkp[t] : 0;
		double slots[LSYS_MAX_SLOTS];
		for (uint32_t i = lo; i < hi; i++) {
			const uint8_t s = g[i - lo];
			int32_t k = sym_rule(T, s);
			if (k == LSYS_DYNAMIC) {
				bool failed = false;
				k = choose(T, S, i, po, key, slots, &failed);
				if (failed) atomicMin((unsigned long long *)&status->count_err, (unsigned long long)i);
				choice[i] = k;
			}
			size += out_size(T, s, k);
			po += sym_arity(T, s);
		}
	}
	const uint64_t total = block_sum(size);
	if (threadIdx.x == 0) {
		tile_mods[blockIdx.x] = (uint32_t)total;
		tile_params[blockIdx.x] = (uint32_t)(total >> 32);
	}
	scan_tiles(tile_mods, tile_params, gridDim.x, status, (uint64_t *)&status->out_mods,
		   (uint64_t *)&status->out_params);
}

// Successor parameter j of rule ru over slots.
__device__ __forceinline__ bool eval_arg(const Tables &T, const LsysArg &ag, const double *slots, double *v) {
	switch (ag.kind) {
	case LSYS_ARG_CONST: *v = ag.val; return true;
	case LSYS_ARG_SLOT: *v = slots[ag.slot]; return true;
	case LSYS_ARG_SLOT_MUL_CONST: *v = LSYS_MUL(slots[ag.slot], ag.val); return lsys_isfinite(*v);
	}
	return eval_expr(T, ag.expr, slots, v);
}

__device__ __forceinline__ uint32_t pad32(uint32_t i) { return i + (i >> 5); }

// The last m in [0, cnt) with pos[pad32(m)] <= x, where pos[pad32(0)] == 0.
__device__ __forceinline__ uint32_t upper_index(const uint32_t *pos, uint32_t cnt, uint32_t x) {
	uint32_t a = 0, b = cnt;
	while (b - a > 1) {
		const uint32_t mid = (a + b) >> 1;
		if (pos[pad32(mid)] <= x) a = mid;
		else b = mid;
	}
	return a;
}

#define GEN_PAD (LSYS_GEN_TILE + LSYS_GEN_TILE / 32 + 2)

// Rewrite, by output position. The block's modules, their productions and
// the tile-relative offsets of their output modules, output parameters and
// input parameters are scanned into shared memory; then the block writes its
// output symbols as aligned 16-byte words, each thread finding the module
// behind each byte (and writing the new string's chunk parameter offsets on
// the way), and its output parameters one per thread in turn, each thread
// finding the module and the successor argument behind it and evaluating
// it. Stores are coalesced, and the work per thread does not depend on how
// long successors are. The first failing module goes to status.
extern "C" __global__ void __launch_bounds__(LSYS_THREADS)
lsys_rewrite(const uint64_t *blob, const uint8_t *syms, const double *params, const uint32_t *chunkp,
	     const uint32_t *match, uint32_t n, const int32_t *choice, const uint32_t *tile_mods,
	     const uint32_t *tile_params, uint8_t *out_syms, double *out_params, uint32_t *out_chunkp,
	     LsysStatus *status) {
	__shared__ __align__(16) uint8_t ssym[LSYS_GEN_TILE];
	__shared__ int32_t srule[LSYS_GEN_TILE];
	__shared__ uint32_t mpos[GEN_PAD], ppos[GEN_PAD], ipos[GEN_PAD];
	const Tables T = tables(blob);
	const uint32_t *bpoff = reinterpret_cast<const uint32_t *>(reinterpret_cast<const uint8_t *>(blob) + T.h->off_bpoff);
	const bool parametric = T.h->flags & LSYS_PARAMETRIC;
	const uint32_t base = blockIdx.x * LSYS_GEN_TILE;
	const uint32_t cnt = min(n - base, (uint32_t)LSYS_GEN_TILE);
	const uint32_t j0 = threadIdx.x * LSYS_K;

	// Sizes of this thread's modules, scanned over the block.
	uint8_t g[LSYS_K];
	int32_t rk[LSYS_K];
	uint64_t size = 0;
	uint32_t insize = 0;
	const uint32_t lo = min(base + j0, n), hi = min(lo + LSYS_K, n);
	if (lo < hi) load_group(syms, lo, hi, g);
#pragma unroll
	for (int k = 0; k < LSYS_K; k++) {
		if (lo + k < hi) {
			rk[k] = rule_of(T, choice, g[k], lo + k);
			size += out_size(T, g[k], rk[k]);
			insize += sym_arity(T, g[k]);
		}
	}
	uint64_t total, itotal;
	uint64_t off = block_exclusive_scan(size, &total);
	uint32_t ioff = (uint32_t)block_exclusive_scan(insize, &itotal);
	reset_count_status(status);
	for (uint32_t k = 0; k < hi - lo; k++) {
		const uint32_t j = j0 + k;
		ssym[j] = g[k];
		srule[j] = rk[k];
		mpos[pad32(j)] = (uint32_t)off;
		ppos[pad32(j)] = (uint32_t)(off >> 32);
		ipos[pad32(j)] = ioff;
		off += out_size(T, g[k], rk[k]);
		ioff += sym_arity(T, g[k]);
	}
	if (threadIdx.x == 0) {
		mpos[pad32(cnt)] = (uint32_t)total;
		ppos[pad32(cnt)] = (uint32_t)(total >> 32);
	}
	__syncthreads();
	const uint32_t nmods = (uint32_t)total, nparams = (uint32_t)(total >> 32);
	const uint32_t MB = tile_mods[blockIdx.x], PB = tile_params[blockIdx.x];

	// Symbols (and chunk parameter offsets), 16 bytes per thread in turn.
	if (nmods > 0) {
		const uint32_t E = MB + nmods;
		const uint32_t w0 = MB / 16, w1 = (uint32_t)(((uint64_t)E + 15) / 16);
		for (uint32_t wd = w0 + threadIdx.x; wd < w1; wd += LSYS_THREADS) {
			const uint64_t g0 = (uint64_t)wd * 16;
			const uint32_t qlo = g0 < MB ? (uint32_t)(MB - g0) : 0;
			const uint32_t qhi = g0 + 16 > E ? (uint32_t)(E - g0) : 16;
			uint32_t m = upper_index(mpos, cnt, (uint32_t)(g0 + qlo - MB));
			uint32_t beg = mpos[pad32(m)], end = mpos[pad32(m + 1)];
			int32_t k = srule[m];
			uint32_t src = k < 0 ? ssym[m] : __ldg(&T.rules[k].succ_start);
			uint32_t r[4] = {0, 0, 0, 0};
#pragma unroll
			for (uint32_t q = 0; q < 16; q++) {
				if (q >= qlo && q < qhi) {
					const uint32_t loc = (uint32_t)(g0 + q - MB);
					while (loc >= end) {
						m++;
						beg = end;
						end = mpos[pad32(m + 1)];
						k = srule[m];
						src = k < 0 ? ssym[m] : __ldg(&T.rules[k].succ_start);
					}
					const uint32_t c = loc - beg; // position in the successor
					const uint32_t b = __ldg(&T.bytes[src + c]); // a copied module's src is its own symbol
					r[q >> 2] |= b << (8 * (q & 3));
					if (parametric && (g0 + q) % LSYS_K == 0)
						out_chunkp[(g0 + q) / LSYS_K] = PB + ppos[pad32(m)] + (k < 0 ? 0 : __ldg(&bpoff[src + c]));
				}
			}
			if (qlo == 0 && qhi == 16) {
				*reinterpret_cast<uint4 *>(out_syms + g0) = make_uint4(r[0], r[1], r[2], r[3]);
			} else {
				for (uint32_t q = qlo; q < qhi; q++) out_syms[g0 + q] = (uint8_t)(r[q >> 2] >> (8 * (q & 3)));
			}
		}
	}
	if (!parametric || nparams == 0) return;

	// Parameters, one per thread in turn.
	const uint32_t ibase = chunkp[blockIdx.x * (LSYS_GEN_TILE / LSYS_K)];
	const Str S = {syms, params, chunkp, match, n};
	for (uint32_t loc = threadIdx.x; loc < nparams; loc += LSYS_THREADS) {
		// The module writing parameter loc: the last m with ppos[m] <= loc
		// whose output has parameters.
		uint32_t m = upper_index(ppos, cnt, loc);
		const uint32_t j = loc - ppos[pad32(m)];
		const uint32_t po = ibase + ipos[pad32(m)];
		const int32_t k = srule[m];
		double v;
		if (k < 0) {
			v = params[po + j];
		} else {
			const LsysRule &ru = T.rules[k];
			double local[LSYS_MAX_SLOTS];
			const double *slots = params + po;
			if (ru.nslots > ru.npred) { // contexts bind parameters: match again for their positions
				const uint32_t i = base + m;
				if (ru.left_len) ctx_left(T, S, i, ru, local, true);
				if (ru.right_len) ctx_right(T, S, i, ru, local, true);
				for (uint32_t q = 0; q < ru.npred; q++) local[ru.nleft + q] = params[po + q];
				slots = local;
			}
			if (!eval_arg(T, T.args[ru.arg_start + j], slots, &v)) {
				atomicMin((unsigned long long *)&status->rewrite_err, (unsigned long long)(base + m));
				v = 0;
			}
		}
		out_params[PB + loc] = v;
	}
}

// ---- Fast path: no parameters, every production static -------------------

// Each tile's output length, scanned; the total goes to status.
extern "C" __global__ void __launch_bounds__(LSYS_THREADS)
lsys_fast_count(const uint64_t *blob, const uint8_t *syms, uint32_t n, uint32_t *tile_cnt, LsysStatus *status) {
	__shared__ uint32_t len[256];
	const Tables T = tables(blob);
	len[threadIdx.x] = T.h->syms[threadIdx.x].out_mods;
	__syncthreads();
	const uint32_t i0 = blockIdx.x * LSYS_TILE + threadIdx.x * LSYS_TILE_ITEMS;
	uint32_t c = 0;
	if (i0 + LSYS_TILE_ITEMS <= n) {
		const uint4 q = *reinterpret_cast<const uint4 *>(syms + i0);
		const uint32_t w[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
		for (int k = 0; k < 16; k++) c += len[(w[k >> 2] >> (8 * (k & 3))) & 0xff];
	} else {
		for (uint32_t i = i0; i < n; i++) c += len[syms[i]];
	}
	const uint64_t total = block_sum(c);
	if (threadIdx.x == 0) tile_cnt[blockIdx.x] = (uint32_t)total;
	scan_tiles(tile_cnt, nullptr, gridDim.x, status, (uint64_t *)&status->out_mods, nullptr);
}

// Expansion by output position: the tile's successor offsets are scanned into
// shared memory, then every thread assembles whole aligned 16-byte words of
// the output, finding the module that writes each byte, so stores are
// coalesced and the work per thread does not depend on successor lengths.
extern "C" __global__ void __launch_bounds__(LSYS_THREADS)
lsys_fast_expand(const uint64_t *blob, const uint8_t *syms, uint32_t n, const uint32_t *tile_off, uint8_t *out,
		 LsysStatus *status) {
	reset_count_status(status);
	extern __shared__ uint8_t sbytes[]; // every successor: h->nbytes bytes
	__shared__ uint32_t len[256], start[256];
	__shared__ __align__(16) uint8_t tsyms[LSYS_TILE];
	__shared__ uint32_t pos[LSYS_TILE + LSYS_TILE / 32 + 2];
	const Tables T = tables(blob);
	len[threadIdx.x] = T.h->syms[threadIdx.x].out_mods;
	start[threadIdx.x] = T.h->syms[threadIdx.x].succ_start;
	const uint32_t nb = T.h->nbytes;
	for (uint32_t b = threadIdx.x; b < nb; b += LSYS_THREADS) sbytes[b] = T.bytes[b];

	const uint32_t base = blockIdx.x * LSYS_TILE;
	const uint32_t cnt = min(n - base, (uint32_t)LSYS_TILE);
	const uint32_t i0 = threadIdx.x * LSYS_TILE_ITEMS;
	uint32_t w[4] = {0, 0, 0, 0};
	if (i0 + LSYS_TILE_ITEMS <= cnt) {
		const uint4 q = *reinterpret_cast<const uint4 *>(syms + base + i0);
		w[0] = q.x, w[1] = q.y, w[2] = q.z, w[3] = q.w;
	} else {
		for (uint32_t i = i0; i < cnt; i++) w[(i - i0) >> 2] |= (uint32_t)syms[base + i] << (8 * ((i - i0) & 3));
	}
	*reinterpret_cast<uint4 *>(&tsyms[i0]) = make_uint4(w[0], w[1], w[2], w[3]);
	__syncthreads();
	uint32_t c = 0;
#pragma unroll
	for (int k = 0; k < 16; k++)
		if (i0 + k < cnt) c += len[(w[k >> 2] >> (8 * (k & 3))) & 0xff];
	uint64_t total64;
	uint32_t at = (uint32_t)block_exclusive_scan(c, &total64);
	const uint32_t total = (uint32_t)total64;
#pragma unroll
	for (int k = 0; k < 16; k++) {
		if (i0 + k < cnt) {
			pos[pad32(i0 + k)] = at;
			at += len[(w[k >> 2] >> (8 * (k & 3))) & 0xff];
		}
	}
	if (threadIdx.x == 0) pos[pad32(cnt)] = total;
	__syncthreads();
	if (total == 0) return;

	const uint32_t B = tile_off[blockIdx.x], E = B + total;
	const uint32_t w0 = B / 16, w1 = (uint32_t)(((uint64_t)E + 15) / 16);
	for (uint32_t wd = w0 + threadIdx.x; wd < w1; wd += LSYS_THREADS) {
		const uint64_t g0 = (uint64_t)wd * 16;
		const uint32_t qlo = g0 < B ? (uint32_t)(B - g0) : 0;
		const uint32_t qhi = g0 + 16 > E ? (uint32_t)(E - g0) : 16;
		const uint32_t first = (uint32_t)(g0 + qlo - B); // tile-relative output position
		// The module writing position `first`: the last m with pos[m] <= first.
		uint32_t a = 0, b = cnt;
		while (b - a > 1) {
			const uint32_t mid = (a + b) >> 1;
			if (pos[pad32(mid)] <= first) a = mid;
			else b = mid;
		}
		uint32_t end = pos[pad32(a + 1)];
		uint32_t src = start[tsyms[a]] - pos[pad32(a)]; // output position + src = its byte in sbytes
		uint32_t r[4] = {0, 0, 0, 0};
#pragma unroll
		for (uint32_t q = 0; q < 16; q++) {
			if (q >= qlo && q < qhi) {
				const uint32_t loc = (uint32_t)(g0 + q - B);
				while (loc >= end) {
					a++;
					const uint32_t beg = end;
					end = pos[pad32(a + 1)];
					src = start[tsyms[a]] - beg;
				}
				r[q >> 2] |= (uint32_t)sbytes[loc + src] << (8 * (q & 3));
			}
		}
		if (qlo == 0 && qhi == 16) {
			*reinterpret_cast<uint4 *>(out + g0) = make_uint4(r[0], r[1], r[2], r[3]);
		} else {
			for (uint32_t q = qlo; q < qhi; q++) out[g0 + q] = (uint8_t)(r[q >> 2] >> (8 * (q & 3)));
		}
	}
}

// ---- Bracket depths, partners and cut ------------------------------------
//
// depth[i] is the branch depth after module i (+1 per '[', -1 per ']'). The
// partner of a '[' at i is the first j > i whose depth is below depth[i]; a
// '%' at c cuts up to the first j > c whose depth is below depth[c]. Both are
// "next smaller value" queries, answered through levels of minima over
// groups of LSYS_FANOUT (level 0 is depth itself), in O(fanout * levels)
// steps however far the answer is.

struct Levels {
	const int32_t *v;
	uint64_t off[LSYS_MAX_LEVELS], len[LSYS_MAX_LEVELS];
	int n;
};

// The layout of the levels for a string of n modules (cuda.go's levelLayout
// computes the same to size the buffer).
__device__ Levels levels_of(const int32_t *v, uint32_t n) {
	Levels L;
	L.v = v;
	L.n = 0;
	uint64_t o = 0, l = n;
	for (;;) {
		L.off[L.n] = o;
		L.len[L.n] = l;
		L.n++;
		if (l <= 1 || L.n == LSYS_MAX_LEVELS) break;
		o += l;
		l = (l + LSYS_FANOUT - 1) / LSYS_FANOUT;
	}
	return L;
}

// The first j > i with depth[j] < a, or -1.
__device__ int64_t next_smaller(const Levels &L, uint64_t i, int32_t a) {
	int lev = 0;
	uint64_t p = i + 1;
	for (;;) {
		const uint64_t len = L.len[lev];
		if (p >= len) return -1;
		const bool top = lev + 1 == L.n;
		const uint64_t end = top ? len : min((p / LSYS_FANOUT + 1) * LSYS_FANOUT, len);
		const int32_t *v = L.v + L.off[lev];
		for (; p < end; p++)
			if (v[p] < a) goto found;
		if (top || end == len) return -1;
		p = end / LSYS_FANOUT; // the next group, one level up
		lev++;
	}
found:
	while (lev > 0) {
		lev--;
		const int32_t *v = L.v + L.off[lev];
		p *= LSYS_FANOUT;
		while (v[p] >= a) p++; // the group's minimum is below a
	}
	return (int64_t)p;
}

__device__ __forceinline__ int32_t bracket_delta(uint8_t s) { return (s == '[') - (s == ']'); }

// Each tile's sum of bracket deltas (as uint32, two's complement: the
// scanned sums are the signed depths), scanned; the depth at the end of the
// string goes to status.
extern "C" __global__ void __launch_bounds__(LSYS_THREADS)
lsys_depth_tiles(const uint8_t *syms, uint32_t n, uint32_t *tile_sum, LsysStatus *status) {
	const uint32_t i0 = blockIdx.x * LSYS_TILE + threadIdx.x * LSYS_TILE_ITEMS;
	int32_t d = 0;
	for (uint32_t i = i0; i < min(i0 + LSYS_TILE_ITEMS, n); i++) d += bracket_delta(syms[i]);
	const uint64_t total = block_sum((uint32_t)d);
	if (threadIdx.x == 0) tile_sum[blockIdx.x] = (uint32_t)total;
	scan_tiles(tile_sum, nullptr, gridDim.x, status, (uint64_t *)&status->depth, nullptr); // low 32 bits
}

// depth[] (level 0) and level 1 of the minima; *unbalanced = 1 (when not
// null) where some depth is negative.
extern "C" __global__ void __launch_bounds__(LSYS_THREADS)
lsys_depth_fill(const uint8_t *syms, uint32_t n, const uint32_t *tile_base, int32_t *levels, uint64_t *unbalanced) {
	const uint32_t i0 = blockIdx.x * LSYS_TILE + threadIdx.x * LSYS_TILE_ITEMS;
	const uint32_t i1 = min(i0 + LSYS_TILE_ITEMS, n);
	int32_t d = 0;
	for (uint32_t i = i0; i < i1; i++) d += bracket_delta(syms[i]);
	uint64_t total;
	int32_t at = (int32_t)tile_base[blockIdx.x] + (int32_t)(uint32_t)block_exclusive_scan((uint32_t)d, &total);
	int32_t lo = INT32_MAX;
	for (uint32_t i = i0; i < i1; i++) {
		at += bracket_delta(syms[i]);
		levels[i] = at;
		lo = min(lo, at);
	}
	if (lo < 0 && unbalanced) *unbalanced = 1;
	// Threads 2k and 2k+1 hold one group of 32.
	lo = min(lo, __shfl_xor_sync(PG_FULL_MASK, lo, 1));
	if ((threadIdx.x & 1) == 0 && i0 < n) levels[n + i0 / LSYS_FANOUT] = lo;
}

// Level k+1 of the minima from level k.
extern "C" __global__ void __launch_bounds__(LSYS_THREADS)
lsys_min_level(int32_t *levels, uint64_t off_in, uint64_t len_in, uint64_t off_out) {
	const uint64_t g = (uint64_t)blockIdx.x * LSYS_THREADS + threadIdx.x;
	if (g * LSYS_FANOUT >= len_in) return;
	const int32_t *in = levels + off_in + g * LSYS_FANOUT;
	const uint32_t m = (uint32_t)min((uint64_t)LSYS_FANOUT, len_in - g * LSYS_FANOUT);
	int32_t lo = INT32_MAX;
	for (uint32_t k = 0; k < m; k++) lo = min(lo, in[k]);
	levels[off_out + g] = lo;
}

// The last j < i with depth[j] < a, or -1.
__device__ int64_t prev_smaller(const Levels &L, uint64_t i, int32_t a) {
	int lev = 0;
	int64_t p = (int64_t)i - 1;
	for (;;) {
		if (p < 0) return -1;
		const bool top = lev + 1 == L.n;
		const int64_t begin = top ? 0 : p / LSYS_FANOUT * LSYS_FANOUT;
		const int32_t *v = L.v + L.off[lev];
		for (; p >= begin; p--)
			if (v[p] < a) goto found;
		if (top || begin == 0) return -1;
		p = begin / LSYS_FANOUT - 1; // the previous group, one level up
		lev++;
	}
found:
	while (lev > 0) {
		lev--;
		const int32_t *v = L.v + L.off[lev];
		p = min((uint64_t)(p * LSYS_FANOUT + LSYS_FANOUT), L.len[lev]) - 1;
		while (v[p] >= a) p--; // the group's minimum is below a
	}
	return p;
}

// Bracket partners: each bracket finds its own, so no two threads write one
// entry; a bracket without a partner (unbalanced strings, which the host
// then reports) gets LSYS_NO_MATCH. The ']' closing the '[' at i is the
// first j > i whose depth is below depth[i]; the '[' opening the ']' at j
// follows the last p < j whose depth is below depth[j] + 1 (or starts the
// string, at depth 0).
extern "C" __global__ void __launch_bounds__(LSYS_THREADS)
lsys_match(const uint8_t *syms, uint32_t n, const int32_t *levels, uint32_t *match) {
	const uint32_t i = blockIdx.x * LSYS_THREADS + threadIdx.x;
	if (i >= n) return;
	const uint8_t s = syms[i];
	if (s != '[' && s != ']') return;
	const Levels L = levels_of(levels, n);
	const int32_t d = levels[i];
	int64_t j;
	if (s == '[') {
		j = next_smaller(L, i, d);
		if (j >= 0 && syms[j] != ']') j = -1;
	} else {
		j = d < 0 ? -1 : prev_smaller(L, i, d + 1) + 1;
		if (j >= 0 && (syms[j] != '[' || (j == 0 && d != 0))) j = -1;
	}
	match[i] = j < 0 ? LSYS_NO_MATCH : (uint32_t)j;
}

// Cut, step 1: +1 at every '%' and -1 where its branch ends (derive.go's
// cutBranches deletes [c, end)); delta[0..n] is zero on entry. Cut regions
// nest, so a module is kept exactly when the prefix sum of delta is zero.
extern "C" __global__ void __launch_bounds__(LSYS_THREADS)
lsys_cut_mark(const uint8_t *syms, uint32_t n, const int32_t *levels, int32_t *delta) {
	const uint32_t c = blockIdx.x * LSYS_THREADS + threadIdx.x;
	if (c >= n || syms[c] != '%') return;
	const Levels L = levels_of(levels, n);
	const int64_t e = next_smaller(L, c, levels[c]);
	atomicAdd(&delta[c], 1);
	if (e >= 0) atomicAdd(&delta[e], -1);
}

// Cut, step 2: each tile's sum of delta, scanned.
extern "C" __global__ void __launch_bounds__(LSYS_THREADS)
lsys_cut_tiles(const int32_t *delta, uint32_t n, uint32_t *tile_sum, LsysStatus *status) {
	const uint32_t i0 = blockIdx.x * LSYS_TILE + threadIdx.x * LSYS_TILE_ITEMS;
	int32_t d = 0;
	for (uint32_t i = i0; i < min(i0 + LSYS_TILE_ITEMS, n); i++) d += delta[i];
	const uint64_t total = block_sum((uint32_t)d);
	if (threadIdx.x == 0) tile_sum[blockIdx.x] = (uint32_t)total;
	scan_tiles(tile_sum, nullptr, gridDim.x, status, &status->scratch, nullptr);
}

// The kept modules (low half) and parameters (high half) of this thread's
// modules, and a bit mask of which are kept.
__device__ uint64_t cut_keep(const uint64_t *blob, const uint8_t *syms, uint32_t n, const int32_t *delta,
			     const uint32_t *tile_base, uint32_t *mask) {
	const Tables T = tables(blob);
	const uint32_t i0 = blockIdx.x * LSYS_TILE + threadIdx.x * LSYS_TILE_ITEMS;
	const uint32_t i1 = min(i0 + LSYS_TILE_ITEMS, n);
	int32_t d = 0;
	for (uint32_t i = i0; i < i1; i++) d += delta[i];
	uint64_t total;
	int32_t cover = (int32_t)tile_base[blockIdx.x] + (int32_t)(uint32_t)block_exclusive_scan((uint32_t)d, &total);
	uint64_t kept = 0;
	*mask = 0;
	for (uint32_t i = i0; i < i1; i++) {
		cover += delta[i];
		if (cover == 0) {
			*mask |= 1u << (i - i0);
			kept += 1ull | ((uint64_t)sym_arity(T, syms[i]) << 32);
		}
	}
	return kept;
}

// Cut, step 3: each tile's kept modules and parameters, scanned; the
// totals go to status.
extern "C" __global__ void __launch_bounds__(LSYS_THREADS)
lsys_cut_count(const uint64_t *blob, const uint8_t *syms, uint32_t n, const int32_t *delta, const uint32_t *tile_base,
	       uint32_t *tile_mods, uint32_t *tile_params, LsysStatus *status) {
	uint32_t mask;
	const uint64_t total = block_sum(cut_keep(blob, syms, n, delta, tile_base, &mask));
	if (threadIdx.x == 0) {
		tile_mods[blockIdx.x] = (uint32_t)total;
		tile_params[blockIdx.x] = (uint32_t)(total >> 32);
	}
	scan_tiles(tile_mods, tile_params, gridDim.x, status, (uint64_t *)&status->out_mods,
		   (uint64_t *)&status->out_params);
}

// Cut, step 4: the kept modules, their parameters and the chunk parameter
// offsets, compacted into out_*.
extern "C" __global__ void __launch_bounds__(LSYS_THREADS)
lsys_cut_scatter(const uint64_t *blob, const uint8_t *syms, const double *params, const uint32_t *chunkp, uint32_t n,
		 const int32_t *delta, const uint32_t *tile_base, const uint32_t *tile_mods, const uint32_t *tile_params,
		 uint8_t *out_syms, double *out_params, uint32_t *out_chunkp) {
	const Tables T = tables(blob);
	const bool parametric = T.h->flags & LSYS_PARAMETRIC;
	uint32_t mask;
	const uint64_t kept = cut_keep(blob, syms, n, delta, tile_base, &mask);
	uint64_t total;
	const uint64_t off = block_exclusive_scan(kept, &total);
	const uint32_t i0 = blockIdx.x * LSYS_TILE + threadIdx.x * LSYS_TILE_ITEMS;
	if (i0 >= n) return;
	const uint32_t i1 = min(i0 + LSYS_TILE_ITEMS, n);
	uint32_t o = tile_mods[blockIdx.x] + (uint32_t)off;
	uint32_t op = tile_params[blockIdx.x] + (uint32_t)(off >> 32);
	const Str S = {syms, params, chunkp, nullptr, n};
	uint32_t po = parametric ? param_offset(T, S, i0) : 0;
	for (uint32_t i = i0; i < i1; i++) {
		const uint8_t s = syms[i];
		const uint32_t a = sym_arity(T, s);
		if (mask >> (i - i0) & 1) {
			if (parametric && o % LSYS_K == 0) out_chunkp[o / LSYS_K] = op;
			out_syms[o++] = s;
			for (uint32_t q = 0; q < a; q++) out_params[op++] = params[po + q];
		}
		po += a;
	}
}
