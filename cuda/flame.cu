// Fractal flame rendering on the GPU (flam3's algorithm, after the cuburn
// design in the paper): the chaos game fills a histogram of buckets, density
// estimation spreads sparse buckets, and a gather pass filters and tone-maps
// each output pixel. Only the final image goes back to the host.
#include "common.cuh"
#include "flame_types.cuh"
#include "flame_iterate.cuh"

// pg_flame_iterate: the chaos game with the generic xforms (flame_iterate.cuh).
extern "C" __global__ void __launch_bounds__(ITER_THREADS, ITER_MIN_BLOCKS)
pg_flame_iterate(const FlameGenome *__restrict__ genome, const FlameXform *__restrict__ xforms, float *hist,
		 unsigned *hits, uint64_t seed, uint64_t chain_base, uint32_t nchains, uint32_t samples,
		 unsigned long long *bad_total, uint32_t *log) {
	flame_iterate<GenericXforms>(genome, xforms, hist, hits, seed, chain_base, nchains, samples, bad_total, log);
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
