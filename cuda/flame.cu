// Fractal flame rendering on the GPU (flam3's algorithm, after the cuburn
// design in the paper): the chaos game fills a histogram of buckets, density
// estimation spreads sparse buckets, and a gather pass filters and tone-maps
// each output pixel. Only the final image goes back to the host.
#include "common.cuh"
#include "flame_types.cuh"
#include "flame_variations.cuh"

#define ITER_THREADS 256
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

// Applies xform f to (x, y): affine, variations, post. False when the result is bad.
__device__ __forceinline__ bool apply_xform(const FlameXform &f, float &x, float &y, PgRng &rng) {
	const float tx = f.coefs[0] * x + f.coefs[2] * y + f.coefs[4];
	const float ty = f.coefs[1] * x + f.coefs[3] * y + f.coefs[5];
	// Purely linear xforms (most of them in real genomes) are affine: skip
	// the variation dispatch, which costs far more than the arithmetic.
	float2 v = f.linear_only ? make_float2(f.linear_w * tx, f.linear_w * ty)
				 : pg_flame_apply_vars(f.ids, f.weights, f.nvars, tx, ty, f.coefs, f.params, rng);
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

// plot deposits one sample: the final xform (with its opacity as a chance),
// the camera, the palette, and the atomic adds into the histogram. The hit
// counter is skipped when every xform is fully visible: then A = 255·hits.
// With logging (deferred writeback) plot returns the sample as a log entry,
// bucket << 8 | palette index, instead of adding it; LOG_NONE when nothing
// lands in the histogram.
__device__ __forceinline__ uint32_t plot(const FlameGenome &g, const FlameXform *fin, float px, float py, float pc,
					 float vis, PgRng &rng, float *hist, unsigned *hits, unsigned &bad, bool logging) {
	if (fin && (fin->opacity == 1.f || pg_rng_unit(rng) < fin->opacity)) {
		if (!apply_xform(*fin, px, py, rng)) {
			bad++;
			return LOG_NONE;
		}
		pc = pc * (1.f - fin->color_speed) + fin->color * fin->color_speed;
	}
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
	float *h = hist + 4 * b;
	pg_red_add4(h, col[0] * vis, col[1] * vis, col[2] * vis, col[3] * vis);
	if (!g.alpha_hits) atomicAdd(hits + b, 1u);
	return LOG_NONE;
}

// Loads the genome header and the xforms into shared memory.
__device__ __forceinline__ void load_genome(const FlameGenome *genome, const FlameXform *xforms, int *smem) {
	const int nx = genome->nxforms + genome->has_final;
	const int *src = reinterpret_cast<const int *>(genome);
	for (int i = threadIdx.x; i < (int)(sizeof(FlameGenome) / 4); i += blockDim.x) smem[i] = src[i];
	const int *xs = reinterpret_cast<const int *>(xforms);
	int *dst = smem + sizeof(FlameGenome) / 4;
	const int n4 = nx * (int)(sizeof(FlameXform) / 4);
	for (int i = threadIdx.x; i < n4; i += blockDim.x) dst[i] = xs[i];
	__syncthreads();
}

// pg_flame_iterate plays the chaos game; each thread runs one chain of
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
// ITER_MIN_BLOCKS resident blocks per SM: the register budget that buys the
// occupancy to hide the latency of the scattered atomics.
#ifndef ITER_MIN_BLOCKS
#define ITER_MIN_BLOCKS 3
#endif
extern "C" __global__ void __launch_bounds__(ITER_THREADS, ITER_MIN_BLOCKS)
pg_flame_iterate(const FlameGenome *__restrict__ genome, const FlameXform *__restrict__ xforms, float *hist,
		 unsigned *hits, uint64_t seed, uint64_t chain_base, uint32_t nchains, uint32_t samples,
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
	const FlameXform *xf = reinterpret_cast<const FlameXform *>(smem + sizeof(FlameGenome) / 4);
	const uint32_t chain = blockIdx.x * blockDim.x + threadIdx.x;
	const bool active = chain < (g.chains > 0 ? min(nchains, (uint32_t)g.chains) : nchains);
	if (g.chain_samples > 0) samples = (uint32_t)g.chain_samples;
	const int n = g.nxforms;
	const FlameXform *fin = g.has_final ? &xf[n] : nullptr;

	PgRng rng;
	rng.state = pg_hash64(seed, chain_base + chain);
	float x = 2.f * pg_rng_unit(rng) - 1.f, y = 2.f * pg_rng_unit(rng) - 1.f, c = pg_rng_unit(rng);
	unsigned bad = 0;

	if (!g.warp_uniform) {
		if (!active) return;
		int last = 0, consec = 0;
		for (int i = -g.fuse; i < (int)samples;) {
			const int fn = pick_xform(g.choose[g.xaos ? last : 0], n, pg_rng_unit(rng));
			const FlameXform &f = xf[fn];
			float nx_ = x, ny_ = y;
			const bool ok = apply_xform(f, nx_, ny_, rng);
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
			const uint32_t e = f.vis != 0.f ? plot(g, fin, x, y, c, f.vis, rng, hist, hits, bad, log) : LOG_NONE;
			if (log) log[(size_t)step * nchains + chain] = e; // coalesced: a warp writes one run
		}
	} else {
		// State that travels with a point: its remaining fuse steps and its
		// count of consecutive bad results, packed into one int.
		__shared__ float4 swap[ITER_THREADS];
		const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
		const unsigned slot = lane * (ITER_THREADS / 32) + warp;
		int cool = g.fuse, consec = 0;
		int remaining = active ? (int)samples : 0; // this thread's samples still owed
		while (__syncthreads_or(remaining > 0)) {
			const float r = __shfl_sync(PG_FULL_MASK, pg_rng_unit(rng), 0);
			const FlameXform &f = xf[pick_xform(g.choose[0], n, r)];
			c = c * (1.f - f.color_speed) + f.color * f.color_speed;
			bool use = true;
			if (!apply_xform(f, x, y, rng)) {
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
					    f.vis != 0.f ? plot(g, fin, x, y, c, f.vis, rng, hist, hits, bad, log) : LOG_NONE;
					if (log) log[slot] = e;
				}
			}
			swap[slot] = make_float4(x, y, c, __int_as_float(cool << 4 | consec));
			__syncthreads();
			const float4 p = swap[threadIdx.x];
			__syncthreads();
			x = p.x, y = p.y, c = p.z;
			const int st = __float_as_int(p.w);
			cool = st >> 4, consec = st & 15;
		}
	}
	if (bad) atomicAdd(bad_total, (unsigned long long)bad);
}

// With alpha_hits the iterate kernel kept no hit counter: recover it from
// the alpha sum (255 per sample when every xform is fully visible).
extern "C" __global__ void pg_flame_hits_from_alpha(const float4 *hist, unsigned *hits, uint64_t n) {
	const uint64_t b = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (b < n) hits[b] = (unsigned)rintf(hist[b].w * (1.f / 255.f));
}

// Sums another device's part of a render into this one's (a still split
// over several GPUs): colour sums and hit counts, bucket by bucket.
extern "C" __global__ void pg_flame_add_hist(float4 *hist, const float4 *part, unsigned *hits,
                                             const unsigned *part_hits, uint64_t n) {
	const uint64_t b = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (b >= n) return;
	const float4 a = hist[b], c = part[b];
	hist[b] = make_float4(a.x + c.x, a.y + c.y, a.z + c.z, a.w + c.w);
	hits[b] += part_hits[b];
}

// ---- Density estimation ----------------------------------------------------

__device__ __forceinline__ float log_scale(float k1, float k2, float a) { return k1 * log1pf(a * k2) / a; }

// Without density estimation: acc = hist · log scale, bucket by bucket.
extern "C" __global__ void pg_flame_logscale(const float4 *hist, float4 *acc, uint64_t n, float k1, float k2) {
	const uint64_t b = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (b >= n) return;
	float4 c = hist[b];
	if (c.w == 0.f) {
		acc[b] = make_float4(0, 0, 0, 0);
		return;
	}
	const float ls = log_scale(k1, k2, c.w);
	acc[b] = make_float4(c.x * ls, c.y * ls, c.z * ls, c.w * ls);
}

__device__ __forceinline__ void acc_add(float *acc, int bw, int bh, int i, int j, const float *v) {
	if (i < 0 || j < 0 || i >= bw || j >= bh) return;
	float *p = acc + 4 * ((size_t)j * bw + i);
	pg_red_add4(p, v[0], v[1], v[2], v[3]);
}

// One thread per bucket: flam3's density estimation, scattering the
// bucket's log-scaled colour over the kernel its neighbourhood selects. acc
// must be zeroed first.
extern "C" __global__ void pg_flame_density(const float4 *hist, const unsigned *hits, float *acc,
					    const float *coefs, const float *widths, const FlameDE *dep) {
	const FlameDE p = *dep;
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	const int j = blockIdx.y;
	const int ss = p.ss, half = ss / 2;
	if (i < ss - 1 || i >= p.bw - (ss - 1) || j < ss - 1 || j >= p.bh - half) return;
	const size_t b = (size_t)j * p.bw + i;
	if (hits[b] == 0) return;
	const float4 c = hist[b];
	if (c.w == 0.f) return;
	float n = 0.f;
	for (int jj = -half; jj <= half; jj++)
		for (int ii = -half; ii <= half; ii++) n += (float)hits[b + ii + (long)jj * p.bw];
	if (!(ss & 1)) n *= ((float)ss / (ss + 1)) * ((float)ss / (ss + 1));
	int f;
	if (n > p.max_filtered) f = p.max_index;
	else if (n <= 100.f) f = (int)ceilf(n) - 1;
	else f = 100 + (int)floorf(powf(n - 100.f, p.curve));
	f = min(max(f, 0), p.max_index);
	const float *k = coefs + (size_t)f * p.kernel_size;
	const int fw = (int)ceilf(widths[f]) - 1;
	const float ls = log_scale(p.k1, p.k2, c.w);
	int idx = 0;
	for (int jj = 0; jj <= fw; jj++) {
		for (int ii = 0; ii <= jj; ii++) {
			const float kv = k[idx++];
			if (kv == 0.f) continue;
			const float s = kv * ls;
			const float v[4] = {c.x * s, c.y * s, c.z * s, c.w * s};
			if (jj == 0) {
				acc_add(acc, p.bw, p.bh, i, j, v);
			} else if (ii == 0) {
				acc_add(acc, p.bw, p.bh, i + jj, j, v);
				acc_add(acc, p.bw, p.bh, i - jj, j, v);
				acc_add(acc, p.bw, p.bh, i, j + jj, v);
				acc_add(acc, p.bw, p.bh, i, j - jj, v);
			} else if (ii == jj) {
				acc_add(acc, p.bw, p.bh, i + ii, j + jj, v);
				acc_add(acc, p.bw, p.bh, i - ii, j + jj, v);
				acc_add(acc, p.bw, p.bh, i + ii, j - jj, v);
				acc_add(acc, p.bw, p.bh, i - ii, j - jj, v);
			} else {
				acc_add(acc, p.bw, p.bh, i + ii, j + jj, v);
				acc_add(acc, p.bw, p.bh, i - ii, j + jj, v);
				acc_add(acc, p.bw, p.bh, i + ii, j - jj, v);
				acc_add(acc, p.bw, p.bh, i - ii, j - jj, v);
				acc_add(acc, p.bw, p.bh, i + jj, j + ii, v);
				acc_add(acc, p.bw, p.bh, i - jj, j + ii, v);
				acc_add(acc, p.bw, p.bh, i + jj, j - ii, v);
				acc_add(acc, p.bw, p.bh, i - jj, j - ii, v);
			}
		}
	}
}

// ---- Tone mapping ------------------------------------------------------------

__device__ float calc_alpha(float d, float gamma, float lin) {
	if (d <= 0.f) return 0.f;
	if (d < lin) {
		const float frac = d / lin;
		return (1.f - frac) * d * (powf(lin, gamma) / lin) + frac * powf(d, gamma);
	}
	return powf(d, gamma);
}

__device__ void rgb_to_hsv(float r, float g, float b, float &h, float &s, float &v) {
	const float mx = fmaxf(r, fmaxf(g, b)), mn = fminf(r, fminf(g, b)), del = mx - mn;
	v = mx;
	s = mx != 0.f ? del / mx : 0.f;
	h = 0.f;
	if (s == 0.f) return;
	const float rc = (mx - r) / del, gc = (mx - g) / del, bc = (mx - b) / del;
	if (r == mx) h = bc - gc;
	else if (g == mx) h = 2.f + rc - bc;
	else h = 4.f + gc - rc;
	if (h < 0.f) h += 6.f;
}

__device__ void hsv_to_rgb(float h, float s, float v, float &r, float &g, float &b) {
	while (h >= 6.f) h -= 6.f;
	while (h < 0.f) h += 6.f;
	const int j = (int)floorf(h);
	const float f = h - j, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
	switch (j) {
	case 1: r = q, g = v, b = p; break;
	case 2: r = p, g = v, b = t; break;
	case 3: r = p, g = q, b = v; break;
	case 4: r = t, g = p, b = v; break;
	case 5: r = v, g = p, b = q; break;
	default: r = v, g = t, b = p; break;
	}
}

// The twin of toneParams.tone in internal/flame/tonemap.go.
__device__ float4 tone(float4 t, const FlameTone &tp) {
	float alpha = 0.f, ls = 0.f;
	if (t.w > 0.f) {
		const float tmp = t.w / 255.f;
		alpha = calc_alpha(tmp, tp.gamma, tp.linrange);
		ls = tp.vibrancy * 256.f * alpha / tmp;
		alpha = fminf(fmaxf(alpha, 0.f), 1.f);
	}
	float rgb[3] = {0, 0, 0};
	const float c[3] = {t.x, t.y, t.z};
	if (ls != 0.f && (c[0] != 0.f || c[1] != 0.f || c[2] != 0.f)) {
		float maxa = -1.f, maxc = 0.f;
		for (int ch = 0; ch < 3; ch++) {
			const float a = ls * c[ch] / 255.f;
			if (a > maxa) maxa = a, maxc = c[ch] / 255.f;
		}
		const float newls = 255.f / maxc;
		if (maxa > 255.f && tp.highpow >= 0.f) {
			const float ratio = powf(newls / ls, tp.highpow);
			float h, s, v;
			rgb_to_hsv(newls * c[0] / 255.f / 255.f, newls * c[1] / 255.f / 255.f, newls * c[2] / 255.f / 255.f, h, s,
				   v);
			hsv_to_rgb(h, s * ratio, v, rgb[0], rgb[1], rgb[2]);
			for (int ch = 0; ch < 3; ch++) rgb[ch] *= 255.f;
		} else {
			float adj = -tp.highpow;
			if (adj > 1.f || maxa <= 255.f) adj = 1.f;
			for (int ch = 0; ch < 3; ch++) rgb[ch] = ((1.f - adj) * newls + adj * ls) * (c[ch] / 255.f);
		}
	}
	float out[3];
	for (int ch = 0; ch < 3; ch++) {
		float a = rgb[ch];
		if (tp.vibrancy != 1.f) a += (1.f - tp.vibrancy) * 256.f * powf(c[ch] / 255.f, tp.gamma);
		if (!tp.transparent) a += (1.f - alpha) * tp.bg[ch];
		else a = alpha > 0.f ? a / alpha : 0.f;
		out[ch] = fminf(fmaxf(a, 0.f), 255.f);
	}
	return make_float4(out[0], out[1], out[2], alpha);
}

// Early clip: tone-map every bucket in place before filtering.
extern "C" __global__ void pg_flame_earlyclip(float4 *acc, uint64_t n, const FlameTone *tpp) {
	const FlameTone tp = *tpp;
	const uint64_t b = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (b < n) acc[b] = tone(acc[b], tp);
}

// One thread per output pixel: spatial filter over the supersampled
// accumulator, then tone mapping (unless already done by early clip).
extern "C" __global__ void pg_flame_finish(const float4 *acc, float4 *out, const float *filter, int fw, int width,
					   int height, int bw, int ss, int de_offset, int early_clip,
					   const FlameTone *tpp) {
	const FlameTone tp = *tpp;
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	const int j = blockIdx.y;
	if (i >= width) return;
	const int x = de_offset + i * ss, y = de_offset + j * ss;
	float4 t = make_float4(0, 0, 0, 0);
	for (int jj = 0; jj < fw; jj++) {
		const float4 *row = acc + (size_t)(y + jj) * bw + x;
		const float *k = filter + jj * fw;
		for (int ii = 0; ii < fw; ii++) {
			const float w = k[ii];
			const float4 a = row[ii];
			t.x += w * a.x, t.y += w * a.y, t.z += w * a.z, t.w += w * a.w;
		}
	}
	if (!early_clip) {
		t = tone(t, tp);
	} else {
		t.x = fminf(fmaxf(t.x, 0.f), 255.f), t.y = fminf(fmaxf(t.y, 0.f), 255.f);
		t.z = fminf(fmaxf(t.z, 0.f), 255.f), t.w = fminf(fmaxf(t.w, 0.f), 1.f);
	}
	if (!tp.transparent) t.w = 1.f; // opaque unless transparency was asked for
	out[(size_t)j * width + i] = t;
}
