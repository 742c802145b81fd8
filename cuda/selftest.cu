// Kernels that check the launch path itself: that 32- and 64-bit scalars and
// pointers arrive as the Go side packed them. Used by internal/gpu's tests and
// by `procgen devices --check` to prove a device really runs our code.
#include "common.cuh"

extern "C" __global__ void pg_selftest_args(int32_t a, int64_t b, float c, double d, uint32_t e,
					    unsigned long long *out) {
	if (blockIdx.x != 0 || threadIdx.x != 0) return;
	out[0] = (unsigned long long)(long long)a;
	out[1] = (unsigned long long)b;
	out[2] = (unsigned long long)__float_as_uint(c);
	out[3] = (unsigned long long)__double_as_longlong(d);
	out[4] = e;
}

// Fills out[i] = pg_hash64(seed, i) so the CPU twin of the counter-based
// generator can be checked bit for bit.
extern "C" __global__ void pg_selftest_hash(uint64_t seed, unsigned long long *out, uint64_t n) {
	uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) out[i] = pg_hash64(seed, i);
}
