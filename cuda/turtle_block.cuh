// Cooperative helpers for turtle.cu: block scans of the survey's counts,
// block reductions of bounds, and warp-wide stores of staged segments.
#pragma once
#include <stdint.h>
#include "common.cuh"
#include "turtle_types.cuh"
#include "turtle_math.cuh"

__device__ __forceinline__ TurtleSums sums_zero() {
	TurtleSums s;
	s.params = 0, s.segs = s.events = s.ys = s.stack = 0, s.delta = 0, s.level = 0;
	return s;
}

__device__ __forceinline__ TurtleSums sums_add(TurtleSums a, const TurtleSums &b) {
	a.params += b.params, a.segs += b.segs, a.events += b.events, a.ys += b.ys, a.stack += b.stack;
	a.delta += b.delta, a.level |= b.level;
	return a;
}

__device__ __forceinline__ TurtleSums sums_shfl_up(TurtleSums v, int o) {
	v.params = __shfl_up_sync(PG_FULL_MASK, (unsigned long long)v.params, o);
	v.segs = __shfl_up_sync(PG_FULL_MASK, v.segs, o);
	v.events = __shfl_up_sync(PG_FULL_MASK, v.events, o);
	v.ys = __shfl_up_sync(PG_FULL_MASK, v.ys, o);
	v.stack = __shfl_up_sync(PG_FULL_MASK, v.stack, o);
	v.delta = __shfl_up_sync(PG_FULL_MASK, v.delta, o);
	v.level = __shfl_up_sync(PG_FULL_MASK, v.level, o);
	return v;
}

// block_scan returns the exclusive prefix of v over the block's threads (in
// order) and sets total to the block's sum. Every thread must call it.
template <int THREADS>
__device__ TurtleSums block_scan(TurtleSums v, TurtleSums &total) {
	__shared__ TurtleSums warp_incl[THREADS / 32];
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	TurtleSums incl = v;
#pragma unroll
	for (int o = 1; o < 32; o <<= 1) {
		const TurtleSums y = sums_shfl_up(incl, o);
		if (lane >= o) incl = sums_add(y, incl);
	}
	TurtleSums ex = sums_shfl_up(incl, 1);
	if (lane == 0) ex = sums_zero();
	if (lane == 31) warp_incl[warp] = incl;
	__syncthreads();
	if (warp == 0) {
		TurtleSums w = lane < THREADS / 32 ? warp_incl[lane] : sums_zero();
#pragma unroll
		for (int o = 1; o < THREADS / 32; o <<= 1) {
			const TurtleSums y = sums_shfl_up(w, o);
			if (lane >= o) w = sums_add(y, w);
		}
		if (lane < THREADS / 32) warp_incl[lane] = w;
	}
	__syncthreads();
	const TurtleSums r = warp > 0 ? sums_add(warp_incl[warp - 1], ex) : ex;
	total = warp_incl[THREADS / 32 - 1];
	__syncthreads(); // warp_incl is reused by the next call
	return r;
}

// Box accumulates bounds; nan sums x*0 over every value, which is 0 unless
// one of them is not finite.
struct Box {
	float lo[3], hi[3], w, nan;
	__device__ __forceinline__ void add(float x, float y, float z) {
		lo[0] = fminf(lo[0], x), lo[1] = fminf(lo[1], y), lo[2] = fminf(lo[2], z);
		hi[0] = fmaxf(hi[0], x), hi[1] = fmaxf(hi[1], y), hi[2] = fmaxf(hi[2], z);
		nan += x * 0 + y * 0 + z * 0;
	}
	__device__ __forceinline__ void merge(const Box &b) {
#pragma unroll
		for (int k = 0; k < 3; k++) lo[k] = fminf(lo[k], b.lo[k]), hi[k] = fmaxf(hi[k], b.hi[k]);
		w = fmaxf(w, b.w), nan += b.nan;
	}
};

__device__ __forceinline__ Box box_empty() {
	const float inf = __int_as_float(0x7f800000);
	Box b;
	b.lo[0] = b.lo[1] = b.lo[2] = inf, b.hi[0] = b.hi[1] = b.hi[2] = -inf, b.w = 0, b.nan = 0;
	return b;
}

// box_store reduces the block's boxes into out. Every thread must call it.
__device__ void box_store(Box b, TurtleBox *out) {
	__shared__ Box warps[32];
#pragma unroll
	for (int o = 16; o > 0; o >>= 1) {
		Box y = box_empty();
#pragma unroll
		for (int k = 0; k < 3; k++) {
			y.lo[k] = __shfl_xor_sync(PG_FULL_MASK, b.lo[k], o);
			y.hi[k] = __shfl_xor_sync(PG_FULL_MASK, b.hi[k], o);
		}
		y.w = __shfl_xor_sync(PG_FULL_MASK, b.w, o);
		y.nan = __shfl_xor_sync(PG_FULL_MASK, b.nan, o);
		b.merge(y);
	}
	if ((threadIdx.x & 31) == 0) warps[threadIdx.x >> 5] = b;
	__syncthreads();
	if (threadIdx.x == 0) {
		for (unsigned i = 1; i < blockDim.x / 32; i++) b.merge(warps[i]);
#pragma unroll
		for (int k = 0; k < 3; k++) out->lo[k] = b.lo[k], out->hi[k] = b.hi[k];
		out->wmax = b.w;
		out->nonfinite = !(b.nan == 0);
	}
}

__device__ __forceinline__ void state_store(TurtleState *s, V3 p, V3 h, V3 l, V3 u, double width, int color) {
	double2 *q = reinterpret_cast<double2 *>(s);
	q[0] = make_double2(p.x, p.y), q[1] = make_double2(p.z, h.x), q[2] = make_double2(h.y, h.z);
	q[3] = make_double2(l.x, l.y), q[4] = make_double2(l.z, u.x), q[5] = make_double2(u.y, u.z);
	q[6] = make_double2(width, __longlong_as_double((long long)(uint32_t)color));
}

__device__ __forceinline__ void state_load(const TurtleState *s, V3 &p, V3 &h, V3 &l, V3 &u, double &width, int &color) {
	const double2 *q = reinterpret_cast<const double2 *>(s);
	const double2 a = q[0], b = q[1], c = q[2], d = q[3], e = q[4], f = q[5], g = q[6];
	p = v3(a.x, a.y, b.x), h = v3(b.y, c.x, c.y), l = v3(d.x, d.y, e.x), u = v3(e.y, f.x, f.y);
	width = g.x, color = (int)(uint32_t)__double_as_longlong(g.y);
}

// Segments are staged per thread in shared memory and stored a 128-byte line
// (four segments) at a time, eight lanes to a line: one 16-byte store per
// lane to lines of its own kept the L2 busy with half-written sectors.
#define TT_STAGE 9 // float4 per thread's staging row: a line, and one against bank conflicts

// store_lines stores pieces [pa, pb) of each asking lane's row in rows to
// line `line` of mem (lines of eight float4), four lanes' lines per
// warp-wide store. All lanes of the warp call it.
__device__ __forceinline__ void store_lines(bool want, uint32_t line, uint32_t pa, uint32_t pb, float4 *rows, float4 *mem) {
	const unsigned lane = threadIdx.x & 31, row0 = threadIdx.x & ~31u, piece = lane & 7;
	__syncwarp(); // the rows' owners wrote them: order those writes before these reads
	unsigned m = __ballot_sync(PG_FULL_MASK, want);
	while (m) {
		unsigned src = 32;
#pragma unroll
		for (unsigned g = 0; g < 4; g++) {
			if (m) {
				const unsigned s = __ffs(m) - 1;
				m &= m - 1;
				if ((lane >> 3) == g) src = s;
			}
		}
		const unsigned s = src & 31;
		const uint32_t l = __shfl_sync(PG_FULL_MASK, line, s);
		const uint32_t sa = __shfl_sync(PG_FULL_MASK, pa, s), sb = __shfl_sync(PG_FULL_MASK, pb, s);
		if (src < 32 && piece >= sa && piece < sb) mem[(size_t)l * 8 + piece] = rows[(row0 + s) * TT_STAGE + piece];
	}
	__syncwarp(); // and these reads before the owners write again
}
