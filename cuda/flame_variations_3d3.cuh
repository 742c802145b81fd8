// More variations that read or write z, for the flame3d family, after
// flame_variations_3d2.cuh's: pRose3D, superShape3d, cone and foci_3D,
// float32 twins of variations_jwf10_maurer.go, variations_jwf9.go,
// variations_jwf9e.go and variations_jwf9g.go under the same conventions. One
// more out-of-line function, called from pg_flame_var3d2's default case.
#pragma once
// Included by flame_variations_3d2.cuh (PgFlame3Out, PgFlameVarState,
// pg_rng_f64, pg_rng_jwf_int).

// pRose3D (Larry Berlin's): the polar rose of k petals and length l at the
// point's angle, lifted in z by a blend of waves of the point's radius,
// ripples along the rim and dist; with opt or opt3 negative, a share
// transp² of the points (half of those draws) go to a reflection below.
// Two draws always, compared in double as the CPU's.
__device__ __noinline__ float3 pg_prose3d(float w, float tx, float ty, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const double ghost_prep = pg_rng_f64(rng), side = pg_rng_f64(rng);
	state = rng.state;
	float length = p[P_PROSE3D_L], petals = p[P_PROSE3D_K];
	const float k = p[P_PROSE3D_K];
	const float smooth12 = fminf(fabsf(p[P_PROSE3D_OPT]), 2.f), smooth3 = fminf(fabsf(p[P_PROSE3D_OPT3]), 1.f);
	const float op_scale = fabsf(p[P_PROSE3D_OPTSC]), wag_scale = p[P_PROSE3D_WAGSC], curve_scale = p[P_PROSE3D_SRVSC];
	const float rad = hypotf(tx, ty);
	// The curves read l before a zero l becomes 10⁻⁶, as JWildfire's.
	const float c1 = rad / length, c2 = (rad / length) * (rad / length), c3 = (rad - length * 0.5f) / length;
	const float c4 = c2 * c2;
	const float th = atan2f(ty, tx);
	float opt_dir = copysignf(1.f, p[P_PROSE3D_OPT]);
	if (p[P_PROSE3D_OPT3] < 0.f) opt_dir = -1.f;
	if (length == 0.f) length = 1e-6f;
	if (fabsf(petals) < 1e-4f) petals = copysignf(1e-4f, k);
	const float cycle = k == 0.f ? PG_2PI / (k + 1e-6f) : PG_2PI / k;
	const float wig = th / cycle * p[P_PROSE3D_F] * PG_2PI * 0.5f + p[P_PROSE3D_OFFSET] * cycle;
	const float s1 = sinf(c1 * PG_PI * op_scale), s4 = sinf(c4 * PG_PI * op_scale);
	const float cc3 = curve_scale * 0.5f * cosf(c3 * PG_PI), sc2 = curve_scale * 0.5f * sinf(c2 * PG_PI);
	const float wag2 = sinf(c2 * PG_PI * op_scale) + wag_scale * 0.4f * rad + cc3;
	float wag = s1 + wag_scale * 0.4f * rad + cc3, wag3 = s4 + wag_scale * rad * rad * 0.4f + sc2;
	if (opt_dir < 0.f) { // the two curve terms swap
		wag = s1 + wag_scale * 0.4f * rad + sc2;
		wag3 = s4 + wag_scale * rad * rad * 0.4f + cc3;
	}
	const float wag12 = smooth12 > 1.f ? wag2 * (smooth12 - 1.f) + wag * (2.f - smooth12) : wag;
	const float waggle = smooth3 > 0.f ? wag12 * (1.f - smooth3) + wag3 * smooth3 : wag12;
	const double ghost = opt_dir > 0.f ? 0.0 : (double)p[P_PROSE3D_TRANSP] * (double)p[P_PROSE3D_TRANSP];
	const float rr = length * cosf(petals * th + p[P_PROSE3D_C]);
	const float ripple = rad * 0.5f * rad * 0.5f * sinf(wig) * p[P_PROSE3D_WIGSC] * 0.5f;
	float sth, cth;
	sincosf(th, &sth, &cth);
	if (ghost_prep < ghost && side < 0.5) { // the reflection
		const float g = w * 0.5f * p[P_PROSE3D_REFSC] * rr;
		return make_float3(g * cth, g * sth, w * -0.5f * (p[P_PROSE3D_Z2] * waggle + ripple + p[P_PROSE3D_DIST]));
	}
	return make_float3(w * 0.5f * rr * cth, w * 0.5f * rr * sth, w * 0.5f * (p[P_PROSE3D_Z1] * waggle + ripple + p[P_PROSE3D_DIST]));
}

// One of superShape3d's two superformula radii.
__device__ __forceinline__ float pg_supershape_term(float ang, float m, float a, float b, float n1, float n2, float n3) {
	float ms, mc;
	sincosf(m / 4.f * ang, &ms, &mc);
	const float pr = powf(fabsf(1.f / a), n2) * powf(fabsf(mc), n2) + powf(fabsf(1.f / b), n3) * powf(fabsf(ms), n3);
	return powf(pr, -1.f / n1);
}

// superShape3d: a random point of the superformula's surface (or torus,
// toroidmap 1), its latitude's sign by JWildfire's integer draw. Three draws.
__device__ __noinline__ float3 pg_supershape3d(float w, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const float rho1 = pg_rng_unit53(rng) * p[P_SUPERSHAPE3D_RHO] * PG_2_PI;
	float phi1 = pg_rng_unit53(rng) * p[P_SUPERSHAPE3D_PHI] * PG_2_PI;
	if (pg_rng_jwf_int(rng) & 1u) phi1 = -phi1;
	state = rng.state;
	const float r1 = pg_supershape_term(rho1, p[P_SUPERSHAPE3D_M1], p[P_SUPERSHAPE3D_A1], p[P_SUPERSHAPE3D_B1],
					    p[P_SUPERSHAPE3D_N1_1], p[P_SUPERSHAPE3D_N2_1], p[P_SUPERSHAPE3D_N3_1]) +
			 p[P_SUPERSHAPE3D_SPIRAL] * rho1;
	const float r2 = pg_supershape_term(phi1, p[P_SUPERSHAPE3D_M2], p[P_SUPERSHAPE3D_A2], p[P_SUPERSHAPE3D_B2],
					    p[P_SUPERSHAPE3D_N1_2], p[P_SUPERSHAPE3D_N2_2], p[P_SUPERSHAPE3D_N3_2]);
	float sr, cr, sp, cp;
	sincosf(rho1, &sr, &cr);
	sincosf(phi1, &sp, &cp);
	if (pg_ftoi(p[P_SUPERSHAPE3D_TOROIDMAP]) == 1.f)
		return make_float3(w * cr * (r1 + r2 * cp), w * sr * (r1 + r2 * cp), w * r2 * sp);
	return make_float3(w * r1 * cr * r2 * cp, w * r1 * sr * r2 * cp, w * r2 * sp);
}

// cone: the point's angle (and a whole number of half turns by a draw, in
// double) as a cone's, at a radius falling with the warped distance.
__device__ __noinline__ float3 pg_cone(float w, float x, float y, const float *p, uint64_t &state) {
	PgRng rng;
	rng.state = state;
	const float turns = (float)trunc((double)p[P_CONE_WEIGHT] * pg_rng_f64(rng));
	state = rng.state;
	const float rr = w / sqrtf(x * x * p[P_CONE_WARP] + y * y + p[P_CONE_SIZE1]) * p[P_CONE_SIZE2];
	const float xx = atan2f(x, y) * p[P_CONE_RADIUS1] + PG_PI * turns * p[P_CONE_RADIUS2];
	return make_float3(rr * cosf(xx * p[P_CONE_XWAVE]), rr * sinf(xx * p[P_CONE_YWAVE]), rr * p[P_CONE_HEIGHT]);
}

// foci_3D: foci with z, its angle the point's z (or, at z = 0, its polar angle).
__device__ __forceinline__ float3 pg_foci3d(float w, float x, float y, float z) {
	const float expx = expf(x) * 0.5f, expnx = 0.25f / expx;
	const float boot = z == 0.f ? atan2f(y, x) : z;
	float sy, cy, sz, cz;
	sincosf(y, &sy, &cy);
	sincosf(boot, &sz, &cz);
	const float k = w / (expx + expnx - cy * cz);
	return make_float3((expx - expnx) * k, sy * k, sz * k);
}

#include "flame_variations_3d4.cuh"

static __device__ __noinline__ PgFlame3Out pg_flame_var3d3(unsigned vid, float w, PgFlameVarState s, float tz,
							    const float *p, uint64_t state) {
	float3 o = make_float3(0.f, 0.f, 0.f);
	switch (vid) {
	case VAR_PROSE3D: o = pg_prose3d(w, s.tx, s.ty, p, state); break;
	case VAR_SUPERSHAPE3D: o = pg_supershape3d(w, p, state); break;
	case VAR_CONE: o = pg_cone(w, s.tx, s.ty, p, state); break;
	case VAR_FOCI_3D: o = pg_foci3d(w, s.tx, s.ty, tz); break;
	default: return pg_flame_var3d4(vid, w, s, tz, p, state); // flame_variations_3d4.cuh
	}
	return PgFlame3Out{o, state};
}
