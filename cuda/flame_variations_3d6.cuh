// Fractorium's waves2 with scalez and freqz (internal/flame's
// variations_jwf12.go), for the flame3d family: flam3's waves2 in x and y
// and a wave in z of the distance from the z axis; and JWildfire's
// waves2_3D and spherical3D_wf. flam3's waves2
// (flame_variations_rare.cuh) is untouched: this has an id of its own
// (the header's _FR). One more out-of-line function, called from
// pg_flame_var3d5's default case.
#pragma once
// Included by flame_variations_3d5.cuh (PgFlame3Out, PgFlameVarState, pg_ftoi).

static __device__ __noinline__ PgFlame3Out pg_flame_var3d6(unsigned vid, float w, PgFlameVarState s, float tz,
							    const float *p, uint64_t state) {
	float3 o = make_float3(0.f, 0.f, 0.f);
	switch (vid) {
	case VAR_WAVES2_FR:
		o = make_float3(w * (s.tx + p[P_WAVES2_FR_SCALEX] * sinf(s.ty * p[P_WAVES2_FR_FREQX])),
				w * (s.ty + p[P_WAVES2_FR_SCALEY] * sinf(s.tx * p[P_WAVES2_FR_FREQY])),
				w * p[P_WAVES2_FR_SCALEZ] * sinf(s.sqrt * p[P_WAVES2_FR_FREQZ]));
		break;
	case VAR_WAVES2_3D: {
		const float f = p[P_WAVES2_3D_FREQ], k = p[P_WAVES2_3D_SCALE];
		o = make_float3(w * (s.tx + k * sinf(s.ty * f)), w * (s.ty + k * sinf(s.tx * f)),
				w * (tz + k * sinf((s.tx + s.ty) / 2.f * f)));
		break;
	}
	case VAR_SPHERICAL3D_WF: { // the distance's power in the regular form (exponent 2) without powf
		const float d2 = s.tx * s.tx + s.ty * s.ty + tz * tz + 1e-30f, e = p[P_SPHERICAL3D_WF_EXPONENT];
		float r = fabsf(e - 2.f) < 1e-8f ? w / d2 : w / powf(d2, e / 2.f);
		if (pg_ftoi(p[P_SPHERICAL3D_WF_INVERT]) != 0.f) r = -r;
		o = make_float3(s.tx * r, s.ty * r, tz * r);
		break;
	}
	}
	return PgFlame3Out{o, state};
}
