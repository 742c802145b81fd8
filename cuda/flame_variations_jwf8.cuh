// More of JWildfire's 2D plugin variations on the device, those that kept
// the most artists' flames on the CPU after flame_variations_jwf7.cuh:
// crackle (with its simplex noise, flame_noise.cuh's tables), and
// Fractorium's gaussian and mirror_x (whose pre_ stages are common), float32
// twins of variations_jwf10_crackle.go and variations_jwf8.go under the
// conventions of flame_variations_jwf.cuh. One more out-of-line function, called from
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
	case VAR_MIRROR_X: { // Fractorium's: |x| or −|x| by a draw, the weight ignored (it replaces the sum
		// on the CPU: internal/flame's gpuPluginRefused keeps it first; its z is flame_variations_3d.cuh's)
		PgRng rng;
		rng.state = state;
		d = make_float2(pg_rng_f64(rng) >= 0.5 ? -fabsf(s.tx) : fabsf(s.tx), s.ty);
		state = rng.state;
		break;
	}
	}
	return PgJwfOut3{d, state};
}
