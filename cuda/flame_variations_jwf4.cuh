// The fourth set of JWildfire's plugin variations on the device (gpuPlugins
// in internal/flame/gpu_plugins.go, after nBlur): float32 twins of
// variations_jwf9*.go with the same formulas, draws and branches, under the
// conventions of flame_variations_jwf.cuh (parameters in the plugin slab,
// draws as the CPU's Float64, compared with parameters in double). They sit
// in an out-of-line function of their own, which pg_flame_var_jwf3_body's
// default case calls: the functions before it keep their code and
// registers, and a genome without these variations never enters it.
#pragma once
// Included by flame_variations_jwf3.cuh after its helpers.

// JWildfire's Complex (internal/flame's jwfcomplex.go) in float: 1/|z|², or
// 1 where |z|² is 0 (the CPU's 1e-100 guard: no float but 0 is below it).
__device__ __forceinline__ float pg_jc_maginv(float re, float im) {
	const float m2 = re * re + im * im;
	return m2 > 0.f ? 1.f / m2 : 1.f;
}

// log z with |z|² + 1e-20, as jcLog.
__device__ __forceinline__ float2 pg_jc_log(float re, float im) {
	return make_float2(0.5f * logf(re * re + im * im + 1e-20f), atan2f(im, re));
}

// acosh z = log(z + √(z² − 1)), the principal root, as jcAcosh.
__device__ __forceinline__ float2 pg_jc_acosh(float re, float im) {
	const float sr = re * re - im * im - 1.f, si = 2.f * re * im;
	const float rad = hypotf(sr, si);
	const float dr = sqrtf(0.5f * (rad + sr)), di = (si < 0.f ? -1.f : 1.f) * sqrtf(0.5f * (rad - sr));
	return pg_jc_log(re + dr, im + di);
}

// atanh z = ½·log((1 + z)/(1 − z)), as jcAtanh forms the quotient.
__device__ __forceinline__ float2 pg_jc_atanh(float re, float im) {
	const float dr = 1.f - re, di = -im, nr = re + 1.f, ni = im;
	const float m = pg_jc_maginv(dr, di);
	const float2 l = pg_jc_log((ni * di + nr * dr) * m, (ni * dr - nr * di) * m);
	return make_float2(0.5f * l.x, 0.5f * l.y);
}

// Fractorium's Zeps: 0 becomes the float64 epsilon (exact in float).
__device__ __forceinline__ float pg_zeps(float v) { return v == 0.f ? 0x1p-52f : v; }

// squareRing: the half side of (x, y)'s square ring about 0 and the point's
// place along it, 0 to 8 sides from the positive x axis.
__device__ __forceinline__ float2 pg_square_ring(float x, float y) {
	const float ax = fabsf(x), ay = fabsf(y);
	if (ax >= ay) return x >= ay ? make_float2(ax, ax + y) : make_float2(ax, 5.f * ax - y);
	return y >= ax ? make_float2(ay, 3.f * ay - x) : make_float2(ay, 7.f * ay + x);
}

// Fractorium's bwraps: bwraps7's bubbles with their constants worked out
// from its own parameters per point.
__device__ __forceinline__ float2 pg_bwraps(float w, float vx, float vy, const float *p) {
	const float cs = p[P_BWRAPS_CELLSIZE];
	if (cs == 0.f) return make_float2(w * vx, w * vy);
	const float sp = p[P_BWRAPS_SPACE], g = p[P_BWRAPS_GAIN];
	const float radius = 0.5f * (cs / (1.f + sp * sp));
	const float g2 = g * g + 1e-6f;
	float mb = g2 * radius;
	mb = mb > 2.f ? 1.f : mb * (1.f / (mb * mb / 4.f + 1.f));
	const float r2 = pg_zeps(radius * radius);
	const float cx = (floorf(vx / cs) + 0.5f) * cs, cy = (floorf(vy / cs) + 0.5f) * cs;
	float lx = vx - cx, ly = vy - cy;
	if (lx * lx + ly * ly > r2) return make_float2(w * vx, w * vy);
	lx *= g2;
	ly *= g2;
	const float k = radius / mb / pg_zeps((lx * lx + ly * ly) / 4.f + 1.f);
	lx *= k;
	ly *= k;
	const float f = (lx * lx + ly * ly) / r2;
	float sn, c;
	sincosf(p[P_BWRAPS_INNER_TWIST] * (1.f - f) + p[P_BWRAPS_OUTER_TWIST] * f, &sn, &c);
	return make_float2(w * (cx + c * lx + sn * ly), w * (cy - sn * lx + c * ly));
}

// target: rings of log-radius width size turned by even and odd; the
// weight is not applied, as JWildfire's.
__device__ __forceinline__ float2 pg_target(PgFlameVarState &s, const float *p) {
	float a = s.atanyx();
	const float rr = s.sqrt, size = p[P_TARGET_SIZE], half = 0.5f * size;
	float t = logf(rr);
	if (t < 0.f) t -= half;
	t = fmodf(fabsf(t), size);
	a += t < half ? p[P_TARGET_EVEN] : p[P_TARGET_ODD];
	float sn, cs;
	sincosf(a, &sn, &cs);
	return make_float2(rr * cs, rr * sn);
}

// The "_bs" complex functions, each sine, cosine, sinh and cosh with its
// own frequency (p: x1 x2 y1 y2), as internal/flame's bs2; a zero
// denominator adds nothing where JWildfire returns (cot2_bs has no guard).
__device__ __forceinline__ float2 pg_bs2(unsigned vid, float w, float x, float y, const float *p) {
	const float x1 = p[0], x2 = p[1], y1 = p[2], y2 = p[3];
	float d, k;
	switch (vid) {
	case VAR_COS2_BS: return make_float2(w * cosf(x * x2) * coshf(y * y2), -(w * sinf(x * x1) * sinhf(y * y1)));
	case VAR_SEC2_BS:
		d = cosf(2.f * x) + coshf(2.f * y);
		if (d == 0.f) break;
		k = w * 2.f / d;
		return make_float2(k * cosf(x * x2) * coshf(y * y2), k * sinf(x * x1) * sinhf(y * y1));
	case VAR_CSC2_BS:
		d = coshf(2.f * y) - cosf(2.f * x);
		if (d == 0.f) break;
		k = w * 2.f / d;
		return make_float2(k * sinf(x * x1) * coshf(y * y2), -(k * cosf(x * x2) * sinhf(y * y1)));
	case VAR_COSH2_BS: return make_float2(w * coshf(x * x2) * cosf(y * y2), w * sinhf(x * x1) * sinf(y * y1));
	case VAR_COT2_BS:
		k = w / (coshf(y2 * y) - cosf(x2 * x));
		return make_float2(k * sinf(x1 * x), k * -1.f * sinhf(y1 * y));
	case VAR_COTH2_BS:
		d = coshf(x2 * x) - cosf(y2 * y);
		if (d == 0.f) break;
		return make_float2(w / d * sinhf(x1 * x), w / d * sinf(y1 * y));
	case VAR_SECH2_BS:
		d = cosf(2.f * y) + coshf(2.f * x);
		if (d == 0.f) break;
		k = w * 2.f / d;
		return make_float2(k * cosf(y * y2) * coshf(x * x2), -(k * sinf(y * y1) * sinhf(x * x1)));
	case VAR_SINH2_BS: return make_float2(w * sinhf(x * x1) * cosf(y * y2), w * coshf(x * x2) * sinf(y * y1));
	case VAR_TAN2_BS:
		d = cosf(x2 * x) + coshf(y2 * y);
		if (d == 0.f) break;
		return make_float2(w / d * sinf(x1 * x), w / d * sinhf(y1 * y));
	case VAR_TANH2_BS:
		d = cosf(y2 * y) + coshf(x2 * x);
		if (d == 0.f) break;
		return make_float2(w / d * sinhf(x1 * x), w / d * sinf(y1 * y));
	}
	return make_float2(0.f, 0.f);
}

// Minkowski's question mark on [0, 1] by 20 steps of the Stern–Brocot
// search, as minkowskiQ: the mediants' terms stay whole numbers below 2²⁴,
// exact in float.
__device__ __forceinline__ float pg_minkowski_q(float x) {
	float p = 0.f, q = 1.f, r = 1.f, s = 1.f, d = 1.f, y = 0.f;
	for (int i = 0; i < 20; i++) {
		d *= 0.5f;
		const float m = p + r, n = q + s;
		if (x < m / n) {
			r = m; s = n;
		} else {
			y += d;
			p = m; q = n;
		}
	}
	return y + d;
}

// minkowskope's wave (minkosine): the question mark over a sawtooth of
// period 2, its sign flipping every 2 and for negative x.
__device__ __forceinline__ float pg_minkosine(float x, bool alt) {
	const float lp = fmodf(fabsf(x), 4.f);
	float ph = fmodf(fabsf(x), 2.f);
	if (ph > 1.f) ph = 2.f - ph;
	float m = pg_minkowski_q(ph);
	if (alt) m -= ph;
	return (lp < 2.f) != (x > 0.f) ? m : -m;
}

// The oscilloscopes: the wave's value t at (x, y); inside it (|y| ≤ t) the
// point is mirrored through the origin.
__device__ __forceinline__ float2 pg_scope(float w, float x, float y, float t) {
	if (fabsf(y) <= t) w = -w;
	return make_float2(w * x, w * y);
}

// The maple leaves' radius (leafRadius): both draws taken, the second
// scaling where filled > 0 and filled exceeds the first.
__device__ __forceinline__ float pg_leaf_radius(float w, float filled, PgRng &rng) {
	const double u1 = pg_rng_f64(rng);
	const float u2 = pg_rng_unit53(rng);
	return filled > 0.f && (double)filled > u1 ? w * u2 : w;
}

// v to the whole power n by squaring: the maple leaves' some thirty
// powers as powf calls took ptxas seconds per architecture; these differ
// from powf by a few ulp.
template <int n> __device__ __forceinline__ float pg_ipow(float v) {
	float r = 1.f;
#pragma unroll
	for (int e = n; e > 0; e >>= 1) {
		if (e & 1) r *= v;
		v *= v;
	}
	return r;
}

// maple_leaf's curve at the point's angle atan2(x, y) − π/2.
__device__ __noinline__ float2 pg_maple_leaf(float rr, float t) {
	const float c6 = cosf(6.f * t), c30 = cosf(30.f * t), s6 = sinf(6.f * t), ct = cosf(t), c3 = cosf(3.f * t);
	const float lx = (1.f + pg_ipow<2>(c6) + 1.f / 5.f * pg_ipow<10>(c6 * cosf(24.f * t)) +
			  (1.f / 9.f * pg_ipow<12>(c30)) * (1.f - pg_ipow<10>(s6))) *
			 sinf(2.f * t) * (1.f - pg_ipow<4>(ct)) * (1.f - pg_ipow<10>(ct) * pg_ipow<2>(c3));
	const float ly = 21.f / 20.f * cosf(2.f * t) * (1.f - pg_ipow<4>(ct) + 1.f / 2.f * pg_ipow<10>(ct * c3)) *
			 (1.f + pg_ipow<2>(c6) + 1.f / 5.f * pg_ipow<10>(c6 * cosf(18.f * t)) +
			  (1.f / 4.f * pg_ipow<4>(c30) + 1.f / 10.f * pg_ipow<12>(c30)) * (1.f - pg_ipow<10>(ct) * pg_ipow<2>(c3)) *
				  (1.f - pg_ipow<10>(s6)));
	return make_float2(rr * lx, rr * ly);
}

// japanese_maple_leaf's curve at half the angle atan2(x, y) plus π/2.
__device__ __noinline__ float2 pg_japanese_maple_leaf(float rr, float t) {
	const float c8 = cosf(8.f * t), c80 = cosf(80.f * t), s8 = sinf(8.f * t), ct = cosf(t), st = sinf(t);
	const float c3 = cosf(3.f * t);
	const float lx = (4.f / 15.f + pg_ipow<2>(c8) + 1.f / 5.f * pg_ipow<10>(c8 * cosf(24.f * t)) +
			  (1.f / 6.f * pg_ipow<2>(c80) + 1.f / 15.f * pg_ipow<10>(c80))) *
			 (1.f - pg_ipow<10>(s8)) * sinf(2.f * t) * (1.f + st) *
			 (1.f - pg_ipow<10>(ct) * pg_ipow<2>(c3) + 1.f / 30.f * pg_ipow<9>(ct) * pg_ipow<10>(cosf(5.f * t)));
	const float ly = (8.f / 30.f + pg_ipow<2>(c8) + 1.f / 5.f * pg_ipow<10>(c8 * cosf(24.f * t)) +
			  (1.f / 6.f * pg_ipow<2>(c80) + 1.f / 15.f * pg_ipow<10>(c80)) * (1.f - pg_ipow<10>(ct) * pg_ipow<2>(c3)) *
				  (1.f - pg_ipow<10>(s8))) *
			 cosf(2.f * t) * (1.f + st + pg_ipow<10>(ct * c3));
	return make_float2(rr * lx, rr * ly);
}

// squarize: the circle of radius |p| unrolled onto the square of the same
// half side.
__device__ __forceinline__ float2 pg_squarize(float w, PgFlameVarState &s) {
	const float sq = s.sqrt;
	float a = s.atanyx();
	if (a < 0.f) a += PG_2PI;
	const float pp = 4.f * sq * a / PG_PI;
	if (pp <= sq) return make_float2(w * sq, w * pp);
	if (pp <= 3.f * sq) return make_float2(w * (2.f * sq - pp), w * sq);
	if (pp <= 5.f * sq) return make_float2(-(w * sq), w * (4.f * sq - pp));
	if (pp <= 7.f * sq) return make_float2(-(w * (6.f * sq - pp)), -(w * sq));
	return make_float2(w * sq, -(w * (8.f * sq - pp)));
}

// sigmoid's steepness on one axis: −5/shift, shift inverted (sign kept)
// inside (−1, 1); a shift of 0 gives the CPU's −5e-300, 0 in float.
__device__ __forceinline__ float2 pg_sigmoid_axis(float shift) {
	float a = 1.f;
	if (shift < 1.f && shift > -1.f) {
		if (shift == 0.f) return make_float2(-0.f, 1.f);
		if (shift < 0.f) a = -1.f;
		shift = 1.f / shift;
	}
	return make_float2(-5.f * shift, a);
}

// barycentroid: the point's barycentric coordinates on (a, b), (c, d), each
// lengthened by the matching input coordinate.
__device__ __forceinline__ float2 pg_barycentroid(float w, float x, float y, const float *p) {
	const float a = p[P_BARYCENTROID_A], b = p[P_BARYCENTROID_B], c = p[P_BARYCENTROID_C], d = p[P_BARYCENTROID_D];
	const float dot00 = a * a + b * b, dot01 = a * c + b * d, dot11 = c * c + d * d;
	const float dot02 = a * x + b * y, dot12 = c * x + d * y;
	const float inv = 1.f / (dot00 * dot11 - dot01 * dot01);
	const float u = (dot11 * dot02 - dot01 * dot12) * inv, v = (dot00 * dot12 - dot01 * dot02) * inv;
	const float su = u < 0.f ? -1.f : u > 0.f ? 1.f : 0.f, sv = v < 0.f ? -1.f : v > 0.f ? 1.f : 0.f;
	return make_float2(w * sqrtf(u * u + x * x) * su, w * sqrtf(v * v + y * y) * sv);
}

#include "flame_variations_jwf5.cuh"

static __device__ __forceinline__ float2 pg_flame_var_jwf4_body(unsigned vid, float w, PgFlameVarState &s, const float *p,
								 PgRng &rng) {
	const float x = s.tx, y = s.ty;
	float sn, cs;
	switch (vid) {
	case VAR_MOBIUS_FR: {
		const float ur = p[P_MOBIUS_FR_RE_A] * x - p[P_MOBIUS_FR_IM_A] * y + p[P_MOBIUS_FR_RE_B];
		const float ui = p[P_MOBIUS_FR_RE_A] * y + p[P_MOBIUS_FR_IM_A] * x + p[P_MOBIUS_FR_IM_B];
		const float vr = p[P_MOBIUS_FR_RE_C] * x - p[P_MOBIUS_FR_IM_C] * y + p[P_MOBIUS_FR_RE_D];
		const float vi = p[P_MOBIUS_FR_RE_C] * y + p[P_MOBIUS_FR_IM_C] * x + p[P_MOBIUS_FR_IM_D];
		const float d = pg_zeps(vr * vr + vi * vi);
		return make_float2(w * (ur * vr + ui * vi) / d, w * (ui * vr - ur * vi) / d);
	}
	case VAR_ACOSECH: { // addRandomSign of the flipped acosh(1/z)
		const float m = pg_jc_maginv(x, y);
		const float2 a = pg_jc_acosh(x * m, -y * m);
		float k = w * 2.f * PG_1_PI;
		if (pg_rng_f64(rng) >= 0.5) k = -k;
		return make_float2(k * a.y, k * a.x);
	}
	case VAR_ACOTH: {
		const float m = pg_jc_maginv(x, y);
		const float2 a = pg_jc_atanh(x * m, -y * m);
		return make_float2(w * 2.f * PG_1_PI * a.y, w * 2.f * PG_1_PI * a.x);
	}
	case VAR_BWRAPS: return pg_bwraps(w, x, y, p);
	case VAR_CHUNK: {
		const float v = w * p[P_CHUNK_A] * x * x + w * p[P_CHUNK_B] * x * y + w * p[P_CHUNK_C] * y * y +
				w * p[P_CHUNK_D] * x + w * p[P_CHUNK_E] * y + w * p[P_CHUNK_F];
		const bool mode0 = fminf(fmaxf(pg_ftoi(p[P_CHUNK_MODE]), 0.f), 1.f) == 0.f;
		return (v <= 0.f) == mode0 ? make_float2(x, y) : make_float2(0.f, 0.f);
	}
	case VAR_CIRCLIZE2: {
		const float2 sr = pg_square_ring(x, y);
		const float rr = w * (sr.x + p[P_CIRCLIZE2_HOLE]);
		sincosf(PG_PI_4 * sr.y / sr.x - PG_PI_4, &sn, &cs);
		return make_float2(rr * cs, rr * sn);
	}
	case VAR_LISSAJOUS: {
		const float tmin = p[P_LISSAJOUS_TMIN];
		const float t = (p[P_LISSAJOUS_TMAX] - tmin) * pg_rng_unit53(rng) + tmin;
		const float e = p[P_LISSAJOUS_E] * (pg_rng_unit53(rng) - 0.5f);
		const float ct = p[P_LISSAJOUS_C] * t;
		return make_float2(w * (sinf(p[P_LISSAJOUS_A] * t + p[P_LISSAJOUS_D]) + ct + e),
				   w * (sinf(p[P_LISSAJOUS_B] * t) + ct + e));
	}
	case VAR_TARGET: return pg_target(s, p);
	case VAR_CARDIOID: {
		const float a = s.atanyx();
		const float rr = w * sqrtf(x * x + y * y + sinf(a * p[P_CARDIOID_A]) + 1.f);
		sincosf(a, &sn, &cs);
		return make_float2(rr * cs, rr * sn);
	}
	case VAR_CIRCLEBLUR: {
		const float rad = sqrtf(pg_rng_unit53(rng));
		sincosf(pg_rng_unit53(rng) * PG_2PI, &sn, &cs);
		return make_float2(w * cs * rad, w * sn * rad);
	}
	case VAR_CIRCLESPLIT: {
		const float rr = s.sqrt, split = p[P_CIRCLESPLIT_CS_SPLIT];
		if (rr < p[P_CIRCLESPLIT_CS_RADIUS] - split) return make_float2(w * x, w * y);
		sincosf(s.atanyx(), &sn, &cs);
		return make_float2(w * cs * (rr + split), w * sn * (rr + split));
	}
	case VAR_COS2_BS: case VAR_SEC2_BS: case VAR_CSC2_BS: case VAR_COSH2_BS: case VAR_COT2_BS:
	case VAR_COTH2_BS: case VAR_SECH2_BS: case VAR_SINH2_BS: case VAR_TAN2_BS: case VAR_TANH2_BS:
		return pg_bs2(vid, w, x, y, p); // each one's block is x1 x2 y1 y2
	case VAR_D_SPHERICAL: {
		const float k = pg_rng_f64(rng) < (double)p[P_D_SPHERICAL_D_SPHER_WEIGHT] ? w / (x * x + y * y) : w;
		return make_float2(x * k, y * k);
	}
	case VAR_FLIPY: return make_float2(w * x, x > 0.f ? -(w * y) : w * y);
	case VAR_INVPOLAR: {
		const float ny = 1.f + y;
		sincosf(x * PG_PI, &sn, &cs);
		return make_float2(w * ny * sn, w * ny * cs);
	}
	case VAR_JAPANESE_MAPLE_LEAF: {
		const float rr = pg_leaf_radius(w, p[P_JAPANESE_MAPLE_LEAF_FILLED], rng) * 0.667f;
		return pg_japanese_maple_leaf(rr, s.atanxy() * 0.5f + PG_PI_2);
	}
	case VAR_LOZI: return make_float2((p[P_LOZI_C] - p[P_LOZI_A] * fabsf(x) + y) * w, p[P_LOZI_B] * x * w);
	case VAR_HENON: return make_float2((p[P_HENON_C] - p[P_HENON_A] * x * x + y) * w, p[P_HENON_B] * x * w);
	case VAR_MAPLE_LEAF: {
		const float rr = pg_leaf_radius(w, p[P_MAPLE_LEAF_FILLED], rng);
		return pg_maple_leaf(rr, s.atanxy() - PG_PI_2);
	}
	case VAR_BARYCENTROID: return pg_barycentroid(w, x, y, p);
	case VAR_MINKOWSKOPE: {
		const bool alt = p[P_MINKOWSKOPE_FREQUENCYX] <= 0.f;
		const float pt = p[P_MINKOWSKOPE_PERTURBATION] * pg_minkosine(0.5f * p[P_MINKOWSKOPE_FREQUENCYY] * y, alt);
		float t = p[P_MINKOWSKOPE_AMPLITUDE] * pg_minkosine(0.5f * p[P_MINKOWSKOPE_FREQUENCYX] * x + pt - 1.f, alt);
		const float d = p[P_MINKOWSKOPE_DAMPING];
		if (fabsf(d) > 1e-8f) t *= expf(-fabsf(x) * d);
		return pg_scope(w, x, y, t + p[P_MINKOWSKOPE_SEPARATION]);
	}
	case VAR_OSCILLOSCOPE2: {
		const float tpf = PG_2PI * p[P_OSCILLOSCOPE2_FREQUENCYX];
		const float pt = p[P_OSCILLOSCOPE2_PERTURBATION] * sinf(PG_2PI * p[P_OSCILLOSCOPE2_FREQUENCYY] * y);
		float t = p[P_OSCILLOSCOPE2_AMPLITUDE] * cosf(tpf * x + pt);
		const float d = p[P_OSCILLOSCOPE2_DAMPING];
		if (fabsf(d) > 1e-8f) t *= expf(-fabsf(x) * d);
		return pg_scope(w, x, y, t + p[P_OSCILLOSCOPE2_SEPARATION]);
	}
	case VAR_PETAL: {
		const float cx = cosf(x), cy = cosf(y);
		const float bx = cx * cy * (cx * cy) * (cx * cy), sxy = sinf(x) * cy;
		return make_float2(w * cx * bx, w * cx * (sxy * sxy * sxy));
	}
	case VAR_SHIFT: {
		sincosf(p[P_SHIFT_ANGLE] / 180.f * PG_PI, &sn, &cs);
		const float sx = p[P_SHIFT_SHIFT_X], sy = p[P_SHIFT_SHIFT_Y];
		return make_float2(w * (x + cs * sx - sn * sy), w * (y - cs * sy - sn * sx));
	}
	case VAR_SIGMOID: {
		const float2 ax = pg_sigmoid_axis(p[P_SIGMOID_SHIFTX]), ay = pg_sigmoid_axis(p[P_SIGMOID_SHIFTY]);
		const float vv = fabsf(w);
		const float c0 = ax.y / (1.f + expf(ax.x * x)), c1 = ay.y / (1.f + expf(ay.x * y));
		return make_float2(vv * 2.f * (c0 - 0.5f), vv * 2.f * (c1 - 0.5f));
	}
	case VAR_SPHERICALN: {
		const float rr = powf(s.sqrt, p[P_SPHERICALN_DIST]);
		const float pw = p[P_SPHERICALN_POWER];
		const float k = (float)floor((double)pw * pg_rng_f64(rng)); // a whole branch: as the CPU's
		sincosf(s.atanyx() + k * PG_2PI / floorf(pw), &sn, &cs);
		return rr > 0.f ? make_float2(w * cs / rr, w * sn / rr) : make_float2(0.f, 0.f);
	}
	case VAR_SPLIGON: {
		float sides = p[P_SPLIGON_SIDES];
		if (pg_ftoi(sides) == 0.f) sides = 1.f;
		const float th = sides / PG_2PI;
		const float t = 1.f / th * floorf(s.atanyx() * th) + PG_PI * p[P_SPLIGON_I] / (-2.f * sides);
		sincosf(t, &sn, &cs);
		return make_float2(w * (x + cs * p[P_SPLIGON_R]), w * (y + sn * p[P_SPLIGON_R]));
	}
	case VAR_SQUARIZE: return pg_squarize(w, s);
	case VAR_TANCOS: {
		const float d1 = x * x + y * y, d2 = w / d1; // the CPU's 1e-300 is 0 in float
		return make_float2(d2 * tanhf(d1) * 2.f * x, d2 * cosf(d1) * 2.f * y);
	}
	case VAR_WDISC: {
		float a = PG_PI / (s.sqrt + 1.f);
		const float rr = s.atanyx() * PG_1_PI;
		if (rr > 0.f) a = PG_PI - a;
		sincosf(a, &sn, &cs);
		return make_float2(w * rr * cs, w * rr * sn);
	}
	case VAR_BI_LINEAR: return make_float2(w * y, w * x);
	case VAR_MCARPET: {
		const float k = w / ((x * x + y * y) / 4.f + 1.f);
		return make_float2(x * k * p[P_MCARPET_X] + (1.f - p[P_MCARPET_TWIST] * x * x + y) * w,
				   y * k * p[P_MCARPET_Y] + p[P_MCARPET_TILT] * x * w);
	}
	default: return pg_flame_var_jwf5_body(vid, w, s, p, rng);
	}
}

// The out-of-line call, state and stream by value (flame_variations_jwf3.cuh's
// PgJwfOut3 carries the contribution and the stream back).
static __device__ __noinline__ PgJwfOut3 pg_flame_var_jwf4(unsigned vid, float w, PgFlameVarState s, const float *p,
							   uint64_t state) {
	PgRng rng;
	rng.state = state;
	const float2 d = pg_flame_var_jwf4_body(vid, w, s, p, rng);
	return PgJwfOut3{d, rng.state};
}
