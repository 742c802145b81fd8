// More of JWildfire's (and Fractorium's) plugin variations on the device:
// asteria, cpow3, cpow3_wf, eScale, chrysanthemum, lazyTravis and gnarly,
// float32 twins of variations_jwf9c/f/g/j.go under the conventions of
// flame_variations_jwf.cuh. pg_flame_var_jwf4_body's default case inlines
// this, inside the same out-of-line function (pg_flame_var_jwf4).
#pragma once
// Included by flame_variations_jwf4.cuh after its helpers.

// Michael Faber's elliptic coordinates (internal/flame's elliptic) of a
// point at x with x² + y² + 1 = t: mu, and nu negative where y is.
__device__ __forceinline__ float2 pg_elliptic(float x, float t, bool yneg) {
	const float a = t + 2.f * x, b = t - 2.f * x;
	const float xmax = fmaxf(((a <= 0.f ? 0.f : sqrtf(a)) + (b <= 0.f ? 0.f : sqrtf(b))) * 0.5f, 1.f);
	// (xmax − 1)(xmax + 1) is xmax² − 1 without float32's cancellation near
	// the foci's segment, where the CPU's float64 still has digits.
	const float mu = logf(sqrtf((xmax - 1.f) * (xmax + 1.f)) + xmax);
	const float nu = acosf(fminf(fmaxf(x / xmax, -1.f), 1.f));
	return make_float2(mu, yneg ? -nu : nu);
}

// cpow3: z^(r·e^(iθ)), θ from d, its branches spread as JWildfire's draws
// them; the draws' branch integers are taken in double, as the CPU's.
__device__ __noinline__ float2 pg_cpow3(float w, float x, float y, float sumsq, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const float div = p[P_CPOW3_DIVISOR], d = p[P_CPOW3_D], r = p[P_CPOW3_R];
	const float ld = d < 0.f ? -logf(-d) : logf(d);
	const float pa = atan2f(ld * r, PG_2PI);
	const float tc = cosf(pa) * r * cosf(pa) / div, td = cosf(pa) * r * sinf(pa) / div;
	const double coeff = td != 0.f ? -0.095 * (double)p[P_CPOW3_SPREAD] / (double)td : 0.0;
	float a = atan2f(y, x);
	if (a < 0.f) a += PG_2PI;
	if ((double)cosf(a / 2.f) < pg_rng_f64(rng) * 2.0 - 1.0) a -= PG_2PI;
	const float turn = pg_rng_f64(rng) < 0.5 ? PG_2PI : -PG_2PI;
	a += turn * (float)floor(log(pg_rng_f64(rng)) * coeff + 0.5);
	const float lnr2 = logf(sumsq);
	const float rr = w * expf(tc / 2.f * lnr2 - td * a);
	const float th = tc * a + td / 2.f * lnr2 + PG_2PI / div * (float)floor((double)div * pg_rng_f64(rng));
	state = rng.state;
	float sn, cs;
	sincosf(th, &sn, &cs);
	return make_float2(rr * cs, rr * sn);
}

// cpow3_wf: Cozyg's complex power with a spread of branches.
__device__ __noinline__ float2 pg_cpow3_wf(float w, float x, float y, float sumsq, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const float div = p[P_CPOW3_WF_DIVISOR], spread = p[P_CPOW3_WF_SPREAD];
	const float ang = PG_2PI / div;
	const float c = p[P_CPOW3_WF_R] * cosf(PG_PI_2 * p[P_CPOW3_WF_A]) / div;
	const float d = p[P_CPOW3_WF_R] * sinf(PG_PI_2 * p[P_CPOW3_WF_A]) / div;
	float ai = atan2f(y, x);
	double n = pg_rng_f64(rng) * (double)spread;
	if (p[P_CPOW3_WF_DISCRETE_SPREAD] >= 1.f) n = trunc(n);
	if (ai < 0.f) n += 1.0;
	ai += PG_2PI * (float)n;
	if ((double)cosf(ai * (0.5f / spread)) < pg_rng_f64(rng) * 2.0 - 1.0) ai -= PG_2PI * spread;
	const float lnr2 = logf(sumsq);
	const float ri = w * expf(c / 2.f * lnr2 - d * ai);
	const float a2 = c * ai * (d / 2.f) * lnr2 * ang *
			 (pg_rng_unit53(rng) * p[P_CPOW3_WF_SPREAD2] + p[P_CPOW3_WF_OFFSET2]);
	state = rng.state;
	return make_float2(ri * cosf(a2), ri * sinf(a2));
}

// eScale: elliptic coordinates with the angle scaled and wrapped.
__device__ __forceinline__ float2 pg_escale(float w, float x, float y, const float *p) {
	const float2 e = pg_elliptic(x, y * y + x * x + 1.f, y < 0.f);
	const float sc = p[P_ESCALE_SCALE], ang = p[P_ESCALE_ANGLE];
	const float mu = e.x * sc;
	float nu = fmodf(fmodf(sc * (e.y + PG_PI + ang), PG_2PI * sc) - ang - sc * PG_PI, PG_2PI);
	if (nu > PG_PI) nu -= PG_2PI;
	if (nu < -PG_PI) nu += PG_2PI;
	return make_float2(w * coshf(mu) * cosf(nu), w * sinhf(mu) * sinf(nu));
}

// asteria: points inside the unit disc but outside the four corner discs
// (or, by a draw, some inside them) stay; the others are bent by alpha.
__device__ __forceinline__ float2 pg_asteria(float w, float tx, float ty, const float *p, PgRng &rng) {
	const float x0 = w * tx, y0 = w * ty;
	const float rr = x0 * x0 + y0 * y0, ax = fabsf(x0) - 1.f, ay = fabsf(y0) - 1.f;
	bool in1 = rr < 1.f;
	const double u = pg_rng_f64(rng);
	if (in1 && sqrtf(ay * ay + ax * ax) < 1.f) in1 = u > 0.35;
	else in1 = !in1;
	if (in1) return make_float2(x0, y0);
	float sa, ca;
	sincosf(PG_PI * p[P_ASTERIA_ALPHA], &sa, &ca);
	const float xx = x0 * ca - y0 * sa, yy = x0 * sa + y0 * ca;
	const float m = 1.f - fabsf(yy);
	const float nx = xx / sqrtf(1.f - yy * yy) * (1.f - sqrtf(1.f - m * m));
	return make_float2(nx * ca + yy * sa, -nx * sa + yy * ca);
}

// a reduced by whole turns of period (2π, or π for tan: period_hi +
// period_lo is the period to 106 bits), in double, then rounded to float:
// what the double-precision sin, cos and tan of a large argument cost in
// ptxas time (their Payne-Hanek slow paths: seconds per architecture for
// the plugin family), at float32's error in the reduced angle. Good while
// a/period stays well below 2^52 / 2^27.
__device__ __forceinline__ float pg_reduce(double a, double period_hi, double period_lo) {
	const double k = rint(a / period_hi);
	return (float)fma(-k, period_lo, fma(-k, period_hi, a));
}
#define PG_2PI_HI 6.283185307179586
#define PG_2PI_LO 2.4492935982947064e-16
#define PG_PI_HI 3.141592653589793
#define PG_PI_LO 1.2246467991473532e-16

// chrysanthemum: a point of the curve at a drawn u in [0, 21π). Its phases
// (up to 28u ≈ 1850 rad) in double, reduced before float's sine: float32's
// u alone would be off by ~1e-4 rad there.
__device__ __noinline__ float2 pg_chrysanthemum(float w, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const double u = 21.0 * 3.141592653589793 * pg_rng_f64(rng);
	state = rng.state;
	const float p4 = sinf(pg_reduce(17.0 * u / 3.0, PG_2PI_HI, PG_2PI_LO));
	const double c3 = (double)cosf(pg_reduce(3.0 * u, PG_2PI_HI, PG_2PI_LO));
	const float p8 = sinf(pg_reduce(2.0 * c3 - 28.0 * u, PG_2PI_HI, PG_2PI_LO));
	const float p42 = p4 * p4, p82 = p8 * p8, p84 = p82 * p82;
	const float rr = (5.f * (1.f + sinf(pg_reduce(11.0 * u / 5.0, PG_2PI_HI, PG_2PI_LO))) - 4.f * p42 * p42 * p84 * p84) *
			 w * 0.1f;
	float sn, cs;
	sincosf(pg_reduce(u, PG_2PI_HI, PG_2PI_LO), &sn, &cs);
	return make_float2(rr * cs, rr * sn);
}

// lazyTravis: points outside the square of half side |w| move along their
// square ring by spin_out (and out by space), those inside by spin_in.
__device__ __forceinline__ float2 pg_lazy_travis(float w, float x, float y, const float *p) {
	const float ax = fabsf(x), ay = fabsf(y);
	const bool outside = ax > w || ay > w;
	const float spin = 4.f * (outside ? p[P_LAZYTRAVIS_SPIN_OUT] : p[P_LAZYTRAVIS_SPIN_IN]);
	float side, perim;
	if (ax > ay) {
		side = ax;
		perim = x > 0.f ? side + y : 5.f * side - y;
	} else {
		side = ay;
		perim = y > 0.f ? 3.f * side - x : 7.f * side + x;
	}
	perim = fmodf(perim + side * spin, side * 8.f);
	if (!outside) {
		if (perim <= 2.f * side) return make_float2(w * side, -(w * (side - perim)));
		if (perim <= 4.f * side) return make_float2(w * (3.f * side - perim), w * side);
		if (perim <= 6.f * side) return make_float2(-(w * side), w * (5.f * side - perim));
		return make_float2(-(w * (7.f * side - perim)), -(w * side));
	}
	const float sp = p[P_LAZYTRAVIS_SPACE];
	float x2, y2;
	if (perim <= 2.f * side) {
		x2 = side + sp; y2 = -(side - perim);
		y2 += y2 / side * sp;
	} else if (perim <= 4.f * side) {
		x2 = 3.f * side - perim; y2 = side + sp;
		x2 += x2 / side * sp;
	} else if (perim <= 6.f * side) {
		x2 = -(side + sp); y2 = 5.f * side - perim;
		y2 += y2 / side * sp;
	} else {
		x2 = -(7.f * side - perim); y2 = -(side + sp);
		x2 += x2 / side * sp;
	}
	return make_float2(w * x2, w * y2);
}

// gnarly: Fractorium's, the point twisted about its cell's centre by
// twist·log(r²/R²) inside the cell's disc of radius R = cellsize/2.
__device__ __forceinline__ float2 pg_gnarly(float w, float vx, float vy, const float *p) {
	const float cs = p[P_GNARLY_CELLSIZE];
	if (cs != 0.f) {
		const float r2 = pg_zeps(0.25f * cs * cs);
		const float cx = (floorf(vx / cs) + 0.5f) * cs, cy = (floorf(vy / cs) + 0.5f) * cs;
		const float lx = vx - cx, ly = vy - cy, d = lx * lx + ly * ly;
		if (d <= r2) {
			float sn, c;
			sincosf(p[P_GNARLY_TWIST] * logf(d / r2), &sn, &c);
			vx = cx + c * lx + sn * ly;
			vy = cy - sn * lx + c * ly;
		}
	}
	return make_float2(w * vx, w * vy);
}

#include "flame_variations_jwf6.cuh"

static __device__ __forceinline__ float2 pg_flame_var_jwf5_body(unsigned vid, float w, PgFlameVarState &s, const float *p,
								 PgRng &rng) {
	switch (vid) {
	case VAR_ASTERIA: return pg_asteria(w, s.tx, s.ty, p, rng);
	case VAR_CPOW3: return pg_cpow3(w, s.tx, s.ty, s.sumsq, p, rng.state);
	case VAR_CPOW3_WF: return pg_cpow3_wf(w, s.tx, s.ty, s.sumsq, p, rng.state);
	case VAR_ESCALE: return pg_escale(w, s.tx, s.ty, p);
	case VAR_CHRYSANTHEMUM: return pg_chrysanthemum(w, rng.state);
	case VAR_LAZYTRAVIS: return pg_lazy_travis(w, s.tx, s.ty, p);
	case VAR_GNARLY: return pg_gnarly(w, s.tx, s.ty, p);
	default: return pg_flame_var_jwf6_body(vid, w, s, p, rng);
	}
}
