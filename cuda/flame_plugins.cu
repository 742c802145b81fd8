// The chaos game of flame.cu with JWildfire's plugin variations compiled in
// (PG_FLAME_PLUGINS; flame_variations_jwf*.cuh): internal/flame launches
// this family's pg_flame_iterate for genomes that use one of them, and
// flame.cu's, which lacks them, for flam3's genomes, whose kernel thus
// carries none of their register demand (flame_variations_rare.cuh).
#define PG_FLAME_PLUGINS 1
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
