// Forest seed dispersal, FFT method: the CPU fft's scheme (fft.go) on the
// device. Parents are binned onto the cell lattice with cubic Lagrange
// weights and convolved, by a 2D real FFT in double precision, with the
// kernel sampled at whole-cell offsets and with the bound on its
// interpolation error (internal/forest/cuda_fft.go drives it; the host then
// sums exactly the cells whose bound exceeds the tolerance).
//
// Why double: the density spans many orders of magnitude (the accuracy target
// holds down to cells at 1e-6 of the maximum), and an FFT spreads its
// round-off evenly over the output, about u * log2(n) * max. In float that is
// ~1e-6 of the maximum: the faint cells would be wrong by 100%. In double it
// is ~1e-15. The transforms are memory- and launch-bound, not arithmetic-
// bound, so double costs little.
//
// FFT. Every transform runs whole in shared memory, one block per pair of rows
// or per few columns: a mixed-radix (2, 3, 4, 5, 7, and any other prime by a
// direct DFT pass) iterative FFT. Forward transforms are decimation in time:
// the input is loaded in digit-reversed order (perm, built on the host) and
// the output comes out in natural order. Inverse transforms are decimation in
// frequency: natural order in, digit-reversed out, so the pointwise product
// between them needs no reordering. Twiddles come from a table of the n roots
// of unity computed on the host in float64.
//
// Real data: two real rows are transformed as one complex row and separated
// by Hermitian symmetry; only the h = n/2+1 non-redundant columns are kept,
// and the column pass (forward, times the real spectrum of the even kernel,
// inverse) runs on those.
#include "forest_types.cuh"

typedef double2 cplx;

__device__ __forceinline__ cplx c_add(cplx a, cplx b) { return make_double2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ cplx c_sub(cplx a, cplx b) { return make_double2(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ cplx c_mul(cplx a, cplx b) {
	return make_double2(fma(a.x, b.x, -a.y * b.y), fma(a.x, b.y, a.y * b.x));
}
__device__ __forceinline__ cplx c_conj(cplx a) { return make_double2(a.x, -a.y); }
// w_n^j = exp(-2 pi i j / n), or its conjugate for the inverse transform.
__device__ __forceinline__ cplx root(const cplx *__restrict__ tw, int j, bool inv) {
	const cplx w = tw[j];
	return inv ? c_conj(w) : w;
}

// In-place R-point DFT of v; w holds the R-th roots of unity (odd R).
template <int R>
__device__ __forceinline__ void dft(cplx *v, const cplx *w, bool inv) {
	if (R == 2) {
		const cplx t = v[0];
		v[0] = c_add(t, v[1]);
		v[1] = c_sub(t, v[1]);
	} else if (R == 4) {
		const cplx t0 = c_add(v[0], v[2]), t1 = c_sub(v[0], v[2]);
		const cplx t2 = c_add(v[1], v[3]), d = c_sub(v[1], v[3]);
		// t3 = -i d forward, +i d inverse
		const cplx t3 = inv ? make_double2(-d.y, d.x) : make_double2(d.y, -d.x);
		v[0] = c_add(t0, t2);
		v[2] = c_sub(t0, t2);
		v[1] = c_add(t1, t3);
		v[3] = c_sub(t1, t3);
	} else {
		cplx out[R];
#pragma unroll
		for (int p = 0; p < R; p++) {
			cplx s = v[0];
#pragma unroll
			for (int q = 1; q < R; q++) s = c_add(s, c_mul(v[q], w[(q * p) % R]));
			out[p] = s;
		}
#pragma unroll
		for (int p = 0; p < R; p++) v[p] = out[p];
	}
}

// One radix-R pass over C transforms of length n in a: butterflies of R legs
// L apart within blocks of S = R*L. Decimation in time multiplies the legs
// by w_S^(q k) before the DFT, decimation in frequency the outputs after it.
template <int R>
__device__ void pass_small(cplx *a, int C, int n, int L, bool dif, bool inv, const cplx *__restrict__ tw) {
	const int S = R * L, nb = n / R, step = n / S;
	cplx w[R];
#pragma unroll
	for (int m = 0; m < R; m++) w[m] = (R == 2 || R == 4) ? make_double2(1, 0) : root(tw, m * (n / R), inv);
	for (int bi = threadIdx.x; bi < C * nb; bi += blockDim.x) {
		const int c = bi / nb, b = bi - c * nb;
		const int blk = b / L, k = b - blk * L;
		cplx *x = a + c * n + blk * S + k;
		cplx v[R];
#pragma unroll
		for (int q = 0; q < R; q++) v[q] = x[q * L];
		if (!dif) {
#pragma unroll
			for (int q = 1; q < R; q++) v[q] = c_mul(v[q], root(tw, q * k * step, inv));
		}
		dft<R>(v, w, inv);
		if (dif) {
#pragma unroll
			for (int q = 1; q < R; q++) v[q] = c_mul(v[q], root(tw, q * k * step, inv));
		}
#pragma unroll
		for (int q = 0; q < R; q++) x[q * L] = v[q];
	}
}

// A pass of any radix as a direct DFT, out of place through b: O(n R).
__device__ void pass_generic(cplx *a, cplx *b, int C, int n, int R, int L, bool dif, bool inv,
			     const cplx *__restrict__ tw) {
	const int S = R * L, step = n / S, rstep = n / R;
	for (int e = threadIdx.x; e < C * n; e += blockDim.x) {
		const int c = e / n, i = e - c * n;
		const int blk = i / S, rem = i - blk * S, p = rem / L, k = rem - p * L;
		const cplx *x = a + c * n + blk * S + k;
		cplx s = make_double2(0, 0);
		for (int q = 0; q < R; q++) {
			// w_S^(qk) w_R^(qp) (time) or w_S^(pk) w_R^(qp) (frequency)
			int j = (dif ? p : q) * k * step + ((q * p) % R) * rstep;
			if (j >= n) j -= n;
			s = c_add(s, c_mul(x[q * L], root(tw, j, inv)));
		}
		b[e] = s;
	}
	__syncthreads();
	for (int e = threadIdx.x; e < C * n; e += blockDim.x) a[e] = b[e];
}

// The FFT of C transforms held in a (digit-reversed for decimation in time,
// natural for decimation in frequency); b is scratch for generic passes.
__device__ void fft_run(cplx *a, cplx *b, int C, const ForestFftPlan *__restrict__ plan, bool dif, bool inv,
			const cplx *__restrict__ tw) {
	const int n = plan->n, ns = plan->nstages;
	int L = dif ? n : 1;
	for (int i = 0; i < ns; i++) {
		const int s = dif ? i : ns - 1 - i;
		const int r = plan->radix[s];
		if (dif) L /= r;
		switch (r) {
		case 2: pass_small<2>(a, C, n, L, dif, inv, tw); break;
		case 3: pass_small<3>(a, C, n, L, dif, inv, tw); break;
		case 4: pass_small<4>(a, C, n, L, dif, inv, tw); break;
		case 5: pass_small<5>(a, C, n, L, dif, inv, tw); break;
		case 7: pass_small<7>(a, C, n, L, dif, inv, tw); break;
		default: pass_generic(a, b, C, n, r, L, dif, inv, tw); break;
		}
		if (!dif) L *= r;
		__syncthreads();
	}
}

extern __shared__ cplx fft_smem[];

// Forward transforms of pairs of real rows: rows 2b and 2b+1 of in (nrows
// rows of row_len values, pitch in_pitch; zero beyond) become the half
// spectra rows 2b and 2b+1 of out (h = n/2+1 columns).
extern "C" __global__ void pg_forest_fft_rows_fwd(const ForestFftPlan *__restrict__ plan, const int *__restrict__ perm,
						   const cplx *__restrict__ tw, const double *__restrict__ in,
						   int in_pitch, int row_len, int nrows, cplx *__restrict__ out, int h) {
	const int n = plan->n;
	cplx *a = fft_smem, *b = fft_smem + n;
	const int ra = 2 * blockIdx.x, rb = ra + 1;
	const bool has_b = rb < nrows;
	for (int j = threadIdx.x; j < n; j += blockDim.x) {
		cplx v = make_double2(0, 0);
		if (j < row_len) {
			v.x = in[(size_t)ra * in_pitch + j];
			if (has_b) v.y = in[(size_t)rb * in_pitch + j];
		}
		a[perm[j]] = v;
	}
	__syncthreads();
	fft_run(a, b, 1, plan, false, false, tw);
	for (int k = threadIdx.x; k < h; k += blockDim.x) {
		const cplx z = a[k], zc = c_conj(a[k == 0 ? 0 : n - k]);
		out[(size_t)ra * h + k] = make_double2(0.5 * (z.x + zc.x), 0.5 * (z.y + zc.y));
		// (z - zc) / 2i
		if (has_b) out[(size_t)rb * h + k] = make_double2(0.5 * (z.y - zc.y), -0.5 * (z.x - zc.x));
	}
}

// Inverse transforms of pairs of half spectra (rows 2b, 2b+1 of in, h
// columns) to real rows: out[row][i] = max(0, scale * x[i + col_off])
// (mode 0: a density, round-off below zero is zero) or |scale * x[...]|
// (mode 1: an error estimate) for i < ncols (pitch out_pitch).
extern "C" __global__ void pg_forest_fft_rows_inv(const ForestFftPlan *__restrict__ plan, const int *__restrict__ perm,
						   const cplx *__restrict__ tw, const cplx *__restrict__ in, int h,
						   int nrows, double *__restrict__ out, int out_pitch, int ncols, int col_off,
						   double scale, int mode) {
	const int n = plan->n;
	cplx *a = fft_smem, *b = fft_smem + n;
	const int ra = 2 * blockIdx.x, rb = ra + 1;
	const bool has_b = rb < nrows;
	for (int j = threadIdx.x; j < n; j += blockDim.x) {
		cplx x, y = make_double2(0, 0);
		if (j < h) {
			x = in[(size_t)ra * h + j];
			if (has_b) y = in[(size_t)rb * h + j];
		} else { // Hermitian: X[n-k] = conj(X[k])
			x = c_conj(in[(size_t)ra * h + n - j]);
			if (has_b) y = c_conj(in[(size_t)rb * h + n - j]);
		}
		a[j] = make_double2(x.x - y.y, x.y + y.x); // x + i y
	}
	__syncthreads();
	fft_run(a, b, 1, plan, true, true, tw);
	for (int i = threadIdx.x; i < ncols; i += blockDim.x) {
		const cplx v = a[perm[i + col_off]];
		const double x = scale * v.x, y = scale * v.y;
		out[(size_t)ra * out_pitch + i] = mode ? fabs(x) : fmax(0.0, x);
		if (has_b) out[(size_t)rb * out_pitch + i] = mode ? fabs(y) : fmax(0.0, y);
	}
}

// Column pass over columns [C blockIdx.x, C blockIdx.x + C) of h: the
// transform of rows [0, rows_in) of in (zero below). Mode 0 multiplies by
// the real spectrum khat (n rows of h), transforms back and stores rows
// [row_off, row_off + rows_out) to out; mode 1 stores scale times the real
// part of the spectrum to khat.
extern "C" __global__ void pg_forest_fft_cols(const ForestFftPlan *__restrict__ plan, const int *__restrict__ perm,
					       const cplx *__restrict__ tw, const cplx *__restrict__ in, int h, int rows_in,
					       double *__restrict__ khat, cplx *__restrict__ out, int rows_out, int row_off,
					       int C, int mode, double scale) {
	const int n = plan->n;
	cplx *a = fft_smem, *b = fft_smem + (size_t)C * n;
	const int kx0 = blockIdx.x * C;
	// c fastest: the C columns of a row are adjacent in memory.
	for (int e = threadIdx.x; e < C * n; e += blockDim.x) {
		const int c = e % C, j = e / C, kx = kx0 + c;
		cplx v = make_double2(0, 0);
		if (kx < h && j < rows_in) v = in[(size_t)j * h + kx];
		a[c * n + perm[j]] = v;
	}
	__syncthreads();
	fft_run(a, b, C, plan, false, false, tw);
	if (mode == 1) {
		for (int e = threadIdx.x; e < C * n; e += blockDim.x) {
			const int c = e % C, j = e / C, kx = kx0 + c;
			if (kx < h) khat[(size_t)j * h + kx] = scale * a[c * n + j].x;
		}
		return;
	}
	for (int e = threadIdx.x; e < C * n; e += blockDim.x) {
		const int c = e % C, j = e / C, kx = kx0 + c;
		const double k = kx < h ? khat[(size_t)j * h + kx] : 0.0;
		a[c * n + j].x *= k;
		a[c * n + j].y *= k;
	}
	__syncthreads();
	fft_run(a, b, C, plan, true, true, tw);
	for (int e = threadIdx.x; e < C * rows_out; e += blockDim.x) {
		const int c = e % C, j = e / C, kx = kx0 + c;
		if (kx < h) out[(size_t)j * h + kx] = a[c * n + perm[j + row_off]];
	}
}

// Cubic Lagrange weights of nodes -1, 0, 1, 2 at f in [0, 1) (lagrange4 in fft.go).
__device__ __forceinline__ void lagrange4(double f, double *l) {
	l[0] = -f * (f - 1) * (f - 2) / 6;
	l[1] = (f + 1) * (f - 1) * (f - 2) / 2;
	l[2] = -(f + 1) * f * (f - 2) / 2;
	l[3] = (f + 1) * f * (f - 1) / 6;
}

// The kernel's and its error bound's tables, the device twins of
// convGeom.kernelTable and convGeom.errorTable in fftkernel.go (which the
// host would take ~15 ms for on a 5e5-cell plot). ForestTableKern carries
// the kernel (kern in kernel.go) and the lattice.
typedef ForestTableKern TableKern;

// -ln K at squared distance d2 (kern.expo).
__device__ double kern_expo(const TableKern &k, double d2) {
	if (k.logn == 2) return k.theta * log1p(k.d * d2); // 2Dt
	if (k.logn) {
		if (d2 <= 0) return INFINITY;
		const double u = 0.5 * log(d2) - k.ln_x0;
		return u * u * k.inv2xb2;
	}
	if (k.theta == 2) return k.d * d2;
	if (k.theta == 3) return k.d * d2 * sqrt(d2);
	if (k.theta == 1) return k.d * sqrt(d2);
	if (k.theta == 4) return k.d * d2 * d2;
	if (d2 <= 0) return 0;
	return k.d * pow(d2, k.half_theta);
}

// K at an offset of (fx, fy) cells (convGeom.trueK); on a torus summed over
// the periodic images within reach, in the order of periodicK in torus.go.
__device__ double true_k(const TableKern &k, double fx, double fy) {
	if (!k.torus) {
		const double dx = fx * k.h, dy = fy * k.h;
		return exp(-kern_expo(k, dx * dx + dy * dy));
	}
	fx -= k.px * floor(fx / k.px + 0.5);
	fy -= k.py * floor(fy / k.py + 0.5);
	double s = 0;
	for (int b = -k.ay; b <= k.ay; b++) {
		const double dy = (fy + (double)(b * k.py)) * k.h;
		if (dy * dy > k.reach2) continue;
		for (int a = -k.ax; a <= k.ax; a++) {
			const double dx = (fx + (double)(a * k.px)) * k.h;
			const double d2 = dx * dx + dy * dy;
			if (d2 <= k.reach2) s += exp(-kern_expo(k, d2));
		}
	}
	return s;
}

// The lattice kernel at (mx, my) from the table (convGeom.at): periodic on a torus.
__device__ double table_at(const TableKern &k, const double *__restrict__ t, int qx, int qy, int mx, int my) {
	if (k.torus) {
		mx %= k.px;
		if (mx < 0) mx += k.px;
		if (mx > k.px / 2) mx -= k.px;
		my %= k.py;
		if (my < 0) my += k.py;
		if (my > k.py / 2) my -= k.py;
	}
	mx = abs(mx), my = abs(my);
	return (mx > qx || my > qy) ? 0.0 : t[(size_t)my * (qx + 1) + mx];
}

extern "C" __global__ void pg_forest_fft_ktable(const TableKern *__restrict__ kp, double *__restrict__ t, int qx, int qy) {
	const TableKern k = *kp;
	const int mx = blockIdx.x * blockDim.x + threadIdx.x, my = blockIdx.y;
	if (mx <= qx) t[(size_t)my * (qx + 1) + mx] = true_k(k, mx, my);
}

// raw[my][mx] for offsets 0..ex+1 x 0..ey+1: the largest interpolation error
// over sub-cell positions 1/4, 1/2, 3/4 in each axis.
extern "C" __global__ void pg_forest_fft_eraw(const TableKern *__restrict__ kp, const double *__restrict__ kt, int qx, int qy,
					       double *__restrict__ raw, int ex, int ey) {
	const TableKern k = *kp;
	const int mx = blockIdx.x * blockDim.x + threadIdx.x, my = blockIdx.y;
	if (mx > ex + 1) return;
	double nb[4][4];
	for (int b = 0; b < 4; b++)
		for (int a = 0; a < 4; a++) nb[b][a] = table_at(k, kt, qx, qy, mx + 1 - a, my + 1 - b);
	double lw[3][4];
	for (int i = 0; i < 3; i++) lagrange4(0.25 * (i + 1), lw[i]);
	double worst = 0;
	for (int iy = 0; iy < 3; iy++) {
		for (int ix = 0; ix < 3; ix++) {
			double s = 0;
			for (int b = 0; b < 4; b++) {
				double r = 0;
				for (int a = 0; a < 4; a++) r += lw[ix][a] * nb[b][a];
				s += lw[iy][b] * r;
			}
			worst = fmax(worst, fabs(s - true_k(k, mx - 0.25 * (ix + 1), my - 0.25 * (iy + 1))));
		}
	}
	raw[(size_t)my * (ex + 2) + mx] = worst;
}

// The error table: safety times the largest raw error over the offset and
// its 8 neighbours.
extern "C" __global__ void pg_forest_fft_etable(const double *__restrict__ raw, int ex, int ey, double safety,
						 double *__restrict__ t) {
	const int mx = blockIdx.x * blockDim.x + threadIdx.x, my = blockIdx.y;
	if (mx > ex) return;
	double m = 0;
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) m = fmax(m, raw[(size_t)abs(my + dy) * (ex + 2) + abs(mx + dx)]);
	t[(size_t)my * (ex + 1) + mx] = safety * m;
}

// A symmetric table (offsets 0..qx x 0..qy, row-major) written into a px x
// py array in FFT order: out[y][x] = table[|y'|][|x'|] with x' the signed
// offset of index x (in (-px/2, px/2]), 0 beyond the table (the Go twin is
// convGeom.fill in fft.go).
extern "C" __global__ void pg_forest_fft_fill(double *__restrict__ out, int px, int py,
					       const double *__restrict__ table, int qx, int qy) {
	const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	if (x >= px) return;
	const int mx = abs(x > px / 2 ? x - px : x), my = abs(y > py / 2 ? y - py : y);
	out[(size_t)y * px + x] = (mx > qx || my > qy) ? 0.0 : table[(size_t)my * (qx + 1) + mx];
}

// Binning, the convention of the CPU fft (convGeom.bin in fft.go): parent t
// at (u, v) in cell-centre units (cell i's centre at u = i) with weight w
// spreads w over the 4x4 lattice nodes around it with cubic Lagrange
// weights; node (i, j) is array element (j + off) * px + i + off, wrapped
// modulo (px, py) on a torus.
extern "C" __global__ void pg_forest_fft_bin(const double *__restrict__ parents, int n, double *__restrict__ grid,
					      int px, int py, int off, int torus) {
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= n) return;
	const double u = parents[3 * t], v = parents[3 * t + 1], w = parents[3 * t + 2];
	const double iu = floor(u), iv = floor(v);
	double lx[4], ly[4];
	lagrange4(u - iu, lx);
	lagrange4(v - iv, ly);
	const int i0 = (int)iu - 1 + off, j0 = (int)iv - 1 + off;
	for (int b = 0; b < 4; b++) {
		int j = j0 + b;
		if (torus) j = ((j % py) + py) % py;
		const double wb = w * ly[b];
		for (int a = 0; a < 4; a++) {
			int i = i0 + a;
			if (torus) i = ((i % px) + px) % px;
			atomicAdd(grid + (size_t)j * px + i, wb * lx[a]);
		}
	}
}

#include "forest_fix.cuh" // the fix-up: scan and merge
