// The variations that read or write z on the device, for the flame3d family
// (points that carry z, flame_iterate3d.cuh) and flame_vartest's 3D kernel:
// float32 twins of internal/flame's variations_jwf*.go for the ids in
// gpu_plugins.go's 3D block, with the same formulas and draws (each draw
// one 64-bit draw, as the CPU's Float64; an integer drawn as trunc(u·n) is
// taken in double, so the device and the CPU land on the same integer).
// A 2D variation in a 3D genome adds nothing to z, as on the CPU: its part
// runs through pg_flame_var unchanged.
#pragma once
// Included after flame_variations.cuh with PG_FLAME_PLUGINS (PgFlameVarState,
// pg_flame_var, pg_jwf_params, pg_rng_f64, pg_rng_unit53).

struct PgFlame3Out {
	float3 d;
	uint64_t rng;
};

#include "flame_variations_3d2.cuh"

// pg_flame_is3d reports whether device id vid reads or writes z.
static __device__ __forceinline__ bool pg_flame_is3d(unsigned vid) {
	switch (vid) {
	case VAR_LINEAR3D: case VAR_ZSCALE: case VAR_ZTRANSLATE: case VAR_ZCONE: case VAR_HEMISPHERE:
	case VAR_BLUR3D: case VAR_SPHERICAL3D: case VAR_JULIA3D: case VAR_JULIA3DZ: case VAR_CURL3D:
	case VAR_BLOB3D: case VAR_AFFINE3D: case VAR_POINCARE3D: case VAR_AXIS_SYMMETRY_WF: case VAR_POINT_SYMMETRY_WF:
	case VAR_CYLINDER_APO: case VAR_BUBBLE2: case VAR_TILE_LOG: case VAR_BLADE3D: case VAR_JULIAN3DX:
	case VAR_MIRROR_X: case VAR_FALLOFF2: case VAR_OCTAGON: case VAR_BUTTERFLY3D: case VAR_DISC3D: case VAR_FALLOFF3:
	case VAR_INFLATEZ_3: case VAR_LINEART3D: case VAR_SPIROGRAPH3D: case VAR_EXBLUR: case VAR_GLITCHY1: case VAR_LAZYSENSEN:
	case VAR_SHREDDED: case VAR_PROSE3D: case VAR_SUPERSHAPE3D: case VAR_CONE: case VAR_FOCI_3D:
	case VAR_CUBIC3D: case VAR_ENNEPERS2: case VAR_FARBLUR: case VAR_HYPERTILE3D: case VAR_INFLATEZ_1:
	case VAR_INFLATEZ_4: case VAR_INFLATEZ_5: case VAR_INFLATEZ_6: case VAR_LINE: case VAR_PLANE_WF:
	case VAR_SPHERICAL3D_FR: case VAR_ROTATE_Y: case VAR_ROTATE_Z: case VAR_SPHEREBLUR: case VAR_FALLOFF:
	case VAR_PYRAMID: case VAR_SECQ: case VAR_TANHQ: case VAR_SPH3D: case VAR_SQUARE3D: case VAR_WHITNEY_UMBRELLA:
	case VAR_TRIANGLE: case VAR_HYPERTILE3D2: case VAR_SEASHELL3D: case VAR_WAVEBLUR_WF: case VAR_WAVES2_FR:
	case VAR_WAVES2_3D: case VAR_SPHERICAL3D_WF:
		return true;
	}
	return false;
}

// pg_flame_replaces3 is the coordinates (bit 0 x, 1 y, 2 z) of the sum
// before it that 3D variation vid replaces on the CPU: mirror_x, triangle
// and cubic3D all three, rotate_y y, rotate_z z.
static __device__ __forceinline__ unsigned pg_flame_replaces3(unsigned vid) {
	switch (vid) {
	case VAR_MIRROR_X: case VAR_TRIANGLE: case VAR_CUBIC3D: return 7u;
	case VAR_ROTATE_Y: return 2u;
	case VAR_ROTATE_Z: return 4u;
	}
	return 0u;
}

// One 3D variation's contribution, out of line (as the rare and plugin
// variations are: the state and the stream by value, the stream handed back).
static __device__ __noinline__ PgFlame3Out pg_flame_var3d(unsigned vid, float w, PgFlameVarState s, float tz,
							   const float *params, uint64_t state) {
	PgRng rng;
	rng.state = state;
	const float *p = pg_jwf_params(vid, params);
	const float tx = s.tx, ty = s.ty;
	float px = 0.f, py = 0.f, pz = 0.f, k, sa, ca;
	switch (vid) {
	case VAR_LINEAR3D: px = w * tx; py = w * ty; pz = w * tz; break;
	case VAR_ZSCALE: pz = w * tz; break;
	case VAR_ZTRANSLATE: pz = w; break;
	case VAR_ZCONE: pz = w * s.sqrt; break;
	case VAR_HEMISPHERE:
		k = w / sqrtf(s.sumsq + 1.f);
		px = k * tx; py = k * ty; pz = k;
		break;
	case VAR_SPHERICAL3D: { // the CPU's + 1e-300 is below float: at the origin the terms are 0
		const float r2 = s.sumsq + tz * tz;
		if (r2 > 0.f) {
			k = w / r2;
			px = k * tx; py = k * ty; pz = k * tz;
		}
		break;
	}
	case VAR_BLUR3D: {
		const double g = pg_rng_f64(rng) + pg_rng_f64(rng) + pg_rng_f64(rng) + pg_rng_f64(rng);
		k = w * (float)(g - 2.0);
		sincosf(pg_rng_unit53(rng) * PG_2PI, &sa, &ca);
		float sb, cb;
		sincosf(pg_rng_unit53(rng) * PG_PI, &sb, &cb);
		px = k * sb * ca; py = k * sb * sa; pz = k * cb;
		break;
	}
	case VAR_JULIA3D: {
		const float n = p[P_JULIA3D_N], an = fabsf(n);
		const float z = tz / an;
		k = w * powf(s.sumsq + z * z, p[P_JULIA3D_CPOWER]);
		const float t = (float)trunc(pg_rng_f64(rng) * (double)an);
		sincosf((s.atanyx() + PG_2PI * t) / n, &sa, &ca);
		const float k2 = k * s.sqrt;
		px = k2 * ca; py = k2 * sa; pz = k * z;
		break;
	}
	case VAR_JULIA3DZ: {
		const float n = p[P_JULIA3DZ_N], an = fabsf(n);
		k = w * powf(s.sumsq, p[P_JULIA3DZ_CPOWER]);
		const float t = (float)trunc(pg_rng_f64(rng) * (double)an);
		sincosf((s.atanyx() + PG_2PI * t) / n, &sa, &ca);
		px = k * ca; py = k * sa; pz = k * tz / (s.sqrt * an);
		break;
	}
	case VAR_CURL3D: {
		const float cx = p[P_CURL3D_CX], cy = p[P_CURL3D_CY], cz = p[P_CURL3D_CZ];
		const float r2 = s.sumsq + tz * tz;
		k = w / (r2 * p[P_CURL3D_C2] + 2.f * cx * tx - 2.f * cy * ty + 2.f * cz * tz + 1.f);
		px = k * (tx + cx * r2); py = k * (ty - cy * r2); pz = k * (tz + cz * r2);
		break;
	}
	case VAR_BLOB3D: {
		const float a = s.atanxy();
		const float sw = sinf(p[P_BLOB3D_WAVES] * a);
		const float lo = p[P_BLOB3D_LOW];
		const float rr = s.sqrt * (lo + (p[P_BLOB3D_HIGH] - lo) * (0.5f + 0.5f * sw));
		sincosf(a, &sa, &ca);
		px = w * sa * rr; py = w * ca * rr; pz = w * sw * rr;
		break;
	}
	case VAR_AFFINE3D: {
		const float x = p[P_AFFINE3D_SCALEX] * tx, y = p[P_AFFINE3D_SCALEY] * ty, z = p[P_AFFINE3D_SCALEZ] * tz;
		const float u = x + p[P_AFFINE3D_SHEARXY] * y + p[P_AFFINE3D_SHEARXZ] * z;
		const float v = p[P_AFFINE3D_SHEARYX] * x + y + p[P_AFFINE3D_SHEARYZ] * z;
		const float t = p[P_AFFINE3D_SHEARZX] * x + p[P_AFFINE3D_SHEARZY] * y + z;
		const float sx = p[P_AFFINE3D_SINX], cx = p[P_AFFINE3D_COSX];
		const float sy = p[P_AFFINE3D_SINY], cy = p[P_AFFINE3D_COSY];
		const float sz = p[P_AFFINE3D_SINZ], cz = p[P_AFFINE3D_COSZ];
		const float a = sx * v + cx * t, b = cx * v - sx * t, c = cy * u + sy * a;
		px = w * (cz * c - sz * b + p[P_AFFINE3D_TRANSLATEX]);
		py = w * (sz * c + cz * b + p[P_AFFINE3D_TRANSLATEY]);
		pz = w * (-sy * u + cy * a + p[P_AFFINE3D_TRANSLATEZ]);
		break;
	}
	case VAR_POINCARE3D: {
		const float cx = p[P_POINCARE3D_CX], cy = p[P_POINCARE3D_CY], cz = p[P_POINCARE3D_CZ];
		const float r2 = tx * tx + ty * ty + tz * tz;
		const float x2 = 2.f * cx * tx, y2 = 2.f * cy * ty, z2 = 2.f * cz * tz;
		const float d = w / (p[P_POINCARE3D_C2] * r2 - x2 - y2 - z2 + 1.f);
		px = d * (tx * p[P_POINCARE3D_S2X] + cx * (y2 + z2 - r2 - 1.f));
		py = d * (ty * p[P_POINCARE3D_S2Y] + cy * (x2 + z2 - r2 - 1.f));
		pz = d * (tz * p[P_POINCARE3D_S2Z] + cz * (y2 + x2 - r2 - 1.f));
		break;
	}
	case VAR_AXIS_SYMMETRY_WF: { // variations_jwf7.go's axisSymmetry
		const bool keep = pg_rng_f64(rng) < 0.5;
		if (fabsf(w) <= 1e-8f) { // JWildfire leaves the point alone
			px = tx; py = ty; pz = tz;
			break;
		}
		const float cx = p[P_AXIS_SYMMETRY_WF_CENTRE_X], cy = p[P_AXIS_SYMMETRY_WF_CENTRE_Y];
		const float cz = p[P_AXIS_SYMMETRY_WF_CENTRE_Z];
		const float a = p[P_AXIS_SYMMETRY_WF_ROTATION] * PG_PI / 180.f;
		const float half = w / 2.f;
		const int axis = (int)fminf(fmaxf(pg_ftoi(p[P_AXIS_SYMMETRY_WF_AXIS]), 0.f), 2.f);
		float ax = tx, ay = axis == 2 ? tz : ty, c2 = axis == 2 ? cz : cy;
		if (axis == 0) ax = keep ? tx + half : 2.f * cx - tx - half;
		else ay = keep ? ay + half : 2.f * c2 - ay - half;
		if (fabsf(a) > 1e-8f) {
			float sn, cs;
			sincosf(a, &sn, &cs);
			const float dx = ax - cx, dy = ay - c2;
			if (axis == 2) c2 = cy; // JWildfire turns z about centre_y
			if (keep) ax = cx + dx * cs + dy * sn, ay = c2 + dy * cs - dx * sn;
			else ax = cx + dx * cs - dy * sn, ay = c2 + dy * cs + dx * sn;
		}
		px = ax;
		if (axis == 2) py = ty, pz = ay;
		else py = ay, pz = tz;
		break;
	}
	case VAR_POINT_SYMMETRY_WF: { // a turn by one of order angles about the centre; z passes
		const float cx = p[P_POINT_SYMMETRY_WF_CENTRE_X], cy = p[P_POINT_SYMMETRY_WF_CENTRE_Y];
		const float order = fmaxf(pg_ftoi(p[P_POINT_SYMMETRY_WF_ORDER]), 1.f);
		const double k = trunc(pg_rng_f64(rng) * (double)order);
		sincosf((float)(k * 6.283185307179586 / (double)order), &sa, &ca);
		const float dx = (tx - cx) * w, dy = (ty - cy) * w;
		px = cx + dx * ca + dy * sa; py = cy + dy * ca - dx * sa; pz = tz;
		break;
	}
	case VAR_MIRROR_X: // 2D on the CPU, but it passes z where it replaces the sum (pg_flame_replaces3)
		px = pg_rng_f64(rng) >= 0.5 ? -fabsf(tx) : fabsf(tx); py = ty; pz = tz;
		break;
	case VAR_CYLINDER_APO: // Apophysis' cylinder, the cosine into z
		sincosf(tx, &sa, &ca);
		px = w * sa; py = w * ty; pz = w * ca;
		break;
	case VAR_BUBBLE2: { // a bubble with a scale per axis, z pushed out
		const float bz = p[P_BUBBLE2_Z];
		k = w / ((tx * tx + ty * ty + tz * tz) / 4.f + 1.f);
		px = tx * k * p[P_BUBBLE2_X]; py = ty * k * p[P_BUBBLE2_Y];
		pz = w * (tz >= 0.f ? tz + bz : tz - bz);
		pz += tz * k * bz;
		break;
	}
	case VAR_TILE_LOG: { // a whole-number shift, log-distributed; the integer in double as on the CPU
		const double spread = pg_rng_f64(rng) < 0.5 ? p[P_TILE_LOG_SPREAD] : -p[P_TILE_LOG_SPREAD];
		const double shift = floor(spread * log(pg_rng_f64(rng)) + 0.5);
		px = w * (tx + (float)shift); py = w * ty; pz = w * tz;
		break;
	}
	case VAR_BLADE3D: // blade with y driving z
		sincosf(pg_rng_unit53(rng) * w * s.sqrt, &sa, &ca);
		px = w * tx * (ca + sa); py = w * tx * (ca - sa); pz = w * ty * (sa - ca);
		break;
	case VAR_JULIAN3DX: {
		const float power = pg_ftoi(p[P_JULIAN3DX_POWER]), an = fabsf(power);
		const float cn = (p[P_JULIAN3DX_DIST] / power - 1.f) / 2.f;
		const float z = tx / an;
		const float out = w * powf(s.sumsq + z * z, cn);
		pz = out * z;
		const float x = p[P_JULIAN3DX_A] * tx + p[P_JULIAN3DX_B] * ty + p[P_JULIAN3DX_E];
		const float y = p[P_JULIAN3DX_C] * tx + p[P_JULIAN3DX_D] * ty + p[P_JULIAN3DX_F];
		const float t = (float)trunc(pg_rng_f64(rng) * (double)an);
		sincosf((atan2f(y, x) + PG_2PI * t) / power, &sa, &ca);
		const float g = out * s.sqrt;
		px = g * ca; py = g * sa;
		break;
	}
	default: return pg_flame_var3d2(vid, w, s, tz, p, rng.state); // flame_variations_3d2.cuh
	}
	return PgFlame3Out{make_float3(px, py, pz), rng.state};
}

// pg_flame_apply_vars3 is pg_flame_apply_vars with z: the affine's output
// (tx, ty) and the point's z (the affine passes z through), summed from
// z = 0 as on the CPU (compiledXform.apply3).
static __device__ __forceinline__ float3 pg_flame_apply_vars3(const uint16_t *ids, const float *weights, int n,
							      int pre, float tx, float ty, float tz, const float *c,
							      const float *p, PgRng &rng) {
	PgFlameVarState s = pg_flame_vars_begin(tx, ty, pre, weights, rng);
	float px = 0.f, py = 0.f, pz = 0.f;
	for (int i = 0; i < n; i++) {
		if (weights[i] == 0.f) continue;
		if (pg_flame_is3d(ids[i])) {
			const bool reads = ids[i] == VAR_CUBIC3D || ids[i] == VAR_FARBLUR; // the sum before them
			const PgFlame3Out o = reads ? pg_flame_var3d_sum(ids[i], weights[i], s, tz, make_float3(px, py, pz), p, rng.state)
						    : pg_flame_var3d(ids[i], weights[i], s, tz, p, rng.state);
			rng.state = o.rng;
			const unsigned rep = pg_flame_replaces3(ids[i]);
			if (rep & 1u) px = 0.f;
			if (rep & 2u) py = 0.f;
			if (rep & 4u) pz = 0.f;
			px += o.d.x; py += o.d.y; pz += o.d.z;
		} else {
			pg_flame_var(ids[i], weights[i], s, c, p, px, py, rng);
		}
	}
	return make_float3(px, py, pz);
}

// pg_stage_sums: a stage variation whose output does not involve the point
// adds it to the point (Fractorium's ASSIGNTYPE_SUM; variations_stage.go's
// stageSums); the others replace the point with it.
static __device__ __forceinline__ bool pg_stage_sums(unsigned id) {
	switch (id) {
	case VAR_BLUR: case VAR_GAUSSIAN_BLUR: case VAR_PIE: case VAR_ARCH: case VAR_SQUARE:
	case VAR_BLUR3D: case VAR_ZTRANSLATE: case VAR_SINEBLUR:
		return true;
	}
	return false;
}

// pg_flame_stage applies one pre_/post_ stage term to (x, y, z): the
// variation alone on the point, summed into it or replacing it; a 2D one
// that replaces keeps z (variations_stage.go's stage).
static __device__ __noinline__ float3 pg_flame_stage(unsigned id, float w, float3 pt, const float *c, const float *p,
						    uint64_t &state) {
	PgRng rng;
	rng.state = state;
	PgFlameVarState s;
	s.tx = pt.x;
	s.ty = pt.y;
	s.sumsq = pt.x * pt.x + pt.y * pt.y;
	s.sqrt = sqrtf(s.sumsq);
	s.have = 0;
	float px = 0.f, py = 0.f, pz = 0.f;
	const bool is3 = pg_flame_is3d(id);
	if (is3) {
		const PgFlame3Out o = pg_flame_var3d(id, w, s, pt.z, p, rng.state);
		rng.state = o.rng;
		px = o.d.x, py = o.d.y, pz = o.d.z;
	} else {
		pg_flame_var(id, w, s, c, p, px, py, rng);
	}
	state = rng.state;
	if (pg_stage_sums(id)) return make_float3(pt.x + px, pt.y + py, pt.z + pz);
	return make_float3(px, py, is3 ? pz : pt.z);
}

// pg_flame_apply_staged3 is pg_flame_apply_vars3 for an xform with stage
// terms (ids[n .. n+nstages), post_ ones marked in post), in the CPU's order
// (compiledXform.apply3): pre_blur, the pre_ stages, the regular variations
// (or the point itself when bit 31 of post says there are none), flatten,
// the post_ stages.
static __device__ __forceinline__ float3 pg_flame_apply_staged3(const uint16_t *ids, const float *weights, int n,
								int nstages, unsigned post, bool flatten, int pre,
								float tx, float ty, float tz, const float *c,
								const float *p, PgRng &rng) {
	if (pre >= 0) {
		const PgFlameVarState b = pg_flame_vars_begin(tx, ty, pre, weights, rng);
		tx = b.tx, ty = b.ty;
	}
	float3 pt = make_float3(tx, ty, tz);
	for (int k = 0; k < nstages; k++)
		if (!(post >> k & 1u) && weights[n + k] != 0.f) pt = pg_flame_stage(ids[n + k], weights[n + k], pt, c, p, rng.state);
	float3 v = post >> 31 ? pt : pg_flame_apply_vars3(ids, weights, n, -1, pt.x, pt.y, pt.z, c, p, rng);
	if (flatten) v.z = 0.f;
	for (int k = 0; k < nstages; k++)
		if ((post >> k & 1u) && weights[n + k] != 0.f) v = pg_flame_stage(ids[n + k], weights[n + k], v, c, p, rng.state);
	return v;
}
