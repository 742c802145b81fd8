// Helpers shared by every kernel family.
#pragma once
#include <stdint.h>

#define PG_FULL_MASK 0xffffffffu

// pg_red_add4 adds four floats to p[0..3] (16-byte aligned) without reading
// the old values back. Built with PG_VECTOR_RED (the PTX-only variant that
// `make kernels` writes for drivers that JIT PTX ISA 8.1 on sm_90 and newer)
// it is one vector reduction, red.global.add.v4.f32, which the L2 executes as
// one operation instead of four: on the H100, 82 instead of 21 G samples/s
// when a histogram's hot buckets fit in L2, 17.8 instead of 10 when they do
// not (scripts/atomics-bench.cu). nvcc 11.8 cannot
// emit the instruction itself, hence inline PTX and the version bump.
__device__ __forceinline__ void pg_red_add4(float *p, float a, float b, float c, float d) {
#ifdef PG_VECTOR_RED
	asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(a), "f"(b), "f"(c), "f"(d)
		     : "memory");
#else
	atomicAdd(p + 0, a);
	atomicAdd(p + 1, b);
	atomicAdd(p + 2, c);
	atomicAdd(p + 3, d);
#endif
}

// Inclusive warp scan of v with shuffles.
__device__ __forceinline__ uint32_t pg_warp_inclusive_scan(uint32_t v) {
	const unsigned lane = threadIdx.x & 31;
#pragma unroll
	for (int o = 1; o < 32; o <<= 1) {
		uint32_t y = __shfl_up_sync(PG_FULL_MASK, v, o);
		if (lane >= (unsigned)o) v += y;
	}
	return v;
}

// Counter-based random numbers: a 64-bit mix of (seed, counter), so any
// thread can draw the n-th number of a stream without shared state, and the
// CPU backends can draw exactly the same one (splitmix64's finaliser).
__device__ __forceinline__ uint64_t pg_hash64(uint64_t seed, uint64_t counter) {
	uint64_t z = seed + (counter + 1) * 0x9E3779B97F4A7C15ull;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

// Sequential per-thread generator, the twin of rng.Stream in Go: draw i of a
// stream seeded with s equals pg_hash64(s, i).
struct PgRng {
	uint64_t state;
};
__device__ __forceinline__ uint64_t pg_rng_u64(PgRng &r) {
	r.state += 0x9E3779B97F4A7C15ull;
	uint64_t z = r.state;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}
__device__ __forceinline__ uint32_t pg_rng_u32(PgRng &r) { return (uint32_t)(pg_rng_u64(r) >> 32); }
// Uniform in [0, 1) with 24 bits, for float arithmetic.
__device__ __forceinline__ float pg_rng_unit(PgRng &r) { return (float)(pg_rng_u32(r) >> 8) * (1.0f / 16777216.0f); }
