// PGA shape-grammar evaluation on the GPU: the twin of internal/pga/cpu.go
// and split.go. Two schedulers share one chain interpreter:
//  - levels: one launch per derivation level over a queue of shapes (the
//    paper's baseline): run each shape's chain to its end, count children,
//    scan, write children and terminals at their prefix-sum offsets;
//  - persistent: one launch; blocks loop pulling batches of shapes from a
//    global queue and from a local pool in shared memory, sort each batch by
//    chain so a warp runs one rule, and spread the outputs of Repeat, SubDiv,
//    CompSplit and Replicate over the threads of the block.
// Built with --fmad=false (Makefile) so float64 arithmetic rounds as Go's does.
#include <cooperative_groups.h>

#include "common.cuh"
#include "pga_types.cuh"

namespace cg = cooperative_groups;

#define PGA_THREADS 256
#define PGA_POOL 256 // persistent: shapes a block keeps in shared memory
#define PGA_SCAN_ITEMS 4

#define PGA_FLAG_GROUP 1 // persistent: local pool and sorting batches by chain
#define PGA_FLAG_OPPAR 2 // persistent: children of one operator over many threads

#define RUN_NONE 0
#define RUN_TERM 1
#define RUN_SPLIT 2
#define RUN_ERR 3
#define RUN_TARGET 4 // a bilateral query's re-derivation handed s to its target rule
#define RUN_ASK 5    // s is at an operator with bilateral queries: pga_ask, then run it again

#include "pga_prog.cuh"
#include "pga_mat.cuh"
#include "pga_context.cuh"
#include "pga_expr.cuh"
#include "pga_outputs.cuh"
#include "pga_run.cuh"
#include "pga_bilateral.cuh"

// ---- Levels scheduler ----

// Each thread runs one shape. The shape is written back at its block
// operator (pc >= 0), or marked a terminal (pc = -1, chain = terminal id) or
// dropped (pc = -2); counts[i] = terminals << 32 | children.
// ASK: the grammar has bilateral queries (pga_levels_run_ask). Kernels
// without them leave the re-derivation out of their call graph, which keeps
// their registers and stack as they were.
template <bool ASK>
__device__ __forceinline__ void pga_levels_run_body(const uint32_t *words, PGA_CTX_PARAMS, PgaItem *items, uint32_t n,
						    unsigned long long *counts, PgaStatus *st, unsigned long long max_shapes,
						    int max_depth) {
	const Limits L = {max_shapes, max_depth};
	const Prog P = pga_limited(pga_prog(words, PGA_CTX_ARGS), st, L);
	const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	uint32_t ticks = 0;
	int rule = 0;
	if (i < n) {
		PgaItem s = items[i];
		uint32_t nc = 0;
		int term = 0;
		int r;
		while ((r = pga_run<false>(P, L, st, s, nc, term, ticks)) == RUN_ASK) {
			if constexpr (!ASK) break;
			else pga_ask(P, s);
		}
		rule = s.rule;
		unsigned long long c = 0;
		if (r == RUN_TERM) {
			s.pc = -1;
			s.chain = term;
			c = 1ull << 32;
		} else if (r == RUN_SPLIT) {
			c = nc;
		} else {
			s.pc = -2;
		}
		items[i] = s;
		counts[i] = c;
	}
	pga_add_ticks(st, L, ticks, rule);
}

extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_levels_run(const uint32_t *words, PGA_CTX_PARAMS, PgaItem *items, uint32_t n, unsigned long long *counts, PgaStatus *st,
	       unsigned long long max_shapes, int max_depth) {
	pga_levels_run_body<false>(words, PGA_CTX_ARGS, items, n, counts, st, max_shapes, max_depth);
}

extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_levels_run_ask(const uint32_t *words, PGA_CTX_PARAMS, PgaItem *items, uint32_t n, unsigned long long *counts,
		   PgaStatus *st, unsigned long long max_shapes, int max_depth) {
	pga_levels_run_body<true>(words, PGA_CTX_ARGS, items, n, counts, st, max_shapes, max_depth);
}

// Writes the children and terminals of the shapes pga_levels_run left, at
// the offsets the exclusive scan of counts gave (total in st->scan_total).
extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_levels_expand(const uint32_t *words, PGA_CTX_PARAMS, const PgaItem *items, uint32_t n, const unsigned long long *offs,
		  PgaItem *next, PgaTerm *terms, uint32_t term_base, const PgaStatus *st) {
	const Prog P = pga_prog(words, PGA_CTX_ARGS);
	const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	const PgaItem s = items[i];
	const unsigned long long o = offs[i];
	if (s.pc == -1) {
		PgaTerm t;
		pga_make_term(s, s.chain, t);
		terms[term_base + (uint32_t)(o >> 32)] = t;
		return;
	}
	if (s.pc < 0) return;
	const unsigned long long end = i + 1 < n ? offs[i + 1] : st->scan_total;
	const uint32_t c0 = (uint32_t)o, nc = (uint32_t)end - c0;
	for (uint32_t k = 0; k < nc; k++) {
		PgaItem c;
		pga_child<false>(P, s, k, c);
		next[c0 + k] = c;
	}
}

// ---- Exclusive scan of 64-bit counts (three launches) ----

#define PGA_SCAN_TILE (PGA_THREADS * PGA_SCAN_ITEMS)

__device__ unsigned long long block_exclusive_scan(unsigned long long v, unsigned long long *sh, unsigned long long &total) {
	const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	unsigned long long x = v;
#pragma unroll
	for (int o = 1; o < 32; o <<= 1) {
		const unsigned long long y = __shfl_up_sync(PG_FULL_MASK, x, o);
		if (lane >= (unsigned)o) x += y;
	}
	if (lane == 31) sh[warp] = x;
	__syncthreads();
	if (threadIdx.x == 0) {
		unsigned long long acc = 0;
		for (int w = 0; w < (int)(blockDim.x >> 5); w++) {
			const unsigned long long t = sh[w];
			sh[w] = acc;
			acc += t;
		}
		sh[32] = acc;
	}
	__syncthreads();
	const unsigned long long r = sh[warp] + x - v;
	total = sh[32];
	__syncthreads();
	return r;
}

extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_scan_tiles(unsigned long long *a, uint32_t n, unsigned long long *partial) {
	__shared__ unsigned long long sh[33];
	const uint32_t base = blockIdx.x * PGA_SCAN_TILE + threadIdx.x * PGA_SCAN_ITEMS;
	unsigned long long v[PGA_SCAN_ITEMS], sum = 0;
	for (int k = 0; k < PGA_SCAN_ITEMS; k++) {
		v[k] = base + k < n ? a[base + k] : 0;
		sum += v[k];
	}
	unsigned long long total;
	unsigned long long acc = block_exclusive_scan(sum, sh, total);
	for (int k = 0; k < PGA_SCAN_ITEMS; k++) {
		if (base + k < n) a[base + k] = acc;
		acc += v[k];
	}
	if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_scan_partials(unsigned long long *partial, uint32_t nb, PgaStatus *st) {
	__shared__ unsigned long long sh[33];
	unsigned long long carry = 0;
	for (uint32_t b0 = 0; b0 < nb; b0 += PGA_THREADS) {
		const uint32_t i = b0 + threadIdx.x;
		const unsigned long long v = i < nb ? partial[i] : 0;
		unsigned long long total;
		const unsigned long long e = block_exclusive_scan(v, sh, total);
		if (i < nb) partial[i] = carry + e;
		carry += total;
	}
	if (threadIdx.x == 0) st->scan_total = carry;
}

extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_scan_add(unsigned long long *a, uint32_t n, const unsigned long long *partial) {
	const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) a[i] += partial[i / PGA_SCAN_TILE];
}

#include "pga_persistent.cuh"
#include "pga_mesh.cuh"
#include "pga_glb.cuh"
