// flam3's 99 variations in float32: the device twin of internal/flame's
// ApplyXform (variations*.go) minus the affine, post and colour steps, which
// the caller does. Formulas are flam3's (src/variations.c); where a float32
// evaluation of flam3's expression loses accuracy that float64 keeps (a
// cancellation, a tangent near its pole, a difference of nearly equal
// radii), an algebraically identical, better conditioned form is used and
// the case says so. Random draws follow "Random draws" in
// internal/flame/variations.go exactly (count, order, pre_blur first, none for
// a zero weight), so a thread and the CPU walk one stream: each of flam3's
// isaac_01 is one pg_rng_unit, each isaac_bit one pg_rng_u64 & 1, and
// flam3's (int)/trunc casts are float truncation (truncf), never an int.
#pragma once
#include "common.cuh"
#include "flame_ids.cuh"

#define PG_FLAME_EPS 1e-10f // flam3's EPS (private.h)
#define PG_PI 3.14159265358979323846f
#define PG_2PI 6.28318530717958647692f
#define PG_PI_2 1.57079632679489661923f
#define PG_PI_4 0.78539816339744830962f
#define PG_1_PI 0.31830988618379067154f
#define PG_2_PI 0.63661977236758134308f

// One xform's view of a point: the affine output (tx, ty), the affine
// coefficients c = {a b c d e f} (x' = a·x + c·y + e, y' = b·x + d·y + f;
// flam3's c[3][2] row by row) and the NUM_PARAMS parameters, precalculated
// slots (PRECALC_FIRST..) included, as internal/flame's Precalc fills them.
struct FlameVarIn {
	float tx, ty;
	const float *c;
	const float *p;
};

// The per-point values several variations share (flam3_iter_helper): sumsq
// and sqrt always, the angles lazily, at most once per application.
struct PgFlameVarState {
	float tx, ty, sumsq, sqrt;
	float atan_xy, atan_yx, sina, cosa;
	unsigned have;
	__device__ __forceinline__ float atanxy() { // flam3 precalc_atan: atan2(x, y)
		if (!(have & 1u)) { atan_xy = atan2f(tx, ty); have |= 1u; }
		return atan_xy;
	}
	__device__ __forceinline__ float atanyx() { // flam3 precalc_atanyx: atan2(y, x)
		if (!(have & 2u)) { atan_yx = atan2f(ty, tx); have |= 2u; }
		return atan_yx;
	}
	__device__ __forceinline__ void angles() { // flam3 precalc_sina/cosa: x/r, y/r (NaN at 0)
		if (!(have & 4u)) { sina = tx / sqrt; cosa = ty / sqrt; have |= 4u; }
	}
};

// tan(a·b) with the rounding of the product a·b compensated to first order
// (tan(h+l) ≈ tan h + l·(1 + tan² h)): popcorn's sin(tan(·)) is evaluated
// near the poles of tan, where the float32 product alone would already be
// off by more than the result's tolerance. __fmul_rn keeps the product from
// being contracted into the fma that recovers its error.
__device__ __forceinline__ float pg_tan_mul(float a, float b) {
	float h = __fmul_rn(a, b);
	float l = fmaf(a, b, -h);
	float t = tanf(h);
	return l == 0.f ? t : fmaf(l, fmaf(t, t, 1.f), t);
}

// sin(a·b) of the exact product h + l (h = a·b rounded, l its error, both
// floats): waves multiplies by 1/(e²+EPS), 1e10 for a zero offset, and a
// float32 product that large has lost every digit of its sine, while the
// exact product keeps flam3's float64 value.
__device__ __forceinline__ float pg_sin_mul(float a, float b) {
	float h = __fmul_rn(a, b);
	float l = fmaf(a, b, -h);
	if (l == 0.f) return sinf(h);
	float sh, ch, sl, cl;
	sincosf(h, &sh, &ch);
	sincosf(l, &sl, &cl);
	return fmaf(sh, cl, ch * sl);
}

// w − √(x²+y²) accurate also when the two nearly cancel (whorl at r ≈ w):
// then (w² − x² − y²)/(w + r) with the squares and their difference summed
// with their rounding errors (fma products, TwoSum), so float32 keeps the
// relative accuracy of the difference. The _rn intrinsics stop the compiler
// contracting the error-free transformations.
__device__ __forceinline__ float pg_w_minus_r(float w, float x, float y, float r) {
	float d = w - r;
	if (!(w > 0.f) || fabsf(d) > 0.25f * w) return d;
	float p = __fmul_rn(w, w), pe = fmaf(w, w, -p);
	float q = __fmul_rn(x, x), qe = fmaf(x, x, -q);
	float s = __fmul_rn(y, y), se = fmaf(y, y, -s);
	float a = __fsub_rn(p, q), t = __fsub_rn(a, p);
	float ea = __fadd_rn(__fsub_rn(p, __fsub_rn(a, t)), __fsub_rn(-q, t));
	float b = __fsub_rn(a, s);
	t = __fsub_rn(b, a);
	float eb = __fadd_rn(__fsub_rn(a, __fsub_rn(b, t)), __fsub_rn(-s, t));
	return (b + (((ea + eb) + pe) - (qe + se))) / (w + r);
}

// flam3's badvalue: NaN or beyond ±1e10.
__device__ __forceinline__ bool pg_flame_bad(float v) { return !(v <= 1e10f && v >= -1e10f); }

// flam3's pseudo-Gaussian: ((u1+u2)+u3)+u4 − 2, in the CPU's order.
__device__ __forceinline__ float pg_gauss4(PgRng &rng) {
	float g = pg_rng_unit(rng) + pg_rng_unit(rng);
	g += pg_rng_unit(rng);
	g += pg_rng_unit(rng);
	return g - 2.f;
}

// wedge and wedge_sph: split angle a into count sectors opened by angle.
__device__ __forceinline__ float pg_wedge_fold(float a, float count, float angle) {
	float c = floorf((count * a + PG_PI) * (0.5f * PG_1_PI));
	return a * (1.f - angle * count * (0.5f * PG_1_PI)) + c * angle;
}

// modulus: wrap v into [−m, m] as flam3 does.
__device__ __forceinline__ float pg_wrap_modulus(float v, float m) {
	if (v > m) return -m + fmodf(v + m, 2.f * m);
	if (v < -m) return m - fmodf(m - v, 2.f * m);
	return v;
}

// edisc and elliptic's elliptic coordinates of z = x + iy: xmax = ½(|z+1| +
// |z−1|) (flam3 takes the radii as √(r²+1 ± 2x)), xmax − 1 and 1 − a², a =
// x/xmax. flam3 subtracts nearly equal values for all three near the segment
// [−1, 1] and along the x axis, where float32 loses them entirely; here each
// is a sum of non-negative terms, through |z±1| − |x±1| = y²/(|z±1| + |x±1|):
// d = xmax − max(|x|, 1), xmax − 1 = d + max(|x|−1, 0) and
// 1 − a² = (xmax − |x|)/xmax · (1 + |a|) with xmax − |x| = d + max(1−|x|, 0).
struct PgEllipse {
	float xmax, xmax_m1, a, one_m_a2;
};
__device__ __forceinline__ PgEllipse pg_ellipse(float x, float y) {
	float y2 = y * y, ap = fabsf(x + 1.f), am = fabsf(x - 1.f), ax = fabsf(x);
	float d = 0.f;
	if (y2 != 0.f) d = 0.5f * (y2 / (sqrtf(ap * ap + y2) + ap) + y2 / (sqrtf(am * am + y2) + am));
	PgEllipse e;
	e.xmax = fmaxf(ax, 1.f) + d;
	e.xmax_m1 = d + fmaxf(ax - 1.f, 0.f);
	e.a = x / e.xmax;
	e.one_m_a2 = (d + fmaxf(1.f - ax, 0.f)) / e.xmax * (1.f + fabsf(e.a));
	return e;
}

#include "flame_variations_rare.cuh"

// The state of a point entering an xform's variations: (tx, ty) moved by
// pre_blur, weights[pre] (pre < 0: none; pg_flame_pre_blur finds it), first,
// before sumsq and the angles, as in flam3.
static __device__ __forceinline__ PgFlameVarState pg_flame_vars_begin(float tx, float ty, int pre, const float *weights,
								   PgRng &rng) {
	if (pre >= 0) {
		float g = weights[pre] * pg_gauss4(rng);
		float sa, ca;
		sincosf(pg_rng_unit(rng) * PG_2PI, &sa, &ca);
		tx += g * ca; ty += g * sa;
	}
	PgFlameVarState s;
	s.tx = tx;
	s.ty = ty;
	s.sumsq = tx * tx + ty * ty;
	s.sqrt = sqrtf(s.sumsq);
	s.have = 0;
	return s;
}

#ifdef PG_FLAME_PLUGINS
// pg_jwf_replaces reports whether plugin variation id replaces the sum of
// the variations before it on the CPU (their s.px = ..., s.py = ...), where
// the device's other variations add: shredlin, rays2 and mirror_x.
static __device__ __forceinline__ bool pg_jwf_replaces(unsigned id) {
	return id == VAR_SHREDLIN || id == VAR_RAYS2 || id == VAR_MIRROR_X;
}
#endif

// Adds variation id of non-zero weight w at the point s to (px, py); c the
// affine coefficients {a b c d e f}, p the NUM_PARAMS parameters. Inlined
// with a constant id (a kernel compiled for one genome's variations,
// internal/flame's cuda_special.go) the switch folds to the one case.
static __device__ __forceinline__ void pg_flame_var(unsigned id, float w, PgFlameVarState &s, const float *c,
						    const float *p, float &px, float &py, PgRng &rng) {
	const float tx = s.tx, ty = s.ty;
	{
		float sa, ca, k, a, r;
		switch (id) {
		case VAR_LINEAR: px += w * tx; py += w * ty; break;
		case VAR_SINUSOIDAL: px += w * sinf(tx); py += w * sinf(ty); break;
		case VAR_SPHERICAL: k = w / (s.sumsq + PG_FLAME_EPS); px += k * tx; py += k * ty; break;
		case VAR_SWIRL:
			sincosf(s.sumsq, &sa, &ca);
			px += w * (sa * tx - ca * ty); py += w * (ca * tx + sa * ty);
			break;
		case VAR_HORSESHOE:
			k = w / (s.sqrt + PG_FLAME_EPS);
			px += (tx - ty) * (tx + ty) * k; py += 2.f * tx * ty * k;
			break;
		case VAR_POLAR: px += w * s.atanxy() * PG_1_PI; py += w * (s.sqrt - 1.f); break;
		case VAR_HANDKERCHIEF:
			a = s.atanxy();
			px += w * s.sqrt * sinf(a + s.sqrt); py += w * s.sqrt * cosf(a - s.sqrt);
			break;
		case VAR_HEART:
			sincosf(s.sqrt * s.atanxy(), &sa, &ca);
			k = w * s.sqrt;
			px += k * sa; py -= k * ca;
			break;
		case VAR_DISC:
			a = s.atanxy() * PG_1_PI;
			sincosf(PG_PI * s.sqrt, &sa, &ca);
			px += w * sa * a; py += w * ca * a;
			break;
		case VAR_SPIRAL:
			s.angles();
			r = s.sqrt + PG_FLAME_EPS;
			k = w / r;
			sincosf(r, &sa, &ca);
			px += k * (s.cosa + sa); py += k * (s.sina - ca);
			break;
		case VAR_HYPERBOLIC:
			s.angles();
			r = s.sqrt + PG_FLAME_EPS;
			px += w * s.sina / r; py += w * s.cosa * r;
			break;
		case VAR_DIAMOND:
			s.angles();
			sincosf(s.sqrt, &sa, &ca);
			px += w * s.sina * ca; py += w * s.cosa * sa;
			break;
		case VAR_EX: {
			a = s.atanxy();
			float n0 = sinf(a + s.sqrt), n1 = cosf(a - s.sqrt);
			float m0 = n0 * n0 * n0 * s.sqrt, m1 = n1 * n1 * n1 * s.sqrt;
			px += w * (m0 + m1); py += w * (m0 - m1);
			break;
		}
		case VAR_JULIA:
			a = 0.5f * s.atanxy();
			if (pg_rng_u64(rng) & 1) a += PG_PI;
			k = w * sqrtf(s.sqrt);
			sincosf(a, &sa, &ca);
			px += k * ca; py += k * sa;
			break;
		case VAR_BENT:
			px += w * (tx < 0.f ? tx * 2.f : tx); py += w * (ty < 0.f ? ty * 0.5f : ty);
			break;
		case VAR_WAVES: // flam3's c[1][0], c[1][1] and the precalculated 1/(c[2][·]²+EPS)
			px += w * (tx + c[2] * pg_sin_mul(ty, p[P_WAVES_DX2]));
			py += w * (ty + c[3] * pg_sin_mul(tx, p[P_WAVES_DY2]));
			break;
		case VAR_FISHEYE: k = 2.f * w / (s.sqrt + 1.f); px += k * ty; py += k * tx; break; // axes swapped, as flam3
		case VAR_POPCORN:
			px += w * (tx + c[4] * sinf(pg_tan_mul(3.f, ty)));
			py += w * (ty + c[5] * sinf(pg_tan_mul(3.f, tx)));
			break;
		case VAR_EXPONENTIAL:
			k = w * expf(tx - 1.f);
			sincosf(PG_PI * ty, &sa, &ca);
			px += k * ca; py += k * sa;
			break;
		case VAR_POWER:
			s.angles();
			k = w * powf(s.sqrt, s.sina);
			px += k * s.cosa; py += k * s.sina;
			break;
		case VAR_COSINE:
			sincosf(tx * PG_PI, &sa, &ca);
			px += w * ca * coshf(ty); py -= w * sa * sinhf(ty);
			break;
		case VAR_RINGS: {
			s.angles();
			float dx = c[4] * c[4] + PG_FLAME_EPS;
			k = w * (fmodf(s.sqrt + dx, 2.f * dx) - dx + s.sqrt * (1.f - dx));
			px += k * s.cosa; py += k * s.sina;
			break;
		}
		case VAR_FAN: {
			float dx = PG_PI * (c[4] * c[4] + PG_FLAME_EPS), dx2 = 0.5f * dx;
			a = s.atanxy();
			a += fmodf(a + c[5], dx) > dx2 ? -dx2 : dx2;
			k = w * s.sqrt;
			sincosf(a, &sa, &ca);
			px += k * ca; py += k * sa;
			break;
		}
		case VAR_BLOB: {
			s.angles();
			float lo = p[P_BLOB_LOW];
			r = s.sqrt * (lo + (p[P_BLOB_HIGH] - lo) * (0.5f + 0.5f * sinf(p[P_BLOB_WAVES] * s.atanxy())));
			px += w * s.sina * r; py += w * s.cosa * r;
			break;
		}
		case VAR_PDJ:
			px += w * (sinf(p[P_PDJ_A] * ty) - cosf(p[P_PDJ_B] * tx));
			py += w * (sinf(p[P_PDJ_C] * tx) - cosf(p[P_PDJ_D] * ty));
			break;
		case VAR_FAN2: {
			float fx = p[P_FAN2_X], dy = p[P_FAN2_Y];
			float dx = PG_PI * (fx * fx + PG_FLAME_EPS), dx2 = 0.5f * dx;
			a = s.atanxy();
			float t = a + dy - dx * truncf((a + dy) / dx);
			a += t > dx2 ? -dx2 : dx2;
			k = w * s.sqrt;
			sincosf(a, &sa, &ca);
			px += k * sa; py += k * ca; // (sin, cos), as flam3
			break;
		}
		case VAR_RINGS2: {
			s.angles();
			float v = p[P_RINGS2_VAL], dx = v * v + PG_FLAME_EPS;
			r = s.sqrt;
			r += -2.f * dx * truncf((r + dx) / (2.f * dx)) + r * (1.f - dx);
			px += w * s.sina * r; py += w * s.cosa * r;
			break;
		}
		case VAR_EYEFISH: k = 2.f * w / (s.sqrt + 1.f); px += k * tx; py += k * ty; break;
		case VAR_BUBBLE: k = w / (0.25f * s.sumsq + 1.f); px += k * tx; py += k * ty; break;
		case VAR_CYLINDER: px += w * sinf(tx); py += w * ty; break;
		case VAR_PERSPECTIVE: {
			float d = p[P_PERSPECTIVE_DIST], t = 1.f / (d - ty * p[P_PERSP_VSIN]);
			px += w * d * tx * t; py += w * p[P_PERSP_VFCOS] * ty * t;
			break;
		}
		case VAR_NOISE:
			sincosf(pg_rng_unit(rng) * PG_2PI, &sa, &ca);
			k = w * pg_rng_unit(rng);
			px += tx * k * ca; py += ty * k * sa;
			break;
		case VAR_JULIAN:
			k = truncf(p[P_JULIAN_RN] * pg_rng_unit(rng));
			sincosf((s.atanyx() + PG_2PI * k) / p[P_JULIAN_POWER], &sa, &ca);
			k = w * powf(s.sumsq, p[P_JULIAN_CN]);
			px += k * ca; py += k * sa;
			break;
		case VAR_JULIASCOPE:
			k = truncf(p[P_JULIASCOPE_RN] * pg_rng_unit(rng));
			a = ((long long)k & 1) ? PG_2PI * k - s.atanyx() : PG_2PI * k + s.atanyx();
			sincosf(a / p[P_JULIASCOPE_POWER], &sa, &ca);
			k = w * powf(s.sumsq, p[P_JULIASCOPE_CN]);
			px += k * ca; py += k * sa;
			break;
		case VAR_BLUR:
			sincosf(pg_rng_unit(rng) * PG_2PI, &sa, &ca);
			k = w * pg_rng_unit(rng);
			px += k * ca; py += k * sa;
			break;
		case VAR_GAUSSIAN_BLUR:
			sincosf(pg_rng_unit(rng) * PG_2PI, &sa, &ca);
			k = w * pg_gauss4(rng);
			px += k * ca; py += k * sa;
			break;
		case VAR_RADIAL_BLUR: { // (tx, ty) replaced, not added to, at g = 0: flam3's form
			float g = w * pg_gauss4(rng);
			sincosf(s.atanyx() + p[P_RADIAL_BLUR_SPINVAR] * g, &sa, &ca);
			float rz = p[P_RADIAL_BLUR_ZOOMVAR] * g - 1.f;
			px += s.sqrt * ca + rz * tx; py += s.sqrt * sa + rz * ty;
			break;
		}
		case VAR_PIE: {
			float slices = p[P_PIE_SLICES];
			float sl = truncf(pg_rng_unit(rng) * slices + 0.5f);
			a = p[P_PIE_ROTATION] + PG_2PI * (sl + pg_rng_unit(rng) * p[P_PIE_THICKNESS]) / slices;
			k = w * pg_rng_unit(rng);
			sincosf(a, &sa, &ca);
			px += k * ca; py += k * sa;
			break;
		}
		case VAR_NGON: {
			float rf = powf(s.sumsq, p[P_NGON_POWER] * 0.5f);
			float theta = s.atanyx(), b = PG_2PI / p[P_NGON_SIDES];
			float phi = theta - b * floorf(theta / b);
			if (phi > 0.5f * b) phi -= b;
			k = p[P_NGON_CORNERS] * (1.f / (cosf(phi) + PG_FLAME_EPS) - 1.f) + p[P_NGON_CIRCLE];
			k /= rf + PG_FLAME_EPS;
			px += w * tx * k; py += w * ty * k;
			break;
		}
		case VAR_CURL: {
			float c1 = p[P_CURL_C1], c2 = p[P_CURL_C2];
			float re = 1.f + c1 * tx + c2 * ((tx - ty) * (tx + ty)), im = c1 * ty + 2.f * c2 * tx * ty;
			k = w / (re * re + im * im);
			px += (tx * re + ty * im) * k; py += (ty * re - tx * im) * k;
			break;
		}
		case VAR_RECTANGLES: {
			float rx = p[P_RECTANGLES_X], ry = p[P_RECTANGLES_Y];
			px += w * (rx == 0.f ? tx : (2.f * floorf(tx / rx) + 1.f) * rx - tx);
			py += w * (ry == 0.f ? ty : (2.f * floorf(ty / ry) + 1.f) * ry - ty);
			break;
		}
		case VAR_PRE_BLUR: break; // applied to (tx, ty) above
		default: {
			const PgFlameRareOut o = pg_flame_var_rare(id, w, s, p, rng.state);
			rng.state = o.rng;
#ifdef PG_FLAME_PLUGINS
			if (pg_jwf_replaces(id)) px = py = 0.f;
#endif
			px += o.d.x;
			py += o.d.y;
			break;
		}
		}
	}
}

// Applies the xform's variations (ids[i] with weights[i], i < n, in the order
// given: VarID order, as Precalc sorts them) to the point in: flam3's
// apply_xform minus affine, post and colour, returning the weighted sum. A
// zero weight is skipped and draws nothing. The caller applies the post
// affine and flam3's bad-value test (pg_flame_bad).
static __device__ float2 pg_flame_apply_vars(const uint16_t *ids, const float *weights, int n, int pre,
					     FlameVarIn in, PgRng &rng) {
	PgFlameVarState s = pg_flame_vars_begin(in.tx, in.ty, pre, weights, rng);
	float px = 0.f, py = 0.f;
	for (int i = 0; i < n; i++)
		if (weights[i] != 0.f) pg_flame_var(ids[i], weights[i], s, in.c, in.p, px, py, rng);
	return make_float2(px, py);
}

// The same with the point and the xform's arrays passed one by one: c the
// affine coefficients {a b c d e f}, p the NUM_PARAMS parameters.
static __device__ __forceinline__ float2 pg_flame_apply_vars(const uint16_t *ids, const float *weights, int n,
							     int pre, float tx, float ty, const float *c,
							     const float *p, PgRng &rng) {
	return pg_flame_apply_vars(ids, weights, n, pre, FlameVarIn{tx, ty, c, p}, rng);
}

// The pre argument of pg_flame_apply_vars: the index of the first pre_blur
// with a non-zero weight, -1 without one (internal/flame's gpuXform.PreBlur).
static __device__ __forceinline__ int pg_flame_pre_blur(const uint16_t *ids, const float *weights, int n) {
	for (int i = 0; i < n; i++)
		if (ids[i] == VAR_PRE_BLUR && weights[i] != 0.f) return i;
	return -1;
}
