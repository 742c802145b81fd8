// The chaos game with points that carry z (the flame3d family): the twin of
// internal/flame's runBatch3D. An xform's affine and post affine act on
// (x, y) and pass z through; the variations sum from z = 0 (3D ones add to
// z, 2D ones do not); flatten zeroes z after them; Fractorium's pre_ and
// post_ stage terms run before and after them; the final xform too
// carries z; then the 3D camera, when the genome has one, projects the
// point onto the image plane before flame_iterate.cuh's deposit bins it.
// Starts and restarts lie in the plane (z = 0), as JWildfire's do.
//
// One schedule only, per thread (flame_iterate's first): the warp-uniform
// one's point exchange would need a fifth float per point, and 3D genomes
// are few; flam3's and the 2D plugin genomes keep their own kernels,
// untouched by this one.
#pragma once
#include "flame_iterate.cuh"
#include "flame_variations_3d.cuh"

// apply_xform3 maps (x, y, z) through f; false when the result is bad.
__device__ __forceinline__ bool apply_xform3(const SmemXform &f, float &x, float &y, float &z, PgRng &rng) {
	const float tx = f.coefs[0] * x + f.coefs[2] * y + f.coefs[4];
	const float ty = f.coefs[1] * x + f.coefs[3] * y + f.coefs[5];
	float3 v;
	if (f.stages) {
		v = pg_flame_apply_staged3(f.ids, f.weights, f.nvars, f.stages, f.stage_post, f.flatten, f.pre_blur, tx, ty, z,
					   f.coefs, f.params, rng);
	} else {
		v = f.linear_only ? make_float3(f.linear_w * tx, f.linear_w * ty, 0.f)
				  : pg_flame_apply_vars3(f.ids, f.weights, f.nvars, f.pre_blur, tx, ty, z, f.coefs, f.params, rng);
		if (f.flatten) v.z = 0.f;
	}
	if (f.has_post) {
		const float px = f.post[0] * v.x + f.post[2] * v.y + f.post[4];
		const float py = f.post[1] * v.x + f.post[3] * v.y + f.post[5];
		v.x = px;
		v.y = py;
	}
	x = v.x;
	y = v.y;
	z = v.z;
	return !bad_point(x, y) && fabsf(z) <= BAD_LIMIT;
}

// pg_cam_project is camera3d.go's projector.project: rotate by yaw and
// pitch, move by the camera's position, divide by the perspective factor,
// and blur by depth of field (two draws, only with depth of field). False
// for a point JWildfire does not draw (behind its camera).
__device__ __forceinline__ bool pg_cam_project(const FlameGenome &g, float &x, float &y, float z, PgRng &rng) {
	if (!g.cam_jwf) z -= g.cam_zpos;
	const float *m = g.cam_m;
	float cx = m[0] * x + m[3] * y + m[6] * z + g.cam_pos[0];
	float cy = m[1] * x + m[4] * y + m[7] * z + g.cam_pos[1];
	const float cz = m[2] * x + m[5] * y + m[8] * z + g.cam_pos[2];
	float zr = 1.f - g.cam_persp * cz + g.cam_pos[2];
	if (g.cam_jwf) {
		if (zr < 1e-10f) return false;
	} else if (zr == 0.f) {
		zr = 1e-10f;
	}
	if (g.cam_blurred) {
		const float depth = g.cam_jwf ? g.cam_zpos - cz : cz; // Fractorium: in focus at z' = 0
		if (!g.cam_jwf || depth > 0.f) {
			float s, c;
			sincosf(PG_2PI * pg_rng_unit53(rng), &s, &c);
			const float dr = pg_rng_unit53(rng) * g.cam_blur * depth;
			cx += dr * c;
			cy += dr * s;
		}
	}
	x = cx / zr;
	y = cy / zr;
	return true;
}

// plot3 is plot with z: the final xform, the camera, then deposit.
__device__ __forceinline__ uint32_t plot3(const FlameGenome &g, const SmemXform *fin, float px, float py, float pz,
					  float pc, float vis, PgRng &rng, float *hist, unsigned *hits, unsigned &bad,
					  bool logging) {
	if (fin && (fin->opacity == 1.f || pg_rng_unit(rng) < fin->opacity)) {
		if (!apply_xform3(*fin, px, py, pz, rng)) {
			bad++;
			return LOG_NONE;
		}
		pc = pc * (1.f - fin->color_speed) + fin->color * fin->color_speed;
	}
	if (g.cam && !pg_cam_project(g, px, py, pz, rng)) return LOG_NONE;
	return deposit(g, px, py, pc, vis, hist, hits, logging);
}

// flame_iterate3 is flame_iterate's per-thread schedule with z (its
// arguments are the same; g.warp_uniform is not read).
__device__ __forceinline__ void flame_iterate3(const FlameGenome *__restrict__ genome,
					       const FlameXform *__restrict__ xforms, float *hist, unsigned *hits,
					       uint64_t seed, uint64_t chain_base, uint32_t nchains, uint32_t samples,
					       unsigned long long *bad_total, uint32_t *log) {
	extern __shared__ int4 smem4[];
	int *smem = reinterpret_cast<int *>(smem4);
	genome += blockIdx.y;
	xforms += (size_t)blockIdx.y * genome->xform_stride;
	chain_base += (uint64_t)blockIdx.y * nchains;
	load_genome(genome, xforms, smem);
	const FlameGenome &g = *reinterpret_cast<const FlameGenome *>(smem);
	const SmemXform *xf = reinterpret_cast<const SmemXform *>(smem + sizeof(FlameGenome) / 4);
	const uint32_t chain = blockIdx.x * blockDim.x + threadIdx.x;
	if (chain >= (g.chains > 0 ? min(nchains, (uint32_t)g.chains) : nchains)) return;
	if (g.chain_samples > 0) samples = (uint32_t)g.chain_samples;
	const int n = g.nxforms;
	const SmemXform *fin = g.has_final ? &xf[n] : nullptr;

	PgRng rng;
	rng.state = pg_hash64(seed, chain_base + chain);
	float x = 2.f * pg_rng_unit(rng) - 1.f, y = 2.f * pg_rng_unit(rng) - 1.f, z = 0.f, c = pg_rng_unit(rng);
	unsigned bad = 0;
	int last = 0, consec = 0;
	for (int i = -g.fuse; i < (int)samples;) {
		const int fn = pick_xform(g.choose[g.xaos ? last : 0], n, pg_rng_unit(rng));
		const SmemXform &f = xf[fn];
		float nx_ = x, ny_ = y, nz_ = z;
		const bool ok = apply_xform3(f, nx_, ny_, nz_, rng);
		const float nc = c * (1.f - f.color_speed) + f.color * f.color_speed;
		if (!ok) {
			bad++;
			consec++;
			nx_ = 2.f * pg_rng_unit(rng) - 1.f;
			ny_ = 2.f * pg_rng_unit(rng) - 1.f;
			nz_ = 0.f;
			if (consec < MAX_CONSECUTIVE_BAD) {
				x = nx_, y = ny_, z = nz_, c = nc;
				continue;
			}
		}
		consec = 0;
		last = fn + 1;
		x = nx_, y = ny_, z = nz_, c = nc;
		const int step = i++;
		if (step < 0) continue;
		const uint32_t e = f.vis != 0.f ? plot3(g, fin, x, y, z, c, f.vis, rng, hist, hits, bad, log) : LOG_NONE;
		if (log) log[(size_t)step * nchains + chain] = e;
	}
	if (bad) atomicAdd(bad_total, (unsigned long long)bad);
}
