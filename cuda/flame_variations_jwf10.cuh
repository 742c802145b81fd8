// More 2D plugin variations, each a stage (pre_/post_) in one artists'
// flame: blur_circle, pow_block and bcircle, float32 twins of
// variations_jwf9e/f/g.go under the conventions of flame_variations_jwf.cuh.
// One more out-of-line function, called from pg_flame_var_jwf9's default
// case.
#pragma once
// Included by flame_variations_jwf9.cuh (PgJwfOut3, pg_square_ring).

// pow_block: the point's rational power numerator/denominator, root's
// share of the denominator's branches by a draw (truncated in double, as
// the CPU's).
__device__ __noinline__ float2 pg_pow_block(float w, float tx, float ty, float sumsq, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const double u = pg_rng_f64(rng);
	state = rng.state;
	const float num = p[P_POW_BLOCK_NUMERATOR], den = p[P_POW_BLOCK_DENOMINATOR];
	float power = den * p[P_POW_BLOCK_CORRECTN] * 1.f / (fabsf(p[P_POW_BLOCK_CORRECTD]) + 1e-30f);
	if (fabsf(power) <= 1e-30f) power = 1e-30f;
	power = num * 0.5f / power;
	float deneps = den;
	if (fabsf(deneps) <= 1e-30f) deneps = 1e-30f;
	deneps = 1.f / deneps;
	const float r2 = powf(sumsq, power) * w;
	const float branch = (float)floor(u * (double)den);
	const float ran = (atan2f(ty, tx) * deneps + p[P_POW_BLOCK_ROOT] * PG_2PI * branch * deneps) * num;
	float sn, cs;
	sincosf(ran, &sn, &cs);
	return make_float2(r2 * cs, r2 * sn);
}

#include "flame_variations_jwf12.cuh"

// The out-of-line call from pg_flame_var_jwf9, state and stream by value.
static __device__ __noinline__ PgJwfOut3 pg_flame_var_jwf10(unsigned vid, float w, PgFlameVarState s, const float *p,
							    uint64_t state) {
	float2 d = make_float2(0.f, 0.f);
	PgRng rng;
	rng.state = state;
	float sn, cs;
	switch (vid) {
	case VAR_BLUR_CIRCLE: {
		const float u = 2.f * pg_rng_unit53(rng) - 1.f, v = 2.f * pg_rng_unit53(rng) - 1.f;
		const float2 sr = pg_square_ring(u, v);
		sincosf(PG_PI_4 * sr.y / sr.x - PG_PI_4, &sn, &cs);
		d = make_float2(w * sr.x * cs, w * sr.x * sn);
		break;
	}
	case VAR_POW_BLOCK: d = pg_pow_block(w, s.tx, s.ty, s.sumsq, p, rng.state); break;
	case VAR_BCIRCLE: {
		const float bx = s.tx * p[P_BCIRCLE_SCALE], by = s.ty * p[P_BCIRCLE_SCALE];
		const float u = pg_rng_unit53(rng), bw = fabsf(p[P_BCIRCLE_BORDERWIDTH]);
		if (hypotf(bx, by) <= 1.f) {
			d = make_float2(w * bx, w * by);
		} else if (bw != 0.f) {
			sincosf(atan2f(by, bx), &sn, &cs);
			const float k = w * (0.2f * bw * u + 1.f);
			d = make_float2(k * cs, k * sn);
		}
		break;
	}
	default: return pg_flame_var_jwf12(vid, w, s, p, state); // flame_variations_jwf12.cuh
	}
	return PgJwfOut3{d, rng.state};
}
