// More of JWildfire's 2D plugin variations on the device, after
// flame_variations_jwf8.cuh's: maurer_rose, scrambly, sattractor_js,
// joukowski and rblur, float32 twins of
// variations_jwf10_maurer.go, variations_jwf10_scrambly.go and
// variations_jwf9*.go under the conventions of
// flame_variations_jwf.cuh. One more out-of-line function, called from
// pg_flame_var_jwf8's default case.
#pragma once
// Included by flame_variations_jwf8.cuh (PgJwfOut3, pg_java_i32, pg_ftoi).

// One point of maurer_rose's rose curve r = cos(k·θ) + c.
__device__ __forceinline__ float2 pg_maurer_curve(float th, float k, float c) {
	const float rr = cosf(k * th) + c;
	float sn, cs;
	sincosf(th, &sn, &cs);
	return make_float2(rr * cs, rr * sn);
}

// maurer_rose (Gregg Helt's): the point's angle picks the line between two
// successive steps of the Maurer rose; a draw (compared in double, as the
// CPU's) picks a point of that line, of its ends or of the curve, each
// jittered by its thickness in hundredths. Four draws always.
__device__ __noinline__ float2 pg_maurer_rose(float w, float tx, float ty, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const double u1 = pg_rng_f64(rng);
	const float u2 = pg_rng_unit53(rng), u3 = pg_rng_unit53(rng), u4 = pg_rng_unit53(rng);
	state = rng.state;
	const float k = p[P_MAURER_ROSE_KN] / p[P_MAURER_ROSE_KD], c = p[P_MAURER_ROSE_C];
	const float step = PG_2PI * (p[P_MAURER_ROSE_LINE_OFFSET_DEGREES] / 360.f);
	const float cycles = p[P_MAURER_ROSE_LINE_COUNT] * step / PG_2PI;
	const double sl = p[P_MAURER_ROSE_SHOW_LINES], sp = p[P_MAURER_ROSE_SHOW_POINTS];
	const double sum = sl + sp + (double)p[P_MAURER_ROSE_SHOW_CURVE];
	const double line_th = sl / sum, point_th = sl / sum + sp / sum, half_th = sl / sum + sp / sum / 2.0;
	const float t = cycles * atan2f(ty, tx);
	const float th1 = floorf(t / step) * step;
	const float2 a = pg_maurer_curve(th1, k, c), b = pg_maurer_curve(th1 + step, k, c);
	float ox, oy;
	if (u1 < line_th) {
		const float xd = b.x - a.x, yd = b.y - a.y, m = yd / xd;
		float xo = u4 * sqrtf(xd * xd + yd * yd) / sqrtf(1.f + m * m);
		if (b.x < a.x) xo = -xo;
		float yo = fabsf(m * xo);
		if (b.y < a.y) yo = -yo;
		const float lt = p[P_MAURER_ROSE_LINE_THICKNESS] / 100.f;
		if (lt != 0.f) xo += (u2 - 0.5f) * lt, yo += (u3 - 0.5f) * lt;
		ox = a.x + xo, oy = a.y + yo;
	} else if (u1 <= point_th) {
		float xo = 0.f, yo = 0.f;
		const float pt = p[P_MAURER_ROSE_POINT_THICKNESS] / 100.f;
		if (pt != 0.f) {
			float sn, cs;
			sincosf(u3 * PG_2PI, &sn, &cs);
			xo = u2 * pt * cs, yo = u2 * pt * sn;
		}
		const float2 e = u1 <= half_th ? a : b;
		ox = e.x + xo, oy = e.y + yo;
	} else {
		const float2 e = pg_maurer_curve(t, k, c);
		ox = e.x, oy = e.y;
		const float ct = p[P_MAURER_ROSE_CURVE_THICKNESS] / 100.f;
		if (ct != 0.f) ox += (u2 - 0.5f) * ct, oy += (u3 - 0.5f) * ct;
	}
	return make_float2(w * ox, w * oy);
}

// One step j of scrambly's shuffle over [lo, hi): the generator (Java's
// wrapping int arithmetic, unsigned here), then the position j swaps with,
// or −1 where the shuffle ends before swapping.
__device__ __forceinline__ int pg_scrambly_step(int &prn, int j, int lo, int hi, int seed) {
	prn = (int)((unsigned)prn * 1103515245u + 12345u);
	prn = (int)(((unsigned)prn & 0xFFFF0000u) | (((unsigned)prn << 8) & 0xFF00u) | (((unsigned)prn >> 8) & 0xFFu));
	prn = prn & 4 ? (int)((unsigned)prn - (unsigned)seed) : prn ^ seed;
	if (prn < 0) prn = (int)(0u - (unsigned)prn);
	int r = 1 + j;
	if (hi <= r) return -1;
	r += prn % (hi - r);
	return r < lo ? j : r; // prn was −2³¹, which stays negative (the CPU's guard)
}

// The value at position k of scrambly's shuffled identity over [lo, hi)
// once the shuffle has passed k, without its array (a thread's 625 ints):
// the value at pos before step t is the one at the other end of the last
// swap before t that touched pos, before that swap, back to a position no
// earlier swap touched, whose value is its own. Each lookup reruns the
// generator from lo; the chain of swaps is short (random targets).
__device__ __forceinline__ int pg_scrambly_shuffled(int k, int lo, int hi, int seed) {
	int pos = k, t = k + 1;
	for (;;) {
		int prn = 1, last = -1, last_r = 0;
		for (int j = lo; j < t; j++) {
			const int r = pg_scrambly_step(prn, j, lo, hi, seed);
			if (r < 0) break;
			if (r != j && (j == pos || r == pos)) last = j, last_r = r;
		}
		if (last < 0) return pos;
		pos = last == pos ? last_r : last;
		t = last;
	}
}

// scrambly (dark-beam's): the square of side cellsize about the origin cut
// into l×l cells (l in [3, 25]) that are permuted (a shift by seed+1 for
// seeds 0..50, else the shuffle, of the grid or by rows); points outside
// pass as a linear.
__device__ __noinline__ float2 pg_scrambly(float w, float tx, float ty, const float *p) {
	const int ll = (int)fminf(fmaxf(fabsf(pg_ftoi(p[P_SCRAMBLY_L])), 3.f), 25.f);
	const float cs = fminf(fmaxf(p[P_SCRAMBLY_CELLSIZE], 1e-20f), 1e20f);
	const float cella = cs / (float)ll, mz = 0.5f * cs, inv = 1.f / cella;
	float vx = (tx + mz) * inv, vy = (ty + mz) * inv;
	const int ix = pg_java_i32(floorf(vx)), iy = pg_java_i32(floorf(vy));
	if (ix < 0 || ix >= ll || iy < 0 || iy >= ll) return make_float2(w * tx, w * ty);
	vx -= (float)ix;
	vy -= (float)iy;
	const int k = ix + ll * iy, n = ll * ll;
	int seed = (int)pg_ftoi(p[P_SCRAMBLY_SEED]), swp;
	if (seed >= 0 && seed <= 50) {
		swp = (seed + k + 1) % n;
	} else {
		int lo = 0, hi = n;
		if (pg_ftoi(p[P_SCRAMBLY_BYROWS]) != 0.f) {
			const int row = k / ll;
			lo = ll * row, hi = ll * (row + 1), seed += row;
		}
		swp = pg_scrambly_shuffled(k, lo, hi, seed);
	}
	vx += (float)(swp % ll);
	vy += (float)(swp / ll);
	return make_float2(w * (vx * cella - mz), w * (vy * cella - mz));
}

// sattractor_js (Jesus Sosa's): one of 2·m maps about the m-th roots of
// unity, by two draws (the root's index and the map in double).
__device__ __forceinline__ float2 pg_sattractor_js(float w, float tx, float ty, const float *p, PgRng &rng) {
	const float m = fminf(fmaxf(truncf(p[P_SATTRACTOR_JS_M]), 2.f), 12.f);
	const float l = (float)trunc(pg_rng_f64(rng) * (double)m) + 1.f;
	float b, a;
	sincosf(PG_2PI * l / m, &b, &a);
	float x = tx, y = ty;
	if (pg_rng_f64(rng) < 0.5) {
		x = x / 2.f + a, y = y / 2.f + b;
	} else {
		const float nx = x * a + y * b + x * x * b;
		y = y * a - x * b + x * x * a;
		x = nx;
	}
	return make_float2(w * x / 2.f, w * y / 2.f);
}

// joukowski: the Joukowski map of the point about −p2 + 0.2i (or, inverse 1,
// the farther of its two preimages), as the CPU's complex arithmetic.
__device__ __noinline__ float2 pg_joukowski(float w, float x, float y, const float *p) {
	const float p1 = p[P_JOUKOWSKI_P1], z0r = -p[P_JOUKOWSKI_P2], z0i = 0.2f;
	if (fminf(fmaxf(truncf(p[P_JOUKOWSKI_INVERSE]), 0.f), 1.f) == 0.f) {
		const float zr = x + z0r, zi = y + z0i, d = zr * zr + zi * zi;
		return make_float2(w * (zr + p1 * p1 * zr / d), w * (zi - p1 * p1 * zi / d));
	}
	const float qr = (x * x - y * y) / 4.f - p1 * p1, qi = 2.f * x * y / 4.f;
	const float m = hypotf(qr, qi);
	const float sr = sqrtf((m + qr) * 0.5f), si = sqrtf((m - qr) * 0.5f) * (qi > 0.f ? 1.f : qi < 0.f ? -1.f : qi);
	const float r1r = x / 2.f + sr - z0r, r1i = y / 2.f + si - z0i, r2r = x / 2.f - sr - z0r, r2i = y / 2.f - si - z0i;
	return hypotf(r1r, r1i) > hypotf(r2r, r2i) ? make_float2(w * r1r, w * r1i) : make_float2(w * r2r, w * r2i);
}

#include "flame_variations_jwf10.cuh"

// The out-of-line call from pg_flame_var_jwf8, state and stream by value.
static __device__ __noinline__ PgJwfOut3 pg_flame_var_jwf9(unsigned vid, float w, PgFlameVarState s, const float *p,
							   uint64_t state) {
	float2 d = make_float2(0.f, 0.f);
	switch (vid) {
	case VAR_MAURER_ROSE: d = pg_maurer_rose(w, s.tx, s.ty, p, state); break;
	case VAR_SCRAMBLY: d = pg_scrambly(w, s.tx, s.ty, p); break;
	case VAR_JOUKOWSKI: d = pg_joukowski(w, s.tx, s.ty, p); break;
	case VAR_RBLUR: {
		PgRng rng;
		rng.state = state;
		const float rr = fmaxf(hypotf(s.tx - p[P_RBLUR_CENTER_X], s.ty - p[P_RBLUR_CENTER_Y]) - p[P_RBLUR_OFFSET], 0.f) * 2.f *
				 p[P_RBLUR_STRENGTH];
		const float u1 = pg_rng_unit53(rng), u2 = pg_rng_unit53(rng);
		state = rng.state;
		d = make_float2(w * (s.tx + (u1 - 0.5f) * rr), w * (s.ty + (u2 - 0.5f) * rr));
		break;
	}
	case VAR_SATTRACTOR_JS: {
		PgRng rng;
		rng.state = state;
		d = pg_sattractor_js(w, s.tx, s.ty, p, rng);
		state = rng.state;
		break;
	}
	default: return pg_flame_var_jwf10(vid, w, s, p, state); // flame_variations_jwf10.cuh
	}
	return PgJwfOut3{d, state};
}
