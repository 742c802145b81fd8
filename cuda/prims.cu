// Device primitives shared by the jobs: exclusive scan of 32-bit integers,
// stable stream compaction, and reductions.
//
// Scan and compaction are one single-pass kernel with decoupled look-back
// (Merrill & Garland, 2016): each block takes the next tile from an atomic
// counter (so every tile it waits on has already started: no deadlock), scans
// it locally, publishes its aggregate, then looks back over its predecessors'
// published values to learn its prefix. Memory traffic is one read and one
// write per element, the same as a copy, which is the point: a three-pass
// reduce-then-scan reads the input twice.
#include "common.cuh"

#define SCAN_THREADS 256
#define SCAN_ITEMS 16
#define SCAN_TILE (SCAN_THREADS * SCAN_ITEMS)
#define SCAN_WARPS (SCAN_THREADS / 32)

// Tile status words: flag in the high 32 bits, value in the low 32 bits, so a
// single 64-bit store publishes both and no reader sees one without the other.
#define STATUS_INVALID 0ull
#define STATUS_AGGREGATE 1ull
#define STATUS_PREFIX 2ull

// Shared-memory index with one pad word per 32, so both the warp-striped
// loads/stores and each thread's run of SCAN_ITEMS consecutive reads are free
// of bank conflicts.
__device__ __forceinline__ unsigned pad(unsigned e) { return e + (e >> 5); }

__device__ __forceinline__ void publish(unsigned long long *status, uint32_t tile, unsigned long long flag,
					uint32_t value) {
	atomicExch(&status[tile], (flag << 32) | value);
}

// Exclusive prefix of tile `tile` from its predecessors, computed by warp 0.
// Lanes read a window of 32 predecessors (lane 0 the nearest); the window
// slides back until it holds an inclusive prefix.
__device__ uint32_t look_back(unsigned long long *status, uint32_t tile) {
	const unsigned lane = threadIdx.x & 31;
	uint32_t exclusive = 0;
	long long window = (long long)tile - 1;
	for (;;) {
		long long idx = window - (long long)lane;
		unsigned long long s;
		for (;;) {
			s = idx >= 0 ? *(volatile unsigned long long *)&status[idx] : (STATUS_PREFIX << 32);
			if (__all_sync(PG_FULL_MASK, (s >> 32) != STATUS_INVALID)) break;
		}
		const uint32_t value = (uint32_t)s;
		const unsigned prefix_lanes = __ballot_sync(PG_FULL_MASK, (s >> 32) == STATUS_PREFIX);
		if (prefix_lanes) {
			// Sum the lanes up to and including the nearest inclusive prefix.
			const unsigned first = __ffs(prefix_lanes) - 1;
			uint32_t v = lane <= first ? value : 0;
#pragma unroll
			for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(PG_FULL_MASK, v, o);
			return exclusive + v;
		}
		uint32_t v = value;
#pragma unroll
		for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(PG_FULL_MASK, v, o);
		exclusive += v;
		window -= 32;
	}
}

// scan_tile is the body of both kernels. COMPACT: the input is a flag array,
// each element counts 1 when non-zero, and kept elements (values[i], or i when
// values is null) are written to out[prefix]; otherwise out[i] = prefix.
// `state` holds the tile counter at [0] and tile statuses from [1], zeroed
// before the launch. `total` receives the sum of all elements.
template <bool COMPACT>
__device__ void scan_tile(const uint32_t *__restrict__ in, const uint32_t *__restrict__ values,
			  uint32_t *__restrict__ out, uint64_t n, unsigned long long *state, uint32_t *total) {
	__shared__ uint32_t buf[SCAN_TILE + SCAN_TILE / 32];
	__shared__ uint32_t warp_prefix[SCAN_WARPS];
	__shared__ uint32_t s_tile, s_prefix;
	const unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
	unsigned long long *status = state + 1;

	if (t == 0) s_tile = (uint32_t)atomicAdd(&state[0], 1ull);
	__syncthreads();
	const uint32_t tile = s_tile;
	const uint64_t base = (uint64_t)tile * SCAN_TILE;
	const bool full = n - base >= SCAN_TILE;

	// Warp-striped, coalesced loads into shared memory.
#pragma unroll
	for (int j = 0; j < SCAN_ITEMS; j++) {
		const unsigned e = j * SCAN_THREADS + t;
		uint32_t v = (full || base + e < n) ? in[base + e] : 0;
		if (COMPACT) v = v != 0;
		buf[pad(e)] = v;
	}
	__syncthreads();

	// Each thread scans its own SCAN_ITEMS consecutive elements.
	uint32_t items[SCAN_ITEMS];
	uint32_t sum = 0;
#pragma unroll
	for (int i = 0; i < SCAN_ITEMS; i++) {
		items[i] = buf[pad(t * SCAN_ITEMS + i)];
		sum += items[i];
	}
	const uint32_t incl = pg_warp_inclusive_scan(sum);
	if (lane == 31) warp_prefix[warp] = incl;
	__syncthreads();

	if (warp == 0) {
		const uint32_t w = lane < SCAN_WARPS ? warp_prefix[lane] : 0;
		const uint32_t w_incl = pg_warp_inclusive_scan(w);
		const uint32_t aggregate = __shfl_sync(PG_FULL_MASK, w_incl, SCAN_WARPS - 1);
		if (lane < SCAN_WARPS) warp_prefix[lane] = w_incl - w;
		uint32_t prefix = 0;
		if (tile == 0) {
			if (lane == 0) publish(status, 0, STATUS_PREFIX, aggregate);
		} else {
			if (lane == 0) publish(status, tile, STATUS_AGGREGATE, aggregate);
			prefix = look_back(status, tile);
			if (lane == 0) publish(status, tile, STATUS_PREFIX, prefix + aggregate);
		}
		if (lane == 0) {
			s_prefix = prefix;
			if (base + SCAN_TILE >= n) *total = prefix + aggregate;
		}
	}
	__syncthreads();

	// Local exclusive offsets back into shared memory (as offset<<1 | kept
	// for compaction: a tile's offsets fit in 13 bits), then warp-striped,
	// coalesced writes.
	uint32_t local = warp_prefix[warp] + incl - sum;
#pragma unroll
	for (int i = 0; i < SCAN_ITEMS; i++) {
		buf[pad(t * SCAN_ITEMS + i)] = COMPACT ? (local << 1 | items[i]) : local;
		local += items[i];
	}
	__syncthreads();
	const uint32_t prefix = s_prefix;
#pragma unroll
	for (int j = 0; j < SCAN_ITEMS; j++) {
		const unsigned e = j * SCAN_THREADS + t;
		if (!full && base + e >= n) break;
		const uint32_t v = buf[pad(e)];
		if (COMPACT) {
			if (v & 1) out[prefix + (v >> 1)] = values ? values[base + e] : (uint32_t)(base + e);
		} else {
			out[base + e] = prefix + v;
		}
	}
}

extern "C" __global__ void __launch_bounds__(SCAN_THREADS)
pg_scan_exclusive_u32(const uint32_t *in, uint32_t *out, uint64_t n, unsigned long long *state, uint32_t *total) {
	scan_tile<false>(in, nullptr, out, n, state, total);
}

extern "C" __global__ void __launch_bounds__(SCAN_THREADS)
pg_compact_u32(const uint32_t *flags, const uint32_t *values, uint32_t *out, uint64_t n, unsigned long long *state,
	       uint32_t *count) {
	scan_tile<true>(flags, values, out, n, state, count);
}

// ---- Reductions ----------------------------------------------------------
// Two passes so the result is deterministic for a given grid: each block
// reduces a grid-stride slice to partials[block], then one block reduces the
// partials in order. Sums of int32 accumulate in int64, of float32 in double.

#define REDUCE_THREADS 256

struct SumI32 {
	typedef int32_t In;
	typedef long long Acc;
	static __device__ Acc identity() { return 0; }
	static __device__ Acc lift(In v) { return v; }
	static __device__ Acc combine(Acc a, Acc b) { return a + b; }
};
struct MaxI32 {
	typedef int32_t In;
	typedef long long Acc;
	static __device__ Acc identity() { return (long long)INT32_MIN; }
	static __device__ Acc lift(In v) { return v; }
	static __device__ Acc combine(Acc a, Acc b) { return a > b ? a : b; }
};
struct SumF32 {
	typedef float In;
	typedef double Acc;
	static __device__ Acc identity() { return 0.0; }
	static __device__ Acc lift(In v) { return v; }
	static __device__ Acc combine(Acc a, Acc b) { return a + b; }
};
// Max ignores NaN (fmax semantics), matching the CPU twin.
struct MaxF32 {
	typedef float In;
	typedef double Acc;
	static __device__ Acc identity() { return -__longlong_as_double(0x7ff0000000000000ll); }
	static __device__ Acc lift(In v) { return v; }
	static __device__ Acc combine(Acc a, Acc b) { return fmax(a, b); }
};

template <class Op>
__device__ typename Op::Acc block_reduce(typename Op::Acc v) {
	__shared__ typename Op::Acc warp_acc[REDUCE_THREADS / 32];
	const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
	for (int o = 16; o > 0; o >>= 1) v = Op::combine(v, __shfl_xor_sync(PG_FULL_MASK, v, o));
	if (lane == 0) warp_acc[warp] = v;
	__syncthreads();
	v = Op::identity();
	if (warp == 0) {
		if (lane < REDUCE_THREADS / 32) v = warp_acc[lane];
#pragma unroll
		for (int o = 16; o > 0; o >>= 1) v = Op::combine(v, __shfl_xor_sync(PG_FULL_MASK, v, o));
	}
	return v;
}

template <class Op>
__device__ void reduce_partial(const typename Op::In *__restrict__ in, uint64_t n, typename Op::Acc *partials) {
	typename Op::Acc acc = Op::identity();
	const uint64_t stride = (uint64_t)gridDim.x * REDUCE_THREADS;
	// Four values per load: cuMemAlloc returns 256-byte aligned memory and
	// callers pass whole buffers, so in is 16-byte aligned.
	const uint64_t n4 = n / 4;
	const int4 *in4 = reinterpret_cast<const int4 *>(in);
	for (uint64_t i = (uint64_t)blockIdx.x * REDUCE_THREADS + threadIdx.x; i < n4; i += stride) {
		int4 q = __ldg(&in4[i]);
		typename Op::In a, b, c, d;
		memcpy(&a, &q.x, 4);
		memcpy(&b, &q.y, 4);
		memcpy(&c, &q.z, 4);
		memcpy(&d, &q.w, 4);
		acc = Op::combine(acc, Op::combine(Op::combine(Op::lift(a), Op::lift(b)), Op::combine(Op::lift(c), Op::lift(d))));
	}
	for (uint64_t i = n4 * 4 + (uint64_t)blockIdx.x * REDUCE_THREADS + threadIdx.x; i < n; i += stride)
		acc = Op::combine(acc, Op::lift(in[i]));
	acc = block_reduce<Op>(acc);
	if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

template <class Op>
__device__ void reduce_final(const typename Op::Acc *partials, uint32_t count, typename Op::Acc *result) {
	typename Op::Acc acc = Op::identity();
	for (uint32_t i = threadIdx.x; i < count; i += REDUCE_THREADS) acc = Op::combine(acc, partials[i]);
	acc = block_reduce<Op>(acc);
	if (threadIdx.x == 0) *result = acc;
}

#define REDUCE_KERNELS(name, Op)                                                                            \
	extern "C" __global__ void __launch_bounds__(REDUCE_THREADS)                                         \
	    pg_reduce_##name##_partial(const Op::In *in, uint64_t n, Op::Acc *partials) {                     \
		reduce_partial<Op>(in, n, partials);                                                         \
	}                                                                                                    \
	extern "C" __global__ void __launch_bounds__(REDUCE_THREADS)                                         \
	    pg_reduce_##name##_final(const Op::Acc *partials, uint32_t count, Op::Acc *result) {              \
		reduce_final<Op>(partials, count, result);                                                   \
	}

REDUCE_KERNELS(sum_i32, SumI32)
REDUCE_KERNELS(max_i32, MaxI32)
REDUCE_KERNELS(sum_f32, SumF32)
REDUCE_KERNELS(max_f32, MaxF32)
