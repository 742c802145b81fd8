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
// Checked bit for bit against the Go functions on 1.1 million arguments
// (random over wide ranges and special values) on an H100: no difference.
//
// The algorithms are fdlibm's (Copyright (C) 1993, 2004 by Sun Microsystems,
// Inc. "Permission to use, copy, modify, and distribute this software is
// freely granted, provided that this notice is preserved."). Change this file
// and the Go files together.
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
#define LSYS_SPLITTER 134217729.0
#define LSYS_BIG_DEGREES 1099511627776.0 /* 2^40 */

__device__ __forceinline__ int lsys_hi(double x) { return __double2hiint(x); }
__device__ __forceinline__ uint32_t lsys_lo(double x) { return (uint32_t)__double2loint(x); }
__device__ __forceinline__ double lsys_words(int hi, uint32_t lo) { return __hiloint2double(hi, (int)lo); }
__device__ __forceinline__ double lsys_with_lo(double x, uint32_t lo) { return lsys_words(lsys_hi(x), lo); }
__device__ __forceinline__ double lsys_with_hi(double x, int hi) { return lsys_words(hi, lsys_lo(x)); }
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

// p = fl(a*b), p + e = a*b exactly (Dekker).
__device__ inline void lsys_two_prod(double a, double b, double *p, double *e) {
	double pp = LSYS_MUL(a, b);
	double c = LSYS_MUL(LSYS_SPLITTER, a);
	double ah = LSYS_SUB(c, LSYS_SUB(c, a));
	double al = LSYS_SUB(a, ah);
	c = LSYS_MUL(LSYS_SPLITTER, b);
	double bh = LSYS_SUB(c, LSYS_SUB(c, b));
	double bl = LSYS_SUB(b, bh);
	double ee = LSYS_ADD(LSYS_ADD(LSYS_SUB(LSYS_MUL(ah, bh), pp), LSYS_MUL(ah, bl)), LSYS_MUL(al, bh));
	ee = LSYS_ADD(ee, LSYS_MUL(al, bl));
	*p = pp;
	*e = ee;
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

__device__ inline double lsys_ksin(double x, double y) {
	const double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
	             S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06,
	             S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
	double z = LSYS_MUL(x, x);
	double w = LSYS_MUL(z, z);
	double r = LSYS_ADD(LSYS_ADD(S2, LSYS_MUL(z, LSYS_ADD(S3, LSYS_MUL(z, S4)))),
	                    LSYS_MUL(LSYS_MUL(z, w), LSYS_ADD(S5, LSYS_MUL(z, S6))));
	double v = LSYS_MUL(z, x);
	return LSYS_SUB(x, LSYS_SUB(LSYS_SUB(LSYS_MUL(z, LSYS_SUB(LSYS_MUL(0.5, y), LSYS_MUL(v, r))), y),
	                            LSYS_MUL(v, S1)));
}

__device__ inline double lsys_kcos(double x, double y) {
	const double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
	             C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07,
	             C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
	double z = LSYS_MUL(x, x);
	double w = LSYS_MUL(z, z);
	double r = LSYS_ADD(LSYS_MUL(z, LSYS_ADD(C1, LSYS_MUL(z, LSYS_ADD(C2, LSYS_MUL(z, C3))))),
	                    LSYS_MUL(LSYS_MUL(w, w), LSYS_ADD(C4, LSYS_MUL(z, LSYS_ADD(C5, LSYS_MUL(z, C6))))));
	double hz = LSYS_MUL(0.5, z);
	w = LSYS_SUB(1.0, hz);
	return LSYS_ADD(w, LSYS_ADD(LSYS_SUB(LSYS_SUB(1.0, w), hz), LSYS_SUB(LSYS_MUL(z, r), LSYS_MUL(x, y))));
}

__device__ inline double lsys_sin_deg(double x) {
	if (!lsys_isfinite(x)) return lsys_nan();
	double hi, lo;
	switch (lsys_reduce_deg(x, &hi, &lo)) {
	case 0: return lsys_ksin(hi, lo);
	case 1: return lsys_kcos(hi, lo);
	case 2: return -lsys_ksin(hi, lo);
	}
	return -lsys_kcos(hi, lo);
}

__device__ inline double lsys_cos_deg(double x) {
	if (!lsys_isfinite(x)) return lsys_nan();
	double hi, lo;
	switch (lsys_reduce_deg(x, &hi, &lo)) {
	case 0: return lsys_kcos(hi, lo);
	case 1: return -lsys_ksin(hi, lo);
	case 2: return -lsys_kcos(hi, lo);
	}
	return lsys_ksin(hi, lo);
}

__device__ inline double lsys_tan_deg(double x) {
	if (!lsys_isfinite(x)) return lsys_nan();
	double hi, lo;
	int q = lsys_reduce_deg(x, &hi, &lo);
	if ((q & 1) == 0) return LSYS_DIV(lsys_ksin(hi, lo), lsys_kcos(hi, lo));
	return LSYS_DIV(-lsys_kcos(hi, lo), lsys_ksin(hi, lo));
}

// fdlibm atan for x >= 0, last addition unrounded: atan(x) ~ *hi + *lo.
__device__ inline void lsys_atan_dd(double x, double *hi, double *lo) {
	const double aT0 = 3.33333333333329318027e-01, aT1 = -1.99999999998764832476e-01,
	             aT2 = 1.42857142725034663711e-01, aT3 = -1.11111104054623557880e-01,
	             aT4 = 9.09088713343650656196e-02, aT5 = -7.69187620504482999495e-02,
	             aT6 = 6.66107313738753120669e-02, aT7 = -5.83357013379057348645e-02,
	             aT8 = 4.97687799461593236017e-02, aT9 = -3.65315727442169155270e-02,
	             aT10 = 1.62858201153657823623e-02;
	const double atanhi[4] = {4.63647609000806093515e-01, 7.85398163397448278999e-01,
	                          9.82793723247329054082e-01, 1.57079632679489655800e+00};
	const double atanlo[4] = {2.26987774529616870924e-17, 3.06161699786838301793e-17,
	                          1.39033110312309984516e-17, 6.12323399573676603587e-17};
	int ix = lsys_hi(x) & 0x7fffffff;
	if (ix >= 0x44100000) {
		*hi = atanhi[3];
		*lo = atanlo[3];
		return;
	}
	int id = -1;
	if (ix < 0x3fdc0000) {
		if (ix < 0x3e200000) {
			*hi = x;
			*lo = 0.0;
			return;
		}
	} else if (ix < 0x3fe60000) {
		id = 0;
		x = LSYS_DIV(LSYS_SUB(LSYS_MUL(2.0, x), 1.0), LSYS_ADD(2.0, x));
	} else if (ix < 0x3ff30000) {
		id = 1;
		x = LSYS_DIV(LSYS_SUB(x, 1.0), LSYS_ADD(x, 1.0));
	} else if (ix < 0x40038000) {
		id = 2;
		x = LSYS_DIV(LSYS_SUB(x, 1.5), LSYS_ADD(1.0, LSYS_MUL(1.5, x)));
	} else {
		id = 3;
		x = LSYS_DIV(-1.0, x);
	}
	double z = LSYS_MUL(x, x);
	double w = LSYS_MUL(z, z);
	double s1 = LSYS_MUL(z, LSYS_ADD(aT0, LSYS_MUL(w, LSYS_ADD(aT2, LSYS_MUL(w, LSYS_ADD(aT4,
	            LSYS_MUL(w, LSYS_ADD(aT6, LSYS_MUL(w, LSYS_ADD(aT8, LSYS_MUL(w, aT10)))))))))));
	double s2 = LSYS_MUL(w, LSYS_ADD(aT1, LSYS_MUL(w, LSYS_ADD(aT3, LSYS_MUL(w, LSYS_ADD(aT5,
	            LSYS_MUL(w, LSYS_ADD(aT7, LSYS_MUL(w, aT9)))))))));
	if (id < 0) {
		*hi = x;
		*lo = -LSYS_MUL(x, LSYS_ADD(s1, s2));
		return;
	}
	*hi = atanhi[id];
	*lo = -LSYS_SUB(LSYS_SUB(LSYS_MUL(x, LSYS_ADD(s1, s2)), atanlo[id]), x);
}

// hi + lo radians to degrees as *s + *t.
__device__ inline void lsys_to_deg(double hi, double lo, double *s, double *t) {
	double p, e, err;
	lsys_two_prod(hi, LSYS_RAD2DEG_HI, &p, &e);
	double q = LSYS_MUL(lo, LSYS_RAD2DEG_HI);
	lsys_two_sum(p, q, s, &err);
	*t = LSYS_ADD(LSYS_ADD(e, err), LSYS_MUL(hi, LSYS_RAD2DEG_LO));
}

__device__ inline double lsys_atan_deg(double x) {
	if (x != x) return x;
	double hi, lo, s, t;
	lsys_atan_dd(fabs(x), &hi, &lo);
	lsys_to_deg(hi, lo, &s, &t);
	double z = LSYS_ADD(s, t);
	return x < 0 ? -z : z;
}

__device__ inline double lsys_atan2_deg(double y, double x) {
	if (x != x || y != y) return lsys_nan();
	bool neg = signbit(y);
	double z;
	if (y == 0.0) {
		z = signbit(x) ? 180.0 : 0.0;
	} else if (x == 0.0) {
		z = 90.0;
	} else if (!lsys_isfinite(x) && !lsys_isfinite(y)) {
		z = x < 0 ? 135.0 : 45.0;
	} else {
		double hi, lo, s, t;
		lsys_atan_dd(LSYS_DIV(fabs(y), fabs(x)), &hi, &lo);
		lsys_to_deg(hi, lo, &s, &t);
		if (x < 0) {
			double e;
			lsys_two_sum(180.0, -s, &s, &e);
			t = LSYS_SUB(e, t);
		}
		z = LSYS_ADD(s, t);
	}
	return neg ? -z : z;
}

__device__ inline double lsys_asin_deg(double x) {
	if (!(fabs(x) <= 1.0)) return lsys_nan();
	return lsys_atan2_deg(x, __dsqrt_rn(LSYS_MUL(LSYS_SUB(1.0, x), LSYS_ADD(1.0, x))));
}

__device__ inline double lsys_acos_deg(double x) {
	if (!(fabs(x) <= 1.0)) return lsys_nan();
	return lsys_atan2_deg(__dsqrt_rn(LSYS_MUL(LSYS_SUB(1.0, x), LSYS_ADD(1.0, x))), x);
}

// e^(hi-lo) * 2^k for |hi-lo| <= ln(2)/2.
__device__ inline double lsys_exp_multi(double hi, double lo, int k) {
	const double P1 = 1.66666666666666657415e-01, P2 = -2.77777777770155933842e-03,
	             P3 = 6.61375632143793436117e-05, P4 = -1.65339022054652515390e-06,
	             P5 = 4.13813679705723846039e-08;
	double r = LSYS_SUB(hi, lo);
	double t = LSYS_MUL(r, r);
	double c = LSYS_SUB(r, LSYS_MUL(t, LSYS_ADD(P1, LSYS_MUL(t, LSYS_ADD(P2, LSYS_MUL(t, LSYS_ADD(P3,
	           LSYS_MUL(t, LSYS_ADD(P4, LSYS_MUL(t, P5))))))))));
	double y = LSYS_SUB(1.0, LSYS_SUB(LSYS_SUB(lo, LSYS_DIV(LSYS_MUL(r, c), LSYS_SUB(2.0, c))), hi));
	return lsys_scale2(y, k);
}

__device__ inline double lsys_exp(double x) {
	const double ln2Hi = 6.93147180369123816490e-01, ln2Lo = 1.90821492927058770002e-10,
	             log2e = 1.44269504088896338700e+00, overflow = 7.09782712893383973096e+02,
	             underflow = -7.45133219101941108420e+02, nearZero = 3.725290298461914e-09 /* 2^-28 */;
	if (x != x) return x;
	if (x > overflow) return lsys_inf();
	if (x < underflow) return 0.0;
	if (-nearZero < x && x < nearZero) return LSYS_ADD(1.0, x);
	int k;
	if (x < 0) k = (int)LSYS_SUB(LSYS_MUL(log2e, x), 0.5);
	else k = (int)LSYS_ADD(LSYS_MUL(log2e, x), 0.5);
	double fk = (double)k;
	double hi = LSYS_SUB(x, LSYS_MUL(fk, ln2Hi));
	double lo = LSYS_MUL(fk, ln2Lo);
	return lsys_exp_multi(hi, lo, k);
}

__device__ inline double lsys_log(double x) {
	const double ln2Hi = 6.93147180369123816490e-01, ln2Lo = 1.90821492927058770002e-10,
	             L1 = 6.666666666666735130e-01, L2 = 3.999999999940941908e-01,
	             L3 = 2.857142874366239149e-01, L4 = 2.222219843214978396e-01,
	             L5 = 1.818357216161805012e-01, L6 = 1.531383769920937332e-01,
	             L7 = 1.479819860511658591e-01, halfSqrt2 = 0.7071067811865476;
	if (x != x || x == lsys_inf()) return x;
	if (x < 0) return lsys_nan();
	if (x == 0) return -lsys_inf();
	int ki = 0;
	if (((unsigned long long)__double_as_longlong(x) >> 52) == 0) {
		x = LSYS_MUL(x, 4503599627370496.0 /* 2^52 */);
		ki = -52;
	}
	unsigned long long b = (unsigned long long)__double_as_longlong(x);
	ki += (int)(b >> 52) - 1022;
	double f1 = __longlong_as_double((long long)((b & ~(0x7ffull << 52)) | (1022ull << 52)));
	if (f1 < halfSqrt2) {
		f1 = LSYS_MUL(f1, 2.0);
		ki--;
	}
	double f = LSYS_SUB(f1, 1.0);
	double k = (double)ki;
	double s = LSYS_DIV(f, LSYS_ADD(2.0, f));
	double s2 = LSYS_MUL(s, s);
	double s4 = LSYS_MUL(s2, s2);
	double t1 = LSYS_MUL(s2, LSYS_ADD(L1, LSYS_MUL(s4, LSYS_ADD(L3, LSYS_MUL(s4, LSYS_ADD(L5, LSYS_MUL(s4, L7)))))));
	double t2 = LSYS_MUL(s4, LSYS_ADD(L2, LSYS_MUL(s4, LSYS_ADD(L4, LSYS_MUL(s4, L6)))));
	double R = LSYS_ADD(t1, t2);
	double hfsq = LSYS_MUL(LSYS_MUL(0.5, f), f);
	return LSYS_SUB(LSYS_MUL(k, ln2Hi),
	                LSYS_SUB(LSYS_SUB(hfsq, LSYS_ADD(LSYS_MUL(s, LSYS_ADD(hfsq, R)), LSYS_MUL(k, ln2Lo))), f));
}


// fdlibm's e_pow.c, statement for statement (mathpow.go's fdlibmPow).
__device__ inline double lsys_fdlibm_pow(double x, double y) {
	const double two53 = 9007199254740992.0, L1 = 5.99999999999994648725e-01,
	             L2 = 4.28571428578550184252e-01, L3 = 3.33333329818377432918e-01,
	             L4 = 2.72728123808534006489e-01, L5 = 2.30660745775561754067e-01,
	             L6 = 2.06975017800338417784e-01, P1 = 1.66666666666666019037e-01,
	             P2 = -2.77777777770155933842e-03, P3 = 6.61375632143793436117e-05,
	             P4 = -1.65339022054652515390e-06, P5 = 4.13813679705723846039e-08,
	             lg2 = 6.93147180559945286227e-01, lg2H = 6.93147182464599609375e-01,
	             lg2L = -1.90465429995776804525e-09, ovt = 8.0085662595372944372e-17,
	             cp = 9.61796693925975554329e-01, cpH = 9.61796700954437255859e-01,
	             cpL = -7.02846165095275826516e-09, ivln2 = 1.44269504088896338700e+00,
	             ivln2H = 1.44269502162933349609e+00, ivln2L = 1.92596299112661746887e-08;
	const double bp[2] = {1.0, 1.5};
	const double dpH[2] = {0.0, 5.84962487220764160156e-01};
	const double dpL[2] = {0.0, 1.35003920212974897128e-08};
	const double inf = lsys_inf();

	int hx = lsys_hi(x), hy = lsys_hi(y);
	uint32_t lx = lsys_lo(x), ly = lsys_lo(y);
	int ix = hx & 0x7fffffff, iy = hy & 0x7fffffff;
	if (iy == 0 && ly == 0) return 1.0;
	if (hx == 0x3ff00000 && lx == 0) return 1.0;
	if (ix > 0x7ff00000 || (ix == 0x7ff00000 && lx != 0) || iy > 0x7ff00000 || (iy == 0x7ff00000 && ly != 0))
		return lsys_nan();
	int yisint = 0;
	if (hx < 0) {
		if (iy >= 0x43400000) {
			yisint = 2;
		} else if (iy >= 0x3ff00000) {
			int k = (iy >> 20) - 0x3ff;
			if (k > 20) {
				uint32_t j = ly >> (52 - k);
				if ((j << (52 - k)) == ly) yisint = 2 - (int)(j & 1);
			} else if (ly == 0) {
				int j = iy >> (20 - k);
				if ((j << (20 - k)) == iy) yisint = 2 - (j & 1);
			}
		}
	}
	if (ly == 0) {
		if (iy == 0x7ff00000) {
			if (ix == 0x3ff00000 && lx == 0) return 1.0;
			if (ix >= 0x3ff00000) return hy >= 0 ? y : 0.0;
			return hy < 0 ? -y : 0.0;
		}
		if (iy == 0x3ff00000) return hy < 0 ? LSYS_DIV(1.0, x) : x;
		if (hy == 0x40000000) return LSYS_MUL(x, x);
		if (hy == 0x3fe00000 && hx >= 0) return __dsqrt_rn(x);
	}
	double ax = fabs(x);
	if (lx == 0 && (ix == 0x7ff00000 || ix == 0 || ix == 0x3ff00000)) {
		double z = ax;
		if (hy < 0) z = LSYS_DIV(1.0, z);
		if (hx < 0) {
			if (ix == 0x3ff00000 && yisint == 0) z = lsys_nan();
			else if (yisint == 1) z = -z;
		}
		return z;
	}
	int n = (int)((uint32_t)hx >> 31) - 1;
	if ((n | yisint) == 0) return lsys_nan();
	double s = 1.0;
	if ((n | (yisint - 1)) == 0) s = -1.0;
	double t1, t2;
	if (iy > 0x41e00000) {
		if (iy > 0x43f00000) {
			if (ix <= 0x3fefffff) return hy < 0 ? inf : 0.0;
			if (ix >= 0x3ff00000) return hy > 0 ? inf : 0.0;
		}
		if (ix < 0x3fefffff) return hy < 0 ? LSYS_MUL(s, inf) : LSYS_MUL(s, 0.0);
		if (ix > 0x3ff00000) return hy > 0 ? LSYS_MUL(s, inf) : LSYS_MUL(s, 0.0);
		double t = LSYS_SUB(ax, 1.0);
		double w = LSYS_MUL(LSYS_MUL(t, t),
		                    LSYS_SUB(0.5, LSYS_MUL(t, LSYS_SUB(0.3333333333333333333333, LSYS_MUL(t, 0.25)))));
		double u = LSYS_MUL(ivln2H, t);
		double v = LSYS_SUB(LSYS_MUL(t, ivln2L), LSYS_MUL(w, ivln2));
		t1 = lsys_with_lo(LSYS_ADD(u, v), 0);
		t2 = LSYS_SUB(v, LSYS_SUB(t1, u));
	} else {
		n = 0;
		if (ix < 0x00100000) {
			ax = LSYS_MUL(ax, two53);
			n -= 53;
			ix = lsys_hi(ax);
		}
		n += (ix >> 20) - 0x3ff;
		int j = ix & 0x000fffff;
		ix = j | 0x3ff00000;
		int k;
		if (j <= 0x3988E) {
			k = 0;
		} else if (j < 0xBB67A) {
			k = 1;
		} else {
			k = 0;
			n++;
			ix -= 0x00100000;
		}
		ax = lsys_with_hi(ax, ix);
		double u = LSYS_SUB(ax, bp[k]);
		double v = LSYS_DIV(1.0, LSYS_ADD(ax, bp[k]));
		double ss = LSYS_MUL(u, v);
		double sH = lsys_with_lo(ss, 0);
		double tH = lsys_words(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18), 0);
		double tL = LSYS_SUB(ax, LSYS_SUB(tH, bp[k]));
		double sL = LSYS_MUL(v, LSYS_SUB(LSYS_SUB(u, LSYS_MUL(sH, tH)), LSYS_MUL(sH, tL)));
		double s2 = LSYS_MUL(ss, ss);
		double r = LSYS_MUL(LSYS_MUL(s2, s2), LSYS_ADD(L1, LSYS_MUL(s2, LSYS_ADD(L2, LSYS_MUL(s2, LSYS_ADD(L3,
		           LSYS_MUL(s2, LSYS_ADD(L4, LSYS_MUL(s2, LSYS_ADD(L5, LSYS_MUL(s2, L6)))))))))));
		r = LSYS_ADD(r, LSYS_MUL(sL, LSYS_ADD(sH, ss)));
		s2 = LSYS_MUL(sH, sH);
		tH = lsys_with_lo(LSYS_ADD(LSYS_ADD(3.0, s2), r), 0);
		tL = LSYS_SUB(r, LSYS_SUB(LSYS_SUB(tH, 3.0), s2));
		u = LSYS_MUL(sH, tH);
		v = LSYS_ADD(LSYS_MUL(sL, tH), LSYS_MUL(tL, ss));
		double pH = lsys_with_lo(LSYS_ADD(u, v), 0);
		double pL = LSYS_SUB(v, LSYS_SUB(pH, u));
		double zH = LSYS_MUL(cpH, pH);
		double zL = LSYS_ADD(LSYS_ADD(LSYS_MUL(cpL, pH), LSYS_MUL(pL, cp)), dpL[k]);
		double t = (double)n;
		t1 = lsys_with_lo(LSYS_ADD(LSYS_ADD(LSYS_ADD(zH, zL), dpH[k]), t), 0);
		t2 = LSYS_SUB(zL, LSYS_SUB(LSYS_SUB(LSYS_SUB(t1, t), dpH[k]), zH));
	}
	double y1 = lsys_with_lo(y, 0);
	double pL = LSYS_ADD(LSYS_MUL(LSYS_SUB(y, y1), t1), LSYS_MUL(y, t2));
	double pH = LSYS_MUL(y1, t1);
	double z = LSYS_ADD(pL, pH);
	int j = lsys_hi(z);
	uint32_t i = lsys_lo(z);
	if (j >= 0x40900000) {
		if (j != 0x40900000 || i != 0) return LSYS_MUL(s, inf);
		if (LSYS_ADD(pL, ovt) > LSYS_SUB(z, pH)) return LSYS_MUL(s, inf);
	} else if ((j & 0x7fffffff) >= 0x4090cc00) {
		if ((uint32_t)j != 0xc090cc00u || i != 0) return LSYS_MUL(s, 0.0);
		if (pL <= LSYS_SUB(z, pH)) return LSYS_MUL(s, 0.0);
	}
	int i2 = j & 0x7fffffff;
	int k = (i2 >> 20) - 0x3ff;
	n = 0;
	if (i2 > 0x3fe00000) {
		n = j + (0x00100000 >> (k + 1));
		k = ((n & 0x7fffffff) >> 20) - 0x3ff;
		double t = lsys_words(n & ~(0x000fffff >> k), 0);
		n = ((n & 0x000fffff) | 0x00100000) >> (20 - k);
		if (j < 0) n = -n;
		pH = LSYS_SUB(pH, t);
	}
	double t = lsys_with_lo(LSYS_ADD(pL, pH), 0);
	double u = LSYS_MUL(t, lg2H);
	double v = LSYS_ADD(LSYS_MUL(LSYS_SUB(pL, LSYS_SUB(t, pH)), lg2), LSYS_MUL(t, lg2L));
	z = LSYS_ADD(u, v);
	double w = LSYS_SUB(v, LSYS_SUB(z, u));
	t = LSYS_MUL(z, z);
	t1 = LSYS_SUB(z, LSYS_MUL(t, LSYS_ADD(P1, LSYS_MUL(t, LSYS_ADD(P2, LSYS_MUL(t, LSYS_ADD(P3,
	     LSYS_MUL(t, LSYS_ADD(P4, LSYS_MUL(t, P5))))))))));
	double r = LSYS_SUB(LSYS_DIV(LSYS_MUL(z, t1), LSYS_SUB(t1, 2.0)), LSYS_ADD(w, LSYS_MUL(z, w)));
	z = LSYS_SUB(1.0, LSYS_SUB(r, z));
	j = lsys_hi(z) + (int)((uint32_t)n << 20); // n < 0: shift as unsigned, as Go's int32 wraps
	if ((j >> 20) <= 0) z = lsys_scale2(z, n);
	else z = lsys_with_hi(z, j);
	return LSYS_MUL(s, z);
}

// x^y: small integer powers as products (x^2 == x*x, x^3 == x*x*x,
// x^-2 == 1/(x*x)), x^0.5 == sqrt(x), otherwise fdlibm's pow.
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
	return lsys_fdlibm_pow(x, y);
}
