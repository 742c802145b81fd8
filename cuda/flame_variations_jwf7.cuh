// More of JWildfire's plugin variations on the device, each used once or
// twice in the artists' corpus: hypershift, loonie2, collideoscope, rose_wf,
// pTransform, kaleidoscope, eMotion, shredlin and rays2, float32 twins of
// variations_jwf9*.go under the conventions of flame_variations_jwf.cuh.
// shredlin and rays2 replace the sum before them on the CPU, which a
// contribution cannot: internal/flame's gpuPluginRefused keeps an xform
// where another variation precedes one on the CPU; first, replacing and
// adding are the same. rose_wf, pTransform and
// kaleidoscope have CPU ids past 255: their VAR_ macros are device ids
// (internal/flame's gpuDeviceID). pg_flame_var_jwf6_body's default case
// inlines this, inside pg_flame_var_jwf4.
#pragma once
// Included by flame_variations_jwf6.cuh after its helpers.

// loonie2: the loonie of a polygon, star or circle: sides (1 to 50) rounded,
// star and circle held to [−1, 1].
__device__ __noinline__ float2 pg_loonie2(float w, float tx, float ty, float sq, const float *p) {
	const float sides = fminf(fmaxf(pg_ftoi(p[P_LOONIE2_SIDES]), 1.f), 50.f);
	const float star = fminf(fmaxf(p[P_LOONIE2_STAR], -1.f), 1.f);
	const float circ = fminf(fmaxf(p[P_LOONIE2_CIRCLE], -1.f), 1.f);
	const float sqrvvar = w * w;
	float sa, ca, ss, cs, sc, cc;
	sincosf(PG_2PI / sides, &sa, &ca);
	sincosf(-PG_PI_2 * star, &ss, &cs);
	sincosf(PG_PI_2 * circ, &sc, &cc);
	float xrt = tx, yrt = ty;
	float r2 = xrt * cs + fabsf(yrt) * ss;
	float i = 0.f;
	for (; i < sides - 1.f; i += 1.f) {
		const float nx = xrt * ca - yrt * sa;
		yrt = xrt * sa + yrt * ca;
		xrt = nx;
		r2 = fmaxf(r2, xrt * cs + fabsf(yrt) * ss);
	}
	r2 = r2 * cc + sq * sc;
	r2 = i > 1.f ? r2 * r2 : fabsf(r2) * r2;
	float k = w;
	if (r2 > 0.f && r2 < sqrvvar) k = w * sqrtf(fabsf(sqrvvar / r2 - 1.f));
	else if (r2 < 0.f) k = w / sqrtf(fabsf(sqrvvar / r2) - 1.f);
	return make_float2(k * tx, k * ty);
}

// collideoscope: the angle folded into num mirrored wedges, shifted by a.
__device__ __forceinline__ float2 pg_collideoscope(float w, PgFlameVarState &s, const float *p) {
	const float num = fmaxf(pg_ftoi(p[P_COLLIDEOSCOPE_NUM]), 1.f);
	const float a0 = fminf(fmaxf(p[P_COLLIDEOSCOPE_A], 0.f), 1.f);
	const float knpi = num / PG_PI, pikn = PG_PI / num, kakn = PG_PI * a0 / num;
	float a = s.atanyx();
	const float rr = w * s.sqrt;
	if (a >= 0.f) {
		const float alt = truncf(a * knpi);
		a = fmodf(alt, 2.f) == 0.f ? alt * pikn + fmodf(kakn + a, pikn) : alt * pikn + fmodf(-kakn + a, pikn);
	} else {
		const float alt = truncf(-a * knpi);
		a = fmodf(alt, 2.f) != 0.f ? -(alt * pikn + fmodf(-kakn - a, pikn)) : -(alt * pikn + fmodf(kakn - a, pikn));
	}
	float sn, cs;
	sincosf(a, &sn, &cs);
	return make_float2(rr * cs, rr * sn);
}

// pTransform: polar coordinates moved, split and (use_log) taken as logs.
__device__ __forceinline__ float2 pg_ptransform(float w, PgFlameVarState &s, const float *p) {
	const float power = fmaxf(pg_ftoi(p[P_PTRANSFORM_POWER]), 1.f);
	const bool uselog = fminf(fmaxf(pg_ftoi(p[P_PTRANSFORM_USE_LOG]), 0.f), 1.f) != 0.f;
	float rho = (uselog ? logf(s.sqrt) : s.sqrt) / power + p[P_PTRANSFORM_MOVE];
	rho += s.tx >= 0.f ? p[P_PTRANSFORM_SPLIT] : -p[P_PTRANSFORM_SPLIT];
	if (uselog) rho = expf(rho);
	float sn, cs;
	sincosf(s.atanyx() + p[P_PTRANSFORM_ROTATE], &sn, &cs);
	return make_float2(w * rho * cs, w * rho * sn);
}

// One of shredlin's axes: each strip of width dist narrowed to width about
// its middle.
__device__ __forceinline__ float pg_shred(float w, float v, float dist, float width) {
	const float pos = v < 0.f ? 1.f : 0.f, rr = v / dist;
	return w * dist * ((rr - truncf(rr)) * width + truncf(rr) + (0.5f - pos) * (1.f - width));
}

// rays2 in double, as the CPU: tan(1/r²) near the origin has lost every
// digit in float32 (1/r² of 100 is off by ~1e-5 there).
__device__ __forceinline__ float2 pg_rays2(float w, float x, float y) {
	const double t = (double)x * x + (double)y * y;
	const double u = 1.0 / cos((t + 1e-300) * tan(1.0 / t + 1e-300));
	return make_float2((float)(w / 10.0 * u * t / x), (float)(w / 10.0 * u * t / y));
}

static __device__ __forceinline__ float2 pg_flame_var_jwf7_body(unsigned vid, float w, PgFlameVarState &s, const float *p,
								 PgRng &rng) {
	const float x = s.tx, y = s.ty;
	switch (vid) {
	case VAR_HYPERSHIFT: {
		const float sh = p[P_HYPERSHIFT_SHIFT];
		float rad = 1.f / (x * x + y * y);
		const float hx = rad * x + sh, hy = rad * y;
		rad = w * (1.f - sh * sh) / (hx * hx + hy * hy);
		return make_float2(rad * hx + sh, rad * hy * p[P_HYPERSHIFT_STRETCH]);
	}
	case VAR_LOONIE2: return pg_loonie2(w, x, y, s.sqrt, p);
	case VAR_COLLIDEOSCOPE: return pg_collideoscope(w, s, p);
	case VAR_ROSE_WF: { // the angle atan2(x, y), JWildfire's precalculated one
		const float a = s.atanxy();
		float rr = p[P_ROSE_WF_AMP] * cosf(pg_ftoi(p[P_ROSE_WF_WAVES]) * a);
		const double u1 = pg_rng_f64(rng);
		const float u2 = pg_rng_unit53(rng), f = p[P_ROSE_WF_FILLED];
		if (f > 0.f && (double)f > u1) rr *= u2;
		float sn, cs;
		sincosf(a, &sn, &cs);
		return make_float2(w * sn * rr, w * cs * rr);
	}
	case VAR_PTRANSFORM: return pg_ptransform(w, s, p);
	case VAR_KALEIDOSCOPE: { // the weight unused and the turn cos 45, sin 45 in radians, as JWildfire's
		const float q = p[P_KALEIDOSCOPE_PULL], rot = p[P_KALEIDOSCOPE_ROTATE], e = p[P_KALEIDOSCOPE_LINE_UP];
		const float c45 = 0.52532198881772973f, s45 = 0.85090352453411844f;
		const float ox = rot * x * c45 - y * s45 + e + p[P_KALEIDOSCOPE_X];
		const float oy = y > 0.f ? rot * y * c45 + x * s45 + q + e + p[P_KALEIDOSCOPE_Y] : rot * y * c45 + x * s45 - q - e;
		return make_float2(ox, oy);
	}
	case VAR_EMOTION: { // elliptic coordinates moved along mu and turned
		const float2 e = pg_elliptic(x, y * y + x * x + 1.f, y < 0.f);
		float mu = e.x, nu = e.y;
		mu += nu < 0.f ? p[P_EMOTION_MOVE] : -p[P_EMOTION_MOVE];
		if (mu <= 0.f) {
			mu = -mu;
			nu = -nu;
		}
		nu += p[P_EMOTION_ROTATE];
		return make_float2(w * coshf(mu) * cosf(nu), w * sinhf(mu) * sinf(nu));
	}
	case VAR_SHREDLIN:
		return make_float2(pg_shred(w, x, p[P_SHREDLIN_XDISTANCE], p[P_SHREDLIN_XWIDTH]),
				   pg_shred(w, y, p[P_SHREDLIN_YDISTANCE], p[P_SHREDLIN_YWIDTH]));
	case VAR_RAYS2: return pg_rays2(w, x, y);
	}
	return make_float2(0.f, 0.f);
}
