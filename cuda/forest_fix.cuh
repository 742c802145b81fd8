// The fft method's fix-up on the device (internal/forest/cuda_fix.go): the
// scan for cells whose error estimate exceeds the tolerance (fft.go's
// fixCells, the same comparisons in the same float64 arithmetic), and the
// merge of the exact sums of the flagged cells, which the exact kernels
// (forest.cu) compute for the flagged tiles only. Included by forest_fft.cu,
// whose module the fft method loads anyway.
#pragma once
#include <stdint.h>

#define FIX_THREADS 256
#define FIX_TILE 32 // the exact kernels' tile edge (EX_TILE)

// maxbits = max(0, dens[0..n)) as the bits of a non-negative double (whose
// bit patterns order as the numbers do); maxbits starts at zero.
extern "C" __global__ void __launch_bounds__(FIX_THREADS)
pg_forest_fix_max(const double *__restrict__ dens, int64_t n, unsigned long long *maxbits) {
	__shared__ unsigned long long s[FIX_THREADS / 32];
	unsigned long long m = 0;
	for (int64_t i = (int64_t)blockIdx.x * FIX_THREADS + threadIdx.x; i < n; i += (int64_t)gridDim.x * FIX_THREADS) {
		// As Go's max from 0: -0 and below count as 0, NaN wins (a positive
		// NaN's bits are above every number's).
		const double v = dens[i];
		const unsigned long long b =
		    v > 0 ? (unsigned long long)__double_as_longlong(v) : (v != v ? 0x7ff8000000000000ull : 0ull);
		m = b > m ? b : m;
	}
	for (int o = 16; o > 0; o >>= 1) {
		const unsigned long long v = __shfl_down_sync(0xffffffffu, m, o);
		m = v > m ? v : m;
	}
	if ((threadIdx.x & 31) == 0) s[threadIdx.x / 32] = m;
	__syncthreads();
	if (threadIdx.x == 0) {
		for (int w = 1; w < FIX_THREADS / 32; w++) m = s[w] > m ? s[w] : m;
		atomicMax(maxbits, m);
	}
}

// Go's max: NaN if either is NaN.
__device__ __forceinline__ double go_max(double a, double b) {
	if (a != a || b != b) return __longlong_as_double(0x7ff8000000000001ll);
	return a > b ? a : b;
}

// One thread a row j: as fixCells, cells with f+e below floor = fft_floor *
// max are skipped, cells with e <= tol f count towards the row's largest
// relative error e/f, and the others are fixed, spans a few cells apart
// joined. mask[cell] = 1 on the joined spans (0 elsewhere); row_cells[j] is
// the row's spans' length and row_rel[j] its largest relative error;
// tile_flag[tile] = 1 for every 32x32 tile holding a fixed cell (zeroed by
// the caller).
extern "C" __global__ void __launch_bounds__(FIX_THREADS)
pg_forest_fix_scan(const double *__restrict__ dens, const double *__restrict__ err, int nx, int ny,
		   const unsigned long long *__restrict__ maxbits, double fft_floor, double tol,
		   unsigned char *__restrict__ mask, int *__restrict__ row_cells, double *__restrict__ row_rel,
		   unsigned char *__restrict__ tile_flag, int tiles_x) {
	const int j = blockIdx.x * FIX_THREADS + threadIdx.x;
	if (j >= ny) return;
	const double floor = fft_floor * __longlong_as_double((long long)*maxbits);
	const double *f_row = dens + (int64_t)j * nx, *e_row = err + (int64_t)j * nx;
	unsigned char *m_row = mask + (int64_t)j * nx;
	unsigned char *t_row = tile_flag + (int64_t)(j / FIX_TILE) * tiles_x;
	double rel = 0;
	int cells = 0;
	int lo = -1, hi = -1; // the open span
	for (int i = 0; i < nx; i++) {
		m_row[i] = 0;
		const double f = f_row[i], e = e_row[i];
		if (f + e < floor) continue;
		if (e <= tol * f) {
			rel = go_max(rel, e / f);
			continue;
		}
		if (lo >= 0 && i - hi < 4) {
			hi = i + 1;
			continue;
		}
		if (lo >= 0) {
			cells += hi - lo;
			for (int c = lo; c < hi; c++) m_row[c] = 1;
			for (int t = lo / FIX_TILE; t <= (hi - 1) / FIX_TILE; t++) t_row[t] = 1;
		}
		lo = i, hi = i + 1;
	}
	if (lo >= 0) {
		cells += hi - lo;
		for (int c = lo; c < hi; c++) m_row[c] = 1;
		for (int t = lo / FIX_TILE; t <= (hi - 1) / FIX_TILE; t++) t_row[t] = 1;
	}
	row_cells[j] = cells;
	row_rel[j] = rel;
}

// dens[i] = exact[i] * scale where mask[i] is set.
extern "C" __global__ void __launch_bounds__(FIX_THREADS)
pg_forest_fix_merge(double *__restrict__ dens, const double *__restrict__ exact, const unsigned char *__restrict__ mask,
		    int64_t n, double scale) {
	const int64_t i = (int64_t)blockIdx.x * FIX_THREADS + threadIdx.x;
	if (i < n && mask[i]) dens[i] = exact[i] * scale;
}
