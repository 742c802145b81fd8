// Test harness for cuda/flame_variations.cuh: maps points through one xform's
// affine and variations so internal/flame's tests can compare the device
// variations with the CPU's ApplyXform point by point.
#define PG_FLAME_PLUGINS 1 // the plugin variations too (flame_variations_rare.cuh)
#include "common.cuh"
#include "flame_ids.cuh"
#include "flame_variations.cuh"
#include "flame_variations_3d.cuh"

// Thread i maps (in_xy[2i], in_xy[2i+1]) through the affine coefs
// {a b c d e f} (x' = a·x + c·y + e, y' = b·x + d·y + f) and then the nvars
// variations ids/weights with params (NUM_PARAMS floats, precalculated slots
// filled), writing the summed point to out_xy[2i..2i+1]; no post affine and
// no bad-value test. Its random stream starts at state pg_hash64(seed, i):
// the twin of Go's rng.NewStream(rng.Hash64(seed, uint64(i))), whose state is
// that same value, so draw j of thread i is the CPU's draw j for point i.
extern "C" __global__ void pg_flame_vartest(const float *in_xy, float *out_xy, unsigned n, const uint16_t *ids,
					    const float *weights, int nvars, const float *coefs, const float *params,
					    uint64_t seed) {
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	PgRng rng;
	rng.state = pg_hash64(seed, i);
	float x = in_xy[2 * i], y = in_xy[2 * i + 1];
	float tx = coefs[0] * x + coefs[2] * y + coefs[4];
	float ty = coefs[1] * x + coefs[3] * y + coefs[5];
	float2 o = pg_flame_apply_vars(ids, weights, nvars, pg_flame_pre_blur(ids, weights, nvars), tx, ty, coefs, params, rng);
	out_xy[2 * i] = o.x;
	out_xy[2 * i + 1] = o.y;
}

// pg_flame_vartest3 is pg_flame_vartest with z (flame_variations_3d.cuh):
// points (x, y, z) in in_xyz, the affine on (x, y) passing z through, then
// pg_flame_apply_vars3 (pg_flame_apply_staged3 with nstages stage terms
// after the nvars variations, stage_post as FlameXform's), written to
// out_xyz; flatten and the post affine are the iterate kernel's.
extern "C" __global__ void pg_flame_vartest3(const float *in_xyz, float *out_xyz, unsigned n, const uint16_t *ids,
					     const float *weights, int nvars, const float *coefs, const float *params,
					     uint64_t seed, int nstages, unsigned stage_post) {
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	PgRng rng;
	rng.state = pg_hash64(seed, i);
	float x = in_xyz[3 * i], y = in_xyz[3 * i + 1], z = in_xyz[3 * i + 2];
	float tx = coefs[0] * x + coefs[2] * y + coefs[4];
	float ty = coefs[1] * x + coefs[3] * y + coefs[5];
	const int pre = pg_flame_pre_blur(ids, weights, nvars);
	float3 o = nstages ? pg_flame_apply_staged3(ids, weights, nvars, nstages, stage_post, false, pre, tx, ty, z, coefs,
						   params, rng)
			   : pg_flame_apply_vars3(ids, weights, nvars, pre, tx, ty, z, coefs, params, rng);
	out_xyz[3 * i] = o.x;
	out_xyz[3 * i + 1] = o.y;
	out_xyz[3 * i + 2] = o.z;
}
