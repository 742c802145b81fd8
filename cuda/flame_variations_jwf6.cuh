// More of JWildfire's plugin variations on the device, those the artists'
// corpus uses a few times beyond the ones that held whole flames off the GPU
// (which flame_variations_jwf4/5.cuh ported): acosh, glynnSim1, glynnSim2,
// murl, eJulia, exp2_bs, flipcircle, twoface, checks and hypertile, float32
// twins of variations_jwf9*.go under the conventions of
// flame_variations_jwf.cuh. pg_flame_var_jwf5_body's default case inlines
// this, inside pg_flame_var_jwf4.
#pragma once
// Included by flame_variations_jwf5.cuh after its helpers.

// A point of glynnSim1's small circle: radius r1·(thick + (1 − thick)·ur) at
// angle 2π·ua about (x1, y1).
__device__ __forceinline__ float2 pg_glynn_circle(float w, float r1, float thick, float ur, float ua, float x1,
						  float y1) {
	const float rr = r1 * (thick + (1.f - thick) * ur);
	float sn, cs;
	sincosf(PG_2PI * ua, &sn, &cs);
	return make_float2(w * (rr * cs + x1), w * (rr * sn + y1));
}

// glynnSim1: a circle inversion by a share that falls with the distance,
// with a small ring of points at angle phi1; three draws, all taken.
__device__ __noinline__ float2 pg_glynn_sim1(float w, float tx, float ty, float sq, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const double u1 = pg_rng_f64(rng);
	const float u2 = pg_rng_unit53(rng), u3 = pg_rng_unit53(rng);
	state = rng.state;
	const float radius = p[P_GLYNNSIM1_RADIUS], r1 = p[P_GLYNNSIM1_RADIUS1];
	const float thick = fminf(fmaxf(p[P_GLYNNSIM1_THICKNESS], 0.f), 1.f);
	const float contrast = fminf(fmaxf(p[P_GLYNNSIM1_CONTRAST], 0.f), 1.f);
	float sp, cp;
	sincosf(PG_PI * p[P_GLYNNSIM1_PHI1] / 180.f, &sp, &cp);
	const float x1 = radius * cp, y1 = radius * sp;
	if (sq < radius) return pg_glynn_circle(w, r1, thick, fminf((float)u1, 0x1.fffffep-1f), u2, x1, y1);
	const float alpha = radius / sq;
	float x = tx, y = ty;
	if (u1 <= (double)(contrast * powf(alpha, fabsf(p[P_GLYNNSIM1_POW])))) {
		x = alpha * alpha * x;
		y = alpha * alpha * y;
	}
	if ((x - x1) * (x - x1) + (y - y1) * (y - y1) < r1 * r1) return pg_glynn_circle(w, r1, thick, u2, u3, x1, y1);
	return make_float2(w * x, w * y);
}

// glynnSim2: a partial circle inversion with a ring sector (phi1 to phi2
// degrees) for the points inside the radius; two draws, both taken.
__device__ __forceinline__ float2 pg_glynn_sim2(float w, float tx, float ty, float sq, const float *p, PgRng &rng) {
	const double u1 = pg_rng_f64(rng);
	const float u2 = pg_rng_unit53(rng);
	const float radius = p[P_GLYNNSIM2_RADIUS];
	const float thick = fminf(fmaxf(p[P_GLYNNSIM2_THICKNESS], 0.f), 1.f);
	const float contrast = fminf(fmaxf(p[P_GLYNNSIM2_CONTRAST], 0.f), 1.f);
	if (sq < radius) {
		const float gamma = thick * (2.f * radius + thick) / (radius + thick);
		const float phi10 = PG_PI * p[P_GLYNNSIM2_PHI1] / 180.f;
		const float phi = phi10 + (PG_PI * p[P_GLYNNSIM2_PHI2] / 180.f - phi10) * u2;
		const float rc = radius + thick - gamma * fminf((float)u1, 0x1.fffffep-1f);
		float sn, cs;
		sincosf(phi, &sn, &cs);
		return make_float2(w * rc * cs, w * rc * sn);
	}
	const float alpha = radius / sq;
	const float k = u1 <= (double)(contrast * powf(alpha, fabsf(p[P_GLYNNSIM2_POW]))) ? w * alpha * alpha : w;
	return make_float2(k * tx, k * ty);
}

// murl: the power truncated to an integer, as JWildfire's setParameter.
__device__ __forceinline__ float2 pg_murl(float w, PgFlameVarState &s, const float *p) {
	const float power = truncf(p[P_MURL_POWER]);
	float c = p[P_MURL_C];
	if (power != 1.f) c /= power - 1.f;
	const float vp = w * (c + 1.f);
	float sa, ca;
	sincosf(s.atanyx() * power, &sa, &ca);
	const float rr = c * powf(s.sumsq, power / 2.f);
	const float re = rr * ca + 1.f, im = rr * sa;
	const float rl = vp / (re * re + im * im);
	return make_float2(rl * (s.tx * re + s.ty * im), rl * (s.ty * re - s.tx * im));
}

// eJulia: julia's root in elliptic coordinates; a negative power inverts
// first. The branch floor(u·power) in double, as the CPU's.
__device__ __forceinline__ float2 pg_ejulia(float w, float tx, float ty, const float *p, PgRng &rng) {
	const float power = pg_ftoi(p[P_EJULIA_POWER]);
	float r2 = ty * ty + tx * tx, x = tx;
	if (power < 0.f) {
		r2 = 1.f / r2;
		x *= r2;
	}
	const float2 e = pg_elliptic(x, r2 + 1.f, ty < 0.f);
	const float k = (float)floor(pg_rng_f64(rng) * (double)power);
	const float nu = e.y / power + PG_2PI / power * k, mu = e.x / power;
	return make_float2(w * coshf(mu) * cosf(nu), w * sinhf(mu) * sinf(nu));
}

// hypertile: one Möbius step of the hyperbolic {p, q} tiling turned n
// tiles; p, q (at least 3) and n (at least 0) rounded as JWildfire's. For
// the Euclidean tilings (1/p + 1/q = 1/2: {4, 4}, {3, 6}, {6, 3}) cos pa +
// cos qa is 0 but for rounding: the CPU's float64 leaves it a tiny positive
// number, so the tile's radius ~1e-8 and the map the identity to that, which
// float32 (whose rounding takes the other sign) does not find by itself.
__device__ __forceinline__ float2 pg_hypertile(float w, float tx, float ty, const float *p) {
	const float np = fmaxf(pg_ftoi(p[P_HYPERTILE_P]), 3.f), nq = fmaxf(pg_ftoi(p[P_HYPERTILE_Q]), 3.f);
	const float pa = PG_2PI / np, qa = PG_2PI / nq;
	float rr = 0.f;
	if (2.f * (np + nq) != np * nq) {
		rr = (1.f - cosf(pa)) / (cosf(pa) + cosf(qa)) + 1.f;
		rr = rr > 0.f ? 1.f / sqrtf(rr) : 1.f;
	}
	float sn, cs;
	sincosf(fmaxf(pg_ftoi(p[P_HYPERTILE_N]), 0.f) * pa, &sn, &cs);
	const float re = rr * cs, im = rr * sn;
	const float a = tx + re, b = ty - im, c = re * tx - im * ty + 1.f, d = re * ty + im * tx;
	const float vr = w / (c * c + d * d);
	return make_float2(vr * (a * c + b * d), vr * (b * c - a * d));
}

// checks: a checkerboard of cells; Java's rint, half to even, is rintf's.
__device__ __forceinline__ float2 pg_checks(float w, float tx, float ty, const float *p, PgRng &rng) {
	const float cs = 1.f / (p[P_CHECKS_SIZE] + 1e-8f);
	const float isxy = rintf(tx * cs) + rintf(ty * cs);
	const float rnx = p[P_CHECKS_RND] * pg_rng_unit53(rng), rny = p[P_CHECKS_RND] * pg_rng_unit53(rng);
	float dx = p[P_CHECKS_X], dy = p[P_CHECKS_Y] + rny;
	if (fmodf(isxy, 2.f) == 0.f) {
		dx = -p[P_CHECKS_X] + rnx;
		dy = -p[P_CHECKS_Y];
	}
	return make_float2(w * (tx + dx), w * (ty + dy));
}

#include "flame_variations_jwf7.cuh"

static __device__ __forceinline__ float2 pg_flame_var_jwf6_body(unsigned vid, float w, PgFlameVarState &s, const float *p,
								 PgRng &rng) {
	const float x = s.tx, y = s.ty;
	switch (vid) {
	case VAR_ACOSH: { // addRandomSign of acosh z
		const float2 a = pg_jc_acosh(x, y);
		float k = w * 2.f * PG_1_PI;
		if (pg_rng_f64(rng) >= 0.5) k = -k;
		return make_float2(k * a.x, k * a.y);
	}
	case VAR_GLYNNSIM1: return pg_glynn_sim1(w, x, y, s.sqrt, p, rng.state);
	case VAR_GLYNNSIM2: return pg_glynn_sim2(w, x, y, s.sqrt, p, rng);
	case VAR_MURL: return pg_murl(w, s, p);
	case VAR_EJULIA: return pg_ejulia(w, x, y, p, rng);
	case VAR_EXP2_BS: {
		const float e = expf(x * p[P_EXP2_BS_X1]);
		return make_float2(w * e * cosf(y * p[P_EXP2_BS_Y2]), w * e * sinf(y * p[P_EXP2_BS_Y1]));
	}
	case VAR_FLIPCIRCLE: return make_float2(w * x, x * x + y * y > w * w ? w * y : -(w * y));
	case VAR_TWOFACE: {
		const float k = x > 0.f ? w / (x * x + y * y) : w;
		return make_float2(k * x, k * y);
	}
	case VAR_CHECKS: return pg_checks(w, x, y, p, rng);
	case VAR_HYPERTILE: return pg_hypertile(w, x, y, p);
	default: return pg_flame_var_jwf7_body(vid, w, s, p, rng);
	}
}
