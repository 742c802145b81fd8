// flam3's variations after VAR_RECTANGLES (ids 41 on: arch ... mobius), out of
// line. pg_flame_apply_vars inlines the first 41, flam3's classic set that
// most genomes use, at each of its three call sites in pg_flame_iterate; the
// rest are one function that each site calls. Inlining all 99 three times made
// a kernel that took ptxas about 40 s per GPU architecture (and the driver
// 16 s to JIT on an H100's first run), and its size cost instruction-cache
// misses on simple genomes. Returns the variation's contribution (px, py).
#pragma once
// Included by flame_variations.cuh after PgFlameVarState and its helpers.
// JWildfire's plugin variations only where PG_FLAME_PLUGINS is defined (the
// flame_plugins family, flame_vartest, and NVRTC kernels for genomes that
// use them): their function, called from this one, would otherwise raise
// the registers this one's callers must save around the call, in the
// flame family's chaos game that flam3 genomes run (ptxas allocates across
// the calls), so flam3 genomes do not carry them.
#ifdef PG_FLAME_PLUGINS
#include "flame_variations_jwf.cuh"
#endif

static __device__ __forceinline__ float2 pg_flame_var_rare_body(unsigned vid, float w, PgFlameVarState &s,
								 const float *p, PgRng &rng) {
	const float tx = s.tx, ty = s.ty;
	float px = 0.f, py = 0.f;
	float sa, ca, k, a, r;
	switch (vid) {
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
		const unsigned id = vid;
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
	default: // JWildfire's plugin variations (ids from NUM_VARS on), out of line again
#ifdef PG_FLAME_PLUGINS
		if (vid >= NUM_VARS) {
			const PgFlameJwfOut o = pg_flame_var_jwf(vid, w, s, p, rng.state);
			rng.state = o.rng;
			return o.d;
		}
#endif
		break;
	}
	return make_float2(px, py);
}

// What the out-of-line call returns: the contribution and the random
// stream's new state.
struct PgFlameRareOut {
	float2 d;
	uint64_t rng;
};

// The out-of-line call. It takes the point's state and the random stream by
// value and hands the stream back: a reference into the caller would make
// the caller keep both in local memory, loaded and stored on every step of
// the chaos game, rare variation or not.
static __device__ __noinline__ PgFlameRareOut pg_flame_var_rare(unsigned vid, float w, PgFlameVarState s,
								const float *p, uint64_t state) {
	PgRng rng;
	rng.state = state;
	const float2 d = pg_flame_var_rare_body(vid, w, s, p, rng);
	return PgFlameRareOut{d, rng.state};
}
