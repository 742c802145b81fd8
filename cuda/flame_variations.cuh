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

// Applies the xform's variations (ids[i] with weights[i], i < n, in the order
// given: VarID order, as Precalc sorts them) to the point in: flam3's
// apply_xform minus affine, post and colour, returning the weighted sum.
// pre_blur moves (tx, ty) first, before sumsq and the angles, as in flam3; a
// zero weight is skipped and draws nothing. The caller applies the post
// affine and flam3's bad-value test (pg_flame_bad).
static __device__ float2 pg_flame_apply_vars(const unsigned char *ids, const float *weights, int n, FlameVarIn in,
					     PgRng &rng) {
	float tx = in.tx, ty = in.ty;
	const float *c = in.c, *p = in.p;
	for (int i = 0; i < n; i++) {
		if (ids[i] == VAR_PRE_BLUR && weights[i] != 0.f) {
			float g = weights[i] * pg_gauss4(rng);
			float sa, ca;
			sincosf(pg_rng_unit(rng) * PG_2PI, &sa, &ca);
			tx += g * ca; ty += g * sa;
			break;
		}
	}
	PgFlameVarState s;
	s.tx = tx;
	s.ty = ty;
	s.sumsq = tx * tx + ty * ty;
	s.sqrt = sqrtf(s.sumsq);
	s.have = 0;
	float px = 0.f, py = 0.f;
	for (int i = 0; i < n; i++) {
		const float w = weights[i];
		if (w == 0.f) continue;
		float sa, ca, k, a, r;
		switch (ids[i]) {
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
		case VAR_ARCH: // weight used non-linearly, as in flam3
			sincosf(pg_rng_unit(rng) * w * PG_PI, &sa, &ca);
			px += w * sa; py += w * (sa * sa) / ca;
			break;
		case VAR_TANGENT: px += w * sinf(tx) / cosf(ty); py += w * tanf(ty); break;
		case VAR_SQUARE:
			px += w * (pg_rng_unit(rng) - 0.5f); py += w * (pg_rng_unit(rng) - 0.5f);
			break;
		case VAR_RAYS:
			a = w * pg_rng_unit(rng) * PG_PI;
			k = w * tanf(a) * (w / (s.sumsq + PG_FLAME_EPS));
			px += k * cosf(tx); py += k * sinf(ty);
			break;
		case VAR_BLADE:
			sincosf(pg_rng_unit(rng) * w * s.sqrt, &sa, &ca);
			px += w * tx * (ca + sa); py += w * tx * (ca - sa);
			break;
		case VAR_SECANT2: {
			float cr = cosf(w * s.sqrt), icr = 1.f / cr;
			px += w * tx; py += w * (cr < 0.f ? icr + 1.f : icr - 1.f);
			break;
		}
		case VAR_TWINTRIAN: {
			sincosf(pg_rng_unit(rng) * w * s.sqrt, &sa, &ca);
			float d = log10f(sa * sa) + ca;
			if (pg_flame_bad(d)) d = -30.f;
			px += w * tx * d; py += w * tx * (d - sa * PG_PI);
			break;
		}
		case VAR_CROSS: { // x²−y² as (x−y)(x+y): no cancellation near the diagonals
			float q = (tx - ty) * (tx + ty);
			k = w * rsqrtf(q * q + PG_FLAME_EPS);
			px += tx * k; py += ty * k;
			break;
		}
		case VAR_DISC2:
			sincosf(p[P_DISC2_TIMESPI] * (tx + ty), &sa, &ca);
			k = w * s.atanxy() * PG_1_PI;
			px += (sa + p[P_DISC2_COSADD]) * k; py += (ca + p[P_DISC2_SINADD]) * k;
			break;
		case VAR_SUPER_SHAPE: {
			sincosf(p[P_SUPER_SHAPE_PM_4] * s.atanyx() + PG_PI_4, &sa, &ca);
			float t = powf(fabsf(ca), p[P_SUPER_SHAPE_N2]) + powf(fabsf(sa), p[P_SUPER_SHAPE_N3]);
			float rnd = p[P_SUPER_SHAPE_RND];
			k = w * ((rnd * pg_rng_unit(rng) + (1.f - rnd) * s.sqrt) - p[P_SUPER_SHAPE_HOLES]) *
			    powf(t, p[P_SUPER_SHAPE_PNEG1_N1]) / s.sqrt;
			px += k * tx; py += k * ty;
			break;
		}
		case VAR_FLOWER:
			k = w * (pg_rng_unit(rng) - p[P_FLOWER_HOLES]) * cosf(p[P_FLOWER_PETALS] * s.atanyx()) / s.sqrt;
			px += k * tx; py += k * ty;
			break;
		case VAR_CONIC: {
			float e = p[P_CONIC_ECCENTRICITY];
			k = w * (pg_rng_unit(rng) - p[P_CONIC_HOLES]) * e / (1.f + e * (tx / s.sqrt)) / s.sqrt;
			px += k * tx; py += k * ty;
			break;
		}
		case VAR_PARABOLA:
			sincosf(s.sqrt, &sa, &ca);
			px += p[P_PARABOLA_HEIGHT] * w * sa * sa * pg_rng_unit(rng);
			py += p[P_PARABOLA_WIDTH] * w * ca * pg_rng_unit(rng);
			break;
		case VAR_BENT2:
			px += w * (tx < 0.f ? tx * p[P_BENT2_X] : tx); py += w * (ty < 0.f ? ty * p[P_BENT2_Y] : ty);
			break;
		case VAR_BIPOLAR: { // t ± 2x = (x±1)² + y²: no cancellation near the poles (±1, 0)
			float y = 0.5f * atan2f(2.f * ty, s.sumsq - 1.f) - PG_PI_2 * p[P_BIPOLAR_SHIFT];
			if (y > PG_PI_2) y = -PG_PI_2 + fmodf(y + PG_PI_2, PG_PI);
			else if (y < -PG_PI_2) y = PG_PI_2 - fmodf(PG_PI_2 - y, PG_PI);
			float xp = tx + 1.f, xm = tx - 1.f, y2 = ty * ty;
			px += w * 0.25f * PG_2_PI * logf((xp * xp + y2) / (xm * xm + y2)); py += w * PG_2_PI * y;
			break;
		}
		case VAR_BOARDERS: {
			float rx = rintf(tx), ry = rintf(ty), ox = tx - rx, oy = ty - ry;
			if (pg_rng_unit(rng) >= 0.75f) {
				px += w * (ox * 0.5f + rx); py += w * (oy * 0.5f + ry);
			} else if (fabsf(ox) >= fabsf(oy)) {
				float sg = ox >= 0.f ? 0.25f : -0.25f;
				px += w * (ox * 0.5f + rx + sg); py += w * (oy * 0.5f + ry + sg * oy / ox);
			} else {
				float sg = oy >= 0.f ? 0.25f : -0.25f;
				py += w * (oy * 0.5f + ry + sg);
				px += w * (ox * 0.5f + rx + ox / oy * sg);
			}
			break;
		}
		case VAR_BUTTERFLY: {
			float y2 = 2.f * ty;
			k = w * 1.3029400317411197908970256609023f *
			    sqrtf(fabsf(ty * tx) / (PG_FLAME_EPS + tx * tx + y2 * y2));
			px += k * tx; py += k * y2;
			break;
		}
		case VAR_CELL: { // cell indices kept as floats (exact), never an int that could overflow
			float size = p[P_CELL_SIZE], inv = 1.f / size;
			float x = floorf(tx * inv), y = floorf(ty * inv);
			float dx = tx - x * size, dy = ty - y * size;
			y = y >= 0.f ? 2.f * y : -(2.f * y + 1.f);
			x = x >= 0.f ? 2.f * x : -(2.f * x + 1.f);
			px += w * (dx + x * size); py -= w * (dy + y * size);
			break;
		}
		case VAR_CPOW: {
			a = s.atanyx();
			float lnr = 0.5f * logf(s.sumsq), pw = p[P_CPOW_POWER];
			float vc = p[P_CPOW_R] / pw, vd = p[P_CPOW_I] / pw;
			float ang = vc * a + vd * lnr + (PG_2PI / pw) * floorf(pw * pg_rng_unit(rng));
			k = w * expf(vc * lnr - vd * a);
			sincosf(ang, &sa, &ca);
			px += k * ca; py += k * sa;
			break;
		}
		case VAR_CURVE: {
			float xl = fmaxf(p[P_CURVE_XLENGTH] * p[P_CURVE_XLENGTH], 1e-20f);
			float yl = fmaxf(p[P_CURVE_YLENGTH] * p[P_CURVE_YLENGTH], 1e-20f);
			px += w * (tx + p[P_CURVE_XAMP] * expf(-ty * ty / xl));
			py += w * (ty + p[P_CURVE_YAMP] * expf(-tx * tx / yl));
			break;
		}
		case VAR_EDISC: { // flam3's log(xmax + √(xmax−1)) and −acos(a), from pg_ellipse's accurate parts
			PgEllipse e = pg_ellipse(tx, ty);
			float a2 = -atan2f(sqrtf(e.one_m_a2), e.a);
			k = w / 11.57034632f;
			sincosf(log1pf(e.xmax_m1 + sqrtf(e.xmax_m1)), &sa, &ca);
			if (ty > 0.f) sa = -sa;
			px += k * coshf(a2) * ca; py += k * sinhf(a2) * sa;
			break;
		}
		case VAR_ELLIPTIC: {
			PgEllipse e = pg_ellipse(tx, ty);
			k = w / PG_PI_2;
			px += k * atan2f(e.a, sqrtf(e.one_m_a2));
			float l = log1pf(e.xmax_m1 + sqrtf(e.xmax_m1));
			py += ty > 0.f ? k * l : -k * l;
			break;
		}
		case VAR_ESCHER: {
			a = s.atanyx();
			float lnr = 0.5f * logf(s.sumsq), seb, ceb;
			sincosf(p[P_ESCHER_BETA], &seb, &ceb);
			float vc = 0.5f * (1.f + ceb), vd = 0.5f * seb;
			k = w * expf(vc * lnr - vd * a);
			sincosf(vc * a + vd * lnr, &sa, &ca);
			px += k * ca; py += k * sa;
			break;
		}
		case VAR_FOCI: { // (sinh x, sin y)/(cosh x − cos y), the denominator as 2(sinh²(x/2) + sin²(y/2))
			// x clamped to |x| ≤ 80, where the quotients are ±1 and 0 to
			// float precision, so that float32 does not overflow into inf/inf.
			float x = fminf(fmaxf(tx, -80.f), 80.f), shx = sinhf(0.5f * x), sy = sinf(0.5f * ty);
			k = w / (2.f * (shx * shx + sy * sy));
			px += k * sinhf(x); py += k * sinf(ty);
			break;
		}
		case VAR_LAZYSUSAN: {
			float lx = p[P_LAZYSUSAN_X], ly = p[P_LAZYSUSAN_Y];
			float x = tx - lx, y = ty + ly;
			r = sqrtf(x * x + y * y);
			if (r < w) {
				sincosf(atan2f(y, x) + p[P_LAZYSUSAN_SPIN] + p[P_LAZYSUSAN_TWIST] * (w - r), &sa, &ca);
				r *= w;
				px += r * ca + lx; py += r * sa - ly;
			} else {
				k = w * (1.f + p[P_LAZYSUSAN_SPACE] / r);
				px += k * x + lx; py += k * y - ly;
			}
			break;
		}
		case VAR_LOONIE: {
			float w2 = w * w;
			k = s.sumsq < w2 ? w * sqrtf(w2 / s.sumsq - 1.f) : w;
			px += k * tx; py += k * ty;
			break;
		}
		case VAR_PRE_BLUR: break; // applied to (tx, ty) above
		case VAR_MODULUS:
			px += w * pg_wrap_modulus(tx, p[P_MODULUS_X]); py += w * pg_wrap_modulus(ty, p[P_MODULUS_Y]);
			break;
		case VAR_OSCILLOSCOPE: {
			float amp = p[P_OSCILLOSCOPE_AMPLITUDE], damp = p[P_OSCILLOSCOPE_DAMPING];
			float cw = cosf(PG_2PI * p[P_OSCILLOSCOPE_FREQUENCY] * tx);
			float t = (damp == 0.f ? amp * cw : amp * expf(-fabsf(tx) * damp) * cw) + p[P_OSCILLOSCOPE_SEPARATION];
			px += w * tx; py += fabsf(ty) <= t ? -w * ty : w * ty;
			break;
		}
		case VAR_POLAR2:
			k = w * PG_1_PI;
			px += k * s.atanxy(); py += 0.5f * k * logf(s.sumsq);
			break;
		case VAR_POPCORN2: {
			float cc = p[P_POPCORN2_C];
			px += w * (tx + p[P_POPCORN2_X] * sinf(pg_tan_mul(ty, cc)));
			py += w * (ty + p[P_POPCORN2_Y] * sinf(pg_tan_mul(tx, cc)));
			break;
		}
		case VAR_SCRY: // weight used non-linearly, as in flam3
			k = 1.f / (s.sqrt * (s.sumsq + 1.f / (w + PG_FLAME_EPS)));
			px += tx * k; py += ty * k;
			break;
		case VAR_SEPARATION: {
			float sx = p[P_SEPARATION_X], sy = p[P_SEPARATION_Y];
			float hx = sqrtf(tx * tx + sx * sx), hy = sqrtf(ty * ty + sy * sy);
			px += tx > 0.f ? w * (hx - tx * p[P_SEPARATION_XINSIDE]) : -w * (hx + tx * p[P_SEPARATION_XINSIDE]);
			py += ty > 0.f ? w * (hy - ty * p[P_SEPARATION_YINSIDE]) : -w * (hy + ty * p[P_SEPARATION_YINSIDE]);
			break;
		}
		case VAR_SPLIT:
			py += cosf(tx * p[P_SPLIT_XSIZE] * PG_PI) >= 0.f ? w * ty : -w * ty;
			px += cosf(ty * p[P_SPLIT_YSIZE] * PG_PI) >= 0.f ? w * tx : -w * tx;
			break;
		case VAR_SPLITS:
			px += w * (tx >= 0.f ? tx + p[P_SPLITS_X] : tx - p[P_SPLITS_X]);
			py += w * (ty >= 0.f ? ty + p[P_SPLITS_Y] : ty - p[P_SPLITS_Y]);
			break;
		case VAR_STRIPES: {
			float rx = floorf(tx + 0.5f), ox = tx - rx;
			px += w * (ox * (1.f - p[P_STRIPES_SPACE]) + rx); py += w * (ty + ox * ox * p[P_STRIPES_WARP]);
			break;
		}
		case VAR_WEDGE:
			sincosf(pg_wedge_fold(s.atanyx() + p[P_WEDGE_SWIRL] * s.sqrt, p[P_WEDGE_COUNT], p[P_WEDGE_ANGLE]), &sa,
				&ca);
			k = w * (s.sqrt + p[P_WEDGE_HOLE]);
			px += k * ca; py += k * sa;
			break;
		case VAR_WEDGE_JULIA: {
			k = w * powf(s.sumsq, p[P_WEDGE_JULIA_CN]);
			float t = truncf(p[P_WEDGE_JULIA_RN] * pg_rng_unit(rng));
			a = (s.atanyx() + PG_2PI * t) / p[P_WEDGE_JULIA_POWER];
			float cc = floorf((p[P_WEDGE_JULIA_COUNT] * a + PG_PI) * (0.5f * PG_1_PI));
			sincosf(a * p[P_WEDGE_JULIA_CF] + cc * p[P_WEDGE_JULIA_ANGLE], &sa, &ca);
			px += k * ca; py += k * sa;
			break;
		}
		case VAR_WEDGE_SPH:
			r = 1.f / (s.sqrt + PG_FLAME_EPS);
			sincosf(pg_wedge_fold(s.atanyx() + p[P_WEDGE_SPH_SWIRL] * r, p[P_WEDGE_SPH_COUNT], p[P_WEDGE_SPH_ANGLE]),
				&sa, &ca);
			k = w * (r + p[P_WEDGE_SPH_HOLE]);
			px += k * ca; py += k * sa;
			break;
		case VAR_WHORL: // weight used non-linearly, as in flam3; w − r without cancellation
			r = s.sqrt;
			a = s.atanyx() + (r < w ? p[P_WHORL_INSIDE] : p[P_WHORL_OUTSIDE]) / pg_w_minus_r(w, tx, ty, r);
			sincosf(a, &sa, &ca);
			px += w * r * ca; py += w * r * sa;
			break;
		case VAR_WAVES2:
			px += w * (tx + p[P_WAVES2_SCALEX] * sinf(ty * p[P_WAVES2_FREQX]));
			py += w * (ty + p[P_WAVES2_SCALEY] * sinf(tx * p[P_WAVES2_FREQY]));
			break;
		case VAR_EXP:
			k = w * expf(tx);
			sincosf(ty, &sa, &ca);
			px += k * ca; py += k * sa;
			break;
		case VAR_LOG: px += w * 0.5f * logf(s.sumsq); py += w * s.atanyx(); break;
		// The circular and hyperbolic functions of z = x + iy, from the sin and
		// cos of one coordinate (sa, ca) and the hyperbolic functions of the
		// other. The quotients (tan ... coth) are flam3's with numerator and
		// denominator divided by cosh², using th = tanh and q = 1/cosh: flam3's
		// cos 2a + cosh 2b becomes 2 cosh² b (ca² q² + th²) and cosh 2b − cos 2a
		// becomes 2 cosh² b (sa² q² + th²). Same values, but without float32's
		// cancellation near the poles or its overflow of cosh beyond |b| ≈ 44.
		case VAR_SIN:
		case VAR_COS:
		case VAR_TAN:
		case VAR_SEC:
		case VAR_CSC:
		case VAR_COT:
		case VAR_SINH:
		case VAR_COSH:
		case VAR_TANH:
		case VAR_SECH:
		case VAR_CSCH:
		case VAR_COTH: {
			const unsigned id = ids[i];
			const bool circ = id <= VAR_COT; // sin(x) with hyperbolic of y, else sin(y) with hyperbolic of x
			const float b = circ ? ty : tx;
			sincosf(circ ? tx : ty, &sa, &ca);
			if (id == VAR_SIN || id == VAR_COS || id == VAR_SINH || id == VAR_COSH) {
				float sh = sinhf(b), ch = coshf(b);
				switch (id) {
				case VAR_SIN: px += w * sa * ch; py += w * ca * sh; break;
				case VAR_COS: px += w * ca * ch; py -= w * sa * sh; break;
				case VAR_SINH: px += w * sh * ca; py += w * ch * sa; break;
				default: px += w * ch * ca; py += w * sh * sa; break; // cosh
				}
				break;
			}
			float th = tanhf(b), q = 1.f / coshf(b);
			float qq = q * q;
			switch (id) {
			case VAR_TAN: k = w / (ca * ca * qq + th * th); px += k * sa * ca * qq; py += k * th; break;
			case VAR_SEC: k = w / (ca * ca * qq + th * th); px += k * ca * q; py += k * sa * th * q; break;
			case VAR_CSC: k = w / (sa * sa * qq + th * th); px += k * sa * q; py -= k * ca * th * q; break;
			case VAR_COT: k = w / (sa * sa * qq + th * th); px += k * sa * ca * qq; py -= k * th; break;
			case VAR_TANH: k = w / (ca * ca * qq + th * th); px += k * th; py += k * sa * ca * qq; break;
			case VAR_SECH: k = w / (ca * ca * qq + th * th); px += k * ca * q; py -= k * sa * th * q; break;
			case VAR_CSCH: k = w / (sa * sa * qq + th * th); px += k * th * ca * q; py -= k * sa * q; break;
			default: k = w / (sa * sa * qq + th * th); px += k * th; py += k * sa * ca * qq; break; // coth
			}
			break;
		}
		case VAR_AUGER: {
			float freq = p[P_AUGER_FREQ], aw = p[P_AUGER_WEIGHT], scale = p[P_AUGER_SCALE];
			float sx = sinf(freq * tx), sy = sinf(freq * ty);
			float dy = ty + aw * (scale * sx * 0.5f + fabsf(ty) * sx);
			float dx = tx + aw * (scale * sy * 0.5f + fabsf(tx) * sy);
			px += w * (tx + p[P_AUGER_SYM] * (dx - tx)); py += w * dy;
			break;
		}
		case VAR_FLUX: {
			float xpw = tx + w, xmw = tx - w, y2 = ty * ty;
			k = w * (2.f + p[P_FLUX_SPREAD]) * sqrtf(sqrtf(y2 + xpw * xpw) / sqrtf(y2 + xmw * xmw));
			sincosf((atan2f(ty, xmw) - atan2f(ty, xpw)) * 0.5f, &sa, &ca);
			px += k * ca; py += k * sa;
			break;
		}
		case VAR_MOBIUS: {
			float ra = p[P_MOBIUS_RE_A], ia = p[P_MOBIUS_IM_A], rb = p[P_MOBIUS_RE_B], ib = p[P_MOBIUS_IM_B];
			float rc = p[P_MOBIUS_RE_C], ic = p[P_MOBIUS_IM_C], rd = p[P_MOBIUS_RE_D], id = p[P_MOBIUS_IM_D];
			float ru = ra * tx - ia * ty + rb, iu = ra * ty + ia * tx + ib;
			float rv = rc * tx - ic * ty + rd, iv = rc * ty + ic * tx + id;
			k = w / (rv * rv + iv * iv);
			px += k * (ru * rv + iu * iv); py += k * (iu * rv - ru * iv);
			break;
		}
		default: break;
		}
	}
	return make_float2(px, py);
}

// The same with the point and the xform's arrays passed one by one: c the
// affine coefficients {a b c d e f}, p the NUM_PARAMS parameters.
static __device__ __forceinline__ float2 pg_flame_apply_vars(const unsigned char *ids, const float *weights, int n,
							     float tx, float ty, const float *c, const float *p,
							     PgRng &rng) {
	return pg_flame_apply_vars(ids, weights, n, FlameVarIn{tx, ty, c, p}, rng);
}
