// flam3 variations as other programs extend them (internal/flame's
// variations_jwf12.go): JWildfire's elliptic with its mode, its splits with
// shears and Fractorium's log with a base, and JWildfire's heart_wf, float32 twins under the
// conventions of flame_variations_jwf.cuh. flam3's own elliptic, splits and
// log (flame_variations_rare.cuh) are untouched: these have ids of their
// own (the header's _FR: a second variation of the name). One more
// out-of-line function, called from pg_flame_var_jwf10's default case.
#pragma once
// Included by flame_variations_jwf10.cuh (PgJwfOut3, pg_rng_unit53,
// pg_ftoi, pg_ellipse).

// heart_wf: the heart curve at t, the angle from the y axis scaled per half
// and shifted (at most T_MAX, 60), times the radius.
__device__ __noinline__ float2 pg_heart_wf(float w, float a, float r, const float *p) {
	const bool left = a < 0.f;
	const float t = fminf((left ? -a : a) * PG_1_PI * 60.f * (left ? p[P_HEART_WF_SCALE_R_LEFT] : p[P_HEART_WF_SCALE_R_RIGHT]) -
				      p[P_HEART_WF_SHIFT_T],
			      60.f);
	float sn, cs;
	sincosf(PG_PI * t / 180.f, &sn, &cs);
	const float nx = 0.001f * (-t * t + 40.f * t + 1200.f) * sn * r;
	const float ny = -0.001f * (-t * t + 40.f * t + 400.f) * cs * r;
	return make_float2(w * (left ? -nx : nx) * p[P_HEART_WF_SCALE_X], w * ny);
}

// The out-of-line call from pg_flame_var_jwf10, state and stream by value.
static __device__ __noinline__ PgJwfOut3 pg_flame_var_jwf12(unsigned vid, float w, PgFlameVarState s, const float *p,
							    uint64_t state) {
	float2 d = make_float2(0.f, 0.f);
	PgRng rng;
	rng.state = state;
	switch (vid) {
	case VAR_ELLIPTIC_FR: {
		// Every mode is flam3's map up to y's sign (mode 2 is the same map
		// computed without the original's loss of precision, as
		// pg_ellipse computes flam3's): mode 1 draws the sign, and the
		// draw is taken in every mode, as on the CPU.
		const float u = pg_rng_unit53(rng);
		const float mode = fminf(fmaxf(pg_ftoi(p[P_ELLIPTIC_FR_MODE]), 0.f), 2.f);
		const PgEllipse e = pg_ellipse(s.tx, s.ty);
		const float k = w * PG_2_PI, l = k * log1pf(e.xmax_m1 + sqrtf(e.xmax_m1));
		const bool pos = mode == 1.f ? u < 0.5f : s.ty > 0.f;
		d = make_float2(k * atan2f(e.a, sqrtf(e.one_m_a2)), pos ? l : -l);
		break;
	}
	case VAR_SPLITS_FR: // x's half plane, then y's, each moving the other coordinate by its shear
		if (s.tx >= 0.f) d = make_float2(w * (s.tx + p[P_SPLITS_FR_X]), w * p[P_SPLITS_FR_RSHEAR]);
		else d = make_float2(w * (s.tx - p[P_SPLITS_FR_X]), -w * p[P_SPLITS_FR_LSHEAR]);
		if (s.ty >= 0.f) d.y += w * (s.ty + p[P_SPLITS_FR_Y]), d.x += w * p[P_SPLITS_FR_USHEAR];
		else d.y += w * (s.ty - p[P_SPLITS_FR_Y]), d.x -= w * p[P_SPLITS_FR_DSHEAR];
		break;
	case VAR_LOG_FR: // Fractorium's denominator: w·0.5/ln base
		d = make_float2(logf(s.sumsq) * (w * 0.5f / logf(p[P_LOG_FR_BASE])), w * s.atanyx());
		break;
	case VAR_HEART_WF: d = pg_heart_wf(w, s.atanxy(), s.sqrt, p); break;
	}
	return PgJwfOut3{d, rng.state};
}
