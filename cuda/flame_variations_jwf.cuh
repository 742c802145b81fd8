// JWildfire's plugin variations on the device: the 2D ones internal/flame
// lists in gpuPluginVars (gpu_plugins.go), float32 twins of its
// variations_jwf*.go with the same formulas, draws and branches. They live in
// one out-of-line function that the rare variations' switch calls, so a
// genome without them runs exactly the code it ran before.
//
// Parameters: not at fixed slots of the xform (that would grow every
// genome's xforms in shared memory with each port) but in the plugin slab
// after flam3's PLUGIN_BASE parameters, as internal/flame's gpuPluginPack
// fills it: a header entry per variation the xform uses (id | offset << 16),
// then each one's block; P_<NAME> is an index into the variation's block,
// which pg_jwf_params finds.
//
// Draws: each is one 64-bit draw, as each of the CPU's Float64 is. Where the
// CPU compares a draw with a parameter, or truncates u·(2³¹−1) (JWildfire's
// random(Integer.MAX_VALUE)), the device does it in double on the same 53
// bits, so it takes exactly the CPU's branch and integer; the integer's turn
// k·2π/n is reduced modulo n in integers first (the CPU's float64 sine of
// the unreduced angle agrees with it to ~1e-6 rad). Draws that only scale
// are the 53-bit value rounded to float.
#pragma once
// Included by flame_variations_rare.cuh after PgFlameVarState and its helpers.

// The CPU's Float64: the top 53 bits of one draw.
__device__ __forceinline__ double pg_rng_f64(PgRng &r) { return (double)(pg_rng_u64(r) >> 11) * (1.0 / 9007199254740992.0); }

// The same rounded to float, held below 1.
__device__ __forceinline__ float pg_rng_unit53(PgRng &r) { return fminf((float)pg_rng_f64(r), 0x1.fffffep-1f); }

// trunc(u·(2³¹−1)) exactly as the CPU computes it.
__device__ __forceinline__ unsigned pg_rng_jwf_int(PgRng &r) { return (unsigned)trunc(pg_rng_f64(r) * 2147483647.0); }

// JWildfire's FTOI (internal/flame's ftoi): round half away from zero.
__device__ __forceinline__ float pg_ftoi(float v) { return v > 0.f ? truncf(v + 0.5f) : v < 0.f ? truncf(v - 0.5f) : v; }

// k mod |n| for an integer-valued n ≠ 0, n beyond k's range left whole.
__device__ __forceinline__ float pg_jwf_mod(unsigned k, float n) {
	const float an = fminf(fabsf(n), 4294967295.f);
	return (float)(k % (unsigned)an);
}

// A filled polar curve (filledCurve): the point at angle a and radius rr,
// pulled in by a uniform factor for the share filled of the points.
__device__ __forceinline__ float2 pg_jwf_filled(float w, float a, float rr, float filled, PgRng &rng) {
	const double u1 = pg_rng_f64(rng);
	const float u2 = pg_rng_unit53(rng);
	if (filled > 0.f && (double)filled > u1) rr *= u2;
	float sa, ca;
	sincosf(a, &sa, &ca);
	return make_float2(w * sa * rr, w * ca * rr);
}

// The block of variation vid's parameters in the slab of the xform's
// parameters p. The header always holds vid (the Go side packs an entry
// for every plugin variation with a weight); the bound only keeps a
// corrupt slab from looping.
static __device__ __forceinline__ const float *pg_jwf_params(unsigned vid, const float *p) {
	const float *q = p + PLUGIN_BASE;
	for (int k = 0; k < PLUGIN_SLAB; k++) {
		const unsigned h = (unsigned)q[k];
		if ((h & 0xffffu) == vid) return q + (h >> 16);
	}
	return q;
}

#include "flame_variations_jwf2.cuh"

static __device__ __forceinline__ float2 pg_flame_var_jwf_body(unsigned vid, float w, PgFlameVarState &s, const float *p,
								PgRng &rng) {
	const float tx = s.tx, ty = s.ty;
	float px = 0.f, py = 0.f;
	float sa, ca, k, a, rr;
	switch (vid) {
	case VAR_SINEBLUR: {
		const float pw = fmaxf(p[P_SINEBLUR_POWER], 0.f);
		sincosf(pg_rng_unit53(rng) * PG_2PI, &sa, &ca);
		const float u = pg_rng_unit53(rng);
		k = pw == 1.f ? w * acosf(u * 2.f - 1.f) * PG_1_PI : w * acosf(expf(logf(u) * pw) * 2.f - 1.f) * PG_1_PI;
		px += k * ca; py += k * sa;
		break;
	}
	case VAR_HYPERTILE2: {
		rr = p[P_HYPERTILE2_R];
		const float a_ = tx + rr, b = ty, c = rr * tx + 1.f, d = rr * ty;
		const float x = a_ * c + b * d, y = b * c - a_ * d;
		k = w / (c * c + d * d);
		const float n = fmaxf(pg_ftoi(p[P_HYPERTILE2_P]), 3.f);
		sincosf(pg_jwf_mod(pg_rng_jwf_int(rng), n) * p[P_HYPERTILE2_PA], &sa, &ca);
		px += k * (x * ca + y * sa); py += k * (y * ca - x * sa);
		break;
	}
	case VAR_HYPERTILE1: {
		const float n = fmaxf(pg_ftoi(p[P_HYPERTILE1_P]), 3.f);
		sincosf(pg_jwf_mod(pg_rng_jwf_int(rng), n) * p[P_HYPERTILE1_PA], &sa, &ca);
		rr = p[P_HYPERTILE1_R];
		const float re = rr * ca, im = rr * sa;
		const float a_ = tx + re, b = ty - im, c = re * tx - im * ty + 1.f, d = re * ty + im * tx;
		k = w / (c * c + d * d);
		px += k * (a_ * c + b * d); py += k * (b * c - a_ * d);
		break;
	}
	case VAR_EPISPIRAL_WF: {
		a = s.atanxy();
		const float d = cosf(p[P_EPISPIRAL_WF_WAVES] * a);
		if (d == 0.f) break;
		rr = 0.5f / d;
		sincosf(a, &sa, &ca);
		px += w * sa * rr; py += w * ca * rr;
		break;
	}
	case VAR_BWRAPS7: {
		const float cs = p[P_BWRAPS7_CELLSIZE];
		if (cs == 0.f) { // the CPU's |cs| < 1e-300: no float but 0
			px += w * tx; py += w * ty;
			break;
		}
		const float cx = (floorf(tx / cs) + 0.5f) * cs, cy = (floorf(ty / cs) + 0.5f) * cs;
		float lx = tx - cx, ly = ty - cy;
		const float r2 = p[P_BWRAPS7_R2];
		if (lx * lx + ly * ly > r2) {
			px += w * tx; py += w * ty;
			break;
		}
		lx *= p[P_BWRAPS7_G2];
		ly *= p[P_BWRAPS7_G2];
		k = p[P_BWRAPS7_RFACTOR] / ((lx * lx + ly * ly) / 4.f + 1.f);
		lx *= k;
		ly *= k;
		const float f = (lx * lx + ly * ly) / r2;
		sincosf(p[P_BWRAPS7_INNER_TWIST] * (1.f - f) + p[P_BWRAPS7_OUTER_TWIST] * f, &sa, &ca);
		px += w * (cx + ca * lx + sa * ly); py += w * (cy - sa * lx + ca * ly);
		break;
	}
	case VAR_BOARDERS2: {
		const float c = p[P_BOARDERS2_CC], cl = p[P_BOARDERS2_CL];
		const float rx = rintf(tx), ry = rintf(ty); // round half to even, as the CPU
		const float ox = tx - rx, oy = ty - ry, bx = ox * c + rx, by = oy * c + ry;
		if (pg_rng_f64(rng) >= (double)p[P_BOARDERS2_CR]) {
			px += w * bx; py += w * by;
		} else if (fabsf(ox) >= fabsf(oy)) {
			if (ox >= 0.f) { px += w * (bx + cl); py += w * (by + cl * oy / ox); }
			else { px += w * (bx - cl); py += w * (by - cl * oy / ox); }
		} else if (oy >= 0.f) {
			py += w * (by + cl); px += w * (bx + ox / oy * cl);
		} else {
			py += w * (by - cl); px += w * (bx - ox / oy * cl);
		}
		break;
	}
	case VAR_WAVES4_WF: {
		const float dx = p[P_WAVES4_WF_DAMPING_X], dy = p[P_WAVES4_WF_DAMPING_Y];
		float sx, cx, sy, cy;
		sincosf(ty * p[P_WAVES4_WF_FREQX], &sx, &cx);
		sincosf(tx * p[P_WAVES4_WF_FREQY], &sy, &cy);
		const float rx = pg_ftoi(p[P_WAVES4_WF_USE_COS_X]) == 1.f ? cx * sx * cx : sx * cx * sx;
		const float ry = pg_ftoi(p[P_WAVES4_WF_USE_COS_Y]) == 1.f ? cy * sy * cy : sy * cy * sy;
		px += w * (tx + dx * p[P_WAVES4_WF_SCALEX] * rx) * dx;
		py += w * (ty + dy * p[P_WAVES4_WF_SCALEY] * ry) * dy;
		break;
	}
	case VAR_JULIAN2: {
		const unsigned ki = pg_rng_jwf_int(rng);
		const float n = pg_ftoi(p[P_JULIAN2_POWER]);
		if (n == 0.f) break;
		const float x = p[P_JULIAN2_A] * tx + p[P_JULIAN2_B] * ty + p[P_JULIAN2_E];
		const float y = p[P_JULIAN2_C] * tx + p[P_JULIAN2_D] * ty + p[P_JULIAN2_F];
		a = (atan2f(y, x) + PG_2PI * pg_jwf_mod(ki, p[P_JULIAN2_ABSN])) / n;
		rr = w * powf(x * x + y * y, p[P_JULIAN2_CN]);
		sincosf(a, &sa, &ca);
		px += rr * ca; py += rr * sa;
		break;
	}
	case VAR_SPIROGRAPH: {
		const float t = (p[P_SPIROGRAPH_TMAX] - p[P_SPIROGRAPH_TMIN]) * pg_rng_unit53(rng) + p[P_SPIROGRAPH_TMIN];
		const float y = (p[P_SPIROGRAPH_YMAX] - p[P_SPIROGRAPH_YMIN]) * pg_rng_unit53(rng) + p[P_SPIROGRAPH_YMIN];
		const float ab = p[P_SPIROGRAPH_A] + p[P_SPIROGRAPH_B];
		float st, ct;
		sincosf(t, &st, &ct);
		k = ab / p[P_SPIROGRAPH_B] * t;
		const float x1 = ab * ct - p[P_SPIROGRAPH_C1] * cosf(k), y1 = ab * st - p[P_SPIROGRAPH_C2] * sinf(k);
		const float d = p[P_SPIROGRAPH_D];
		px += w * (x1 + d * ct + y); py += w * (y1 + d * st + y);
		break;
	}
	case VAR_CANNABISCURVE_WF: {
		a = s.atanxy();
		rr = (1.f + 0.9f * cosf(8.f * a)) * (1.f + 0.1f * cosf(24.f * a)) * (0.9f + 0.1f * cosf(200.f * a)) *
		     (1.f + sinf(a));
		const float2 d = pg_jwf_filled(w, a + PG_PI_2, rr, p[P_CANNABISCURVE_WF_FILLED], rng);
		px += d.x; py += d.y;
		break;
	}
	case VAR_CLOVERLEAF_WF: {
		a = s.atanxy();
		const float2 d = pg_jwf_filled(w, a, sinf(2.f * a) + 0.25f * sinf(6.f * a), p[P_CLOVERLEAF_WF_FILLED], rng);
		px += d.x; py += d.y;
		break;
	}
	case VAR_JULIAC: {
		const unsigned ki = pg_rng_jwf_int(rng);
		const float re = 1.f / p[P_JULIAC_RE], im = p[P_JULIAC_IM] / 100.f;
		const float m = (float)fmod((double)ki, (double)p[P_JULIAC_RE]); // exact, as the CPU's math.Mod
		const float arg = atan2f(ty, tx) + m * 2.f * PG_PI;
		const float lnmod = p[P_JULIAC_DIST] * 0.5f * logf(tx * tx + ty * ty);
		sincosf(arg * re + lnmod * im, &sa, &ca);
		k = expf(lnmod * re - arg * im);
		px += w * k * ca; py += w * k * sa;
		break;
	}
	case VAR_WAVES23: {
		const float inv2pi = 0.5f * PG_1_PI;
		const float mx = ty * p[P_WAVES23_FREQX] * inv2pi, my = tx * p[P_WAVES23_FREQY] * inv2pi;
		float fx = mx - floorf(mx), fy = my - floorf(my);
		if (fx > 0.5f) fx = 0.5f - fx;
		if (fy > 0.5f) fy = 0.5f - fy;
		px += w * (tx + fx * p[P_WAVES23_SCALEX]); py += w * (ty + fy * p[P_WAVES23_SCALEY]);
		break;
	}
	case VAR_YIN_YANG: {
		const double u = pg_rng_f64(rng);
		const float radius = fminf(fmaxf(p[P_YIN_YANG_RADIUS], 0.f), 1.f);
		const float dual = fminf(fmaxf(pg_ftoi(p[P_YIN_YANG_DUAL_T]), 0.f), 1.f);
		const float outside = fminf(fmaxf(pg_ftoi(p[P_YIN_YANG_OUTSIDE]), 0.f), 1.f);
		if (tx * tx + ty * ty >= 1.f) {
			if (outside == 1.f) { px += w * tx; py += w * ty; }
			break;
		}
		float inv = 1.f;
		rr = radius;
		sincosf(PG_PI * p[P_YIN_YANG_ANG1], &sa, &ca);
		if (dual == 1.f && u > 0.5) {
			inv = -1.f;
			rr = 1.f - radius;
			sincosf(PG_PI * p[P_YIN_YANG_ANG2], &sa, &ca);
		}
		const float xx = tx * ca - ty * sa, yy = tx * sa + ty * ca;
		if (yy <= 0.f) {
			px += w * (xx * (1.f - rr) + rr) * inv; py += w * (yy * (1.f - rr)) * inv;
			break;
		}
		const float t = sqrtf(1.f - yy * yy), t1 = (t - 0.5f) * 2.f, alfa = (1.f - xx / t) * 0.5f;
		const float k1 = alfa * rr + (1.f - alfa);
		px += w * (t1 * k1 + alfa * (rr - 1.f)) * inv; py += w * sqrtf(1.f - t1 * t1) * k1 * inv;
		break;
	}
	case VAR_JULIAQ: {
		const unsigned ki = pg_rng_jwf_int(rng);
		const float pw = pg_ftoi(p[P_JULIAQ_POWER]);
		if (pw == 0.f) { // the CPU's turn k·2π/0 is not a number
			px += nanf(""); py += nanf("");
			break;
		}
		a = atan2f(ty, tx) * p[P_JULIAQ_INV_POWER] + pg_jwf_mod(ki, pw) * p[P_JULIAQ_INV_POWER_2PI];
		sincosf(a, &sa, &ca);
		rr = w * powf(s.sumsq, p[P_JULIAQ_HALF_INV_POWER]);
		px += rr * ca; py += rr * sa;
		break;
	}
	default: return pg_flame_var_jwf2_body(vid, w, s, p, rng);
	}
	return make_float2(px, py);
}

// What the out-of-line call returns: the contribution and the random
// stream's new state.
struct PgFlameJwfOut {
	float2 d;
	uint64_t rng;
};

// The out-of-line call, taking the point's state and the stream by value as
// pg_flame_var_rare does (a reference would keep the caller's in memory).
static __device__ __noinline__ PgFlameJwfOut pg_flame_var_jwf(unsigned vid, float w, PgFlameVarState s, const float *p,
							      uint64_t state) {
	PgRng rng;
	rng.state = state;
	const float2 d = pg_flame_var_jwf_body(vid, w, s, pg_jwf_params(vid, p), rng);
	return PgFlameJwfOut{d, rng.state};
}
