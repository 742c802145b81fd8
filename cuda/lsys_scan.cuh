// Block-wide scans and the tile scan that ends every counting kernel of
// cuda/lsys.cu and cuda/lsys_tree.cu.
#pragma once
#include "common.cuh"
#include "lsys_types.cuh"

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
