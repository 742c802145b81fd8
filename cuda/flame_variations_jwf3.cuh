// JWildfire's synth, vibration2, xtrb and nBlur on the device: float32
// twins of internal/flame's variations_jwf6.go, variations_jwf8.go,
// variations_jwf8_xtrb.go and variations_jwf8_nblur.go, under the conventions of flame_variations_jwf.cuh.
// pg_flame_var_jwf2_body's default case calls this, inside the same
// out-of-line function.
//
// synth's mode 1005 replaces the sum of the variations before it, which
// this function (it returns a contribution) cannot do: internal/flame's
// pluginVarZ keeps an xform where another variation precedes it on the CPU
// (gpuPluginRefused); first, replacing and adding are the same.
#pragma once
// Included by flame_variations_jwf2.cuh after its helpers.

// powNonNeg: x^y as exp(y·log x), 1 for y = 0 or x = 1.
__device__ __forceinline__ float pg_pow_nonneg(float x, float y) { return y == 0.f || x == 1.f ? 1.f : expf(y * logf(x)); }

// synthWave: waveform typ at phase y in [0, 1); prev for an unknown type.
__device__ __forceinline__ float pg_synth_wave(float typ, float y, float frq, float prev) {
	switch ((int)typ) {
	case 0: return sinf(y * PG_2PI);
	case 1: return cosf(y * PG_2PI);
	case 2: return y > 0.5f ? 1.f : -1.f;
	case 3: return 1.f - 2.f * y;
	case 4: return y > 0.5f ? 3.f - 4.f * y : 2.f * y - 1.f;
	case 5: return 8.f * (y - 0.5f) * (y - 0.5f) - 1.f;
	case 6: return 2.f * sqrtf(y) - 1.f;
	// The n-gon waves as 1/cos δ − 1 = 2 sin²(δ/2)/cos δ and cos δ/(1 − cos δ) =
	// cos δ/(2 sin²(δ/2)): the same values without float32's cancellation in
	// 1 − cos δ, which near the inverse one's pole (δ = 0) is all there is.
	// The CPU's +1e-300 in the divisors is 0 in float.
	case 7: case 8: {
		const float d = (y - 0.5f) * (PG_2PI / frq);
		const float h = sinf(0.5f * d), c = 2.f * h * h, cd = cosf(d);
		return typ == 7.f ? c / cd : cd / c;
	}
	}
	return prev;
}

// synthValue: the layered wave at t (p: synth's block of the slab).
__device__ __noinline__ float pg_synth_value(const float *p, float t) {
	const float a = p[P_SYNTH_A];
	float v = a, wave = 0.f;
	for (int k = 0; k < 5; k++) {
		const float amp = p[P_SYNTH_B + 6 * k];
		if (amp == 0.f) continue;
		const float frq = p[P_SYNTH_B_FRQ + 6 * k];
		float y = (p[P_SYNTH_B_PHS + 6 * k] + t * frq) / PG_2PI;
		y -= floorf(y);
		const float skew = p[P_SYNTH_B_SKEW + 6 * k];
		if (skew != 0.f) {
			const float z = 0.5f + 0.5f * skew;
			// The CPU adds 1e-300 (0 in float) to each divisor: 0/0 there is 0.
			y = y > z ? 0.5f + 0.5f * (y - z) / (1.f - z) : z == y ? 0.5f : 0.5f - 0.5f * (z - y) / z;
		}
		const float typ = pg_ftoi(p[P_SYNTH_B_TYPE + 6 * k]);
		wave = typ >= 0.f && typ <= 8.f ? pg_synth_wave(typ, y, frq, wave) : wave;
		const float layer = pg_ftoi(p[P_SYNTH_B_LAYER + 6 * k]);
		if (layer == 0.f) {
			v += amp * wave;
		} else if (layer == 1.f) {
			v *= 1.f + amp * wave;
		} else if (layer == 2.f) {
			const float z = a + amp * wave;
			if (!(v > z)) v = z;
		} else if (layer == 3.f) {
			const float z = a + amp * wave;
			if (!(v < z)) v = z;
		}
	}
	const float mix = p[P_SYNTH_MIX];
	return v * mix + (1.f - mix);
}

// synthBezier: JWildfire's bezier_quad_map (internal/flame's synthBezier).
__device__ __forceinline__ float pg_synth_bezier(float x, float m) {
	float sg = 1.f;
	if (m < 0.f) { m = -m; sg = -1.f; }
	if (x < 0.f) { x = -x; sg = -sg; }
	const float im = m > 1e-10f ? 1.f / m : 1e10f;
	const float l = 2.f - m > 2.f * m ? 2.f - m : 2.f * m;
	if (x > l || m == 1.f) return sg * x;
	if (m < 1.f && x <= 1.f) {
		float t = x;
		if ((m - 0.5f) * (m - 0.5f) > 1e-10f) t = (-m + sqrtf(m * m + (1.f - 2.f * m) * x)) / (1.f - 2.f * m);
		return sg * (x + (m - 1.f) * t * t);
	}
	if (m > 1.f && x <= 1.f) {
		float t = x;
		if ((m - 2.f) * (m - 2.f) > 1e-10f) t = (-im + sqrtf(im * im + (1.f - 2.f * im) * x)) / (1.f - 2.f * im);
		return sg * (x + (m - 1.f) * t * t);
	}
	if (m < 1.f) {
		const float t = sqrtf((x - 1.f) / (l - 1.f));
		return sg * (x + (m - 1.f) * t * t + 2.f * (1.f - m) * t + (m - 1.f));
	}
	const float t = (1.f - m) + sqrtf((m - 1.f) * (m - 1.f) + (x - 1.f));
	return sg * (x + (m - 1.f) * t * t - 2.f * (m - 1.f) * t + (m - 1.f));
}

// synthScale: x scaled by m, linearly or (smooth 1) through the Bézier map.
__device__ __forceinline__ float pg_synth_scale(float x, float m, float smooth) {
	return smooth == 1.f ? pg_synth_bezier(x, m) : x * m;
}

// synthSinCos: sin and cos of t, times the wave (smooth 0) or mixed with it
// (smooth 1).
__device__ __forceinline__ float2 pg_synth_sincos(const float *p, float t, float smooth) {
	float sn, cs;
	sincosf(t, &sn, &cs);
	if (smooth == 0.f) {
		sn *= pg_synth_value(p, t);
		cs *= pg_synth_value(p, t + PG_PI_2);
	} else if (smooth == 1.f) {
		const float mix = p[P_SYNTH_MIX];
		sn = (1.f - mix) * sn + (pg_synth_value(p, t) - 1.f);
		cs = (1.f - mix) * cs + (pg_synth_value(p, t + PG_PI_2) - 1.f);
	}
	return make_float2(sn, cs);
}

// Java's (int) cast as a float: truncation saturated to int's range, NaN 0.
__device__ __forceinline__ float pg_java_int(float v) {
	if (v != v) return 0.f;
	if (v >= 2147483647.f) return 2147483647.f;
	if (v <= -2147483648.f) return -2147483648.f;
	return truncf(v);
}

// synth's point-reading modes beyond the radial, blur and shift ones:
// 6..11, 17, 18 and the legacy 1001..1007.
__device__ __forceinline__ float2 pg_synth_rest(float w, PgFlameVarState &s, const float *p, float mode, float power,
						float smooth, double u1) {
	const float vx = s.tx, vy = s.ty;
	switch (fabsf(mode) < 1e6f ? (int)mode : -1) {
	case 6: return make_float2(w * pg_synth_scale(vx, pg_synth_value(p, vy), smooth), w * vy);
	case 7: return make_float2(w * vx, w * pg_synth_scale(vy, pg_synth_value(p, vx), smooth));
	case 8:
		return make_float2(w * pg_synth_scale(vx, pg_synth_value(p, vy), smooth),
				   w * pg_synth_scale(vy, pg_synth_value(p, vx), smooth));
	case 9: return make_float2(w * (vx + pg_synth_value(p, vy) - 1.f), w * vy);
	case 10: return make_float2(w * vx, w * (vy + pg_synth_value(p, vx) - 1.f));
	case 11: return make_float2(w * (vx + pg_synth_value(p, vy) - 1.f), w * (vy + pg_synth_value(p, vx) - 1.f));
	case 17: return make_float2(w * vx, w * (2.f * (pg_synth_value(p, vx) - 1.f) - vy));
	case 18: {
		const float mu = pg_synth_value(p, vx) - 1.f, rad = pg_synth_value(p, vy) - 1.f;
		return make_float2(w * (2.f * rad - vx), w * (2.f * mu - vy));
	}
	case 1001: {
		const float mix = p[P_SYNTH_MIX];
		return make_float2(w * (pg_synth_value(p, vx) - 1.f + (1.f - mix) * sinf(vx)),
				   w * (pg_synth_value(p, vy) - 1.f + (1.f - mix) * sinf(vy)));
	}
	case 1002: {
		const float2 sc = pg_synth_sincos(p, pg_pow_nonneg(s.sumsq, power / 2.f), smooth);
		return make_float2(w * (sc.x * vx - sc.y * vy), w * (sc.y * vx + sc.x * vy));
	}
	case 1003: {
		const float rad = pg_pow_nonneg(s.sumsq, power / 2.f);
		const float2 sc = pg_synth_sincos(p, s.atanxy(), smooth);
		return make_float2(w * sc.x / rad, w * sc.y * rad);
	}
	case 1004: {
		const float rad = pg_pow_nonneg(s.sumsq, power / 4.f);
		float theta = s.atanxy() / 2.f;
		if (u1 < 0.5) theta += PG_PI;
		const float2 sc = pg_synth_sincos(p, theta, smooth);
		return make_float2(w * rad * sc.y, w * rad * sc.x);
	}
	case 1005: { // replaces the sum before it on the CPU: here only first (gpuPluginRefused)
		const float theta = s.atanxy() * PG_1_PI;
		const float2 sc = pg_synth_sincos(p, PG_PI * pg_pow_nonneg(s.sumsq, power / 2.f), smooth);
		return make_float2(w * sc.x * theta, w * sc.y * theta);
	}
	case 1006: {
		float rad = s.sqrt;
		const float mu = power * power; // + the CPU's 1e-300, 0 in float
		rad += -2.f * mu * pg_java_int((rad + mu) / (2.f * mu)) + rad * (1.f - mu);
		const float2 sc = pg_synth_sincos(p, s.atanxy(), smooth);
		return make_float2(w * sc.x * rad, w * sc.y * rad);
	}
	case 1007: {
		const float rad = pg_pow_nonneg(s.sumsq, power / 2.f);
		const float2 sc = pg_synth_sincos(p, vx, smooth);
		return make_float2(w * rad * sc.x, w * rad * vy);
	}
	}
	return make_float2(0.f, 0.f);
}

// synth (internal/flame's synth): four draws always, then its mode.
__device__ __forceinline__ float2 pg_synth_body(float w, PgFlameVarState &s, const float *p, PgRng &rng) {
	const double u1 = pg_rng_f64(rng);
	const float u[4] = {(float)u1, pg_rng_unit53(rng), pg_rng_unit53(rng), pg_rng_unit53(rng)};
	const float mode = pg_ftoi(p[P_SYNTH_MODE]), power = p[P_SYNTH_POWER], smooth = pg_ftoi(p[P_SYNTH_SMOOTH]);
	float rad = 0.f, theta = 0.f, sa, ca;
	switch (fabsf(mode) < 1e6f ? (int)mode : -1) {
	case 0: case 1: case 5: case 19: // a radius scaled by the wave of the angle atan2(x, y)
		theta = s.atanxy();
		rad = mode == 0.f ? pg_pow_nonneg(s.sumsq, (power + 1.f) / 2.f)
				  : mode == 1.f ? s.sqrt / (s.sumsq / 4.f + 1.f) : s.sqrt;
		rad = pg_synth_scale(rad, pg_synth_value(p, theta), smooth);
		if (mode == 19.f) rad = powf(rad, power);
		break;
	case 2: { // the legacy blur scales its own vector
		rad = (u[0] + u[1] + 0.002f * u[2]) / 2.002f;
		theta = PG_2PI * u[3] - PG_PI;
		sincosf(theta, &sa, &ca);
		const float vx = rad * sa, vy = rad * ca;
		rad = w * pg_synth_scale(pg_pow_nonneg(rad * rad, power / 2.f), pg_synth_value(p, theta), smooth);
		return make_float2(vx * rad, vy * rad);
	}
	case 3:
		rad = 0.5f * (u[0] + u[1]);
		theta = PG_2PI * u[2] - PG_PI;
		rad = pg_synth_scale(pg_pow_nonneg(rad * rad, -power / 2.f), pg_synth_value(p, theta), smooth);
		break;
	case 4: { // a zigzag line
		float vy = 1.f + 0.1f * (u[0] + u[1] - 1.f) * power;
		theta = 2.f * asinf((u[2] - 0.5f) * 2.f);
		vy = pg_synth_scale(vy, pg_synth_value(p, theta), smooth);
		return make_float2(w * (theta * PG_1_PI), w * (vy - 1.f));
	}
	case 12:
		rad = 1.f + 0.1f * (u[0] + u[1] - 1.f) * power;
		theta = PG_2PI * u[2] - PG_PI;
		rad = pg_synth_scale(rad, pg_synth_value(p, theta), smooth);
		break;
	case 13:
		theta = PG_2PI * u[0] - PG_PI;
		rad = pg_synth_value(p, theta) + 0.1f * pg_pow_nonneg(u[1], power);
		break;
	case 14: case 15: case 16: // the wave of r^power shifts the point
		rad = pg_pow_nonneg(s.sumsq, power / 2.f);
		if (mode == 15.f) {
			theta = s.atanxy();
			const float mu = pg_synth_value(p, rad) - 1.f;
			sincosf(theta, &sa, &ca);
			return make_float2(w * (s.tx + mu * ca), w * (s.ty - mu * sa));
		}
		theta = s.atanxy() - 1.f + pg_synth_value(p, rad);
		if (mode == 16.f) rad = s.sqrt;
		break;
	default: return pg_synth_rest(w, s, p, mode, power, smooth, u1);
	}
	sincosf(theta, &sa, &ca);
	return make_float2(w * rad * sa, w * rad * ca);
}

// One of vibration2's waves (internal/flame's vibrationWave): d the block
// of its dir, angle, freq, amp, phase; m of its four modulations'
// amplitude and frequency.
__device__ __forceinline__ float2 pg_vibration_wave(float x, float y, const float *d, const float *m) {
	const float d0 = d[0], angle = d[1], freq = d[2], amp = d[3], phase = d[4];
	float along = x * cosf(d0) + y * sinf(d0);
	const float dirL = d0 + m[0] * cosf(along * m[1] * PG_2PI);
	const float angleL = angle + m[2] * cosf(along * m[3] * PG_2PI);
	const float freqL = m[4] * cosf(along * m[5] * PG_2PI) / freq;
	const float ampL = amp + amp * (m[6] * cosf(along * m[7] * PG_2PI));
	float sd, cd, st, ct;
	sincosf(dirL, &sd, &cd);
	sincosf(angleL + dirL, &st, &ct);
	along = x * cd + y * sd;
	const float local = ampL * sinf(along * freq * PG_2PI + freqL + PG_2PI * phase / freq);
	return make_float2(x + local * ct, y + local * st);
}

// xtrb's triangle (internal/flame's xtrbShape), derived per call as the CPU
// does.
struct PgXtrb {
	float radius, width, w1, w2, w3, sinC, cosC;
	float ab, ac, ba, bc, ca, cb, ha, hb, hc, s2a, s2b, s2c, s2bc, s2ab, s2ac;
	float power, absN, cN;
};

__device__ __forceinline__ PgXtrb pg_xtrb_shape(const float *p) {
	PgXtrb t;
	t.radius = p[P_XTRB_RADIUS];
	t.width = p[P_XTRB_WIDTH];
	t.power = pg_ftoi(p[P_XTRB_POWER]);
	const float angB = 0.047f + p[P_XTRB_A], angC = 0.047f + p[P_XTRB_B];
	const float angA = PG_PI - angB - angC;
	const float tanA = tanf(angA / 2.f), tanB = tanf(angB / 2.f), tanC = tanf(angC / 2.f);
	sincosf(angC, &t.sinC, &t.cosC);
	const float a = t.radius * (tanC + tanB), b = t.radius * (tanC + tanA), c = t.radius * (tanB + tanA);
	t.w1 = 1.f - t.width;
	t.w2 = 2.f * t.width;
	t.w3 = 1.f - t.width * t.width;
	const float s2 = t.radius * (a + b + c);
	t.ha = s2 / a / 6.f; t.hb = s2 / b / 6.f; t.hc = s2 / c / 6.f;
	t.ab = a / b; t.ac = a / c; t.ba = b / a; t.bc = b / c; t.ca = c / a; t.cb = c / b;
	t.s2a = 6.f * t.ha; t.s2b = 6.f * t.hb; t.s2c = 6.f * t.hc;
	t.s2bc = s2 / (b + c) / 6.f; t.s2ab = s2 / (a + b) / 6.f; t.s2ac = s2 / (a + c) / 6.f;
	t.absN = truncf(fabsf(t.power));
	t.cN = p[P_XTRB_DIST] / t.power / 2.f;
	return t;
}

// xtrb's map within one cell (internal/flame's xtrbShape.hex).
__device__ __forceinline__ float2 pg_xtrb_hex(const PgXtrb &t, float al, float be, float ga, bool plain) {
	const float wd = t.width, w1 = t.w1, w2 = t.w2;
	float de, g;
	if (be < al) {
		if (ga < be) {
			de = wd * be; g = wd * ga;
			if (!plain) { g = w1 * ga + w2 * t.hc * ga / be; de = w1 * be + w2 * t.s2ab * (3.f - ga / be); }
			return make_float2(t.s2a - t.ba * de - t.ca * g, de);
		}
		if (ga < al) {
			g = wd * ga; de = wd * be;
			if (!plain) { de = w1 * be + w2 * t.hb * be / ga; g = w1 * ga + w2 * t.s2ac * (3.f - be / ga); }
			return make_float2(t.s2a - t.ba * de - t.ca * g, de);
		}
		if (plain) return make_float2(wd * al, wd * be);
		return make_float2(w1 * al + w2 * t.s2ac * (3.f - be / al), w1 * be + w2 * t.hb * be / al);
	}
	if (ga < al) {
		de = wd * al; g = wd * ga;
		if (!plain) { g = w1 * ga + w2 * t.hc * ga / al; de = w1 * al + w2 * t.s2ab * (3.f - ga / al); }
		return make_float2(de, t.s2b - t.ab * de - t.cb * g);
	}
	if (ga < be) {
		g = wd * ga; de = wd * al;
		if (!plain) { de = w1 * al + w2 * t.ha * al / ga; g = w1 * ga + w2 * t.s2bc * (3.f - al / ga); }
		return make_float2(de, t.s2b - t.ab * de - t.cb * g);
	}
	if (plain) return make_float2(wd * al, wd * be);
	return make_float2(w1 * al + w2 * t.ha * al / be, w1 * be + w2 * t.s2bc * (3.f - al / be));
}

// xtrb (internal/flame's xtrb): two draws, the second used only for a
// power of magnitude 1 or more.
__device__ __forceinline__ float2 pg_xtrb_body(float w, PgFlameVarState &s, const float *p, PgRng &rng) {
	const PgXtrb t = pg_xtrb_shape(p);
	float al = s.ty + t.radius;
	float be = s.tx * t.sinC - s.ty * t.cosC + t.radius;
	const float m = floorf(al / t.s2a), n = floorf(be / t.s2b);
	const float oa = al - m * t.s2a, ob = be - n * t.s2b;
	const float og = t.s2c - t.ac * oa - t.bc * ob;
	const bool plain = pg_rng_f64(rng) >= 1.0 - (double)t.width * (double)t.width; // the CPU's w3, exactly
	float2 h;
	if (og > 0.f) {
		h = pg_xtrb_hex(t, oa, ob, og, plain);
	} else {
		h = pg_xtrb_hex(t, t.s2a - oa, t.s2b - ob, -og, plain);
		h = make_float2(t.s2a - h.x, t.s2b - h.y);
	}
	al = h.x + m * t.s2a;
	be = h.y + n * t.s2b;
	const float inx = (be - t.radius + (al - t.radius) * t.cosC) / t.sinC, iny = al - t.radius;
	const unsigned ki = pg_rng_jwf_int(rng);
	const float k = t.absN >= 1.f ? pg_jwf_mod(ki, t.absN) : 0.f;
	const float a = (atan2f(iny, inx) + PG_2PI * k) / t.power;
	const float rr = w * powf(inx * inx + iny * iny, t.cN);
	float sa, ca;
	sincosf(a, &sa, &ca);
	return make_float2(w * rr * ca, w * rr * sa);
}

// nBlur's shape (internal/flame's nblurShape), derived per call as the CPU
// does; exactCalc is read as 0 there too.
struct PgNblur {
	int edges, maxStripes;
	bool stripes, neg, circum, equal;
	float ratio, ratioComp, hole, mid, angStripes, angStart, tan90m2, sina, cosa, speed1, speed2, at1, at2, scale;
};

__device__ __forceinline__ PgNblur pg_nblur_shape(const float *p) {
	PgNblur t;
	t.edges = (int)fminf(fmaxf(pg_ftoi(p[P_NBLUR_NUMEDGES]), 3.f), 2147483647.f);
	int stripes = (int)fminf(fmaxf(pg_ftoi(p[P_NBLUR_NUMSTRIPES]), -1073741823.f), 1073741823.f);
	t.stripes = stripes != 0;
	t.neg = stripes < 0;
	stripes = abs(stripes);
	t.ratio = fminf(fmaxf(p[P_NBLUR_RATIOSTRIPES], 0.f), 2.f);
	t.hole = fminf(fmaxf(p[P_NBLUR_RATIOHOLE], 0.f), 1.f);
	t.circum = pg_ftoi(p[P_NBLUR_CIRCUMCIRCLE]) >= 1.f;
	t.equal = pg_ftoi(p[P_NBLUR_EQUALBLUR]) >= 1.f;
	float highlight = fmaxf(p[P_NBLUR_HIGHLIGHTEDGES], 0.1f);
	if (t.circum) highlight = 0.1f;
	const float n = (float)t.edges;
	t.mid = PG_2PI / n;
	t.angStripes = t.angStart = t.ratioComp = 0.f;
	if (t.stripes) {
		t.angStripes = t.mid / (float)(2 * stripes);
		t.angStart = t.angStripes / 2.f;
		t.ratioComp = 2.f - t.ratio;
	}
	t.tan90m2 = tanf(PG_PI_2 + t.mid / 2.f);
	sincosf(t.mid / 2.f, &t.sina, &t.cosa);
	t.speed1 = t.ratioComp * t.angStart;
	t.speed2 = t.ratio * t.angStart;
	t.maxStripes = 2 * stripes;
	t.at1 = (t.neg ? 7.5f : 13.f) / powf(n, 1.3f) * highlight;
	t.at2 = 2.f * atanf(t.at1 / -2.f);
	t.scale = 1.f;
	if (pg_ftoi(p[P_NBLUR_ADJUSTTOLINEAR]) >= 1.f) {
		const float k = t.edges % 4 == 0 ? n / 2.f - 1.f : floorf(n / 2.f);
		t.scale = 2.f / sqrtf(2.f - 2.f * cosf(t.mid * k));
	}
	return t;
}

// nBlur's radial stripes (internal/flame's nblurShape.stripe): the angle
// within an edge and the full angle, moved.
__device__ __forceinline__ void pg_nblur_stripe(const PgNblur &t, float &ang, float &mem) {
	float tmp = t.angStart;
	int count = 0;
	while (ang > tmp) {
		tmp += t.angStripes;
		if (tmp > t.mid) tmp = t.mid;
		count++;
	}
	if (tmp != t.mid) tmp -= t.angStart;
	float ratio = t.ratio, sp2 = t.speed2;
	bool skip = count % 2 != 0;
	if (t.neg) {
		ratio = t.ratioComp;
		sp2 = t.speed1;
		skip = count % 2 == 0;
	}
	if (skip) {
		if (ang > tmp && (!t.neg || count != t.maxStripes)) {
			ang += t.angStart; mem += t.angStart; tmp += t.angStripes; count++;
		} else {
			ang -= t.angStart; mem -= t.angStart; tmp -= t.angStripes; count--;
		}
	}
	if ((count % 2 == 0) == t.neg) return; // in a skipped stripe still
	if (ratio > 1.f) {
		if (ang > tmp && count != t.maxStripes) mem = mem - ang + tmp + (ang - tmp) / t.angStart * ratio * t.angStart;
		else mem = mem - ang + tmp - (tmp - ang) / t.angStart * ratio * t.angStart;
		ang = tmp + (ang - tmp) / t.angStart * ratio * t.angStart;
	} else if (ratio < 1.f) {
		const float den = t.angStart - sp2;
		if (fabsf(ang - tmp) > sp2 && count != t.maxStripes) {
			if (ang - tmp > sp2) {
				const float q = (ang - (tmp + sp2)) * sp2 / den;
				mem = mem - ang + tmp + q;
				ang = tmp + q;
			}
			if (tmp - ang > sp2) {
				const float q = (tmp - sp2 - ang) * sp2 / den;
				mem = mem - ang + tmp - q;
				ang = tmp - q;
			}
		}
		if (count == t.maxStripes) {
			if (t.neg) tmp = t.mid;
			if (tmp - ang > sp2) {
				const float q = (tmp - sp2 - ang) * sp2 / den;
				mem = mem - ang + tmp - q;
				ang = tmp - q;
			}
		}
	}
}

// nBlur (internal/flame's nblur): four draws, the point not read.
__device__ __forceinline__ float2 pg_nblur_body(float w, const float *p, PgRng &rng) {
	const PgNblur t = pg_nblur_shape(p);
	const float u1 = pg_rng_unit53(rng);
	const double u2 = pg_rng_f64(rng);
	const float u3 = pg_rng_unit53(rng), u4 = pg_rng_unit53(rng);
	const float k = (float)((long long)(u2 * 32767.0) % (long long)t.edges);
	float ang = (atanf(t.at1 * (u1 - 0.5f)) / t.at2 + 0.5f + k) * t.mid;
	float mem = ang;
	while (ang > t.mid) ang -= t.mid;
	if (t.stripes) pg_nblur_stripe(t, ang, mem);
	float x, y;
	sincosf(mem, &x, &y);
	const float ta = tanf(ang);
	const float xt = t.tan90m2 / (t.tan90m2 - ta), yt = xt * ta;
	const float outer = sqrtf(xt * xt + yt * yt);
	float rr = t.equal ? sqrtf(u3) : u3;
	if (!t.circum) rr *= outer;
	const float inner = t.hole * outer;
	if (rr < inner) {
		const float r4 = t.equal ? sqrtf(u4) : u4;
		rr = t.circum ? inner + r4 * (1.f - inner) : inner + r4 * (outer - inner);
	}
	x *= rr;
	y *= rr;
	w *= t.scale;
	return make_float2(w * (t.cosa * x - t.sina * y), w * (t.sina * x + t.cosa * y));
}


// synth, xtrb and nBlur each out of line again, the state and the stream
// by value (as pg_flame_var_rare): ptxas takes far longer over one function
// holding them all than over four.
struct PgJwfOut3 {
	float2 d;
	uint64_t rng;
};
#define PG_JWF_OUTLINE(name, call)                                                                              \
	static __device__ __noinline__ PgJwfOut3 name(float w, PgFlameVarState s, const float *p, uint64_t state) { \
		PgRng rng;                                                                                           \
		rng.state = state;                                                                                   \
		const float2 d = call;                                                                               \
		return PgJwfOut3{d, rng.state};                                                                      \
	}
PG_JWF_OUTLINE(pg_synth_out, pg_synth_body(w, s, p, rng))
PG_JWF_OUTLINE(pg_xtrb_out, pg_xtrb_body(w, s, p, rng))
PG_JWF_OUTLINE(pg_nblur_out, pg_nblur_body(w, p, rng))

#include "flame_variations_jwf4.cuh"

static __device__ __forceinline__ float2 pg_flame_var_jwf3_body(unsigned vid, float w, PgFlameVarState &s, const float *p,
								 PgRng &rng) {
	PgJwfOut3 o;
	switch (vid) {
	case VAR_SYNTH: o = pg_synth_out(w, s, p, rng.state); break;
	case VAR_VIBRATION2: {
		const float2 a = pg_vibration_wave(s.tx, s.ty, p + P_VIBRATION2_DIR, p + P_VIBRATION2_DM);
		const float2 b = pg_vibration_wave(s.tx, s.ty, p + P_VIBRATION2_DIR2, p + P_VIBRATION2_D2M);
		return make_float2(w * (a.x + b.x - s.tx), w * (a.y + b.y - s.ty));
	}
	case VAR_XTRB: o = pg_xtrb_out(w, s, p, rng.state); break;
	case VAR_NBLUR: o = pg_nblur_out(w, s, p, rng.state); break;
	default: o = pg_flame_var_jwf4(vid, w, s, p, rng.state); break; // flame_variations_jwf4.cuh
	}
	rng.state = o.rng;
	return o.d;
}
