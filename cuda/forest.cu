// Forest seed dispersal, exact method: every cell sums the kernel over the
// parent trees of its species (internal/forest/cuda.go drives it).
//
// Work shape. A block of 4 warps owns a tile of 32x32 cells: lane = column,
// each warp 8 rows, each thread the 8 cells of one column. Trees stream
// through shared memory 256 at a time; every thread then loops over them, so
// one tree load serves 8 cells, and because a warp's lanes share their rows,
// the 8 squared y-distances of a tree are computed once per warp (s_dy2) and
// read back as broadcasts: a pair costs one add for d^2, the kernel, and one
// fma into the cell's sum. A work item is a tile and a slice of the tile's
// tree list (the host cuts the lists so items are about equal and fill the
// device), and adds its sums into the output with double atomics.
//
// Kernel. Coordinates come scaled so that the kernel is a power of two:
// Weibull theta = 3 is 2^-(d2 sqrt(d2)), one MUFU.SQRT and one MUFU.EX2. The
// special-function unit (16 results/clock/SM) is then the bound, so NPOLY of
// each thread's 8 cells take 2^x from a degree-5 polynomial on the FMA pipe
// instead (poly_kernel3, relative error 2e-7; see FOREST_NPOLY_W3).
//
// Accuracy. Coordinates are relative to the tile centre (the host subtracts
// in double), so a float distance has a relative error of ~1e-7 however far
// the plot extends from its origin. Each cell sums EX_CHUNK terms in float
// (all positive: relative error at most 63 u = 3.8e-6) and adds the chunk
// into a double. Measured against float64 sums: at most 2.5e-6 relative on
// cells above 1e-6 of the maximum (TestCUDAExactMatchesReference).
#include "common.cuh"
#include "forest_types.cuh"

#define EX_WARPS 4
#define EX_THREADS (EX_WARPS * 32)
#define EX_ROWS 8   // cells per thread: rows of one column
#define EX_TILE 32  // tile edge in cells (EX_WARPS * EX_ROWS)
#define EX_TREES 256 // trees per shared-memory batch
#define EX_CHUNK 64  // terms summed in float before the double add

__device__ __forceinline__ float fast_sqrt(float x) {
	float r;
	asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
	return r;
}
__device__ __forceinline__ float fast_ex2(float x) {
	float r;
	asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
	return r;
}
__device__ __forceinline__ float fast_lg2(float x) {
	float r;
	asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
	return r;
}

// 2^-(d2 sqrt(d2)) without the special-function unit's exp: x = -d2^1.5
// = n + f with n an integer (by the 1.5*2^23 rounding trick, fused into the
// product) and |f| <= 1/2, 2^f by a degree-5 minimax polynomial (relative
// error 2e-7), 2^n added to the exponent bits. d2 is clamped so that
// x >= -125.75: beyond, it returns about 2^-126 instead of less (such terms
// are below float resolution of any sum they join). 11 FMA-pipe
// instructions and the square root.
__device__ __forceinline__ float poly_kernel3(float d2) {
	const float magic = 12582912.f;
	d2 = fminf(d2, 25.1f); // 25.1^1.5 = 125.75: n >= -126
	const float s = fast_sqrt(d2);
	const float t = fmaf(-d2, s, magic); // magic + round(x), by the addition's rounding
	const float j = __fadd_rn(t, -magic);
	const float f = fmaf(-d2, s, -j);
	float p = 1.327647198e-03f;
	p = fmaf(p, f, 9.675541334e-03f);
	p = fmaf(p, f, 5.550713274e-02f);
	p = fmaf(p, f, 2.402211972e-01f);
	p = fmaf(p, f, 6.931469671e-01f);
	p = fmaf(p, f, 1.000000072e+00f);
	return __int_as_float(__float_as_int(p) + (__float_as_int(t) << 23));
}

// 2^x for x <= 0 on the FMA pipe, as poly_kernel3 for the other kernels.
__device__ __forceinline__ float poly_ex2(float x) {
	x = fmaxf(x, -126.f);
	const float magic = 12582912.f;
	const float t = __fadd_rn(x, magic);
	const float f = __fadd_rn(x, -__fadd_rn(t, -magic));
	float p = 1.327647198e-03f;
	p = fmaf(p, f, 9.675541334e-03f);
	p = fmaf(p, f, 5.550713274e-02f);
	p = fmaf(p, f, 2.402211972e-01f);
	p = fmaf(p, f, 6.931469671e-01f);
	p = fmaf(p, f, 1.000000072e+00f);
	return __int_as_float(__float_as_int(p) + (__float_as_int(t) << 23));
}

// The kernel at squared scaled distance d2 (+inf: zero). poly is a
// constant once the caller's loop is unrolled.
template <int KIND>
__device__ __forceinline__ float kernel_at(float d2, bool poly, float theta_half, float logn_c) {
	if (KIND == FOREST_WEIBULL3 && poly) return poly_kernel3(d2);
	float u;
	if (KIND == FOREST_WEIBULL3) {
		u = d2 * fast_sqrt(d2);
	} else if (KIND == FOREST_WEIBULL) {
		u = fast_ex2(theta_half * fast_lg2(d2));
	} else if (KIND == FOREST_2DT) {
		// (1 + d2)^-(p+1); +inf (a cut-off) stays +inf.
		u = theta_half * fast_lg2(1.f + d2);
	} else {
		const float v = logn_c * fast_lg2(d2);
		u = v * v;
	}
	return poly ? poly_ex2(-u) : fast_ex2(-u);
}

template <int KIND, int NPOLY, bool CUT>
__device__ __forceinline__ void exact_item(const ForestExact &P, const double2 *__restrict__ xy,
					   const float *__restrict__ wt, const int2 *__restrict__ ranges,
					   const int *__restrict__ range_off, const int4 item, double *__restrict__ out) {
	__shared__ float2 s_xw[EX_TREES];                // x relative to the tile centre, weight
	__shared__ float s_ty[EX_TREES];                 // y relative to the tile centre
	__shared__ float4 s_dy2[EX_WARPS][EX_TREES][2];  // squared y-distance to each of the warp's rows

	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	const int tile = item.x;
	const int tx0 = (tile % P.tiles_x) * EX_TILE, ty0 = (tile / P.tiles_x) * EX_TILE;
	const double ccx = (tx0 + EX_TILE / 2) * P.hd, ccy = (ty0 + EX_TILE / 2) * P.hd;
	// Cell centres relative to the tile centre: small exact multiples of h.
	const float cx = ((float)lane - 15.5f) * P.h;
	float cy[EX_ROWS];
#pragma unroll
	for (int k = 0; k < EX_ROWS; k++) cy[k] = ((float)(warp * EX_ROWS + k) - 15.5f) * P.h;

	float acc[EX_ROWS];
	double sum[EX_ROWS];
#pragma unroll
	for (int k = 0; k < EX_ROWS; k++) acc[k] = 0.f, sum[k] = 0.0;

	// The tile's tree list is a run of contiguous ranges; this item takes
	// positions [item.y, item.z) of their concatenation.
	int pos = 0;
	for (int r = range_off[tile]; r < range_off[tile + 1] && pos < item.z; r++) {
		const int2 rg = ranges[r];
		const int lo = max(item.y, pos), hi = min(item.z, pos + rg.y);
		const int first = rg.x + lo - pos;
		pos += rg.y;
		for (int t0 = 0; t0 < hi - lo; t0 += EX_TREES) {
			const int n = min(EX_TREES, hi - lo - t0);
			const int n8 = (n + 7) & ~7; // padded with weightless trees
			__syncthreads();             // the previous batch is consumed
			for (int t = threadIdx.x; t < n8; t += EX_THREADS) {
				float2 xw = make_float2(0.f, 0.f);
				float ty = 0.f;
				if (t < n) {
					const double2 q = xy[first + t0 + t];
					const double dx = q.x - ccx, dy = q.y - ccy;
					xw = make_float2((float)dx, wt[first + t0 + t]);
					ty = (float)dy;
				}
				s_xw[t] = xw;
				s_ty[t] = ty;
			}
			__syncthreads();
			for (int t = lane; t < n8; t += 32) {
				const float ty = s_ty[t];
				float v[EX_ROWS];
#pragma unroll
				for (int k = 0; k < EX_ROWS; k++) {
					const float dy = cy[k] - ty;
					v[k] = dy * dy;
				}
				s_dy2[warp][t][0] = make_float4(v[0], v[1], v[2], v[3]);
				s_dy2[warp][t][1] = make_float4(v[4], v[5], v[6], v[7]);
			}
			__syncwarp();
			// A warp whose rows are all below the grid (the last tile row)
			// only helps with the loads.
			const int nsum = ty0 + warp * EX_ROWS < P.ny ? n8 : 0;
			for (int c0 = 0; c0 < nsum; c0 += EX_CHUNK) {
				const int c1 = min(c0 + EX_CHUNK, n8);
#pragma unroll 2
				for (int t = c0; t < c1; t++) {
					const float2 xw = s_xw[t];
					const float4 a = s_dy2[warp][t][0], b = s_dy2[warp][t][1];
					const float dx = cx - xw.x;
					const float dx2 = dx * dx;
					float d2[EX_ROWS] = {a.x + dx2, a.y + dx2, a.z + dx2, a.w + dx2,
							     b.x + dx2, b.y + dx2, b.z + dx2, b.w + dx2};
#pragma unroll
					for (int k = 0; k < EX_ROWS; k++) {
						if (CUT && d2[k] > P.cut2) d2[k] = __int_as_float(0x7f800000);
						acc[k] = fmaf(xw.y, kernel_at<KIND>(d2[k], k < NPOLY, P.theta_half, P.logn_c),
							      acc[k]);
					}
				}
#pragma unroll
				for (int k = 0; k < EX_ROWS; k++) sum[k] += (double)acc[k], acc[k] = 0.f;
			}
		}
	}
	const int col = tx0 + lane;
#pragma unroll
	for (int k = 0; k < EX_ROWS; k++) {
		const int row = ty0 + warp * EX_ROWS + k;
		if (col < P.nx && row < P.ny) atomicAdd(out + (size_t)row * P.nx + col, sum[k]);
	}
}

// pg_forest_exact_*: blockIdx.x is work item item0 + blockIdx.x. xy: scaled
// tree positions relative to the grid origin, sorted by bin; wt: weights
// (DBH/30)^beta; ranges: (first tree, count) runs, those of tile t at
// [range_off[t], range_off[t+1]); items: (tile, begin, end, 0); out: the
// grid's sums, zeroed by the caller.
#define FOREST_EXACT(name, KIND, NPOLY, CUT)                                                               \
	extern "C" __global__ void __launch_bounds__(EX_THREADS, 5)                                                  \
	    name(const ForestExact *__restrict__ params, const double2 *__restrict__ xy,                           \
		 const float *__restrict__ wt, const int2 *__restrict__ ranges, const int *__restrict__ range_off,   \
		 const int4 *__restrict__ items, int item0, double *__restrict__ out) {                              \
		const ForestExact P = *params;                                                                      \
		exact_item<KIND, NPOLY, CUT>(P, xy, wt, ranges, range_off, items[item0 + blockIdx.x], out); \
	}

// NPOLY: how many of a thread's 8 cells take 2^x on the FMA pipe. Weibull 3
// needs 2 special-function results per pair, the others 3 (generic Weibull)
// and 2 (lognormal); cut-off kernels skip the polynomial so that pairs beyond
// the radius give exactly zero. For Weibull 3 the inner loop is 5 issue slots
// a pair with both MUFU operations, 13 with the polynomial: with 4 of 8 it
// takes 9.8 slots and 1.5 MUFU operations a pair (0.077 and 0.094 clocks of
// an SM: 128 slots and 16 MUFU results a clock). Measured on the H100 at
// 1980 MHz, brute force at 5e5 x 1e5 (BenchmarkCUDAExactPoly): 26.4 ms with
// none (MUFU-bound, 15.2 results a clock), 21.3 ms with 4, 21.5 with 5,
// 22.7 with 6: past 4 the issue slots, not the MUFU, run out.
#define FOREST_NPOLY_W3 4
#define FOREST_NPOLY_W 4
#define FOREST_NPOLY_LN 4
#define FOREST_NPOLY_2DT 4

// A torus needs no variant: its parents come as their periodic images
// (internal/forest/torus.go), an open plot's sum.
FOREST_EXACT(pg_forest_exact_w3, FOREST_WEIBULL3, FOREST_NPOLY_W3, false)
FOREST_EXACT(pg_forest_exact_w3_cut, FOREST_WEIBULL3, 0, true)
FOREST_EXACT(pg_forest_exact_w, FOREST_WEIBULL, FOREST_NPOLY_W, false)
FOREST_EXACT(pg_forest_exact_w_cut, FOREST_WEIBULL, 0, true)
FOREST_EXACT(pg_forest_exact_ln, FOREST_LOGNORMAL, FOREST_NPOLY_LN, false)
FOREST_EXACT(pg_forest_exact_ln_cut, FOREST_LOGNORMAL, 0, true)
FOREST_EXACT(pg_forest_exact_t, FOREST_2DT, FOREST_NPOLY_2DT, false)
FOREST_EXACT(pg_forest_exact_t_cut, FOREST_2DT, 0, true)

// Variants of the fast path with other polynomial shares, for tuning
// (BenchmarkCUDAExactPoly).
FOREST_EXACT(pg_forest_exact_w3_np0, FOREST_WEIBULL3, 0, false)
FOREST_EXACT(pg_forest_exact_w3_np5, FOREST_WEIBULL3, 5, false)
FOREST_EXACT(pg_forest_exact_w3_np6, FOREST_WEIBULL3, 6, false)
