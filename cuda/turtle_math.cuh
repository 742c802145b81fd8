// Turtle arithmetic for turtle.cu: the same operations, in the same order, as
// internal/lsys/turtle/frame.go, in float64, so that the GPU's geometry
// differs from the CPU's by rounding only.
#pragma once
#include <stdint.h>
#include "turtle_types.cuh"

#define TURTLE_MAX_COLOR 65535
// Go's math.Pi / 180 rounded once (M_PI / 180.0 would round twice).
#define TURTLE_DEG 0.017453292519943295

struct V3 {
	double x, y, z;
};

__device__ __forceinline__ V3 v3(double x, double y, double z) {
	V3 r;
	r.x = x, r.y = y, r.z = z;
	return r;
}
__device__ __forceinline__ V3 vadd(V3 a, V3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ __forceinline__ V3 vscale(V3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }
__device__ __forceinline__ V3 vneg(V3 a) { return v3(-a.x, -a.y, -a.z); }
__device__ __forceinline__ V3 vcross(V3 a, V3 b) {
	return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
__device__ __forceinline__ double vdot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// Go's built-in max and min on floats: NaN if either is NaN.
__device__ __forceinline__ double gmax(double a, double b) {
	if (a != a || b != b) return a + b;
	return a > b ? a : b;
}

// sincos_deg is sincosDeg: exact for multiples of 90°.
__device__ __forceinline__ void sincos_deg(double deg, double *s, double *c) {
	const double q = deg / 90.0;
	if (q == trunc(q) && fabs(q) < 4503599627370496.0) {
		switch ((long long)q & 3) {
		case 0: *s = 0, *c = 1; return;
		case 1: *s = 1, *c = 0; return;
		case 2: *s = 0, *c = -1; return;
		default: *s = -1, *c = 0; return;
		}
	}
	sincos(deg * TURTLE_DEG, s, c);
}

// rodrigues rotates v about the unit axis k by the angle with cosine c, sine s.
__device__ __forceinline__ V3 rodrigues(V3 v, V3 k, double c, double s) {
	const V3 kv = vcross(k, v);
	const double d = vdot(k, v) * (1 - c);
	return v3(v.x * c + kv.x * s + k.x * d, v.y * c + kv.y * s + k.y * d, v.z * c + kv.z * s + k.z * d);
}

// tropism bends H towards t by e·|H × t| (ABOP section 2.3.2).
__device__ __forceinline__ void tropism(V3 &h, V3 &l, V3 &u, V3 t, double e) {
	const V3 a = vcross(h, t);
	const double n = sqrt(vdot(a, a));
	if (n == 0) return;
	const V3 k = vscale(a, 1 / n);
	double s, c;
	sincos(e * n, &s, &c);
	h = rodrigues(h, k, c, s), l = rodrigues(l, k, c, s), u = rodrigues(u, k, c, s);
}

// level rolls about H so that L is horizontal (ABOP p. 57).
__device__ __forceinline__ void level(V3 h, V3 &l, V3 &u) {
	const double lx = h.z, lz = -h.x;
	const double n = hypot(lx, lz);
	if (n < 1e-12) return;
	l = v3(lx / n, 0, lz / n);
	u = vcross(h, l);
}

// rotate applies rotation command cm (TC_LEFT..TC_ROLL_LEFT) with cosine c
// and sine s: k = cm - TC_LEFT turns in the plane (H,L), (H,U) or (L,U) for
// k>>1 = 0, 1, 2, the first towards the second for even k. Selects instead
// of branches: every lane of a warp runs the same instructions.
__device__ __forceinline__ void rotate(int cm, double c, double s, V3 &h, V3 &l, V3 &u) {
	const int k = cm - TC_LEFT, plane = k >> 1;
	if (k & 1) s = -s;
	const V3 a = plane == 2 ? l : h, b = plane == 0 ? l : u;
	const V3 a2 = v3(a.x * c + b.x * s, a.y * c + b.y * s, a.z * c + b.z * s);
	const V3 b2 = v3(b.x * c - a.x * s, b.y * c - a.y * s, b.z * c - a.z * s);
	if (plane != 2) h = a2;
	l = plane == 2 ? a2 : plane == 0 ? b2 : l;
	if (plane != 0) u = b2;
}

// The turtle as a transform (TurtleXform in registers).
struct Xt {
	V3 p, h, l, u;
	double wadd, wmin;
	int cset, cv;
};

__device__ __forceinline__ Xt xt_identity() {
	Xt x;
	x.p = v3(0, 0, 0), x.h = v3(1, 0, 0), x.l = v3(0, 1, 0), x.u = v3(0, 0, 1);
	x.wadd = 0, x.wmin = 0, x.cset = 0, x.cv = 0;
	return x;
}

// xt_initial is the turtle's starting state as an absolute transform.
__device__ __forceinline__ Xt xt_initial(double width0) {
	Xt x;
	x.p = v3(0, 0, 0), x.h = v3(0, 1, 0), x.l = v3(-1, 0, 0), x.u = v3(0, 0, 1);
	x.wadd = -__longlong_as_double(0x7ff0000000000000ll), x.wmin = width0, x.cset = 1, x.cv = 0;
	return x;
}

// Width and colour updates, widthFn and colorFn in frame.go.
__device__ __forceinline__ double width_apply(double add, double mn, double w) { return gmax(w + add, mn); }
__device__ __forceinline__ void width_then(double &add, double &mn, double gadd, double gmin) {
	mn = gmax(mn + gadd, gmin);
	add = add + gadd;
}
__device__ __forceinline__ int color_apply(int set, int v, int c) { return set ? v : min(c + v, TURTLE_MAX_COLOR); }
__device__ __forceinline__ void color_then(int &set, int &v, int gset, int gv) {
	if (gset) set = 1, v = gv;
	else v = min(v + gv, TURTLE_MAX_COLOR);
}

// local maps coordinates in f's frame to world directions.
__device__ __forceinline__ V3 xt_local(const Xt &f, V3 v) {
	return v3(f.h.x * v.x + f.l.x * v.y + f.u.x * v.z, f.h.y * v.x + f.l.y * v.y + f.u.y * v.z,
		  f.h.z * v.x + f.l.z * v.y + f.u.z * v.z);
}

// xt_then is a followed by b (frame.apply, widthFn.then, colorFn.then).
__device__ __forceinline__ Xt xt_then(const Xt &a, const Xt &b) {
	Xt r;
	r.p = vadd(a.p, xt_local(a, b.p));
	r.h = xt_local(a, b.h), r.l = xt_local(a, b.l), r.u = xt_local(a, b.u);
	r.wadd = a.wadd, r.wmin = a.wmin;
	width_then(r.wadd, r.wmin, b.wadd, b.wmin);
	r.cset = a.cset, r.cv = a.cv;
	color_then(r.cset, r.cv, b.cset, b.cv);
	return r;
}

// Loads and stores of TurtleXform (128 bytes, 16-byte aligned). CG: through
// L2 only, for values another block publishes while this one runs.
template <bool CG>
__device__ __forceinline__ Xt xt_load(const TurtleXform *p) {
	const double2 *q = reinterpret_cast<const double2 *>(p);
	double2 v[8];
#pragma unroll
	for (int i = 0; i < 7; i++) v[i] = CG ? __ldcg(q + i) : q[i];
	const int4 w = CG ? __ldcg(reinterpret_cast<const int4 *>(q + 7)) : *reinterpret_cast<const int4 *>(q + 7);
	Xt x;
	x.p = v3(v[0].x, v[0].y, v[1].x), x.h = v3(v[1].y, v[2].x, v[2].y);
	x.l = v3(v[3].x, v[3].y, v[4].x), x.u = v3(v[4].y, v[5].x, v[5].y);
	x.wadd = v[6].x, x.wmin = v[6].y, x.cset = w.x, x.cv = w.y;
	return x;
}

template <bool CG>
__device__ __forceinline__ void xt_store(TurtleXform *p, const Xt &x) {
	double2 *q = reinterpret_cast<double2 *>(p);
	double2 v[7] = {{x.p.x, x.p.y}, {x.p.z, x.h.x}, {x.h.y, x.h.z}, {x.l.x, x.l.y},
			{x.l.z, x.u.x}, {x.u.y, x.u.z}, {x.wadd, x.wmin}};
#pragma unroll
	for (int i = 0; i < 7; i++) {
		if (CG) __stcg(q + i, v[i]);
		else q[i] = v[i];
	}
	const int4 w = make_int4(x.cset, x.cv, 0, 0);
	if (CG) __stcg(reinterpret_cast<int4 *>(q + 7), w);
	else *reinterpret_cast<int4 *>(q + 7) = w;
}

// Words reads a module string one byte at a time through 8-byte loads, the
// last of which it keeps. The buffer is padded to a multiple of 16 bytes.
struct Words {
	const uint64_t *p;
	long long wi;
	uint64_t w;
	__device__ __forceinline__ explicit Words(const uint8_t *s)
	    : p(reinterpret_cast<const uint64_t *>(s)), wi(-1), w(0) {}
	__device__ __forceinline__ uint32_t at(uint64_t i) {
		const long long k = (long long)(i >> 3);
		if (k != wi) w = __ldg(p + k), wi = k;
		return (uint32_t)(w >> ((i & 7) * 8)) & 0xff;
	}
};

// pse returns the last chunk before c whose least depth is at most d, or -1:
// the chunk that holds the '[' a ']' at depth d+1 closes (or, when the chunk
// never goes below d, whose end state it continues from). tree is the min
// tree over the chunks' least depths: climb while whole blocks are deeper
// than d, then descend to the rightmost entry that is not.
__device__ __forceinline__ int pse(const int32_t *__restrict__ tree, const TurtleProgram *__restrict__ prog, int c,
				   int d) {
	int i = c - 1, lev = 0;
	while (i >= 0) {
		if (__ldg(tree + __ldg(&prog->tree_off[lev]) + i) <= d) break;
		if (i & 1) i -= 1;
		else i = (i >> 1) - 1, lev++;
	}
	if (i < 0) return -1;
	while (lev > 0) {
		lev--;
		const int r = 2 * i + 1;
		if (r < __ldg(&prog->tree_len[lev]) && __ldg(tree + __ldg(&prog->tree_off[lev]) + r) <= d) i = r;
		else i = 2 * i;
	}
	return i;
}

// The system's constants a walk needs, in registers.
struct Consts {
	double step, cos, sin, winc, e;
	V3 t;
	bool tropic;
	__device__ __forceinline__ explicit Consts(const TurtleProgram *p)
	    : step(p->step), cos(p->cos), sin(p->sin), winc(p->winc), e(p->elasticity),
	      t(v3(p->tropism[0], p->tropism[1], p->tropism[2])), tropic(p->tropic != 0) {}
};

__device__ __forceinline__ int color_index(double v) {
	if (!(v > 0)) return 0;
	return (int)fmin(round(v), (double)TURTLE_MAX_COLOR);
}

// Angle caches the sine and cosine of the last angle parameter: systems
// repeat the same few angles, and sincos in float64 is costly.
struct Angle {
	double v, s, c;
	__device__ __forceinline__ Angle() : v(__longlong_as_double(0x7ff8000000000000ll)), s(0), c(1) {}
	__device__ __forceinline__ void of(double deg, double *sn, double *cs) {
		if (deg != v) sincos_deg(deg, &s, &c), v = deg;
		*sn = s, *cs = c;
	}
};

// step_x applies one command (not a bracket or polygon command) to x.
__device__ __forceinline__ void step_x(Xt &x, int cm, bool has, double v, const Consts &k, Angle &ang) {
	if (cm == TC_DRAW || cm == TC_MOVE) {
		x.p = vadd(x.p, vscale(x.h, has ? v : k.step));
		if (cm == TC_DRAW && k.tropic) tropism(x.h, x.l, x.u, k.t, k.e);
	} else if (cm <= TC_ROLL_LEFT) {
		double c = k.cos, s = k.sin;
		if (has) ang.of(v, &s, &c);
		rotate(cm, c, s, x.h, x.l, x.u);
	} else if (cm == TC_AROUND) {
		x.h = vneg(x.h), x.l = vneg(x.l);
	} else if (cm == TC_LEVEL) {
		level(x.h, x.l, x.u);
	} else if (cm == TC_THINNER || cm == TC_THICKER) {
		if (has) width_then(x.wadd, x.wmin, -__longlong_as_double(0x7ff0000000000000ll), v > 0 ? v : 0);
		else width_then(x.wadd, x.wmin, cm == TC_THINNER ? -k.winc : k.winc, 0);
	} else if (cm == TC_COLOR) {
		if (has) color_then(x.cset, x.cv, 1, color_index(v));
		else color_then(x.cset, x.cv, 0, 1);
	}
}
