// The chaos game with points that carry z and the 3D camera
// (flame_iterate3d.cuh), with flam3's and the ported plugin variations and
// the 3D ones (flame_variations_3d.cuh): internal/flame launches this
// family's pg_flame_iterate for genomes whose points leave the plane
// (gpuCarriesZ), and the flame or flame_plugins family's for the rest.
#define PG_FLAME_PLUGINS 1
#include "common.cuh"
#include "flame_types.cuh"
#include "flame_iterate3d.cuh"

// pg_flame_iterate: flame_iterate3 (its arguments are flame.cu's).
extern "C" __global__ void __launch_bounds__(ITER_THREADS, ITER_MIN_BLOCKS)
pg_flame_iterate(const FlameGenome *__restrict__ genome, const FlameXform *__restrict__ xforms, float *hist,
		 unsigned *hits, uint64_t seed, uint64_t chain_base, uint32_t nchains, uint32_t samples,
		 unsigned long long *bad_total, uint32_t *log) {
	flame_iterate3(genome, xforms, hist, hits, seed, chain_base, nchains, samples, bad_total, log);
}
