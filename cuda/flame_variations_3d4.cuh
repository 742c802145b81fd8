// More variations that read or write z, for the flame3d family, after
// flame_variations_3d3.cuh's: cubic3D, ennepers2, farblur, hypertile3D,
// inflateZ_1/4/5/6, line, plane_wf, Fractorium's Spherical3D, rotate_y,
// rotate_z, sphereblur, falloff and pyramid, float32 twins of
// variations_jwf9d/f/g.go and variations_jwf10.go under the same
// conventions. One more out-of-line function, called from pg_flame_var3d3's
// default case.
//
// cubic3D and farblur read the sum of the variations before them:
// pg_flame_apply_vars3 hands it to them through pg_flame_var3d_sum (the
// chain of pg_flame_var3d*, which stages call, has it 0, as a stage's is).
// cubic3D and, of one coordinate each, rotate_y and rotate_z replace the
// sum: pg_flame_apply_vars3 clears it first (pg_flame_replaces3).
#pragma once
// Included by flame_variations_3d3.cuh (PgFlame3Out, PgFlameVarState,
// pg_rng_f64, pg_rng_unit53, pg_ftoi).

// hypertile3D: hypertile1's Möbius map of the tiling {p, q}'s n-th centre
// with z. The centre is worked out in double: for the Euclidean tilings
// ({4, 4}, {3, 6}, {6, 3}) cos pa + cos qa is 0 up to rounding, and its
// sign, which float32 gets wrong, picks the branch.
__device__ __noinline__ float3 pg_hypertile3d(float w, float x, float y, float z, const float *p) {
	const double pa = 6.283185307179586 / (double)fmaxf(pg_ftoi(p[P_HYPERTILE3D_P]), 3.f);
	const double qa = 6.283185307179586 / (double)fmaxf(pg_ftoi(p[P_HYPERTILE3D_Q]), 3.f);
	double rd = -(cos(pa) - 1.0) / (cos(pa) + cos(qa));
	rd = rd > 0.0 ? 1.0 / sqrt(1.0 + rd) : 1.0;
	double sn, cs;
	sincos((double)fmaxf(pg_ftoi(p[P_HYPERTILE3D_N]), 0.f) * pa, &sn, &cs);
	const float cx = (float)(rd * cs), cy = (float)(rd * sn), c2 = cx * cx + cy * cy;
	const float r2 = x * x + y * y + z * z, x2cx = 2.f * cx * x, y2cy = 2.f * cy * y;
	const float d = w / (c2 * r2 + x2cx - y2cy + 1.f);
	return make_float3(d * (x * (1.f + cx * cx - cy * cy) - cx * (y2cy - r2 - 1.f)),
			   d * (y * (1.f + cy * cy - cx * cx) + cy * (-x2cx - r2 - 1.f)), d * (z * (1.f - cy * cy - cx * cx)));
}

// cubic3D: the sum pulled towards one of the cube's eight corners (a draw),
// blended with the point by style; it replaces the sum.
__device__ __noinline__ float3 pg_cubic3d(float w, float x, float y, float z, float3 sum, const float *p,
					   uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const int node = (int)trunc(pg_rng_f64(rng) * 8.0);
	state = rng.state;
	const float xpand = p[P_CUBIC3D_XPAND], lattd = w * 0.5f;
	const float fill = fabsf(xpand) > 1.f ? sqrtf(xpand) * 0.5f : xpand * 0.5f;
	const float smooth = fabsf(w) <= 0.5f ? w * 2.f : 1.f;
	float st = p[P_CUBIC3D_STYLE];
	if (st > 1.f) st = 1.f + (st - 1.f) * 0.25f;
	else if (st < -1.f) st = (st + 1.f) * 0.25f - 1.f;
	const float ex = 1.f - st * (1.f - cosf(atan2f(x, z)));
	const float wy = 1.f - st * (1.f - sinf(atan2f(y, z)));
	const float zn = st > 1.f ? 1.f - st * (1.f - (ex + wy) * 0.5f * st) : 1.f - st * (1.f - (ex + wy) * 0.5f);
	const float sx = node >= 4 ? -lattd : lattd, sy = node % 2 == 1 ? -lattd : lattd;
	const float sz = node == 2 || node == 3 || node == 6 || node == 7 ? -lattd : lattd;
	const float k = smooth * fill, ks = smooth * (1.f - fill);
	return make_float3(sum.x - ks * sum.x * ex + x * k * ex + sx, sum.y - ks * sum.y * wy + y * k * wy + sy,
			   sum.z - ks * sum.z * zn + z * k * zn + sz);
}

// sphereblur: a blurred ball, three draws (angle, polar angle, radius).
__device__ __noinline__ float3 pg_sphereblur(float w, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const float power = fmaxf(p[P_SPHEREBLUR_POWER], 0.f);
	const float u1 = pg_rng_unit53(rng), u2 = pg_rng_unit53(rng);
	float u = pg_rng_unit53(rng);
	state = rng.state;
	float sn, cs, sz, cz;
	sincosf(u1 * PG_2PI, &sn, &cs);
	sincosf(acosf(u2 * 2.f - 1.f), &sz, &cz);
	if (power != 1.f) u = expf(logf(u) * power);
	const float rr = w * expf(logf(acosf(u * 2.f - 1.f) * PG_1_PI) / 1.5f);
	return make_float3(rr * cs * sz, rr * sn * sz, rr * cz);
}

// falloff (Fractorium's): the point blurred by its distance from (x0, y0,
// z0), in Cartesian (type 0), spherical (1) or box (2) coordinates.
__device__ __noinline__ float3 pg_falloff_fr(float w, float x, float y, float z, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const float ax = pg_rng_unit53(rng) - 0.5f, ay = pg_rng_unit53(rng) - 0.5f, az = pg_rng_unit53(rng) - 0.5f;
	state = rng.state;
	const float mx = __saturatef(p[P_FALLOFF_MUL_X]), my = __saturatef(p[P_FALLOFF_MUL_Y]), mz = __saturatef(p[P_FALLOFF_MUL_Z]);
	const float dx = x - p[P_FALLOFF_X0], dy = y - p[P_FALLOFF_Y0], dz = z - p[P_FALLOFF_Z0];
	const float dist = sqrtf(dx * dx + dy * dy + dz * dz);
	const bool invert = fminf(fmaxf(pg_ftoi(p[P_FALLOFF_INVERT]), 0.f), 1.f) != 0.f;
	const float d = invert ? fmaxf(1.f - dist, 0.f) : fmaxf(dist, 0.f);
	const float rs = fmaxf((d - fmaxf(p[P_FALLOFF_MINDIST], 0.f)) * 0.04f * fmaxf(p[P_FALLOFF_SCATTER], 0x1p-52f), 0.f);
	const int type = (int)fminf(fmaxf(pg_ftoi(p[P_FALLOFF_TYPE]), 0.f), 2.f);
	if (type == 0) return make_float3(w * (x + mx * ax * rs), w * (y + my * ay * rs), w * (z + mz * az * rs));
	if (type == 1) {
		const float rad = dist + mx * ax * rs, phi = atan2f(y, x) + my * ay * rs;
		const float asz = dist != 0.f ? z / dist : 0.f;
		float sg, cg, sp, cp;
		sincosf(asinf(asz) + mz * az * rs, &sg, &cg);
		sincosf(phi, &sp, &cp);
		return make_float3(rad * cg * w * cp, rad * cg * w * sp, rad * sg * w);
	}
	const float scale = fminf(fmaxf(rs, 0.f), 0.9f) + 0.1f, denom = 1.f / scale;
	const float bp = fminf(fmaxf(pg_ftoi(p[P_FALLOFF_BOXPOW]), 2.f), 32.f);
	const float bx = w * (x + (floorf(x * denom) + scale * ax - x) * mx * rs) + mx * powf(ax, bp) * rs * denom;
	const float by = w * (y + (floorf(y * denom) + scale * ay - y) * my * rs) + my * powf(ay, bp) * rs * denom;
	const float bz = w * (z + (floorf(z * denom) + scale * az - z) * mz * rs) + mz * powf(az, bp) * rs * denom;
	return make_float3(bx, by, bz);
}

// farblur: a blur growing with the square of the distance of the sum
// before it from the origin, four draws summed.
__device__ __noinline__ float3 pg_farblur(float w, float3 sum, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const float dx = sum.x - p[P_FARBLUR_X_ORIGIN], dy = sum.y - p[P_FARBLUR_Y_ORIGIN], dz = sum.z - p[P_FARBLUR_Z_ORIGIN];
	const float u1 = pg_rng_unit53(rng), u2 = pg_rng_unit53(rng), u3 = pg_rng_unit53(rng), u4 = pg_rng_unit53(rng);
	const float rr = w * (dx * dx + dy * dy + dz * dz) * (u1 + u2 + u3 + u4 - 2.f);
	const float a = pg_rng_unit53(rng) * PG_2PI, b = pg_rng_unit53(rng) * PG_2PI;
	state = rng.state;
	float su, cu, sv, cv;
	sincosf(a, &su, &cu);
	sincosf(b, &sv, &cv);
	return make_float3(p[P_FARBLUR_X] * rr * sv * cu, p[P_FARBLUR_Y] * rr * sv * su, p[P_FARBLUR_Z] * rr * cv);
}

// plane_wf: a random point of the square of side size on the plane at
// position along the axis (0: xy, 1: yz, 2: zx), whatever the point.
__device__ __noinline__ float3 pg_plane_wf(float w, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const float a = 0.5f - pg_rng_unit53(rng), b = 0.5f - pg_rng_unit53(rng);
	state = rng.state;
	const float pos = p[P_PLANE_WF_POSITION], size = p[P_PLANE_WF_SIZE];
	switch ((int)fminf(fmaxf(pg_ftoi(p[P_PLANE_WF_AXIS]), 0.f), 2.f)) {
	case 0: return make_float3(w * a * size, w * b * size, w * pos);
	case 1: return make_float3(w * pos, w * a * size, w * b * size);
	default: return make_float3(w * a * size, w * pos, w * b * size);
	}
}

#include "flame_variations_3d5.cuh"

static __device__ __noinline__ PgFlame3Out pg_flame_var3d4(unsigned vid, float w, PgFlameVarState s, float tz,
							    const float *p, uint64_t state) {
	const float x = s.tx, y = s.ty;
	float3 o = make_float3(0.f, 0.f, 0.f);
	float sn, cs;
	switch (vid) {
	case VAR_CUBIC3D: o = pg_cubic3d(w, x, y, tz, make_float3(0.f, 0.f, 0.f), p, state); break;
	case VAR_ENNEPERS2: {
		const float a = p[P_ENNEPERS2_A], b = p[P_ENNEPERS2_B], c = p[P_ENNEPERS2_C];
		const float r2 = 1.f / (x * x + y * y), dxy = a * x * (a * x) - b * y * (b * y);
		o = make_float3(w * x * (a * a - dxy * r2 - c * sqrtf(fabsf(x))), w * y * (b * b - dxy * r2 - c * sqrtf(fabsf(y))),
				w * dxy * 0.5f * sqrtf(r2));
		break;
	}
	case VAR_FARBLUR: o = pg_farblur(w, make_float3(0.f, 0.f, 0.f), p, state); break;
	case VAR_HYPERTILE3D: o = pg_hypertile3d(w, x, y, tz, p); break;
	case VAR_INFLATEZ_1: o.z = w * (sinf(atan2f(y, x)) - 2.f * y); break;
	case VAR_INFLATEZ_4: {
		PgRng rng;
		rng.state = state;
		const double u = pg_rng_f64(rng);
		state = rng.state;
		const float v = PG_PI_2 - atan2f(y, x);
		o.z = w * (u < 0.5 ? -v : v) * 0.25f;
		break;
	}
	case VAR_INFLATEZ_5: o.z = w * cosf(PG_PI_2 - atan2f(y, x)) * 0.5f; break;
	case VAR_INFLATEZ_6: {
		const float a = atan2f(y, x);
		o.z = w * (1.5f - acosf(sinf(a) * a * sinf(y - x) * 0.5f));
		break;
	}
	case VAR_LINE: {
		PgRng rng;
		rng.state = state;
		const float t = pg_rng_unit53(rng) * w;
		state = rng.state;
		float sd, cd, sp, cp;
		sincosf(p[P_LINE_DELTA] * PG_PI, &sd, &cd);
		sincosf(p[P_LINE_PHI] * PG_PI, &sp, &cp);
		const float ux = cd * cp, uy = sd * cp, uz = sp, n = sqrtf(ux * ux + uy * uy + uz * uz);
		o = make_float3(ux / n * t, uy / n * t, uz / n * t);
		break;
	}
	case VAR_PLANE_WF: o = pg_plane_wf(w, p, state); break;
	case VAR_SPHERICAL3D_FR: {
		const float d = x * x + y * y + tz * tz;
		const float k = w / (d == 0.f ? 0x1p-52f : d);
		o = make_float3(k * x, k * y, k * tz);
		break;
	}
	case VAR_ROTATE_Y: // y replaces the sum's (pg_flame_replaces3)
		sincosf(w * PG_PI_2, &sn, &cs);
		o = make_float3(cs * x - sn * tz, y, sn * x + cs * tz);
		break;
	case VAR_ROTATE_Z: // z likewise
		sincosf(w * PG_PI_2, &sn, &cs);
		o = make_float3(sn * y + cs * x, cs * y - sn * x, tz);
		break;
	case VAR_SPHEREBLUR: o = pg_sphereblur(w, p, state); break;
	case VAR_FALLOFF: o = pg_falloff_fr(w, x, y, tz, p, state); break;
	case VAR_PYRAMID: {
		const float cx = x * x * x, cy = y * y * y, cz = fabsf(tz * tz * tz);
		const float k = w / (fabsf(cx) + fabsf(cy) + cz + 1e-9f);
		o = make_float3(cx * k, cy * k, cz * k);
		break;
	}
	default: return pg_flame_var3d5(vid, w, s, tz, p, state); // flame_variations_3d5.cuh
	}
	return PgFlame3Out{o, state};
}

// cubic3D or farblur with the sum of the variations before them
// (pg_flame_apply_vars3's call for those two); params the xform's, as
// pg_flame_var3d takes them.
static __device__ __noinline__ PgFlame3Out pg_flame_var3d_sum(unsigned vid, float w, PgFlameVarState s, float tz,
							       float3 sum, const float *params, uint64_t state) {
	const float *p = pg_jwf_params(vid, params);
	const float3 o = vid == VAR_CUBIC3D ? pg_cubic3d(w, s.tx, s.ty, tz, sum, p, state) : pg_farblur(w, sum, p, state);
	return PgFlame3Out{o, state};
}
