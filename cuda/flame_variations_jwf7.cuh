// More of JWildfire's plugin variations on the device, each used once or
// twice in the artists' corpus: hypershift, loonie2, collideoscope, rose_wf,
// pTransform, kaleidoscope, eMotion, shredlin, rays2 and truchet, float32 twins of
// variations_jwf9*.go under the conventions of flame_variations_jwf.cuh.
// shredlin and rays2 replace the sum before them on the CPU: pg_flame_var
// clears it before adding theirs (pg_jwf_replaces).
// pg_flame_var_jwf6_body's default case inlines this,
// inside pg_flame_var_jwf4.
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

// rays2 with r² in double and its tan(1/r²) and the cosine reduced in
// double (pg_reduce), as the CPU's double: in float32, 1/r² of 100 is off by
// ~1e-5 rad already.
__device__ __forceinline__ float2 pg_rays2(float w, float x, float y) {
	const double t = (double)x * x + (double)y * y;
	const double tn = (double)tanf(pg_reduce(1.0 / t + 1e-300, PG_PI_HI, PG_PI_LO));
	const double u = 1.0 / (double)cosf(pg_reduce((t + 1e-300) * tn, PG_2PI_HI, PG_2PI_LO));
	return make_float2((float)(w / 10.0 * u * t / x), (float)(w / 10.0 * u * t / y));
}

// fmod(v, m) for m > 0 without the device's fmod, whose slow path raised
// the registers the chaos game saves around every plugin call (its spill
// stores 908 -> 1128 bytes): v − trunc(v/m)·m, exact by one fma wherever the
// quotient's product with m needs at most 53 bits (|v| below 2^53 here),
// and nudged by m where v/m rounded across a whole number. The result, as
// fmod's, has v's sign and is exact.
__device__ __forceinline__ double pg_fmod_pos(double v, double m) {
	double r = fma(-trunc(v / m), m, v);
	if (v >= 0.0) {
		if (r < 0.0) r += m;
		else if (r >= m) r -= m;
	} else {
		if (r > 0.0) r -= m;
		else if (r <= -m) r += m;
	}
	return r;
}

// truchet's tile orientation (0 or 1 and between) for the tile at the
// rounded (tx, ty): a seeded congruence, in double as the CPU's (its
// products reach 1e9, where float32 has no fraction left for the mod 2);
// the extended one's iteration in whole numbers below 2^31, exactly.
__device__ __forceinline__ double pg_truchet_tile(float tx, float ty, double seed, bool extended) {
	const double modbase = 65535.0, multiplier = 32747.0, offset = 12345.0;
	if (seed == 0.0) return 0.0;
	if (seed == 1.0) return 1.0;
	const double xr = floor((double)tx + 0.5), yr = floor((double)ty + 0.5);
	if (!extended) {
		const double seed2 = sqrt(seed + seed / 2.0 + 1e-300) / (seed * 0.5 + 1e-300) * 0.25;
		const double ri = (xr * seed2 + yr * seed2 + xr * seed2 * yr * seed2 + seed) * seed2 / 2.0;
		return pg_fmod_pos(pg_fmod_pos(ri * multiplier + offset, modbase), 2.0);
	}
	const int niter = (int)fmin(fabs(xr + yr + xr * yr), 1000.0);
	// floor(seed) + niter is whole and nonnegative; after one step it is below 65535.
	double ri = floor(seed) + niter;
	if (niter > 0) ri = pg_fmod_pos(ri * multiplier + offset, modbase);
	unsigned long long k = (unsigned long long)ri;
	for (int i = 1; i < niter; i++) k = (k * 32747ull + 12345ull) % 65535ull;
	return niter > 0 ? (double)(k & 1ull) : pg_fmod_pos(ri, 2.0);
}

// truchet: arcs of the unit tiles of the scaled plane; only points on an
// arc are kept (others add nothing), once per arc they lie on.
__device__ __noinline__ float2 pg_truchet(float w, float tx, float ty, const float *p) {
	const bool extended = fminf(fmaxf(pg_ftoi(p[P_TRUCHET_EXTENDED]), 0.f), 1.f) == 1.f;
	const float n = fminf(fmaxf(p[P_TRUCHET_EXPONENT], 0.001f), 2.f);
	const float width = fminf(fmaxf(p[P_TRUCHET_ARC_WIDTH], 0.001f), 1.f);
	const float size = fminf(fmaxf(p[P_TRUCHET_SIZE], 0.001f), 10.f);
	const float onen = 1.f / n;
	const float rmax = 0.5f * (powf(2.f, 1.f / n) - 1.f) * width;
	float sr, cr;
	sincosf(-p[P_TRUCHET_ROTATION], &sr, &cr);
	const float scale = (cr - sr) / w;
	auto frac = [](float v) {
		const float d = v - floorf(v + 0.5f);
		return d < 0.f ? 1.f + d : d;
	};
	const float x = frac(tx * scale), y = frac(ty * scale);
	const double tile = pg_truchet_tile(tx, ty, fabs((double)p[P_TRUCHET_SEED]), extended);
	auto dist = [&](float ax, float ay) { return powf(powf(fabsf(ax), n) + powf(fabsf(ay), n), onen); };
	const bool first = (!extended && tile < 1.0) || (extended && tile == 1.0);
	const float r0 = first ? dist(x, y) : dist(x - 1.f, y), r1 = first ? dist(x - 1.f, y - 1.f) : dist(x, y - 1.f);
	const float ox = size * (x + floorf(tx)), oy = size * (y + floorf(ty));
	const float k = (fabsf(r0 - 0.5f) / rmax < 1.f ? 1.f : 0.f) + (fabsf(r1 - 0.5f) / rmax < 1.f ? 1.f : 0.f);
	return make_float2(k * ox, k * oy);
}

#include "flame_variations_jwf8.cuh"

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
	case VAR_TRUCHET: return pg_truchet(w, x, y, p);
	}
	const PgJwfOut3 o = pg_flame_var_jwf8(vid, w, s, p, rng.state); // flame_variations_jwf8.cuh
	rng.state = o.rng;
	return o.d;
}
