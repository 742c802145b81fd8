// More variations that read or write z, for the flame3d family, after
// flame_variations_3d4.cuh's: secq, tanhq, sph3D, square3D,
// whitney_umbrella, triangle, hypertile3D2, seashell3D and waveblur_wf,
// float32 twins of variations_jwf9e/g/h.go under the same conventions (the
// ones that held artists' flames on the CPU once 3d4's were ported). One
// more out-of-line function, called from pg_flame_var3d4's default case.
//
// triangle replaces the sum before it: pg_flame_apply_vars3 clears the sum
// first (pg_flame_replaces3).
#pragma once
// Included by flame_variations_3d4.cuh (PgFlame3Out, PgFlameVarState,
// pg_rng_f64, pg_rng_unit53, pg_rng_jwf_int, pg_jwf_mod, pg_ftoi).

// The quaternion secant and hyperbolic tangent of (x, y, z), the vector
// part's length av.
__device__ __noinline__ float3 pg_secq(float w, float x, float y, float z) {
	const float av = hypotf(y, z);
	float sn, cs;
	sincosf(-x, &sn, &cs);
	const float ni = w / (x * x + y * y + z * z), c = ni * sn * sinhf(av) / av;
	return make_float3(cs * coshf(av) * ni, -c * y, -c * z);
}

__device__ __noinline__ float3 pg_tanhq(float w, float x, float y, float z) {
	const float av = hypotf(y, z), sysz = y * y + z * z, ni = w / (x * x + sysz);
	float sn, cs;
	sincosf(av, &sn, &cs);
	const float sh = sinhf(x), ch = coshf(x), c = ch * sn / av, b = sh * sn / av, stcv = sh * cs, ctcv = ch * cs;
	return make_float3((stcv * ctcv + c * b * sysz) * ni, (-stcv * b * y + c * y * ctcv) * ni,
			   (-stcv * b * z + c * z * ctcv) * ni);
}

// hypertile3D2: hypertile3D's map about the centre on the x axis, turned
// by a random multiple of 2π/p (the integer reduced modulo p first). The
// centre in double, as hypertile3D's.
__device__ __noinline__ float3 pg_hypertile3d2(float w, float x, float y, float z, const float *p, uint64_t &state) {
	const float pp = fmaxf(pg_ftoi(p[P_HYPERTILE3D2_P]), 3.f);
	const double pa = 6.283185307179586 / (double)pp;
	const double qa = 6.283185307179586 / (double)fmaxf(pg_ftoi(p[P_HYPERTILE3D2_Q]), 3.f);
	double cd = -(cos(pa) - 1.0) / (cos(pa) + cos(qa));
	cd = cd > 0.0 ? 1.0 / sqrt(1.0 + cd) : 1.0;
	const float cx = (float)cd, r2 = x * x + y * y + z * z;
	const float hx = x * (1.f + cx * cx) - cx * (-r2 - 1.f), hy = y * (1.f - cx * cx);
	const float vr = w / (cx * cx * r2 + 2.f * cx * x + 1.f);
	PgRng rng;
	rng.state = state;
	const unsigned k = pg_rng_jwf_int(rng);
	state = rng.state;
	float sn, cs;
	sincosf(pg_jwf_mod(k, pp) * (float)pa, &sn, &cs);
	return make_float3(vr * (hx * cs + hy * sn), vr * (hy * cs - hx * sn), vr * z * (1.f - cx * cx));
}

// seashell3D: a point of the shell's tube at two random angles.
__device__ __noinline__ float3 pg_seashell3d(float w, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const float t = PG_2PI * pg_rng_unit53(rng), sa = PG_2PI * pg_rng_unit53(rng);
	state = rng.state;
	const float n = truncf(p[P_SEASHELL3D_NSPIRALS]), fr = p[P_SEASHELL3D_FINAL_RADIUS];
	const float in = p[P_SEASHELL3D_INNER_RADIUS], k = fr * (1.f - t / PG_2PI);
	float sn, cs;
	sincosf(n * t, &sn, &cs);
	const float ca = 1.f + cosf(sa);
	return make_float3((k * cs * ca + in * cs) * w, (k * sn * ca + in * sn) * w,
			   (p[P_SEASHELL3D_HEIGHT] * t / PG_2PI + k * sinf(sa)) * w);
}

// waveblur_wf: a disc blur of count concentric waves (the ring and side by
// draws compared and truncated in double), lifted in z by the wave's
// amplitude, damped outwards by damping_z.
__device__ __noinline__ float3 pg_waveblur_wf(float w, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	float count = pg_ftoi(p[P_WAVEBLUR_WF_COUNT]);
	if (count < 1.f) count = 1.f;
	const float ang = pg_rng_unit53(rng) * PG_2PI, rnd = 1.f - 2.f * pg_rng_unit53(rng);
	const double side = pg_rng_f64(rng);
	const float ring = (float)trunc(pg_rng_f64(rng) * (double)count);
	state = rng.state;
	float rr = (side < 0.5 ? acosf(rnd) : acosf(-rnd)) - (ring + 1.f) * PG_PI + p[P_WAVEBLUR_WF_PHASE];
	rr *= w / (count * PG_PI);
	float sn, cs;
	sincosf(ang, &sn, &cs);
	float pz = 0.f;
	const float amp = p[P_WAVEBLUR_WF_AMPLITUDE_Z];
	if (amp != 0.f) {
		float zamp = (cosf(rnd) - 0.5f) * amp;
		const float d = fmaxf(p[P_WAVEBLUR_WF_DAMPING_Z], 0.f);
		if (d != 0.f) zamp *= expf(rr * d);
		pz = w * zamp;
	}
	return make_float3(rr * cs, rr * sn, pz);
}

#include "flame_variations_3d6.cuh"

static __device__ __noinline__ PgFlame3Out pg_flame_var3d5(unsigned vid, float w, PgFlameVarState s, float tz,
							    const float *p, uint64_t state) {
	const float x = s.tx, y = s.ty;
	float3 o = make_float3(0.f, 0.f, 0.f);
	switch (vid) {
	case VAR_SECQ: o = pg_secq(w, x, y, tz); break;
	case VAR_TANHQ: o = pg_tanhq(w, x, y, tz); break;
	case VAR_SPH3D: { // z scaled by the x factor, as JWildfire's (sph3D_z is unused there)
		const float xx = p[P_SPH3D_X] * x, yy = p[P_SPH3D_Y] * y, zz = p[P_SPH3D_X] * tz;
		const float k = w / (xx * xx + yy * yy + zz * zz + 1e-29f);
		o = make_float3(x * k, y * k, tz * k);
		break;
	}
	case VAR_SQUARE3D: {
		PgRng rng;
		rng.state = state;
		const float a = pg_rng_unit53(rng), b = pg_rng_unit53(rng), c = pg_rng_unit53(rng);
		state = rng.state;
		o = make_float3(w * (a - 0.5f), w * (b - 0.5f), w * (c - 0.5f));
		break;
	}
	case VAR_WHITNEY_UMBRELLA: o = make_float3(w * x * y, w * x, w * y * y); break;
	case VAR_TRIANGLE: { // replaces the sum (pg_flame_replaces3)
		PgRng rng;
		rng.state = state;
		const float r1 = sqrtf(pg_rng_unit53(rng)), r2 = pg_rng_unit53(rng);
		state = rng.state;
		const float a = 1.f - r1, b = r1 * (1.f - r2), c = r2 * r1;
		o = make_float3(w * (a * p[P_TRIANGLE_X1] + b * p[P_TRIANGLE_X2] + c * p[P_TRIANGLE_X3]),
				w * (a * p[P_TRIANGLE_Y1] + b * p[P_TRIANGLE_Y2] + c * p[P_TRIANGLE_Y3]),
				w * (a * p[P_TRIANGLE_Z1] + b * p[P_TRIANGLE_Z2] + c * p[P_TRIANGLE_Z3]));
		break;
	}
	case VAR_HYPERTILE3D2: o = pg_hypertile3d2(w, x, y, tz, p, state); break;
	case VAR_SEASHELL3D: o = pg_seashell3d(w, p, state); break;
	case VAR_WAVEBLUR_WF: o = pg_waveblur_wf(w, p, state); break;
	default: return pg_flame_var3d6(vid, w, s, tz, p, state); // flame_variations_3d6.cuh
	}
	return PgFlame3Out{o, state};
}
