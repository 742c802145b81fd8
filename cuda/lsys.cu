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
// Bracket depths, partners and cut are cuda/lsys_tree.cu; the interpreter,
// context matching and production choice lsys_eval.cuh.
#include "lsys_eval.cuh"
#include "lsys_scan.cuh"

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
// DYNAMIC is false for systems whose every production is static, which
// need none of choose's registers.
template <bool DYNAMIC>
__device__ void count_tile(const uint64_t *blob, const uint8_t *syms, const double *params, const uint32_t *chunkp,
			   const uint32_t *match, uint32_t n, uint64_t key, int32_t *choice, uint32_t *tile_mods,
			   uint32_t *tile_params, LsysStatus *status) {
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
		uint32_t po = DYNAMIC && parametric ? chunkp[t] : 0;
		double slots[DYNAMIC ? LSYS_MAX_SLOTS : 1];
		for (uint32_t i = lo; i < hi; i++) {
			const uint8_t s = g[i - lo];
			int32_t k = sym_rule(T, s);
			if (DYNAMIC && k == LSYS_DYNAMIC) {
				bool failed = false;
				k = choose(T, S, i, po, key, slots, &failed);
				if (failed) atomicMin((unsigned long long *)&status->count_err, (unsigned long long)i);
				choice[i] = k;
			}
			size += out_size(T, s, k);
			if (DYNAMIC) po += sym_arity(T, s);
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

extern "C" __global__ void __launch_bounds__(LSYS_THREADS)
lsys_count(const uint64_t *blob, const uint8_t *syms, const double *params, const uint32_t *chunkp, const uint32_t *match,
	   uint32_t n, uint64_t key, int32_t *choice, uint32_t *tile_mods, uint32_t *tile_params, LsysStatus *status) {
	count_tile<true>(blob, syms, params, chunkp, match, n, key, choice, tile_mods, tile_params, status);
}

extern "C" __global__ void __launch_bounds__(LSYS_THREADS)
lsys_count_static(const uint64_t *blob, const uint8_t *syms, const double *params, const uint32_t *chunkp,
		  const uint32_t *match, uint32_t n, uint64_t key, int32_t *choice, uint32_t *tile_mods,
		  uint32_t *tile_params, LsysStatus *status) {
	count_tile<false>(blob, syms, params, chunkp, match, n, key, choice, tile_mods, tile_params, status);
}

// Successor parameter j of rule ru over slots.
__device__ __forceinline__ bool eval_arg(const Tables &T, const LsysArg &ag, const double *slots, uint64_t rkey,
					 double *v) {
	switch (ag.kind) {
	case LSYS_ARG_CONST: *v = ag.val; return true;
	case LSYS_ARG_SLOT: *v = slots[ag.slot]; return true;
	case LSYS_ARG_SLOT_MUL_CONST: *v = LSYS_MUL(slots[ag.slot], ag.val); return lsys_isfinite(*v);
	}
	return eval_expr(T, ag.expr, slots, rkey, v);
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
	     const uint32_t *match, uint32_t n, uint64_t key, const int32_t *choice, const uint32_t *tile_mods,
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
			if (!eval_arg(T, T.args[ru.arg_start + j], slots, pg_hash64(key, (uint64_t)(base + m)), &v)) {
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
