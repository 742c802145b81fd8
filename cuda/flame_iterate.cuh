// The chaos game of the flame renderer (flam3's iteration, cuburn's
// warp-uniform schedule), as a template over how xforms are applied: the
// kernel built into the binary (flame.cu, GenericXforms) reads each xform's
// variations at run time; a kernel compiled at run time for one genome's
// xforms (internal/flame's cuda_special.go) has them as constants, so the
// variation dispatch folds away. Both run this same code.
#pragma once
#include "common.cuh"
#include "flame_types.cuh"
#include "flame_variations.cuh"

#define ITER_THREADS 256
// ITER_MIN_BLOCKS resident blocks per SM: the register budget that buys the
// occupancy to hide the latency of the scattered atomics (4, which caps
// registers at 64, spilled the loop's state and ran at a third of the speed).
#ifndef ITER_MIN_BLOCKS
#define ITER_MIN_BLOCKS 3
#endif
#define BAD_LIMIT 1e10f
#define MAX_CONSECUTIVE_BAD 5

// Picks xform index for uniform r from a cumulative row.
__device__ __forceinline__ int pick_xform(const float *row, int n, float r) {
	int j = 0;
	while (j < n - 1 && r >= row[j]) j++;
	return j;
}

__device__ __forceinline__ bool bad_point(float x, float y) {
	return !(fabsf(x) <= BAD_LIMIT && fabsf(y) <= BAD_LIMIT); // also catches NaN
}

// An xform in two halves around its variations: the affine, (x, y) to
// (tx, ty); then the post affine of the variations' sum v (POST: 1 always,
// 0 never, -1 as f.has_post says) into (x, y), false when that is bad.
__device__ __forceinline__ float2 xform_affine(const SmemXform &f, float x, float y) {
	return make_float2(f.coefs[0] * x + f.coefs[2] * y + f.coefs[4], f.coefs[1] * x + f.coefs[3] * y + f.coefs[5]);
}
template <int POST> __device__ __forceinline__ bool xform_post(const SmemXform &f, float2 v, float &x, float &y) {
	if (POST == 1 || (POST < 0 && f.has_post)) {
		const float px = f.post[0] * v.x + f.post[2] * v.y + f.post[4];
		const float py = f.post[1] * v.x + f.post[3] * v.y + f.post[5];
		v.x = px;
		v.y = py;
	}
	x = v.x;
	y = v.y;
	return !bad_point(x, y);
}

// Applies xform f to (x, y) with its variations found at run time from its
// ids, as the kernel built into the binary runs every genome. False when
// the result is bad.
__device__ __forceinline__ bool apply_xform(const SmemXform &f, float &x, float &y, PgRng &rng) {
	const float tx = f.coefs[0] * x + f.coefs[2] * y + f.coefs[4];
	const float ty = f.coefs[1] * x + f.coefs[3] * y + f.coefs[5];
	// Purely linear xforms (most of them in real genomes) are affine: skip
	// the variation dispatch, which costs far more than the arithmetic.
	float2 v = f.linear_only ? make_float2(f.linear_w * tx, f.linear_w * ty)
				 : pg_flame_apply_vars(f.ids, f.weights, f.nvars, f.pre_blur, tx, ty, f.coefs, f.params, rng);
	if (f.has_post) {
		const float px = f.post[0] * v.x + f.post[2] * v.y + f.post[4];
		const float py = f.post[1] * v.x + f.post[3] * v.y + f.post[5];
		v.x = px;
		v.y = py;
	}
	x = v.x;
	y = v.y;
	return !bad_point(x, y);
}

// The generic xforms for flame_iterate. A kernel compiled for one genome's
// xforms (internal/flame's cuda_special.go) brings its own struct with the
// same two members. (apply_xform repeats xform_post's lines rather than
// calling it, and GenericXforms calls apply_xform rather than holding it:
// either way round, nvcc 11.8's ptxas spilled 188 bytes of the loop's state
// for sm_90, loaded and stored on every step.)
struct GenericXforms {
	// xf[fn], one of the genome's ordinary xforms.
	static __device__ __forceinline__ bool xform(const SmemXform *xf, int fn, float &x, float &y, PgRng &rng) {
		return apply_xform(xf[fn], x, y, rng);
	}
	// The final xform.
	static __device__ __forceinline__ bool final_xform(const SmemXform &f, float &x, float &y, PgRng &rng) {
		return apply_xform(f, x, y, rng);
	}
};

// deposit is plot's second half: the camera's rotation and bounds, the
// palette and the adds into the histogram (or the log entry).
__device__ __forceinline__ uint32_t deposit(const FlameGenome &g, float px, float py, float pc, float vis, float *hist,
					    unsigned *hits, bool logging) {
	if (g.rotate) {
		const float dx = px - g.cx, dy = py - g.cy;
		px = dx * g.rot_cos - dy * g.rot_sin + g.cx;
		py = dx * g.rot_sin + dy * g.rot_cos + g.cy;
	}
	if (!(px >= g.x0 && py >= g.y0 && px < g.x1 && py < g.y1)) return LOG_NONE;
	const int bi = min((int)((px - g.x0) * g.sx), g.bw - 1);
	const int bj = min((int)((py - g.y0) * g.sy), g.bh - 1);
	const size_t b = (size_t)bj * g.bw + bi;
	float col[4];
	const float fi = pc * 256.f;
	int ci = (int)fi;
	if (logging) return (uint32_t)b << 8 | (uint32_t)min(max(ci, 0), 255); // step palette, full visibility
	if (!g.linear) {
		ci = min(max(ci, 0), 255);
		for (int ch = 0; ch < 4; ch++) col[ch] = g.palette[ci][ch];
	} else {
		float frac;
		if (!(fi >= 0.f) || ci < 0) ci = 0, frac = 0.f;
		else if (ci >= 255) ci = 254, frac = 1.f;
		else frac = fi - (float)ci;
		for (int ch = 0; ch < 4; ch++) col[ch] = g.palette[ci][ch] * (1.f - frac) + g.palette[ci + 1][ch] * frac;
	}
	// flam3's default buckets are unsigned ints: each sample's colour adds
	// without its fraction (flam3Bump on the CPU). In step mode with every
	// xform fully visible (alpha_hits) the host whole-numbered the palette
	// (gpuInputs), so the colour is whole already and four conversions a
	// sample are saved.
	float *h = hist + 4 * b;
	if (g.linear || !g.alpha_hits)
		for (int ch = 0; ch < 4; ch++) col[ch] = truncf(col[ch] * vis);
	pg_red_add4(h, col[0], col[1], col[2], col[3]);
	if (!g.alpha_hits) atomicAdd(hits + b, 1u);
	return LOG_NONE;
}

// plot deposits one sample: the final xform (with its opacity as a chance),
// the camera, the palette, and the atomic adds into the histogram. The hit
// counter is skipped when every xform is fully visible: then A = 255·hits.
// With logging (deferred writeback) plot returns the sample as a log entry,
// bucket << 8 | palette index, instead of adding it; LOG_NONE when nothing
// lands in the histogram.
template <class X>
__device__ __forceinline__ uint32_t plot(const FlameGenome &g, const SmemXform *fin, float px, float py, float pc,
					 float vis, PgRng &rng, float *hist, unsigned *hits, unsigned &bad, bool logging) {
	if (fin && (fin->opacity == 1.f || pg_rng_unit(rng) < fin->opacity)) {
		if (!X::final_xform(*fin, px, py, rng)) {
			bad++;
			return LOG_NONE;
		}
		pc = pc * (1.f - fin->color_speed) + fin->color * fin->color_speed;
	}
	return deposit(g, px, py, pc, vis, hist, hits, logging);
}

// Loads the genome header and the xforms into shared memory: of each xform
// the SmemXform prefix of its FlameXform (all of it where they are one).
__device__ __forceinline__ void load_genome(const FlameGenome *genome, const FlameXform *xforms, int *smem) {
	const int nx = genome->nxforms + genome->has_final;
	const int *src = reinterpret_cast<const int *>(genome);
	for (int i = threadIdx.x; i < (int)(sizeof(FlameGenome) / 4); i += blockDim.x) smem[i] = src[i];
	const int *xs = reinterpret_cast<const int *>(xforms);
	int *dst = smem + sizeof(FlameGenome) / 4;
	constexpr int kept = sizeof(SmemXform) / 4, stride = sizeof(FlameXform) / 4;
	if (kept == stride) {
		for (int i = threadIdx.x; i < nx * kept; i += blockDim.x) dst[i] = xs[i];
	} else {
		for (int i = threadIdx.x; i < nx * kept; i += blockDim.x) dst[i] = xs[i / kept * stride + i % kept];
	}
	__syncthreads();
}

// flame_iterate plays the chaos game (the body of the pg_flame_iterate
// kernels, whose arguments it takes); each thread runs one chain of
// `fuse` discarded steps from a random start and then `samples` steps that
// plot. Chain k's random stream is keyed by (seed, chain_base + k).
// xforms[nxforms] is the final xform when has_final.
//
// Two schedules. Per thread (needed for xaos, where each chain's next choice
// depends on its last xform): every thread picks its own xform, so a warp
// runs the code of several xforms one after another. Warp-uniform (no xaos):
// a warp picks one xform per step, so it runs one code path; to keep its 32
// points from following the same sequence of maps and converging onto one
// orbit (the trap of the paper's chapter 8), the block exchanges points
// through shared memory after every step, transposing warps and lanes.
// Both follow flam3 when a point goes bad (NaN, inf, beyond 1e10): restart
// from a random point and retry, at most five times, without using a sample.
template <class X>
__device__ __forceinline__ void flame_iterate(const FlameGenome *__restrict__ genome,
					      const FlameXform *__restrict__ xforms, float *hist, unsigned *hits,
					      uint64_t seed, uint64_t chain_base, uint32_t nchains, uint32_t samples,
					      unsigned long long *bad_total, uint32_t *log) {
	extern __shared__ int4 smem4[];
	int *smem = reinterpret_cast<int *>(smem4);
	// Motion blur: blockIdx.y picks one of several genomes (temporal samples),
	// each with its xforms xform_stride apart, its own g.chains chains of
	// g.chain_samples samples, numbered after the previous genome's nchains.
	genome += blockIdx.y;
	xforms += (size_t)blockIdx.y * genome->xform_stride;
	chain_base += (uint64_t)blockIdx.y * nchains;
	load_genome(genome, xforms, smem);
	const FlameGenome &g = *reinterpret_cast<const FlameGenome *>(smem);
	const SmemXform *xf = reinterpret_cast<const SmemXform *>(smem + sizeof(FlameGenome) / 4);
	const uint32_t chain = blockIdx.x * blockDim.x + threadIdx.x;
	const bool active = chain < (g.chains > 0 ? min(nchains, (uint32_t)g.chains) : nchains);
	if (g.chain_samples > 0) samples = (uint32_t)g.chain_samples;
	const int n = g.nxforms;
	const SmemXform *fin = g.has_final ? &xf[n] : nullptr;

	PgRng rng;
	rng.state = pg_hash64(seed, chain_base + chain);
	float x = 2.f * pg_rng_unit(rng) - 1.f, y = 2.f * pg_rng_unit(rng) - 1.f, c = pg_rng_unit(rng);
	unsigned bad = 0;

	if (!g.warp_uniform) {
		if (!active) return;
		int last = 0, consec = 0;
		for (int i = -g.fuse; i < (int)samples;) {
			const int fn = pick_xform(g.choose[g.xaos ? last : 0], n, pg_rng_unit(rng));
			const SmemXform &f = xf[fn];
			float nx_ = x, ny_ = y;
			const bool ok = X::xform(xf, fn, nx_, ny_, rng);
			const float nc = c * (1.f - f.color_speed) + f.color * f.color_speed;
			if (!ok) {
				bad++;
				consec++;
				nx_ = 2.f * pg_rng_unit(rng) - 1.f;
				ny_ = 2.f * pg_rng_unit(rng) - 1.f;
				if (consec < MAX_CONSECUTIVE_BAD) {
					x = nx_, y = ny_, c = nc;
					continue;
				}
			}
			consec = 0;
			last = fn + 1;
			x = nx_, y = ny_, c = nc;
			const int step = i++;
			if (step < 0) continue;
			const uint32_t e = f.vis != 0.f ? plot<X>(g, fin, x, y, c, f.vis, rng, hist, hits, bad, log) : LOG_NONE;
			if (log) log[(size_t)step * nchains + chain] = e; // coalesced: a warp writes one run
		}
	} else {
		// State that travels with a point: its remaining fuse steps and its
		// count of consecutive bad results, packed into one int. Two swap
		// buffers, used in turn, need one barrier per step: a thread writes
		// buffer b again only two steps later, past the barrier that every
		// thread reaches after reading it.
		__shared__ float4 swap[2][ITER_THREADS];
		const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
		const unsigned slot = lane * (ITER_THREADS / 32) + warp;
		int cool = g.fuse, consec = 0, buf = 0;
		int remaining = active ? (int)samples : 0; // this thread's samples still owed
		// The warp's xform for its next 32 steps: lane k draws and picks the
		// one for step k in one go, so a step costs a shuffle, not a draw
		// by every lane of which one is used.
		int picks = 0, next = 32;
		bool more = __syncthreads_or(remaining > 0);
		while (more) {
			if (next == 32) { // the same in every lane: the warp steps together
				picks = pick_xform(g.choose[0], n, pg_rng_unit(rng));
				next = 0;
			}
			const int fn = __shfl_sync(PG_FULL_MASK, picks, next++);
			const SmemXform &f = xf[fn];
			c = c * (1.f - f.color_speed) + f.color * f.color_speed;
			bool use = true;
			if (!X::xform(xf, fn, x, y, rng)) {
				// As flam3: restart from a random point; retry up to four
				// times without using up a sample, then keep the point.
				bad++;
				x = 2.f * pg_rng_unit(rng) - 1.f;
				y = 2.f * pg_rng_unit(rng) - 1.f;
				use = ++consec >= MAX_CONSECUTIVE_BAD;
				if (use) consec = 0;
			} else {
				consec = 0;
			}
			if (use) {
				if (cool > 0) {
					cool--;
				} else if (remaining > 0) {
					const size_t slot = (size_t)(samples - remaining) * nchains + chain;
					remaining--;
					const uint32_t e =
					    f.vis != 0.f ? plot<X>(g, fin, x, y, c, f.vis, rng, hist, hits, bad, log) : LOG_NONE;
					if (log) log[slot] = e;
				}
			}
			swap[buf][slot] = make_float4(x, y, c, __int_as_float(cool << 4 | consec));
			more = __syncthreads_or(remaining > 0);
			const float4 p = swap[buf][threadIdx.x];
			buf ^= 1;
			x = p.x, y = p.y, c = p.z;
			const int st = __float_as_int(p.w);
			cool = st >> 4, consec = st & 15;
		}
	}
	if (bad) atomicAdd(bad_total, (unsigned long long)bad);
}
