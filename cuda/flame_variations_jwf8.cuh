// More of JWildfire's 2D plugin variations on the device, those that kept
// the most artists' flames on the CPU after flame_variations_jwf7.cuh:
// crackle (with its simplex noise, flame_noise.cuh's tables), Fractorium's
// gaussian and mirror_x (whose pre_ stages are common), then trig (post_trig),
// hexes, tqmirror, bTransform, sym_ng15 and clifford_js: float32 twins of
// variations_jwf10*.go, variations_jwf8.go, variations_jwf9.go and
// variations_jwf9i.go under the conventions of flame_variations_jwf.cuh. One more out-of-line function, called from
// pg_flame_var_jwf7_body's default case: the variations before keep the
// code and registers they had.
#pragma once
// Included by flame_variations_jwf7.cuh (PgFlameVarState, PgJwfOut3,
// pg_rng_f64, pg_ftoi).
#include "flame_noise.cuh"

// Java's (int) of an integer-valued float: NaN 0, beyond int's range its
// ends (internal/flame's javaInt).
__device__ __forceinline__ int pg_java_i32(float v) {
	if (v != v) return 0;
	if (v >= 2147483648.f) return 2147483647;
	if (v <= -2147483648.f) return -2147483647 - 1;
	return (int)v;
}

// pg_java_i32 of a double.
__device__ __forceinline__ int pg_java_i32d(double v) {
	if (v != v) return 0;
	if (v >= 2147483647.0) return 2147483647;
	if (v <= -2147483648.0) return -2147483647 - 1;
	return (int)v;
}

// a + b in int32 wrapping as Go's int32 does (no signed overflow in C++).
__device__ __forceinline__ int pg_add_i32(int a, int b) { return (int)((unsigned)a + (unsigned)b); }

// The noise's hash of the corner (i, j, k) + o: a permutation lookup per
// axis, nested, the sums taken mod 1024 as the CPU's v & 0x3ff.
__device__ __forceinline__ int pg_noise_hash(int i, int j, int k, int o0, int o1, int o2) {
	const int hk = pg_noise_perm[((k & 0x3ff) + o2) & 0x3ff];
	const int hj = pg_noise_perm[((j & 0x3ff) + o1 + hk) & 0x3ff];
	return pg_noise_perm[((i & 0x3ff) + o0 + hj) & 0x3ff];
}

// simplexNoise3: 3D simplex noise with crackle's tables, about [−1, 1].
// The skew, the cell and the point's offsets in it are taken in double, as
// the CPU's: crackle samples the noise at whole multiples of 2.5, where the
// offsets tie (c0x = c0y in exact arithmetic), so their rounding picks the
// tetrahedron, and the noise (its kernel's radius 0.6 reaches past the
// tetrahedron) differs by ~1e-3 between the two. __dmul_rn keeps nvcc from
// fusing the products into the sums after them, which the CPU rounds apart.
__device__ __noinline__ float pg_simplex3(double x, double y, double z) {
	const double f3 = 1.0 / 3, g3 = 1.0 / 6;
	const double sk = __dmul_rn(x + y + z, f3);
	const int i = pg_java_i32d(floor(x + sk)), j = pg_java_i32d(floor(y + sk)), k = pg_java_i32d(floor(z + sk));
	const double t = __dmul_rn((double)pg_add_i32(pg_add_i32(i, j), k), g3);
	const double c0x = x - ((double)i - t), c0y = y - ((double)j - t), c0z = z - ((double)k - t);
	// Which of the six tetrahedra of the skewed cube: the offsets of its
	// second and third corners, in the CPU's order of tests.
	int o1x, o1y, o1z, o2x, o2y, o2z;
	if (c0x >= c0y && c0y >= c0z) { o1x = 1, o1y = 0, o1z = 0, o2x = 1, o2y = 1, o2z = 0; }
	else if (c0x >= c0y && c0x >= c0z) { o1x = 1, o1y = 0, o1z = 0, o2x = 1, o2y = 0, o2z = 1; }
	else if (c0x >= c0y) { o1x = 0, o1y = 0, o1z = 1, o2x = 1, o2y = 0, o2z = 1; }
	else if (c0y < c0z) { o1x = 0, o1y = 0, o1z = 1, o2x = 0, o2y = 1, o2z = 1; }
	else if (c0x < c0z) { o1x = 0, o1y = 1, o1z = 0, o2x = 0, o2y = 1, o2z = 1; }
	else { o1x = 0, o1y = 1, o1z = 0, o2x = 1, o2y = 1, o2z = 0; }
	float n = 0.f;
#pragma unroll
	for (int c = 0; c < 4; c++) {
		const int ox = c == 0 ? 0 : c == 1 ? o1x : c == 2 ? o2x : 1;
		const int oy = c == 0 ? 0 : c == 1 ? o1y : c == 2 ? o2y : 1;
		const int oz = c == 0 ? 0 : c == 1 ? o1z : c == 2 ? o2z : 1;
		// The corner's offset from the point: a step of one in i is
		// (1−g3, −g3, −g3) in space. Float from here: the kernel is 0 at
		// its edge, so nothing jumps.
		const double cg = c * g3;
		const float vx = (float)(c0x - ox + cg), vy = (float)(c0y - oy + cg), vz = (float)(c0z - oz + cg);
		float a = 0.6f - vx * vx - vy * vy - vz * vz;
		if (a > 0.f) {
			const float *g = pg_noise_grad[pg_noise_hash(i, j, k, ox, oy, oz)];
			a *= a;
			n += a * a * (g[0] * vx + g[1] * vy + g[2] * vz);
		}
	}
	return 32.f * n;
}

// crackleCentre: the centre of grid cell (x, y) at noise slice z, scale s,
// displaced by distortion d (the noise sampled far apart per axis, x and y
// swapped, as the plugin does).
__device__ __forceinline__ float2 pg_crackle_centre(int x, int y, float z, float s, float d) {
	const float fx = (float)x, fy = (float)y;
	if (d == 0.f) return make_float2(fx * s, fy * s);
	const double dx = x * 2.5, dy = y * 2.5, dz = z * 2.5;
	const float nx = pg_simplex3(dx, dy, dz);
	const float ny = pg_simplex3(dy + 30.2, dx - 12.1, dz + 19.8);
	return make_float2((fx + d * nx) * s, (fy + d * ny) * s);
}

// The 3×3 cells about (xc, yc), column-major as the CPU's pts[i] =
// cell (xc + i/3 − 1, yc + i%3 − 1). Unrolled: the array stays in registers.
__device__ __forceinline__ void pg_crackle_fill(float2 *pts, int xc, int yc, float z, float s, float d) {
#pragma unroll
	for (int i = 0; i < 9; i++) pts[i] = pg_crackle_centre(pg_add_i32(xc, i / 3 - 1), pg_add_i32(yc, i % 3 - 1), z, s, d);
}

// crackle: a random point of a bell-shaped disc of radius about 1 (the
// point itself at weight 0) in the Voronoi cell of a grid of cell size
// cellsize/2 whose centres the noise displaces, pulled towards its cell's
// centre by its Voronoi distance to the power, times scale. Four draws
// always, as the CPU's.
__device__ __noinline__ float2 pg_crackle(float w, float tx, float ty, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const double u1 = pg_rng_f64(rng), u2 = pg_rng_f64(rng), u3 = pg_rng_f64(rng), u4 = pg_rng_f64(rng);
	state = rng.state;
	const float cs = p[P_CRACKLE_CELLSIZE];
	if (cs == 0.f) return make_float2(0.f, 0.f); // no cells: nothing
	const float sc = cs / 2.f, z = p[P_CRACKLE_Z], d = p[P_CRACKLE_DISTORT];
	float ux = tx, uy = ty;
	if (w != 0.f) {
		const float blur = (float)((u1 + u2) / 2.0 + (u3 - 0.5) / 4.0);
		float sn, c;
		sincosf(PG_2PI * (float)u4, &sn, &c);
		ux = blur * sn;
		uy = blur * c;
	}
	int xc = pg_java_i32(floorf(ux / sc)), yc = pg_java_i32(floorf(uy / sc));
	float2 pts[9];
	pg_crackle_fill(pts, xc, yc, z, sc, d);
	// The displaced centres can make a neighbour the closest: recentre on
	// it (the first of equals, as JWildfire's closest) so that its cell is
	// surrounded.
	int q = 0;
	float best = 3.4e38f;
#pragma unroll
	for (int i = 0; i < 9; i++) {
		const float dx = pts[i].x - ux, dy = pts[i].y - uy, dd = dx * dx + dy * dy;
		if (dd < best) best = dd, q = i;
	}
	if (q != 4) {
		xc = pg_add_i32(xc, q / 3 - 1);
		yc = pg_add_i32(yc, q % 3 - 1);
		pg_crackle_fill(pts, xc, yc, z, sc, d);
	}
	// JWildfire's voronoi: the largest ratio of u towards a neighbour.
	const float2 c4 = pts[4];
	float l = -3.4e38f;
#pragma unroll
	for (int i = 0; i < 9; i++) {
		if (i == 4) continue;
		const float dx = pts[i].x - c4.x, dy = pts[i].y - c4.y;
		const float r = dx == 0.f && dy == 0.f ? 1.f : 2.f * ((ux - c4.x) * dx + (uy - c4.y) * dy) / (dx * dx + dy * dy);
		l = fmaxf(l, r);
	}
	// The CPU's 1e-100 is below float: 1e-30 keeps l = 0 finite the same way.
	const float lt = l + 1e-30f;
	const float k = powf(lt, p[P_CRACKLE_POWER]) * p[P_CRACKLE_SCALE] / lt;
	return make_float2(w * ((ux - c4.x) * k + c4.x), w * ((uy - c4.y) * k + c4.y));
}

// JWildfire's Complex beyond flame_variations_jwf4.cuh's: 1/z, the
// principal square root, asinh, and sinh and cosh as JWildfire forms them
// from e^re and its reciprocal (jwfcomplex.go, variations_jwf10_trig.go).
__device__ __forceinline__ float2 pg_jc_div(float a, float b, float c, float d) {
	const float m = pg_jc_maginv(c, d);
	return make_float2((b * d + a * c) * m, (b * c - a * d) * m);
}
__device__ __forceinline__ float2 pg_jc_sqrt(float re, float im) {
	const float rad = hypotf(re, im);
	return make_float2(sqrtf(0.5f * (rad + re)), (im < 0.f ? -1.f : 1.f) * sqrtf(0.5f * (rad - re)));
}
__device__ __forceinline__ float2 pg_jc_asinh(float re, float im) {
	const float2 d = pg_jc_sqrt(re * re - im * im + 1.f, 2.f * re * im);
	return pg_jc_log(re + d.x, im + d.y);
}
__device__ __forceinline__ float2 pg_jc_sinh(float re, float im) {
	const float e = expf(re), ie = 1.f / e, sh = 0.5f * (e - ie);
	float sn, cs;
	sincosf(im, &sn, &cs);
	return make_float2(cs * sh, sn * (sh + ie));
}
__device__ __forceinline__ float2 pg_jc_cosh(float re, float im) {
	const float e = expf(re), ie = 1.f / e, sh = 0.5f * (e - ie);
	float sn, cs;
	sincosf(im, &sn, &cs);
	return make_float2(cs * (sh + ie), sn * sh);
}

// trig (Whittaker Courtney's post_trig): the exponents' functions applied
// to the point one after another (reciprocal, log-divide, square root,
// exp, log), then the weighted sum of the inverse, circular and hyperbolic
// ones replacing it where their exponents do not sum to 0. Two draws
// always: the square root's and acosh's signs.
__device__ __noinline__ float2 pg_trig(float w, float tx, float ty, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const bool neg_sqrt = pg_rng_f64(rng) >= 0.5, neg_acosh = pg_rng_f64(rng) >= 0.5;
	state = rng.state;
	float xr = tx, yr = ty, k;
	float2 a;
	if ((k = p[P_TRIG_RECIPROCALPOW]) != 0.f) {
		const float m = pg_jc_maginv(xr, yr);
		xr *= m * k * w, yr *= -m * k * w;
	}
	if ((k = p[P_TRIG_LOG_DIVIDEPOW]) != 0.f) {
		const float2 q = pg_jc_div(xr + 1.f, yr, xr - 1.f, yr);
		a = pg_jc_log(q.x, q.y);
		xr = k * w * PG_2_PI * a.x, yr = k * w * PG_2_PI * a.y;
	}
	if ((k = p[P_TRIG_SQRTPOW]) != 0.f) {
		a = pg_jc_sqrt(xr, yr);
		if (neg_sqrt) a.x = -a.x, a.y = -a.y;
		xr = k * w * a.x, yr = k * w * a.y;
	}
	if ((k = p[P_TRIG_EXPPOW]) != 0.f) {
		const float e = expf(xr);
		float sn, cs;
		sincosf(yr, &sn, &cs);
		xr = k * w * e * cs, yr = k * w * e * sn;
	}
	if ((k = p[P_TRIG_LOGPOW]) != 0.f) {
		a = pg_jc_log(xr, yr);
		xr = k * w * a.x, yr = k * w * a.y;
	}
	float xx = 0.f, yy = 0.f;
	const float inv = w * PG_2_PI; // the inverse functions' scale
	if ((k = p[P_TRIG_ASINHPOW]) != 0.f) a = pg_jc_asinh(xr, yr), xx += k * inv * a.x, yy += k * inv * a.y;
	if ((k = p[P_TRIG_ACOSHPOW]) != 0.f) {
		a = pg_jc_acosh(xr, yr);
		if (neg_acosh) a.x = -a.x, a.y = -a.y;
		xx += k * inv * a.x, yy += k * inv * a.y;
	}
	if ((k = p[P_TRIG_ATANHPOW]) != 0.f) a = pg_jc_atanh(xr, yr), xx += k * inv * a.x, yy += k * inv * a.y;
	// asin z = flip(asinh(flip z)), acos z = π/2 − asin z, atan likewise
	if ((k = p[P_TRIG_ASINPOW]) != 0.f) a = pg_jc_asinh(yr, xr), xx += k * inv * a.y, yy += k * inv * a.x;
	if ((k = p[P_TRIG_ACOSPOW]) != 0.f) a = pg_jc_asinh(yr, xr), xx += k * inv * (PG_PI_2 - a.y), yy += k * inv * -a.x;
	if ((k = p[P_TRIG_ATANPOW]) != 0.f) a = pg_jc_atanh(yr, xr), xx += k * inv * a.y, yy += k * inv * a.x;
	if ((k = p[P_TRIG_SINPOW]) != 0.f) a = pg_jc_sinh(yr, xr), xx += k * w * a.y, yy += k * w * a.x;
	if ((k = p[P_TRIG_COSPOW]) != 0.f) a = pg_jc_cosh(yr, xr), xx += k * w * a.y, yy += k * w * a.x;
	if ((k = p[P_TRIG_TANPOW]) != 0.f) {
		const float2 sh = pg_jc_sinh(yr, xr), ch = pg_jc_cosh(yr, xr);
		a = pg_jc_div(sh.y, sh.x, ch.y, ch.x);
		xx += k * w * a.x, yy += k * w * a.y;
	}
	if ((k = p[P_TRIG_SINHPOW]) != 0.f) a = pg_jc_sinh(xr, yr), xx += k * w * a.x, yy += k * w * a.y;
	if ((k = p[P_TRIG_COSHPOW]) != 0.f) a = pg_jc_cosh(xr, yr), xx += k * w * a.x, yy += k * w * a.y;
	if ((k = p[P_TRIG_TANHPOW]) != 0.f) {
		const float2 sh = pg_jc_sinh(xr, yr), ch = pg_jc_cosh(xr, yr);
		a = pg_jc_div(sh.x, sh.y, ch.x, ch.y);
		xx += k * w * a.x, yy += k * w * a.y;
	}
	// JWildfire tests the sum of the exponents, not each one.
	if (p[P_TRIG_ASINHPOW] + p[P_TRIG_ACOSHPOW] + p[P_TRIG_ATANHPOW] + p[P_TRIG_SINPOW] + p[P_TRIG_COSPOW] + p[P_TRIG_TANPOW] +
		    p[P_TRIG_SINHPOW] + p[P_TRIG_COSHPOW] + p[P_TRIG_TANHPOW] + p[P_TRIG_ASINPOW] + p[P_TRIG_ACOSPOW] + p[P_TRIG_ATANPOW] ==
	    0.f)
		xx = xr, yy = yr;
	return make_float2(xx, yy);
}

// The hexagonal grid's centre of cell (hx, hy), cell size size.
__device__ __forceinline__ float2 pg_hex_centre(float hx, float hy, float size) {
	return make_float2((1.5f * hx - 1.5f * hy) * size, (0.86602540378443865f * hx + 0.86602540378443865f * hy) * size);
}

// JWildfire's voronoi over the hexagon's six neighbours pts[1..6] of
// pts[0]: the largest ratio of (ux, uy) towards one of them.
__device__ __forceinline__ float pg_hex_voronoi(const float2 *pts, float ux, float uy) {
	float l = -3.4e38f;
#pragma unroll
	for (int i = 1; i < 7; i++) {
		const float dx = pts[i].x - pts[0].x, dy = pts[i].y - pts[0].y;
		const float r = dx == 0.f && dy == 0.f ? 1.f
						       : 2.f * ((ux - pts[0].x) * dx + (uy - pts[0].y) * dy) / (dx * dx + dy * dy);
		l = fmaxf(l, r);
	}
	return l;
}

// hexes: the point within its hexagonal cell, its distance from the centre
// to the power, scaled, turned by rotate turns, the turned and unturned
// distances blended between 0.5 and 0.8 of the way out.
__device__ __noinline__ float2 pg_hexes(float w, float ux, float uy, const float *p) {
	const float size = p[P_HEXES_CELLSIZE];
	if (size == 0.f) return make_float2(0.f, 0.f);
	float hx = floorf((ux / 3.f + 0.57735026918962576f * uy) / size);
	float hy = floorf((-ux / 3.f + 0.57735026918962576f * uy) / size);
	int q = 0;
	float best = 3.4e38f;
#pragma unroll
	for (int i = 0; i < 9; i++) {
		const float2 c = pg_hex_centre(hx + (float)(i / 3 - 1), hy + (float)(i % 3 - 1), size);
		const float d2 = (c.x - ux) * (c.x - ux) + (c.y - uy) * (c.y - uy);
		if (d2 < best) best = d2, q = i;
	}
	hx += (float)(q / 3 - 1);
	hy += (float)(q % 3 - 1);
	const float2 pts[7] = {pg_hex_centre(hx, hy, size),		  pg_hex_centre(hx, hy + 1.f, size),
			       pg_hex_centre(hx + 1.f, hy + 1.f, size), pg_hex_centre(hx + 1.f, hy, size),
			       pg_hex_centre(hx, hy - 1.f, size),	  pg_hex_centre(hx - 1.f, hy - 1.f, size),
			       pg_hex_centre(hx - 1.f, hy, size)};
	const float l1 = pg_hex_voronoi(pts, ux, uy);
	const float dx = ux - pts[0].x, dy = uy - pts[0].y;
	const float trg = powf(l1 + 1e-30f, p[P_HEXES_POWER]) * p[P_HEXES_SCALE];
	float rs, rc;
	sincosf(p[P_HEXES_ROTATE] * PG_2PI, &rs, &rc);
	const float vx = dx * rc + dy * rs, vy = -dx * rs + dy * rc;
	const float l2 = pg_hex_voronoi(pts, vx + pts[0].x, vy + pts[0].y);
	const float l = fmaxf(l1, l2);
	const float k = l < 0.5f ? trg / l1 : l > 0.8f ? trg / l2 : (trg / l1 * (0.8f - l) + trg / l2 * (l - 0.5f)) / 0.3f;
	return make_float2(w * (vx * k + pts[0].x), w * (vy * k + pts[0].y));
}

// tqmirror (Nic Anderson's): see variations_jwf10.go's tqmirror; only the
// two branches that say so are weighted.
__device__ __noinline__ float2 pg_tqmirror(float w, float x, float y, const float *p) {
	if (w * p[P_TQMIRROR_D] + x < p[P_TQMIRROR_L] || w * p[P_TQMIRROR_E] + y < p[P_TQMIRROR_M]) { // too far
		if (truncf(fminf(fmaxf(p[P_TQMIRROR_TYPE], 0.f), 1.f)) != 0.f)
			return make_float2(x * p[P_TQMIRROR_R], y * p[P_TQMIRROR_S]);
		return make_float2(y * p[P_TQMIRROR_R], x * p[P_TQMIRROR_S]);
	}
	if (x < p[P_TQMIRROR_N] && y < p[P_TQMIRROR_O]) return make_float2(x + w * p[P_TQMIRROR_F], y + w * p[P_TQMIRROR_G]);
	const bool in = x + p[P_TQMIRROR_Q] < w && y < w * p[P_TQMIRROR_A] && x + w * p[P_TQMIRROR_B] > p[P_TQMIRROR_L] &&
			y + w * p[P_TQMIRROR_C] > p[P_TQMIRROR_P];
	float fx = -y * p[P_TQMIRROR_H], fy = -x * p[P_TQMIRROR_I]; // mode 0 and 1 inside
	float ox = x * p[P_TQMIRROR_J], oy = y * p[P_TQMIRROR_K];   // mode 0 outside
	const float mode = truncf(fminf(fmaxf(p[P_TQMIRROR_MODE], 0.f), 2.f));
	if (mode == 1.f) ox = -ox, oy = -oy;
	else if (mode == 2.f) fx = -fx, oy = -oy;
	return in ? make_float2(fx, fy) : make_float2(ox, oy);
}

// bTransform: bipolar coordinates, split, moved and rotated, the angle one
// of power branches (the branch floor(u·power) in double, as the CPU's).
__device__ __noinline__ float2 pg_btransform(float w, float x, float y, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const float power = fmaxf(pg_ftoi(p[P_BTRANSFORM_POWER]), 1.f);
	float tau = 0.5f * (logf((x + 1.f) * (x + 1.f) + y * y) - logf((x - 1.f) * (x - 1.f) + y * y)) / power +
		    p[P_BTRANSFORM_MOVE];
	float sigma = PG_PI - atan2f(y, x + 1.f) - atan2f(y, 1.f - x) + p[P_BTRANSFORM_ROTATE];
	sigma = sigma / power + PG_2PI / power * (float)floor(pg_rng_f64(rng) * (double)power);
	state = rng.state;
	tau += x >= 0.f ? p[P_BTRANSFORM_SPLIT] : -p[P_BTRANSFORM_SPLIT];
	float sn, cs;
	sincosf(sigma, &sn, &cs);
	const float d = coshf(tau) - cs;
	return make_float2(w * sinhf(tau) / d, w * sn / d);
}

// sym_ng15 (Jesus Sosa's): the point moved by (√(radius²/2), the same),
// then one of twelve maps by a draw (the integer in double): a quarter
// turn or a reflection at a multiple of 30° (the plugin's 0.866 for
// cos 30°), shifted by ∓step/2.
__device__ __forceinline__ float2 pg_sym_ng15(float w, float tx, float ty, const float *p, PgRng &rng) {
	const int k0 = (int)(12.0 * pg_rng_f64(rng)), k = k0 > 11 ? 11 : k0;
	const float sp = sqrtf(p[P_SYM_NG15_RADIUS] * p[P_SYM_NG15_RADIUS] / 2.f);
	const float x = tx + sp, y = ty + sp;
	float a, b, d, e;
	switch (k % 6) {
	case 0: a = 0.f, b = 1.f, d = -1.f, e = 0.f; break;
	case 1: a = 0.f, b = -1.f, d = -1.f, e = 0.f; break;
	case 2: a = 0.866f, b = -0.5f, d = 0.5f, e = 0.866f; break;
	case 3: a = 0.866f, b = 0.5f, d = 0.5f, e = -0.866f; break;
	case 4: a = -0.866f, b = -0.5f, d = 0.5f, e = -0.866f; break;
	default: a = -0.866f, b = 0.5f, d = 0.5f, e = 0.866f; break;
	}
	float dx = -p[P_SYM_NG15_STEPX] / 2.f, dy = -p[P_SYM_NG15_STEPY] / 2.f;
	if (k >= 6) dx = -dx, dy = -dy;
	return make_float2(w * (a * x + b * y + dx), w * (d * x + e * y + dy));
}

#include "flame_variations_jwf9.cuh"

// The out-of-line call from pg_flame_var_jwf7_body, state and stream by
// value (as pg_flame_var_jwf4).
static __device__ __noinline__ PgJwfOut3 pg_flame_var_jwf8(unsigned vid, float w, PgFlameVarState s, const float *p,
							   uint64_t state) {
	float2 d = make_float2(0.f, 0.f);
	switch (vid) {
	case VAR_CRACKLE: d = pg_crackle(w, s.tx, s.ty, p, state); break;
	case VAR_GAUSSIAN: { // Fractorium's: the point itself plus a gaussian-like blur
		PgRng rng;
		rng.state = state;
		const float a = pg_rng_unit53(rng) * PG_2PI;
		const double g = pg_rng_f64(rng) + pg_rng_f64(rng) + pg_rng_f64(rng) + pg_rng_f64(rng);
		const float k = w * (float)(g - 2.0);
		state = rng.state;
		float sn, cs;
		sincosf(a, &sn, &cs);
		d = make_float2(s.tx + k * cs, s.ty + k * sn);
		break;
	}
	case VAR_TRIG: d = pg_trig(w, s.tx, s.ty, p, state); break;
	case VAR_HEXES: d = pg_hexes(w, s.tx, s.ty, p); break;
	case VAR_TQMIRROR: d = pg_tqmirror(w, s.tx, s.ty, p); break;
	case VAR_BTRANSFORM: d = pg_btransform(w, s.tx, s.ty, p, state); break;
	case VAR_SYM_NG15: {
		PgRng rng;
		rng.state = state;
		d = pg_sym_ng15(w, s.tx, s.ty, p, rng);
		state = rng.state;
		break;
	}
	case VAR_CLIFFORD_JS: { // the Clifford attractor's map (Jesus Sosa's plugin)
		const float a = p[P_CLIFFORD_JS_A], b = p[P_CLIFFORD_JS_B];
		d = make_float2(w * (sinf(a * s.ty) + p[P_CLIFFORD_JS_C] * cosf(a * s.tx)),
				w * (sinf(b * s.tx) + p[P_CLIFFORD_JS_D] * cosf(b * s.ty)));
		break;
	}
	case VAR_MIRROR_X: { // Fractorium's: |x| or −|x| by a draw, the weight ignored (it replaces the sum
		// on the CPU: pg_flame_var clears it first, pg_jwf_replaces; its z is flame_variations_3d.cuh's)
		PgRng rng;
		rng.state = state;
		d = make_float2(pg_rng_f64(rng) >= 0.5 ? -fabsf(s.tx) : fabsf(s.tx), s.ty);
		state = rng.state;
		break;
	}
	default: return pg_flame_var_jwf9(vid, w, s, p, state); // flame_variations_jwf9.cuh
	}
	return PgJwfOut3{d, state};
}
