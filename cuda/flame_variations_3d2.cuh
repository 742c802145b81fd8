// More variations that read or write z, for the flame3d family: the ones
// that kept the most artists' flames on the CPU after
// flame_variations_3d.cuh's (falloff2, octagon, butterfly3D, disc3d,
// falloff3, inflateZ_3, linearT3D, spirograph3D, exblur, glitchy1,
// lazysensen, shredded), float32 twins of
// internal/flame's variations_jwf5.go, variations_jwf8.go,
// variations_jwf9*.go and variations_jwf10.go under the same conventions (a draw compared or
// turned into an integer in double; large phases reduced in double).
// One more out-of-line function, called from pg_flame_var3d's default case.
#pragma once
// Included by flame_variations_3d.cuh (PgFlame3Out, PgFlameVarState,
// pg_rng_f64, pg_rng_unit53, pg_ftoi, pg_reduce; flame_variations_jwf8.cuh's
// pg_java_i32, pg_java_i32d, pg_add_i32).

// A parameter read as JWildfire's integer, held to [lo, hi].
__device__ __forceinline__ float pg_int_clamp(float v, float lo, float hi) { return fminf(fmaxf(pg_ftoi(v), lo), hi); }

// v held to [0, 1].
__device__ __forceinline__ float pg_unit(float v) { return fminf(fmaxf(v, 0.f), 1.f); }

// falloff2: the point scattered by an amount growing with its distance
// from (x0, y0, z0) past mindist: along the axes (type 0), in spherical
// coordinates (1) or in a random direction (2). Four draws, the last the
// colour's (not honoured, as on the CPU).
__device__ __forceinline__ float3 pg_falloff2(float w, float x, float y, float z, const float *p, PgRng &rng) {
	const float dx = x - p[P_FALLOFF2_X0], dy = y - p[P_FALLOFF2_Y0], dz = z - p[P_FALLOFF2_Z0];
	float d = sqrtf(dx * dx + dy * dy + dz * dz);
	if (pg_int_clamp(p[P_FALLOFF2_INVERT], 0.f, 1.f) != 0.f) d = 1.f - d;
	const float rmax = 0.04f * fmaxf(p[P_FALLOFF2_SCATTER], 1e-6f);
	d = fmaxf((fmaxf(d, 0.f) - fmaxf(p[P_FALLOFF2_MINDIST], 0.f)) * rmax, 0.f);
	const float mx = pg_unit(p[P_FALLOFF2_MUL_X]), my = pg_unit(p[P_FALLOFF2_MUL_Y]), mz = pg_unit(p[P_FALLOFF2_MUL_Z]);
	const float u1 = pg_rng_unit53(rng), u2 = pg_rng_unit53(rng), u3 = pg_rng_unit53(rng);
	pg_rng_f64(rng); // the colour's
	const float type = pg_int_clamp(p[P_FALLOFF2_TYPE], 0.f, 2.f);
	float ss, cs, sp, cp;
	if (type == 1.f) {
		const float rin = sqrtf(x * x + y * y + z * z) + 1e-6f;
		sincosf(asinf(z / rin) + mz * u1 * d, &ss, &cs);
		sincosf(atan2f(y, x) + my * u2 * d, &sp, &cp);
		const float rr = rin + mx * u3 * d;
		return make_float3(w * rr * cs * cp, w * rr * cs * sp, w * ss);
	}
	if (type == 2.f) {
		sincosf(d * u1 * PG_2PI, &ss, &cs);
		sincosf(d * u2 * PG_PI, &sp, &cp);
		const float rr = d * u3;
		return make_float3(w * (x + mx * rr * cs * cp), w * (y + my * rr * cs * sp), w * (z + mz * rr * ss));
	}
	return make_float3(w * (x + mx * u1 * d), w * (y + my * u2 * d), w * (z + mz * u3 * d));
}

// octagon: an inversion in the octagonal surface x⁴ + y⁴ + 2z² (mode 0 to
// 6 choosing the scale inside and outside w/2, some splitting the point
// away from the axes by (x, y, z)).
__device__ __forceinline__ float3 pg_octagon(float w, float x, float y, float z, const float *p) {
	const float mode = pg_int_clamp(p[P_OCTAGON_MODE], 0.f, 6.f);
	float r = x * x * x * x + y * y * y * y + 2.f * z * z;
	if (r == 0.f) r = 1e-30f; // the CPU's 1e-300 is below float: at the origin the terms are 0 either way
	const float zz = mode > 1.f ? fabsf(z) : z;
	float t = fabsf(x) + fabsf(y) + 2.f * sqrtf(zz);
	if (t == 0.f) t = 1e-30f;
	const bool in = mode >= 5.f ? t <= w / 2.f : r <= w / 2.f;
	float m;
	bool splits;
	if (mode == 0.f) {
		m = in ? 1.f + 1.f / t : 1.f / r, splits = in;
	} else if (mode == 1.f) {
		splits = true;
		m = in ? 1.f + 1.f / t : w >= 0.f ? 1.f / r + 1.f / t : 1.f + 1.f / r;
	} else if (mode == 2.f || mode == 6.f) {
		m = in ? 1.f + 1.f / t : 1.f + 1.f / r, splits = in;
	} else if (mode == 3.f || mode == 5.f) {
		m = in ? 1.f / t : 1.f / r, splits = in;
	} else {
		m = 1.f / r, splits = in;
	}
	float3 o = make_float3(w * m * x, w * m * y, w * m * z);
	if (splits) {
		o.x += w * (x + (x >= 0.f ? p[P_OCTAGON_X] : -p[P_OCTAGON_X]));
		o.y += w * (y + (y >= 0.f ? p[P_OCTAGON_Y] : -p[P_OCTAGON_Y]));
		o.z += w * (z + (z >= 0.f ? p[P_OCTAGON_Z] : -p[P_OCTAGON_Z]));
	}
	return o;
}

// falloff3's logarithmic shaping (the sign of 0 counts as +).
#define PG_EULER 2.71828182845904523536f
__device__ __forceinline__ float pg_falloff3_sign(float v) { return v < 0.f ? -1.f : 1.f; }
__device__ __forceinline__ float pg_falloff3_log_scale(float v) {
	return v == 0.f ? 0.f : logf((fabsf(v) + 1.f) * PG_EULER) * pg_falloff3_sign(v) / PG_EULER;
}
__device__ __forceinline__ float pg_falloff3_log_map(float v) {
	return v == 0.f ? 0.f : (PG_EULER + logf(v * PG_EULER)) / 4.f * pg_falloff3_sign(v);
}

// falloff3: falloff2's successor, about a centre, by round or square
// distance, gaussian-ish (0), radial (1) or logarithmic (2). Four draws,
// the last the colour's.
__device__ __noinline__ float3 pg_falloff3(float w, float x, float y, float z, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const float rx = (float)(pg_rng_f64(rng) - 0.5), ry = (float)(pg_rng_f64(rng) - 0.5), rz = (float)(pg_rng_f64(rng) - 0.5);
	pg_rng_f64(rng); // the colour's
	state = rng.state;
	const float mx = pg_unit(p[P_FALLOFF3_MUL_X]), my = pg_unit(p[P_FALLOFF3_MUL_Y]), mz = pg_unit(p[P_FALLOFF3_MUL_Z]);
	const float dx = x - p[P_FALLOFF3_CENTER_X], dy = y - p[P_FALLOFF3_CENTER_Y], dz = z - p[P_FALLOFF3_CENTER_Z];
	float radius = sqrtf(dx * dx + dy * dy + dz * dz);
	if (pg_int_clamp(p[P_FALLOFF3_BLUR_SHAPE], 0.f, 1.f) == 1.f) radius = fmaxf(fmaxf(fabsf(dx), fabsf(dy)), fabsf(dz));
	const float rmax = 0.04f * fmaxf(p[P_FALLOFF3_BLUR_STRENGTH], 1e-6f);
	float d = fmaxf(radius, 0.f);
	if (pg_int_clamp(p[P_FALLOFF3_INVERT_DISTANCE], 0.f, 1.f) != 0.f) d = fmaxf(1.f - radius, 0.f);
	const float dist = fmaxf((d - fmaxf(p[P_FALLOFF3_MIN_DISTANCE], 0.f)) * rmax, 0.f);
	const float alpha = p[P_FALLOFF3_ALPHA];
	const float type = pg_int_clamp(p[P_FALLOFF3_BLUR_TYPE], 0.f, 2.f);
	float3 o;
	if (type == 0.f) {
		float ss, sc, ps, pc;
		sincosf(dist * ry * PG_2PI, &ss, &sc);
		sincosf(dist * rz * PG_PI, &ps, &pc);
		const float rad = dist * rx;
		o = make_float3(x + mx * rad * sc * pc, y + my * rad * sc * ps, z + mz * rad * ss);
	} else if (type == 1.f) {
		o = make_float3(x, y, z);
		if (x != 0.f || y != 0.f || z != 0.f) {
			const float rin = sqrtf(x * x + y * y + z * z);
			const float a = my * dist + alpha * dist / sqrtf(rmax);
			float ss, sc, ps, pc;
			sincosf(asinf(z / rin) + mz * dist * rz, &ss, &sc);
			sincosf(atan2f(y, x) + a * ry, &ps, &pc);
			const float rr = rin + mx * rx * dist;
			o = make_float3(rr * sc * pc, rr * sc * ps, rr * ss);
		}
	} else {
		const float coeff = rmax > 1e-8f ? dist + alpha * (pg_falloff3_log_map(dist) - dist) : dist;
		o = make_float3(x + pg_falloff3_log_map(mx) * pg_falloff3_log_scale(rx) * coeff,
				y + pg_falloff3_log_map(my) * pg_falloff3_log_scale(ry) * coeff,
				z + pg_falloff3_log_map(mz) * pg_falloff3_log_scale(rz) * coeff);
	}
	return make_float3(o.x * w, o.y * w, o.z * w);
}

// spirograph3D: a point of the hypotrochoid at a drawn t in [tmin, tmax),
// lifted into z, widened by a drawn offset per mode (0 to 4). Thirteen
// draws always, as the CPU's. t and the turn (a+b)/b·t reach thousands of
// radians (tmax 1000 by default): taken in double and reduced before
// float's sine.
__device__ __noinline__ float3 pg_spirograph3d(float w, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const double u0 = pg_rng_f64(rng);
	float u[13];
#pragma unroll
	for (int k = 1; k < 13; k++) u[k] = (float)pg_rng_f64(rng);
	state = rng.state;
	const double tmin = p[P_SPIROGRAPH3D_TMIN];
	const double t = ((double)p[P_SPIROGRAPH3D_TMAX] - tmin) * u0 + tmin;
	const float width = p[P_SPIROGRAPH3D_WIDTH];
	const float mode = pg_int_clamp(p[P_SPIROGRAPH3D_MODE], 0.f, 4.f);
	float w1 = 0.f, w2 = 0.f, w3 = 0.f;
	if (mode == 0.f) {
		w1 = width * u[1] - width / 2.f;
		w2 = w1, w3 = w1;
	} else if (mode == 1.f) {
		w1 = width * u[1] - width / 2.f;
		w2 = w1 * sinf(pg_reduce(36.0 * t + PG_2PI_HI / 3.0, PG_2PI_HI, PG_2PI_LO));
		w3 = w1 * sinf(pg_reduce(36.0 * t + 2.0 * PG_2PI_HI / 3.0, PG_2PI_HI, PG_2PI_LO));
		w1 *= sinf(pg_reduce(36.0 * t, PG_2PI_HI, PG_2PI_LO));
	} else if (mode == 2.f) {
		w1 = width * u[1] - width / 2.f, w2 = width * u[2] - width / 2.f, w3 = width * u[3] - width / 2.f;
	} else if (mode == 3.f) {
		w1 = width * (u[1] + u[2] + u[3] + u[4] - 2.f) / 2.f;
		w2 = width * (u[5] + u[6] + u[7] + u[8] - 2.f) / 2.f;
		w3 = width * (u[9] + u[10] + u[11] + u[12] - 2.f) / 2.f;
	} else {
		w1 = u[1] < 0.5f ? width : -width;
	}
	const double a = p[P_SPIROGRAPH3D_A], b = p[P_SPIROGRAPH3D_B];
	const float c = p[P_SPIROGRAPH3D_C], ab = (float)(a + b);
	float st, ct, sk, ck;
	sincosf(pg_reduce(t, PG_2PI_HI, PG_2PI_LO), &st, &ct);
	sincosf(pg_reduce((a + b) / b * t, PG_2PI_HI, PG_2PI_LO), &sk, &ck);
	return make_float3(w * (ab * ct - c * ck + w1), w * (ab * st - c * sk + w2), w * (c * sk + w3));
}

// exblur: the direction from the origin (x_origin, −y_origin, z_origin) in
// spherical angles, blurred by a sphere of relative radius r, at the
// distance's square to the power dist times a bell-shaped factor (six draws).
__device__ __noinline__ float3 pg_exblur(float w, float tx, float ty, float tz, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const float ox = tx - p[P_EXBLUR_X_ORIGIN], oy = ty + p[P_EXBLUR_Y_ORIGIN], oz = tz - p[P_EXBLUR_Z_ORIGIN];
	const float n = ox * ox + oy * oy + oz * oz;
	const float bell = (float)(pg_rng_f64(rng) + pg_rng_f64(rng) + pg_rng_f64(rng) + pg_rng_f64(rng) - 2.0);
	const float rr = w * powf(n, p[P_EXBLUR_DIST]) * bell;
	float su, cu, sv, cv, sru, cru, srv, crv;
	sincosf(atan2f(oy, ox), &su, &cu);
	sincosf(acosf(oz / sqrtf(n)), &sv, &cv);
	sincosf(pg_rng_unit53(rng) * PG_2PI, &sru, &cru);
	sincosf(pg_rng_unit53(rng) * PG_2PI, &srv, &crv);
	state = rng.state;
	const float rsrv = p[P_EXBLUR_R] * srv;
	return make_float3(rr * (sv * cu + rsrv * cru), rr * (sv * su + rsrv * sru), rr * (cv + p[P_EXBLUR_R] * crv));
}

// glitchHash: Bob Jenkins' 32-bit integer hash in Java's wrapping int
// arithmetic, over the int range (about [−1, 1]); in double, as the CPU's,
// for the block shift whose integer part it decides.
__device__ __forceinline__ double pg_glitch_hash(int a) {
	a = (a ^ 61) ^ (a >> 16);
	a = (int)((unsigned)a + ((unsigned)a << 3));
	a ^= a >> 4;
	a = (int)((unsigned)a * 0x27d4eb2du);
	a ^= a >> 15;
	return (double)a / 2147483647.0;
}

// glitchy1's and lazysensen's mirror of one coordinate in bands (see the
// CPU's glitchMirror; lazysensen's is n = 2, shift 0, negated).
__device__ __forceinline__ float pg_glitch_mirror(float v, float shift, float scale, float n) {
	if (scale == 0.f) return v;
	const float nr = (float)pg_java_i32(floorf((v - shift) * scale)), m = fmodf(nr, n);
	return (nr >= 0.f && m == n - 1.f) || (nr < 0.f && m == 0.f) ? 2.f * shift - v : v;
}
__device__ __forceinline__ float pg_lazy_mirror(float v, float scale) {
	if (scale == 0.f) return v;
	const float nr = (float)pg_java_i32(floorf(v * scale)), m = fmodf(nr, 2.f);
	return (nr >= 0.f && m == 1.f) || (nr < 0.f && m == 0.f) ? -v : v;
}

// One of glitchy1's block indices, moved by up to ±2 by its own hash
// (Java's int += of a double: the sum truncated).
__device__ __forceinline__ int pg_glitch_block(float v, float width, int seed) {
	const int b = pg_java_i32(floorf(v * width));
	return pg_java_i32d((double)b + (2.0 - 4.0 * pg_glitch_hash(pg_add_i32((int)((unsigned)b * (unsigned)seed), 1))));
}

// glitchy1: the point mirrored in bands, scaled by hashes of the blocks it
// falls in along u and along two directions at ±angle.
__device__ __noinline__ float3 pg_glitchy1(float w, float tx, float ty, float tz, const float *p) {
	const float x = pg_glitch_mirror(tx, p[P_GLITCHY1_SHIFT_X], p[P_GLITCHY1_SCALE_X], pg_int_clamp(p[P_GLITCHY1_N_X], 1.f, 100.f));
	const float y = pg_glitch_mirror(ty, p[P_GLITCHY1_SHIFT_Y], p[P_GLITCHY1_SCALE_Y], pg_int_clamp(p[P_GLITCHY1_N_Y], 1.f, 100.f));
	const float z = pg_glitch_mirror(tz, p[P_GLITCHY1_SHIFT_Z], p[P_GLITCHY1_SCALE_Z], pg_int_clamp(p[P_GLITCHY1_N_Z], 1.f, 100.f));
	float h, k;
	sincosf(p[P_GLITCHY1_ANGLE] * PG_PI / 180.f, &h, &k);
	const int seed = (int)pg_ftoi(p[P_GLITCHY1_SEED]);
	const float width = p[P_GLITCHY1_WIDTH];
	const float uu = p[P_GLITCHY1_U] * tx;
	const float vv = p[P_GLITCHY1_V] * (k * uu + h * ty), ww = p[P_GLITCHY1_W] * (k * uu - h * ty);
	const int bu = pg_glitch_block(uu, width, seed), bv = pg_glitch_block(vv, width, seed), bw = pg_glitch_block(ww, width, seed);
	const int buv = pg_add_i32(bu, bv);
	const int m1 = (int)((unsigned)bw * (0u - (unsigned)seed)), m2 = (int)((unsigned)bw * (unsigned)seed) / 2;
	const float f = (float)(pg_glitch_hash(pg_add_i32(buv, m1)) + pg_glitch_hash(pg_add_i32(buv, m2)));
	return make_float3(w * x * f, w * y * f, w * z * f);
}

// shredded: per coordinate, weight·c3 times a sine (cosine for y) of c1
// times the staircase floor(c2·v), times the point (type 2), the other
// coordinate (type 1) or, with the other staircase's wave added, the other
// coordinate (type 0); blur 1 adds a random share of the point instead.
// Three draws always.
__device__ __noinline__ float3 pg_shredded(float w, float x, float y, float z, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const float bx = p[P_SHREDDED_X_BLUR_AMOUNT] * sinf(PG_2PI * pg_rng_unit53(rng));
	const float by = p[P_SHREDDED_Y_BLUR_AMOUNT] * sinf(PG_2PI * pg_rng_unit53(rng));
	const float bz = p[P_SHREDDED_Z_BLUR_AMOUNT] * sinf(PG_2PI * pg_rng_unit53(rng));
	state = rng.state;
	float sx = sinf(p[P_SHREDDED_X1] * floorf(p[P_SHREDDED_X2] * x));
	float cy = cosf(p[P_SHREDDED_Y1] * floorf(p[P_SHREDDED_Y2] * y));
	float sz = sinf(p[P_SHREDDED_Z1] * floorf(p[P_SHREDDED_Z2] * z));
	const float typ = truncf(fminf(fmaxf(p[P_SHREDDED_TYPE], 0.f), 2.f));
	float mx = y, my = x;
	if (typ == 2.f) {
		mx = x, my = y;
	} else if (typ == 0.f) {
		sx += cosf(p[P_SHREDDED_X1] * floorf(p[P_SHREDDED_X2] * y));
		cy += sinf(p[P_SHREDDED_Y1] * floorf(p[P_SHREDDED_Y2] * x));
		sz += cosf(p[P_SHREDDED_Z1] * floorf(p[P_SHREDDED_Z2] * z));
	}
	const float ax = w * p[P_SHREDDED_X3] * sx, ay = w * p[P_SHREDDED_Y3] * cy, az = w * p[P_SHREDDED_Z3] * sz;
	if (truncf(fminf(fmaxf(p[P_SHREDDED_BLUR], 0.f), 1.f)) == 0.f) return make_float3(ax * mx, ay * my, az * z);
	// Blurred, the term is not multiplied by the point; the blur is (by z
	// only in type 0).
	return make_float3(ax + bx * mx, ay + by * my, typ == 0.f ? az + bz * z : az + bz);
}

#include "flame_variations_3d3.cuh"

static __device__ __noinline__ PgFlame3Out pg_flame_var3d2(unsigned vid, float w, PgFlameVarState s, float tz,
							    const float *p, uint64_t state) {
	PgRng rng;
	rng.state = state;
	const float tx = s.tx, ty = s.ty;
	float3 o = make_float3(0.f, 0.f, 0.f);
	switch (vid) {
	case VAR_FALLOFF2: o = pg_falloff2(w, tx, ty, tz, p, rng); break;
	case VAR_OCTAGON: o = pg_octagon(w, tx, ty, tz, p); break;
	case VAR_BUTTERFLY3D: { // w·4/√(3π); the CPU's + 1e-300 is below float: at the origin the terms are 0
		const float y2 = ty * 2.f, q = tx * tx + y2 * y2;
		const float rr = q > 0.f ? w * 1.3029400317411197909f * sqrtf(fabsf(ty * tx) / q) : 0.f;
		o = make_float3(rr * tx, rr * y2, rr * fabsf(y2) * s.sqrt / 4.f);
		break;
	}
	case VAR_DISC3D: {
		const float rr = s.sqrt, pi = p[P_DISC3D_PI];
		float sn, cs;
		sincosf(pi * rr, &sn, &cs);
		const float vv = w * atan2f(tx, ty) / pi;
		o = make_float3(vv * sn, vv * cs, vv * rr * cosf(tz));
		break;
	}
	case VAR_FALLOFF3: o = pg_falloff3(w, tx, ty, tz, p, rng.state); break;
	case VAR_INFLATEZ_3: {
		const float a = atan2f(ty, tx);
		o.z = w * 0.2f * (PG_PI - a) * cosf(3.f * a + (ty - tx));
		break;
	}
	case VAR_LINEART3D: { // JWildfire's sign: 0 counts as negative
		o.x = (tx > 0.f ? 1.f : -1.f) * powf(fabsf(tx), p[P_LINEART3D_POWX]) * w;
		o.y = (ty > 0.f ? 1.f : -1.f) * powf(fabsf(ty), p[P_LINEART3D_POWY]) * w;
		o.z = (tz > 0.f ? 1.f : -1.f) * powf(fabsf(tz), p[P_LINEART3D_POWZ]) * w;
		break;
	}
	case VAR_SPIROGRAPH3D: o = pg_spirograph3d(w, p, rng.state); break;
	case VAR_EXBLUR: o = pg_exblur(w, tx, ty, tz, p, rng.state); break;
	case VAR_GLITCHY1: o = pg_glitchy1(w, tx, ty, tz, p); break;
	case VAR_LAZYSENSEN: // lazysensen mirrors its own term only, as on the CPU
		o = make_float3(w * pg_lazy_mirror(tx, p[P_LAZYSENSEN_SCALE_X]), w * pg_lazy_mirror(ty, p[P_LAZYSENSEN_SCALE_Y]),
				w * pg_lazy_mirror(tz, p[P_LAZYSENSEN_SCALE_Z]));
		break;
	case VAR_SHREDDED: o = pg_shredded(w, tx, ty, tz, p, rng.state); break;
	default: return pg_flame_var3d3(vid, w, s, tz, p, rng.state); // flame_variations_3d3.cuh
	}
	return PgFlame3Out{o, rng.state};
}
