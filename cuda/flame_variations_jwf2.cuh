// More of JWildfire's plugin variations on the device (gpuPlugins in
// internal/flame/gpu_plugins.go): float32 twins of variations_jwf3/4/5/8.go
// with the same formulas, draws and branches, under the conventions of
// flame_variations_jwf.cuh (parameters in the plugin slab, draws as the
// CPU's Float64). pg_flame_var_jwf_body's default case calls this, inside
// the same out-of-line function, so flam3 genomes never reach it.
#pragma once
// Included by flame_variations_jwf.cuh after its helpers.

// JWildfire's wave damping (jwfDamping): exp(d), or none for d near 0.
__device__ __forceinline__ float pg_jwf_damping(float d) { return fabsf(d) < 1e-8f ? 1.f : expf(d); }

// Jacobi's sn(u | 1−mc) as internal/flame's jacobiSn: the descending Landen
// scale, at most 8 steps, stopping at 3·10⁻⁴ relative agreement. Out of
// line: its unrolled steps in the plugin function cost ptxas seconds.
__device__ __noinline__ float pg_jacobi_sn(float u, float mc) {
	if (mc == 0.f) return tanhf(u);
	const bool neg = mc < 0.f;
	float d = 1.f;
	if (neg) {
		d = 1.f - mc;
		mc = -mc / d;
		d = sqrtf(d);
		u *= d;
	}
	float am[8], gm[8];
	float a = 1.f, c = 0.f;
	int last = 0;
#pragma unroll
	for (int i = 0; i < 8; i++) {
		last = i;
		am[i] = a;
		mc = sqrtf(mc);
		gm[i] = mc;
		c = 0.5f * (a + mc);
		if (fabsf(a - mc) <= 3e-4f * a) break;
		mc *= a;
		a = c;
	}
	float sn, cn;
	sincosf(u * c, &sn, &cn);
	if (sn != 0.f) {
		a = cn / sn;
		c *= a;
		float dn = 1.f;
#pragma unroll
		for (int i = 7; i >= 0; i--) {
			if (i > last) continue;
			const float b = am[i];
			a *= c;
			c *= dn;
			dn = (gm[i] + a) / (b + a);
			a = c / b;
		}
		a = rsqrtf(c * c + 1.f);
		sn = sn < 0.f ? -a : a;
	}
	return neg ? sn / d : sn;
}

// One of waves2b's two waves: the coordinate v's power pw in the sine, sn
// for a power near 0 from above, J1 for one near 0 from below.
__device__ __forceinline__ float pg_waves2b_wave(float v, float pw, float freq, float k) {
	pw = fminf(fmaxf(pw, -10.f), 10.f);
	if (pw >= 0.f && pw < 1e-4f) return pg_jacobi_sn(v * freq, k);
	if (pw < 0.f && pw > -1e-4f) return j1f(v * freq);
	const float sg = v < 0.f ? -1.f : 1.f;
	return sinf(sg * powf(fabsf(v) + 1e-10f, pw) * freq);
}

// JWildfire's safediv as waves2b uses it.
__device__ __forceinline__ float pg_jwf_safediv(float q, float d) { return d < 1e-10f ? 1.f / d : q / d; }

// One of waves22's waves: sin(v·freq), lifted to (1 + sin)/2 for mode 1,
// to the whole power pw.
__device__ __forceinline__ float pg_waves22_wave(float v, float freq, float mode, float pw) {
	float sn = sinf(v * freq);
	if (truncf(fminf(fmaxf(mode, 0.f), 1.f)) >= 0.5f) sn = 0.5f * (1.f + sn);
	return powf(sn, truncf(pw));
}

// waffle's point before its rotation: the cell edge kind from u0 (of 5),
// then JWildfire's draws for that kind in its order; cell(u) is
// random(slices), truncated in double as the CPU's int32(u·n).
__device__ __forceinline__ float2 pg_waffle(const float *p, PgRng &rng) {
	double u[5];
#pragma unroll
	for (int i = 0; i < 5; i++) u[i] = pg_rng_f64(rng);
	const float n = pg_ftoi(p[P_WAFFLE_SLICES]), xt = p[P_WAFFLE_XTHICKNESS], yt = p[P_WAFFLE_YTHICKNESS];
	const double nd = n;
	auto cell = [&](double v) { return (float)(int)(v * nd); };
	float a = 0.f, rr = 0.f;
	switch ((int)(u[0] * 5.0)) {
	case 0: a = (cell(u[1]) + (float)u[2] * xt) / n; rr = (cell(u[3]) + (float)u[4] * yt) / n; break;
	case 1: a = (cell(u[1]) + (float)u[2]) / n; rr = (cell(u[3]) + yt) / n; break;
	case 2: a = (cell(u[1]) + xt) / n; rr = (cell(u[2]) + (float)u[3]) / n; break;
	case 3: a = (float)u[1]; rr = (cell(u[2]) + yt + (float)u[3] * (1.f - yt)) / n; break;
	default: a = (cell(u[1]) + xt + (float)u[2] * (1.f - xt)) / n; rr = (float)u[3]; break;
	}
	return make_float2(a, rr);
}

#include "flame_variations_jwf3.cuh"

static __device__ __forceinline__ float2 pg_flame_var_jwf2_body(unsigned vid, float w, PgFlameVarState &s, const float *p,
								 PgRng &rng) {
	const float tx = s.tx, ty = s.ty;
	float px = 0.f, py = 0.f;
	float sa, ca, k, a, rr;
	switch (vid) {
	case VAR_WAVES2B: {
		const float unity = p[P_WAVES2B_UNITY];
		const float ax = pg_jwf_safediv(unity, unity + tx * tx) * (p[P_WAVES2B_SCALEX] - p[P_WAVES2B_SCALEINFX]) +
				 p[P_WAVES2B_SCALEINFX];
		const float ay = pg_jwf_safediv(unity, unity + ty * ty) * (p[P_WAVES2B_SCALEY] - p[P_WAVES2B_SCALEINFY]) +
				 p[P_WAVES2B_SCALEINFY];
		k = fminf(fmaxf(p[P_WAVES2B_JACOK], -1.f), 1.f);
		px += w * (tx + ax * pg_waves2b_wave(ty, p[P_WAVES2B_PWX], p[P_WAVES2B_FREQX], k));
		py += w * (ty + ay * pg_waves2b_wave(tx, p[P_WAVES2B_PWY], p[P_WAVES2B_FREQY], k));
		break;
	}
	case VAR_STARBLUR: {
		const float pw = pg_ftoi(p[P_STARBLUR_POWER]);
		const float alpha = p[P_STARBLUR_ALPHA], length = p[P_STARBLUR_LENGTH];
		const double f2 = pg_rng_f64(rng) * (double)pw * 2.0; // the spike, truncated as the CPU's
		const double sp = trunc(f2);
		const float x = (float)(f2 - sp) * length;
		float z = sqrtf(1.f + x * x - 2.f * x * cosf(alpha));
		const long long ki = (long long)sp;
		const float turn = PG_2PI / pw * (float)(ki / 2);
		const float as = asinf(sinf(alpha) * x / z);
		a = ki % 2 == 0 ? turn + as : turn - as;
		z *= sqrtf(pg_rng_unit53(rng));
		sincosf(a - PG_PI_2, &sa, &ca);
		px += w * z * ca; py += w * z * sa;
		break;
	}
	case VAR_WAFFLE: {
		const float2 ar = pg_waffle(p, rng);
		sincosf(p[P_WAFFLE_ROTATION], &sa, &ca);
		const float vc = w * ca, vs = w * sa;
		px += vc * ar.x + vs * ar.y; py += -vs * ar.x + vc * ar.y;
		break;
	}
	case VAR_WAVES3_WF: {
		const float dx = pg_jwf_damping(p[P_WAVES3_WF_DAMPX]), dy = pg_jwf_damping(p[P_WAVES3_WF_DAMPY]);
		const float ax = ty * p[P_WAVES3_WF_FREQX], ay = tx * p[P_WAVES3_WF_FREQY];
		const float vx = pg_ftoi(p[P_WAVES3_WF_USE_COS_X]) == 1.f ? cosf(ax) : sinf(ax);
		const float vy = pg_ftoi(p[P_WAVES3_WF_USE_COS_Y]) == 1.f ? cosf(ay) : sinf(ay);
		px += w * (tx + dx * p[P_WAVES3_WF_SCALEX] * vx * vx) * dx;
		py += w * (ty + dy * p[P_WAVES3_WF_SCALEY] * vy * vy) * dy;
		break;
	}
	case VAR_WAVESN: {
		float power = p[P_WAVESN_POWER];
		if (power == 0.f) power = 2.f;
		const float kk = (float)trunc(pg_rng_f64(rng) * trunc(fabs((double)power)));
		a = (atan2f(ty, tx) + PG_2PI * kk) / power;
		rr = w * powf(s.sumsq, 1.f / power / 2.f);
		sincosf(a, &sa, &ca);
		const float xn = rr * ca, yn = rr * sa;
		const float sy = sinf(p[P_WAVESN_FREQX] * yn), sx = sinf(p[P_WAVESN_FREQY] * xn);
		px += w * (xn + 0.5f * (p[P_WAVESN_SCALEX] * sy + fabsf(xn) * p[P_WAVESN_INCX] * sy));
		py += w * (yn + 0.5f * (p[P_WAVESN_SCALEY] * sx + fabsf(yn) * p[P_WAVESN_INCY] * sx));
		break;
	}
	case VAR_BLUR_LINEAR: {
		rr = p[P_BLUR_LINEAR_LENGTH] * pg_rng_unit53(rng);
		sincosf(fminf(fmaxf(p[P_BLUR_LINEAR_ANGLE], 0.f), PG_2PI), &sa, &ca);
		px += w * (tx + rr * ca); py += w * (ty + rr * sa);
		break;
	}
	case VAR_BLUR_ZOOM: {
		const float z = 1.f + p[P_BLUR_ZOOM_LENGTH] * pg_rng_unit53(rng);
		const float bx = p[P_BLUR_ZOOM_X], by = p[P_BLUR_ZOOM_Y];
		px += w * ((tx - bx) * z + bx); py += w * ((ty + by) * z - by);
		break;
	}
	case VAR_EPISPIRAL: {
		const float u = pg_rng_unit53(rng);
		const float theta = atan2f(ty, tx);
		const float d = cosf(p[P_EPISPIRAL_N] * theta);
		if (d == 0.f) break;
		float t = -p[P_EPISPIRAL_HOLES];
		const float th = p[P_EPISPIRAL_THICKNESS];
		t += fabsf(th) > 1e-8f ? u * th * (1.f / d) : 1.f / d;
		sincosf(theta, &sa, &ca);
		px += w * t * ca; py += w * t * sa;
		break;
	}
	case VAR_FDISC: {
		a = PG_2PI / (s.sqrt + p[P_FDISC_ASHIFT]);
		k = w * (atan2f(ty, tx) * PG_1_PI + p[P_FDISC_RSHIFT]) * 0.5f;
		const float kx = k * cosf(a + p[P_FDISC_XSHIFT]), ky = k * sinf(a + p[P_FDISC_YSHIFT]);
		const float t1 = p[P_FDISC_TERM1], t2 = p[P_FDISC_TERM2], t3 = p[P_FDISC_TERM3], t4 = p[P_FDISC_TERM4];
		px += t1 * kx + t2 * tx * kx + t3 * tx * k + t4 * tx;
		py += t1 * ky + t2 * ty * ky + t3 * ty * k + t4 * ty;
		break;
	}
	case VAR_IDISC: {
		a = PG_PI / (sqrtf(tx * tx + ty * ty) + 1.f);
		rr = atan2f(ty, tx) * (w * PG_1_PI);
		sincosf(a, &sa, &ca);
		px += rr * ca; py += rr * sa;
		break;
	}
	case VAR_LINEART: {
		px += (tx > 0.f ? 1.f : -1.f) * powf(fabsf(tx), p[P_LINEART_POWX]) * w;
		py += (ty > 0.f ? 1.f : -1.f) * powf(fabsf(ty), p[P_LINEART_POWY]) * w;
		break;
	}
	case VAR_NPOLAR: {
		float n = pg_ftoi(p[P_NPOLAR_N]);
		if (n == 0.f) n = 1.f;
		const float parity = pg_ftoi(p[P_NPOLAR_PARITY]);
		const bool odd = fmodf(fabsf(parity), 2.f) != 0.f;
		const float v = w * PG_1_PI;
		float x = tx, y = ty;
		if (!odd) {
			x = v * atan2f(tx, ty);
			y = v / 2.f * logf(s.sumsq);
		}
		const float kk = pg_jwf_mod(pg_rng_jwf_int(rng), n);
		a = (atan2f(y, x) + PG_2PI * kk) / n;
		rr = w * powf(x * x + y * y, 1.f / n / 2.f);
		if (odd) rr *= parity;
		sincosf(a, &sa, &ca);
		ca *= rr;
		sa *= rr;
		if (odd) {
			px += ca; py += sa;
		} else {
			px += v / 2.f * logf(ca * ca + sa * sa); py += v * atan2f(ca, sa);
		}
		break;
	}
	case VAR_TILE_HLP: {
		const float width = p[P_TILE_HLP_WIDTH];
		const float x = tx / width;
		const float f = x > 0.f ? x - truncf(x) : x + truncf(x);
		float shift = 0.f;
		if ((double)cosf(f * PG_PI) < pg_rng_f64(rng) * 2.0 - 1.0) shift = x > 0.f ? -width * w : width * w;
		px += tx * w + shift; py += w * ty;
		break;
	}
	case VAR_UNPOLAR: {
		k = w * PG_1_PI * 0.5f * expf(ty);
		sincosf(tx, &sa, &ca);
		py += k * ca; px += k * sa;
		break;
	}
	case VAR_WAVES22: {
		px += w * (tx + pg_waves22_wave(ty, p[P_WAVES22_FREQX], p[P_WAVES22_MODEX], p[P_WAVES22_POWERX]) *
					p[P_WAVES22_SCALEX]);
		py += w * (ty + pg_waves22_wave(tx, p[P_WAVES22_FREQY], p[P_WAVES22_MODEY], p[P_WAVES22_POWERY]) *
					p[P_WAVES22_SCALEY]);
		break;
	}
	case VAR_WAVES2_RADIAL: {
		const float dist = sqrtf(tx * tx + ty * ty), nul = p[P_WAVES2_RADIAL_W2R_NULL];
		const float dfar = p[P_WAVES2_RADIAL_W2R_DISTANCE];
		float f = 1.f;
		if (dist < dfar) f = (dist - nul) / (dfar - nul);
		if (dist < nul) f = 0.f;
		px += w * (tx + f * sinf(ty * p[P_WAVES2_RADIAL_W2R_FREQX]) * p[P_WAVES2_RADIAL_W2R_SCALEX]);
		py += w * (ty + f * sinf(tx * p[P_WAVES2_RADIAL_W2R_FREQY]) * p[P_WAVES2_RADIAL_W2R_SCALEY]);
		break;
	}
	case VAR_WAVES2_WF: {
		const float dx = p[P_WAVES2_WF_DAMPING_X], dy = p[P_WAVES2_WF_DAMPING_Y];
		const float ax = ty * p[P_WAVES2_WF_FREQX], ay = tx * p[P_WAVES2_WF_FREQY];
		const float vx = pg_ftoi(p[P_WAVES2_WF_USE_COS_X]) == 1.f ? cosf(ax) : sinf(ax);
		const float vy = pg_ftoi(p[P_WAVES2_WF_USE_COS_Y]) == 1.f ? cosf(ay) : sinf(ay);
		px += w * (tx + dx * p[P_WAVES2_WF_SCALEX] * vx) * dx;
		py += w * (ty + dy * p[P_WAVES2_WF_SCALEY] * vy) * dy;
		break;
	}
	case VAR_WAVES3: {
		const float ax = 0.5f * p[P_WAVES3_SCALEX] * (1.f + sinf(ty * p[P_WAVES3_SX_FREQ]));
		const float ay = 0.5f * p[P_WAVES3_SCALEY] * (1.f + sinf(tx * p[P_WAVES3_SY_FREQ]));
		px += w * (tx + sinf(ty * p[P_WAVES3_FREQX]) * ax);
		py += w * (ty + sinf(tx * p[P_WAVES3_FREQY]) * ay);
		break;
	}
	case VAR_WAVES4: {
		// The band's hash fract(sin(k)·43758.5453) amplifies any error in
		// sin(k) 43758 times: in double, as the CPU, or it is another value.
		const double band = floor((double)ty * (double)p[P_WAVES4_FREQX] / 6.283185307179586);
		double h = sin(band * 12.9898 + band * 78.233 + 1.0 + (double)ty * 0.001 * (double)p[P_WAVES4_YFACT]) *
			   43758.5453;
		h -= trunc(h);
		float av = (float)h;
		if (truncf(fminf(fmaxf(p[P_WAVES4_CONT], 0.f), 1.f)) == 1.f) av = av > 0.5f ? 1.f : 0.f;
		px += w * (tx + sinf(ty * p[P_WAVES4_FREQX]) * av * av * p[P_WAVES4_SCALEX]);
		py += w * (ty + sinf(tx * p[P_WAVES4_FREQY]) * p[P_WAVES4_SCALEY]);
		break;
	}
	case VAR_XHEART: {
		sincosf(PG_PI_4 + 0.5f * PG_PI_4 * p[P_XHEART_ANGLE], &sa, &ca);
		const float r24 = s.sumsq + 4.f;
		const float bx = 4.f / r24 * tx, by = (6.f + 2.f * p[P_XHEART_RATIO]) / r24 * ty;
		const float x = ca * bx - sa * by, y = sa * bx + ca * by;
		px += w * x;
		py += x > 0.f ? w * y : -(w * y);
		break;
	}
	default: return pg_flame_var_jwf3_body(vid, w, s, p, rng);
	}
	return make_float2(px, py);
}
