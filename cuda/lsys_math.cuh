// Deterministic double-precision math for L-system expressions: the CUDA twin
// of internal/lsys/mathfn.go and mathpow.go, operation for operation, so the
// GPU derives bit for bit the same parameters as the CPU. Only correctly
// rounded operations are used: every + - * / goes through __dadd_rn,
// __dsub_rn, __dmul_rn, __ddiv_rn (never contracted into an FMA, whatever
// -fmad says), sqrt through __dsqrt_rn, plus floor/trunc/fabs and bit
// manipulation. Angles are in degrees, as in cpfg.
//
// The expression interpreter that calls these must also fail exactly where
// Expr.Eval (internal/lsys/eval.go) fails, or the backends disagree on which
// productions apply: x/0; x^y with x < 0 and y not an integer (checked
// before the call), 0^y with y < 0; sqrt and log of a negative, log(0);
// asin/acos outside [-1, 1]; and any +, -, *, /, ^ or function result that
// is not finite. min/max are (a < b ? a : b) and (a > b ? a : b), sign is
// (a > 0) - (a < 0), floor/ceil/trunc/fabs are exact.
//
// The algorithms (double-double evaluation, Taylor series after exact or
// double-double argument reduction, one rounding at the end) are described
// in mathfn.go and mathpow.go; the constants LSYS_K_* (lsys_math_consts.cuh) are those of
// mathconst.go, printed by internal/lsys/internal/mathgen, and
// TestMathConstants checks that this file's copies match. Change this file
// and the Go files together; internal/lsys/math_cuda_test.go compares the
// two bit for bit on the device.
#pragma once
#include <stdint.h>

#define LSYS_ADD(a, b) __dadd_rn((a), (b))
#define LSYS_SUB(a, b) __dsub_rn((a), (b))
#define LSYS_MUL(a, b) __dmul_rn((a), (b))
#define LSYS_DIV(a, b) __ddiv_rn((a), (b))

// pi/180 and 180/pi as double-double.
#define LSYS_DEG2RAD_HI 0.017453292519943295     /* 0x3f91df46a2529d39 */
#define LSYS_DEG2RAD_LO 2.9486522708701687e-19   /* 0x3c15c1d8becdd291 */
#define LSYS_RAD2DEG_HI 57.29577951308232        /* 0x404ca5dc1a63c1f8 */
#define LSYS_RAD2DEG_LO (-1.9878495670576283e-15) /* 0xbce1e7ab456405f9 */
#define LSYS_BIG_DEGREES 1099511627776.0 /* 2^40 */

__device__ __forceinline__ bool lsys_isfinite(double x) {
	return (((unsigned long long)__double_as_longlong(x)) & 0x7ff0000000000000ull) != 0x7ff0000000000000ull;
}
__device__ __forceinline__ double lsys_nan() { return __longlong_as_double(0x7ff8000000000001ll); }
__device__ __forceinline__ double lsys_inf() { return __longlong_as_double(0x7ff0000000000000ll); }

// 2^k for -1022 <= k <= 1023.
__device__ __forceinline__ double lsys_pow2(int k) {
	return __longlong_as_double((long long)((unsigned long long)(k + 1023) << 52));
}

// x*2^k, correctly rounded, for finite normal x (mathfn.go's scale2).
__device__ inline double lsys_scale2(double x, int k) {
	unsigned long long b = (unsigned long long)__double_as_longlong(x);
	int e = (int)((b >> 52) & 0x7ff) - 1023 + k;
	if (e > 1023) return copysign(lsys_inf(), x);
	if (e < -1075) return copysign(0.0, x);
	b &= ~(0x7ffull << 52);
	if (e < -1022) {
		return LSYS_MUL(__longlong_as_double((long long)(b | ((unsigned long long)(e + 53 + 1023) << 52))),
		                1.1102230246251565e-16 /* 2^-53 */);
	}
	return __longlong_as_double((long long)(b | ((unsigned long long)(e + 1023) << 52)));
}

// p = fl(a*b), p + e = a*b exactly: a fused multiply-add is one correctly
// rounded operation (mathfn.go's twoProd, math.FMA).
__device__ inline void lsys_two_prod(double a, double b, double *p, double *e) {
	double pp = LSYS_MUL(a, b);
	*p = pp;
	*e = __fma_rn(a, b, -pp);
}

// s = fl(a+b), s + e = a+b exactly (Knuth).
__device__ inline void lsys_two_sum(double a, double b, double *s, double *e) {
	double ss = LSYS_ADD(a, b);
	double bb = LSYS_SUB(ss, a);
	*e = LSYS_ADD(LSYS_SUB(a, LSYS_SUB(ss, bb)), LSYS_SUB(b, bb));
	*s = ss;
}

// x mod 360 (sign of x), exactly.
__device__ inline double lsys_mod360(double x) {
	double a = fabs(x);
	while (a >= 360.0) {
		int e = (int)(((unsigned long long)__double_as_longlong(a) >> 52) & 0x7ff) - 1023;
		double m = LSYS_MUL(lsys_pow2(e - 8), 360.0);
		if (m > a) m = LSYS_MUL(m, 0.5);
		a = LSYS_SUB(a, m);
	}
	return x < 0 ? -a : a;
}

// x degrees = q*90 + r, |r| <= 45; r in radians as hi + lo; returns q mod 4.
__device__ inline int lsys_reduce_deg(double x, double *hi, double *lo) {
	if (!(fabs(x) < LSYS_BIG_DEGREES)) x = lsys_mod360(x);
	double k = floor(LSYS_ADD(LSYS_DIV(x, 90.0), 0.5));
	double r = LSYS_SUB(x, LSYS_MUL(k, 90.0));
	double p, e;
	lsys_two_prod(r, LSYS_DEG2RAD_HI, &p, &e);
	e = LSYS_ADD(e, LSYS_MUL(r, LSYS_DEG2RAD_LO));
	double h = LSYS_ADD(p, e);
	*hi = h;
	*lo = LSYS_SUB(e, LSYS_SUB(h, p));
	return (int)((long long)k & 3);
}


// Constants from internal/lsys/internal/mathgen (hexadecimal, exact).
#include "lsys_math_consts.cuh"

// s + e = a + b exactly, for |a| >= |b| or a == 0.
__device__ inline void lsys_fast_two_sum(double a, double b, double *s, double *e) {
	double ss = LSYS_ADD(a, b);
	*e = LSYS_SUB(b, LSYS_SUB(ss, a));
	*s = ss;
}

// (ah + al) * (bh + bl) as a double-double (mathfn.go's ddMul).
__device__ inline void lsys_dd_mul(double ah, double al, double bh, double bl, double *h, double *l) {
	double p, e;
	lsys_two_prod(ah, bh, &p, &e);
	e = LSYS_ADD(e, LSYS_ADD(LSYS_MUL(ah, bl), LSYS_MUL(al, bh)));
	lsys_fast_two_sum(p, e, h, l);
}

// (ah + al) + (bh + bl) as a double-double (ddAdd).
__device__ inline void lsys_dd_add(double ah, double al, double bh, double bl, double *h, double *l) {
	double s, e;
	lsys_two_sum(ah, bh, &s, &e);
	e = LSYS_ADD(e, LSYS_ADD(al, bl));
	lsys_fast_two_sum(s, e, h, l);
}

// (ah + al) / (bh + bl), rounded (ddDiv).
__device__ inline double lsys_dd_div(double ah, double al, double bh, double bl) {
	double q = LSYS_DIV(ah, bh);
	double p, pe;
	lsys_two_prod(q, bh, &p, &pe);
	double r = LSYS_SUB(LSYS_ADD(LSYS_SUB(LSYS_SUB(ah, p), pe), al), LSYS_MUL(q, bl));
	return LSYS_ADD(q, LSYS_DIV(r, bh));
}

// sin(hi + lo) as a double-double for |hi + lo| <= pi/4 (sinDD).
__device__ inline void lsys_sin_dd(double hi, double lo, double *h, double *l) {
	double z, ze, c, ce, sh, sl;
	lsys_two_prod(hi, hi, &z, &ze);
	lsys_two_prod(hi, z, &c, &ce);
	ce = LSYS_ADD(ce, LSYS_MUL(hi, ze));
	double tail = LSYS_ADD(LSYS_K_Sin15, LSYS_MUL(z, LSYS_K_Sin17));
	tail = LSYS_ADD(LSYS_K_Sin13, LSYS_MUL(z, tail));
	tail = LSYS_ADD(LSYS_K_Sin11, LSYS_MUL(z, tail));
	tail = LSYS_ADD(LSYS_K_Sin9, LSYS_MUL(z, tail));
	tail = LSYS_ADD(LSYS_K_Sin7, LSYS_MUL(z, tail));
	lsys_dd_add(LSYS_K_Sin5Hi, LSYS_K_Sin5Lo, LSYS_MUL(z, tail), 0.0, &sh, &sl);
	lsys_dd_mul(z, ze, sh, sl, &sh, &sl);
	lsys_dd_add(LSYS_K_Sin3Hi, LSYS_K_Sin3Lo, sh, sl, &sh, &sl);
	lsys_dd_mul(c, ce, sh, sl, &sh, &sl);
	double corr = LSYS_SUB(lo, LSYS_MUL(lo, LSYS_MUL(z, LSYS_SUB(0.5, LSYS_MUL(z, LSYS_K_Cos4Hi)))));
	double s, e;
	lsys_fast_two_sum(hi, sh, &s, &e);
	lsys_fast_two_sum(s, LSYS_ADD(LSYS_ADD(e, sl), corr), h, l);
}

// cos(hi + lo) as a double-double for |hi + lo| <= pi/4 (cosDD).
__device__ inline void lsys_cos_dd(double hi, double lo, double *h, double *l) {
	double z, ze;
	lsys_two_prod(hi, hi, &z, &ze);
	double hz = LSYS_MUL(0.5, z), hze = LSYS_MUL(0.5, ze);
	double w, we;
	lsys_fast_two_sum(1.0, -hz, &w, &we);
	double tail = LSYS_ADD(LSYS_K_Cos16, LSYS_MUL(z, LSYS_K_Cos18));
	tail = LSYS_ADD(LSYS_K_Cos14, LSYS_MUL(z, tail));
	tail = LSYS_ADD(LSYS_K_Cos12, LSYS_MUL(z, tail));
	tail = LSYS_ADD(LSYS_K_Cos10, LSYS_MUL(z, tail));
	tail = LSYS_ADD(LSYS_K_Cos8, LSYS_MUL(z, tail));
	double ch, cl, z2, z2e;
	lsys_dd_add(LSYS_K_Cos6Hi, LSYS_K_Cos6Lo, LSYS_MUL(z, tail), 0.0, &ch, &cl);
	lsys_dd_mul(z, ze, ch, cl, &ch, &cl);
	lsys_dd_add(LSYS_K_Cos4Hi, LSYS_K_Cos4Lo, ch, cl, &ch, &cl);
	lsys_dd_mul(z, ze, z, ze, &z2, &z2e);
	lsys_dd_mul(z2, z2e, ch, cl, &ch, &cl);
	double corr = LSYS_MUL(lo, LSYS_ADD(hi, LSYS_MUL(LSYS_MUL(hi, z), LSYS_K_Sin3Hi)));
	double s, e;
	lsys_fast_two_sum(w, ch, &s, &e);
	lsys_fast_two_sum(s, LSYS_SUB(LSYS_ADD(LSYS_SUB(LSYS_ADD(e, we), hze), cl), corr), h, l);
}

__device__ inline double lsys_sin_deg(double x) {
	if (!lsys_isfinite(x)) return lsys_nan();
	double hi, lo, h, l;
	int q = lsys_reduce_deg(x, &hi, &lo);
	if ((q & 1) == 0) lsys_sin_dd(hi, lo, &h, &l);
	else lsys_cos_dd(hi, lo, &h, &l);
	if (q >= 2) return -LSYS_ADD(h, l);
	return LSYS_ADD(h, l);
}

__device__ inline double lsys_cos_deg(double x) {
	if (!lsys_isfinite(x)) return lsys_nan();
	double hi, lo, h, l;
	int q = lsys_reduce_deg(x, &hi, &lo);
	if ((q & 1) == 0) lsys_cos_dd(hi, lo, &h, &l);
	else lsys_sin_dd(hi, lo, &h, &l);
	if (q == 1 || q == 2) return -LSYS_ADD(h, l);
	return LSYS_ADD(h, l);
}

__device__ inline double lsys_tan_deg(double x) {
	if (!lsys_isfinite(x)) return lsys_nan();
	double hi, lo, sh, sl, ch, cl;
	int q = lsys_reduce_deg(x, &hi, &lo);
	lsys_sin_dd(hi, lo, &sh, &sl);
	lsys_cos_dd(hi, lo, &ch, &cl);
	if ((q & 1) == 0) return lsys_dd_div(sh, sl, ch, cl);
	if (fabs(sh) < 0x1p-500) return LSYS_DIV(-ch, sh);
	return -lsys_dd_div(ch, cl, sh, sl);
}

// atan(i/8) as a double-double, 0 <= i <= 8.
__device__ inline void lsys_atan_table(int i, double *h, double *l) {
	const double hi[9] = {LSYS_K_AtanTab0Hi, LSYS_K_AtanTab1Hi, LSYS_K_AtanTab2Hi, LSYS_K_AtanTab3Hi, LSYS_K_AtanTab4Hi,
	                      LSYS_K_AtanTab5Hi, LSYS_K_AtanTab6Hi, LSYS_K_AtanTab7Hi, LSYS_K_AtanTab8Hi};
	const double lo[9] = {LSYS_K_AtanTab0Lo, LSYS_K_AtanTab1Lo, LSYS_K_AtanTab2Lo, LSYS_K_AtanTab3Lo, LSYS_K_AtanTab4Lo,
	                      LSYS_K_AtanTab5Lo, LSYS_K_AtanTab6Lo, LSYS_K_AtanTab7Lo, LSYS_K_AtanTab8Lo};
	*h = hi[i];
	*l = lo[i];
}

// atan(qh + ql) in radians as a double-double, 0 <= q <= ~1 (atanCore).
__device__ inline void lsys_atan_core(double qh, double ql, double *h, double *l) {
	double i = floor(LSYS_ADD(LSYS_MUL(qh, 8.0), 0.5));
	double c = LSYS_MUL(i, 0.125);
	double nh, nl, p, pe, dh, de;
	lsys_two_sum(LSYS_SUB(qh, c), ql, &nh, &nl);
	lsys_two_prod(qh, c, &p, &pe);
	lsys_fast_two_sum(1.0, p, &dh, &de);
	double dl = LSYS_ADD(LSYS_ADD(de, pe), LSYS_MUL(ql, c));
	double th = LSYS_DIV(nh, dh);
	lsys_two_prod(th, dh, &p, &pe);
	double tl = LSYS_DIV(LSYS_SUB(LSYS_ADD(LSYS_SUB(LSYS_SUB(nh, p), pe), nl), LSYS_MUL(th, dl)), dh);
	double z = LSYS_MUL(th, th);
	double poly = LSYS_ADD(LSYS_K_Atan13, LSYS_MUL(z, LSYS_K_Atan15));
	poly = LSYS_ADD(LSYS_K_Atan11, LSYS_MUL(z, poly));
	poly = LSYS_ADD(LSYS_K_Atan9, LSYS_MUL(z, poly));
	poly = LSYS_ADD(LSYS_K_Atan7, LSYS_MUL(z, poly));
	poly = LSYS_ADD(LSYS_K_Atan5, LSYS_MUL(z, poly));
	poly = LSYS_ADD(LSYS_K_Atan3, LSYS_MUL(z, poly));
	double ah, al, s, e;
	lsys_atan_table((int)i, &ah, &al);
	lsys_two_sum(ah, th, &s, &e);
	lsys_fast_two_sum(s, LSYS_ADD(LSYS_ADD(LSYS_ADD(e, al), tl), LSYS_MUL(LSYS_MUL(th, z), poly)), h, l);
}

// atan(y/x) in radians as a double-double, y, x >= 0 double-doubles, not
// both zero, below about 2^520 (atanRatio).
__device__ inline void lsys_atan_ratio(double yh, double yl, double xh, double xl, double *h, double *l) {
	bool swap = yh > xh;
	if (swap) {
		double t = yh; yh = xh; xh = t;
		t = yl; yl = xl; xl = t;
	}
	double q = LSYS_DIV(yh, xh);
	double p, pe;
	lsys_two_prod(q, xh, &p, &pe);
	double ql = LSYS_DIV(LSYS_SUB(LSYS_ADD(LSYS_SUB(LSYS_SUB(yh, p), pe), yl), LSYS_MUL(q, xl)), xh);
	double ah, al;
	lsys_atan_core(q, ql, &ah, &al);
	if (!swap) {
		*h = ah;
		*l = al;
		return;
	}
	double s, e;
	lsys_two_sum(LSYS_K_PiO2Hi, -ah, &s, &e);
	lsys_fast_two_sum(s, LSYS_SUB(LSYS_ADD(e, LSYS_K_PiO2Lo), al), h, l);
}

// hi + lo radians in degrees as *s + *t (toDeg).
__device__ inline void lsys_to_deg(double hi, double lo, double *s, double *t) {
	double p, e, ss, err;
	lsys_two_prod(hi, LSYS_RAD2DEG_HI, &p, &e);
	double q = LSYS_MUL(lo, LSYS_RAD2DEG_HI);
	lsys_two_sum(p, q, &ss, &err);
	*s = ss;
	*t = LSYS_ADD(LSYS_ADD(e, err), LSYS_MUL(hi, LSYS_RAD2DEG_LO));
}

__device__ inline double lsys_atan_deg(double x) {
	if (x != x) return x;
	double a = fabs(x);
	double z = 90.0;
	if (a <= 0x1p64) {
		double h, l, s, t;
		lsys_atan_ratio(a, 0.0, 1.0, 0.0, &h, &l);
		lsys_to_deg(h, l, &s, &t);
		z = LSYS_ADD(s, t);
	}
	return x < 0 ? -z : z;
}

__device__ inline double lsys_atan2_deg(double y, double x) {
	if (x != x || y != y) return lsys_nan();
	bool neg = signbit(y);
	double ay = fabs(y), ax = fabs(x);
	double s = 0.0, t = 0.0;
	if (y == 0) {
		if (signbit(x)) s = 180.0;
	} else if (x == 0 || (isinf(y) && !isinf(x))) {
		s = 90.0;
	} else if (isinf(x) && isinf(y)) {
		s = x < 0 ? 135.0 : 45.0;
	} else if (isinf(x)) {
		if (x < 0) s = 180.0;
	} else {
		double m = ay > ax ? ay : ax;
		if (m > 0x1p500) {
			ay = LSYS_MUL(ay, 0x1p-600);
			ax = LSYS_MUL(ax, 0x1p-600);
		} else if (m < 0x1p-500) {
			ay = LSYS_MUL(ay, 0x1p600);
			ax = LSYS_MUL(ax, 0x1p600);
		}
		double h, l;
		lsys_atan_ratio(ay, 0.0, ax, 0.0, &h, &l);
		lsys_to_deg(h, l, &s, &t);
		if (x < 0) {
			double e;
			lsys_two_sum(180.0, -s, &s, &e);
			t = LSYS_SUB(e, t);
		}
	}
	double z = LSYS_ADD(s, t);
	return neg ? -z : z;
}

// sqrt(1 - a^2) as a double-double, 0 <= a < 1 (sqrt1mx2).
__device__ inline void lsys_sqrt1mx2(double a, double *h, double *l) {
	double p, pe, dh, de, q, qe;
	lsys_two_prod(a, a, &p, &pe);
	lsys_fast_two_sum(1.0, -p, &dh, &de);
	double dl = LSYS_SUB(de, pe);
	double sh = __dsqrt_rn(dh);
	lsys_two_prod(sh, sh, &q, &qe);
	*h = sh;
	*l = LSYS_DIV(LSYS_ADD(LSYS_SUB(LSYS_SUB(dh, q), qe), dl), LSYS_MUL(2.0, sh));
}

__device__ inline double lsys_asin_deg(double x) {
	double a = fabs(x);
	if (!(a <= 1.0)) return lsys_nan();
	if (a == 0) return x;
	double z = 90.0;
	if (a < 1.0) {
		double sh, sl, h, l, s, t;
		lsys_sqrt1mx2(a, &sh, &sl);
		lsys_atan_ratio(a, 0.0, sh, sl, &h, &l);
		lsys_to_deg(h, l, &s, &t);
		z = LSYS_ADD(s, t);
	}
	return x < 0 ? -z : z;
}

__device__ inline double lsys_acos_deg(double x) {
	double a = fabs(x);
	if (!(a <= 1.0)) return lsys_nan();
	if (x == 1.0) return 0.0;
	if (x == -1.0) return 180.0;
	double sh, sl, h, l, s, t;
	lsys_sqrt1mx2(a, &sh, &sl);
	lsys_atan_ratio(sh, sl, a, 0.0, &h, &l);
	lsys_to_deg(h, l, &s, &t);
	if (x < 0) {
		double e;
		lsys_two_sum(180.0, -s, &s, &e);
		t = LSYS_SUB(e, t);
	}
	return LSYS_ADD(s, t);
}

#define LSYS_EXP_MAX 709.8
#define LSYS_EXP_MIN (-745.2)
#define LSYS_SQRT2 1.4142135623730951

// log(x) as a double-double, finite x > 0 (mathpow.go's logDD).
__device__ inline void lsys_log_dd(double x, double *h, double *l) {
	int ki = 0;
	if ((((unsigned long long)__double_as_longlong(x)) >> 52) == 0) {
		x = LSYS_MUL(x, 0x1p52);
		ki = -52;
	}
	unsigned long long b = (unsigned long long)__double_as_longlong(x);
	ki += (int)(b >> 52) - 1023;
	double m = __longlong_as_double((long long)((b & ~(0x7ffull << 52)) | (1023ull << 52)));
	if (m > LSYS_SQRT2) {
		m = LSYS_MUL(m, 0.5);
		ki++;
	}
	double n = LSYS_SUB(m, 1.0);
	double dh, dl, p, pe;
	lsys_two_sum(m, 1.0, &dh, &dl);
	double sh = LSYS_DIV(n, dh);
	lsys_two_prod(sh, dh, &p, &pe);
	double sl = LSYS_DIV(LSYS_SUB(LSYS_SUB(LSYS_SUB(n, p), pe), LSYS_MUL(sh, dl)), dh);
	double zh, zl;
	lsys_dd_mul(sh, sl, sh, sl, &zh, &zl);
	double t = LSYS_ADD(LSYS_K_Inv25, LSYS_MUL(zh, LSYS_K_Inv27));
	t = LSYS_ADD(LSYS_K_Inv23, LSYS_MUL(zh, t));
	t = LSYS_ADD(LSYS_K_Inv21, LSYS_MUL(zh, t));
	t = LSYS_ADD(LSYS_K_Inv19, LSYS_MUL(zh, t));
	t = LSYS_ADD(LSYS_K_Inv17, LSYS_MUL(zh, t));
	t = LSYS_ADD(LSYS_K_Inv15, LSYS_MUL(zh, t));
	t = LSYS_ADD(LSYS_K_Inv13, LSYS_MUL(zh, t));
	t = LSYS_ADD(LSYS_K_Inv11, LSYS_MUL(zh, t));
	t = LSYS_ADD(LSYS_K_Inv9, LSYS_MUL(zh, t));
	t = LSYS_ADD(LSYS_K_Inv7, LSYS_MUL(zh, t));
	double ah, al;
	lsys_dd_add(LSYS_K_Inv5Hi, LSYS_K_Inv5Lo, LSYS_MUL(zh, t), 0.0, &ah, &al);
	lsys_dd_mul(zh, zl, ah, al, &ah, &al);
	lsys_dd_add(LSYS_K_Inv3Hi, LSYS_K_Inv3Lo, ah, al, &ah, &al);
	lsys_dd_mul(zh, zl, ah, al, &ah, &al);
	lsys_dd_add(1.0, 0.0, ah, al, &ah, &al);
	lsys_dd_mul(LSYS_MUL(2.0, sh), LSYS_MUL(2.0, sl), ah, al, &ah, &al);
	double k = (double)ki;
	double kh, kl;
	lsys_two_prod(k, LSYS_K_Ln2Hi, &kh, &kl);
	kl = LSYS_ADD(kl, LSYS_MUL(k, LSYS_K_Ln2Lo));
	lsys_dd_add(kh, kl, ah, al, h, l);
}

// (h + l) * 2^k rounded once; a subnormal result from the exact
// double-double sum (mathpow.go's scaleDD).
__device__ inline double lsys_scale_dd(double h, double l, int k) {
	int e = (int)((((unsigned long long)__double_as_longlong(h)) >> 52) & 0x7ff) - 1023 + k;
	if (e >= -1022) return lsys_scale2(LSYS_ADD(h, l), k);
	if (e < -1076) return 0.0;
	double p = lsys_pow2(k + 1074);
	double s, err;
	lsys_two_sum(LSYS_MUL(h, p), LSYS_MUL(l, p), &s, &err);
	double n = LSYS_SUB(LSYS_ADD(s, 0x1p52), 0x1p52);
	double d = LSYS_SUB(s, n);
	if (d == 0.5 && err > 0) n = LSYS_ADD(n, 1.0);
	else if (d == -0.5 && err < 0) n = LSYS_SUB(n, 1.0);
	return LSYS_MUL(n, 0x1p-1074);
}

// e^(xh + xl) rounded, LSYS_EXP_MIN <= xh <= LSYS_EXP_MAX (expDD).
__device__ inline double lsys_exp_dd(double xh, double xl) {
	double k = floor(LSYS_ADD(LSYS_MUL(xh, LSYS_K_InvLn2), 0.5));
	double a = LSYS_SUB(xh, LSYS_MUL(k, LSYS_K_Ln2A));
	double p, pe, rh, re, rl;
	lsys_two_prod(k, LSYS_K_Ln2B, &p, &pe);
	lsys_two_sum(a, -p, &rh, &re);
	lsys_two_sum(rh, LSYS_ADD(LSYS_SUB(re, pe), xl), &rh, &rl);
	// e^rh = 1 + rh + rh^2/2 + rh^3 P(rh), as expDD.
	double q, qe;
	lsys_two_prod(rh, rh, &q, &qe);
	double hh = LSYS_MUL(0.5, q), hhe = LSYS_MUL(0.5, qe);
	double poly = LSYS_ADD(LSYS_K_Exp13, LSYS_MUL(rh, LSYS_K_Exp14));
	poly = LSYS_ADD(LSYS_K_Exp12, LSYS_MUL(rh, poly));
	poly = LSYS_ADD(LSYS_K_Exp11, LSYS_MUL(rh, poly));
	poly = LSYS_ADD(LSYS_K_Exp10, LSYS_MUL(rh, poly));
	poly = LSYS_ADD(LSYS_K_Exp9, LSYS_MUL(rh, poly));
	poly = LSYS_ADD(LSYS_K_Exp8, LSYS_MUL(rh, poly));
	poly = LSYS_ADD(LSYS_K_Exp7, LSYS_MUL(rh, poly));
	poly = LSYS_ADD(LSYS_K_Exp6, LSYS_MUL(rh, poly));
	poly = LSYS_ADD(LSYS_K_Exp5, LSYS_MUL(rh, poly));
	double ph, pl, c, ce;
	lsys_dd_add(LSYS_K_Exp4Hi, LSYS_K_Exp4Lo, LSYS_MUL(rh, poly), 0.0, &ph, &pl);
	lsys_dd_mul(rh, 0.0, ph, pl, &ph, &pl);
	lsys_dd_add(LSYS_K_Exp3Hi, LSYS_K_Exp3Lo, ph, pl, &ph, &pl);
	lsys_two_prod(rh, q, &c, &ce);
	lsys_dd_mul(c, LSYS_ADD(ce, LSYS_MUL(rh, qe)), ph, pl, &ph, &pl);
	double s1, e1, s2, e2, s3, e3;
	lsys_fast_two_sum(1.0, rh, &s1, &e1);
	lsys_fast_two_sum(s1, hh, &s2, &e2);
	lsys_fast_two_sum(s2, ph, &s3, &e3);
	double rt = LSYS_ADD(rl, LSYS_MUL(rl, LSYS_ADD(LSYS_ADD(rh, hh), LSYS_MUL(c, LSYS_K_Exp3Hi))));
	double tail = LSYS_ADD(LSYS_ADD(LSYS_ADD(LSYS_ADD(e1, e2), e3), hhe), LSYS_ADD(pl, rt));
	return lsys_scale_dd(s3, tail, (int)k);
}

__device__ inline double lsys_exp(double x) {
	if (x != x) return x;
	if (x > LSYS_EXP_MAX) return lsys_inf();
	if (x < LSYS_EXP_MIN) return 0.0;
	return lsys_exp_dd(x, 0.0);
}

__device__ inline double lsys_log(double x) {
	if (x != x || (isinf(x) && x > 0)) return x;
	if (x < 0) return lsys_nan();
	if (x == 0) return -lsys_inf();
	double h, l;
	lsys_log_dd(x, &h, &l);
	return LSYS_ADD(h, l);
}

// Whether finite y is an integer, and an odd one (intParity).
__device__ inline void lsys_int_parity(double y, bool *is_int, bool *odd) {
	*is_int = false;
	*odd = false;
	if (y != floor(y)) return;
	*is_int = true;
	if (fabs(y) >= 0x1p53) return;
	double h = LSYS_MUL(y, 0.5);
	*odd = h != floor(h);
}

// x^y with C99's special cases (powGeneral).
__device__ inline double lsys_pow_general(double x, double y) {
	if (y == 0 || x == 1.0) return 1.0;
	if (x != x || y != y) return lsys_nan();
	double ax = fabs(x);
	if (isinf(y)) {
		if (ax == 1.0) return 1.0;
		if ((ax < 1.0) == (y > 0)) return 0.0;
		return lsys_inf();
	}
	bool is_int, odd;
	lsys_int_parity(y, &is_int, &odd);
	bool neg = signbit(x) && odd;
	double z = 0.0;
	if (x == 0 || isinf(x)) {
		if ((x == 0) == (y < 0)) z = lsys_inf();
	} else if (x < 0 && !is_int) {
		return lsys_nan();
	} else {
		double lh, ll;
		lsys_log_dd(ax, &lh, &ll);
		double ph = LSYS_MUL(y, lh);
		if (ph > LSYS_EXP_MAX) {
			z = lsys_inf();
		} else if (ph < LSYS_EXP_MIN) {
			z = 0.0;
		} else {
			double pl, sh, sl;
			lsys_two_prod(y, lh, &ph, &pl);
			lsys_fast_two_sum(ph, LSYS_ADD(pl, LSYS_MUL(y, ll)), &sh, &sl);
			z = lsys_exp_dd(sh, sl);
		}
	}
	return neg ? -z : z;
}

// x^y: small integer powers as products (x^2 == x*x, x^3 == x*x*x,
// x^-2 == 1/(x*x)), x^0.5 == sqrt(x), otherwise lsys_pow_general.
__device__ inline double lsys_pow(double x, double y) {
	if (y == 0.0) return 1.0;
	if (y == 0.5 && x >= 0) return __dsqrt_rn(x);
	if (y == trunc(y) && fabs(y) <= 4.0) {
		double p, a = fabs(y);
		if (a == 1.0) p = x;
		else if (a == 2.0) p = LSYS_MUL(x, x);
		else if (a == 3.0) p = LSYS_MUL(LSYS_MUL(x, x), x);
		else p = LSYS_MUL(LSYS_MUL(x, x), LSYS_MUL(x, x));
		return y < 0 ? LSYS_DIV(1.0, p) : p;
	}
	return lsys_pow_general(x, y);
}
