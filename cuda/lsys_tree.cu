// Branch structure for the L-system derivation (internal/lsys/cuda_run.go):
// bracket depths, bracket partners for context matching (context.go) and cut
// (derive.go's cutBranches), without a stack: each is a search over the
// depths, through levels of their minima.
#include "lsys_eval.cuh"
#include "lsys_scan.cuh"

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
