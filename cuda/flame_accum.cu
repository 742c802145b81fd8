// Deferred writeback for the flame histogram (the paper's chapter 12.4):
// the iterate kernel logs each sample as one 32-bit entry, bucket << 8 |
// palette index, with coalesced stores; these kernels partition the log by
// tile of 2^TILE_BITS buckets and accumulate each tile in shared memory, so
// the histogram sees streaming traffic instead of one scattered atomic
// read-modify-write per channel per sample.
//
// Used when every xform is fully visible and the palette is stepped with
// opaque entries: then a sample is fully described by (bucket, index), and
// A = 255 × count.
#include "common.cuh"
#include "flame_types.cuh"

#define TILE_BITS 12
#define TILE (1u << TILE_BITS) // 4096 buckets: 64 KiB of shared accumulators
#define PART_THREADS 256
#define PART_ITEMS 16
#define PART_CHUNK (PART_THREADS * PART_ITEMS)

__device__ __forceinline__ uint32_t tile_of(uint32_t e) { return e >> (8 + TILE_BITS); }

// counts[t] += number of log entries in tile t. Dynamic shared memory: ntiles words.
extern "C" __global__ void __launch_bounds__(PART_THREADS)
pg_flame_log_count(const uint32_t *__restrict__ log, uint64_t n, uint32_t *counts, uint32_t ntiles) {
	extern __shared__ uint32_t cnt[];
	for (uint32_t i = threadIdx.x; i < ntiles; i += blockDim.x) cnt[i] = 0;
	__syncthreads();
	const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	const uint64_t n4 = n / 4;
	const uint4 *log4 = reinterpret_cast<const uint4 *>(log);
	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
		const uint4 q = __ldcs(&log4[i]); // streamed once: do not keep in L2
		if (q.x != LOG_NONE) atomicAdd(&cnt[tile_of(q.x)], 1u);
		if (q.y != LOG_NONE) atomicAdd(&cnt[tile_of(q.y)], 1u);
		if (q.z != LOG_NONE) atomicAdd(&cnt[tile_of(q.z)], 1u);
		if (q.w != LOG_NONE) atomicAdd(&cnt[tile_of(q.w)], 1u);
	}
	for (uint64_t i = n4 * 4 + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		if (log[i] != LOG_NONE) atomicAdd(&cnt[tile_of(log[i])], 1u);
	__syncthreads();
	for (uint32_t i = threadIdx.x; i < ntiles; i += blockDim.x)
		if (cnt[i]) atomicAdd(&counts[i], cnt[i]);
}

// Moves every log entry into its bin's range of out, where an entry's bin is
// its tile >> shift: one pass with shift 0 sorts by tile; two passes (coarse
// bins first, then tiles) keep each block's writes in few, long runs, which
// is what makes the scatter run at memory speed. cursors[b] starts at bin
// b's first slot. Each block ranks its chunk's entries per bin in shared
// memory and reserves one range per touched bin with one global atomic.
// Order within a bin is not kept (accumulation does not need it).
// Dynamic shared memory: 2 × nbins words.
extern "C" __global__ void __launch_bounds__(PART_THREADS)
pg_flame_log_scatter(const uint32_t *__restrict__ log, uint64_t n, uint32_t *cursors, uint32_t nbins,
		     uint32_t shift, uint32_t *__restrict__ out) {
	extern __shared__ uint32_t sh[];
	uint32_t *cnt = sh, *base = sh + nbins;
	const auto bin_of = [shift](uint32_t e) { return tile_of(e) >> shift; };
	for (uint32_t i = threadIdx.x; i < nbins; i += blockDim.x) cnt[i] = 0;
	__syncthreads();
	for (uint64_t chunk = (uint64_t)blockIdx.x * PART_CHUNK; chunk < n; chunk += (uint64_t)gridDim.x * PART_CHUNK) {
		uint32_t e[PART_ITEMS], rank[PART_ITEMS];
#pragma unroll
		for (int k = 0; k < PART_ITEMS; k++) {
			const uint64_t i = chunk + (uint64_t)k * PART_THREADS + threadIdx.x;
			e[k] = i < n ? __ldcs(&log[i]) : LOG_NONE;
			if (e[k] != LOG_NONE) rank[k] = atomicAdd(&cnt[bin_of(e[k])], 1u);
		}
		__syncthreads();
#pragma unroll
		for (int k = 0; k < PART_ITEMS; k++) // the first entry of each bin reserves for all
			if (e[k] != LOG_NONE && rank[k] == 0) {
				const uint32_t t = bin_of(e[k]);
				base[t] = atomicAdd(&cursors[t], cnt[t]);
			}
		__syncthreads();
#pragma unroll
		for (int k = 0; k < PART_ITEMS; k++)
			if (e[k] != LOG_NONE) out[base[bin_of(e[k])] + rank[k]] = e[k];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < PART_ITEMS; k++) // reset only what this chunk touched
			if (e[k] != LOG_NONE && rank[k] == 0) cnt[bin_of(e[k])] = 0;
		__syncthreads();
	}
}

// cursors[b] = starts[b << shift]: the first slot of coarse bin b, from the
// per-tile starts (tiles are numbered coarse-bin-major).
extern "C" __global__ void pg_flame_coarse_cursors(const uint32_t *starts, uint32_t *cursors, uint32_t nbins,
						  uint32_t shift) {
	const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
	if (b < nbins) cursors[b] = starts[b << shift];
}

// Sums the partitioned log into the histogram. Blocks take chunks of
// ACC_CHUNK entries, not tiles, so a tile that holds a large share of the
// samples (a dense attractor) is shared by many blocks. Within a chunk the
// entries of one tile are consecutive: a block sums each such run in shared
// memory (planar R, G, B and counts) and adds the touched buckets to the
// histogram with global atomics, a few per run instead of four per sample.
// Dynamic shared memory: 4 × TILE words.
#define ACC_CHUNK (1u << 17)
extern "C" __global__ void __launch_bounds__(256)
pg_flame_log_accumulate(const uint32_t *__restrict__ sorted, uint64_t total, const FlameGenome *__restrict__ genome,
			float *hist, uint64_t nbuckets) {
	extern __shared__ float acc[];
	__shared__ float4 pal[256];
	__shared__ uint64_t run_end;
	float *r = acc, *g = acc + TILE, *b = acc + 2 * TILE;
	uint32_t *cnt = reinterpret_cast<uint32_t *>(acc + 3 * TILE);
	for (uint32_t i = threadIdx.x; i < 256; i += blockDim.x)
		pal[i] = make_float4(truncf(genome->palette[i][0]), truncf(genome->palette[i][1]), truncf(genome->palette[i][2]), 0.f); // as plot's
	for (uint64_t chunk = (uint64_t)blockIdx.x * ACC_CHUNK; chunk < total; chunk += (uint64_t)gridDim.x * ACC_CHUNK) {
		const uint64_t end = min(chunk + ACC_CHUNK, total);
		for (uint64_t begin = chunk; begin < end;) {
			for (uint32_t i = threadIdx.x; i < 4 * TILE; i += blockDim.x) acc[i] = 0.f;
			if (threadIdx.x == 0) run_end = end;
			__syncthreads();
			const uint32_t tile = tile_of(sorted[begin]);
			for (uint64_t k = begin + threadIdx.x; k < end; k += blockDim.x) {
				const uint32_t e = sorted[k];
				if (tile_of(e) != tile) { // sorted by tile: the run ends before k
					atomicMin(reinterpret_cast<unsigned long long *>(&run_end), (unsigned long long)k);
					break;
				}
				const uint32_t local = (e >> 8) & (TILE - 1);
				const float4 c = pal[e & 255];
				atomicAdd(&r[local], c.x);
				atomicAdd(&g[local], c.y);
				atomicAdd(&b[local], c.z);
				atomicAdd(&cnt[local], 1u);
			}
			__syncthreads();
			for (uint32_t local = threadIdx.x; local < TILE; local += blockDim.x) {
				const uint64_t bi = (uint64_t)tile * TILE + local;
				if (bi >= nbuckets || cnt[local] == 0) continue;
				pg_red_add4(hist + 4 * bi, r[local], g[local], b[local], 255.f * (float)cnt[local]);
			}
			begin = run_end;
			__syncthreads();
		}
	}
}
