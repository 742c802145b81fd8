// Structures the flame renderer shares between Go (internal/flame/cuda_types.go,
// whose test checks sizes and offsets) and the kernels. Fixed-size fields only.
#pragma once
#include <stdint.h>
#include "flame_ids.cuh"

#define FLAME_MAX_XFORMS 64 // ordinary xforms; the final xform is stored after them
#define FLAME_MAX_VARS 32   // active variations per xform
#define LOG_NONE 0xffffffffu // deferred writeback: a log slot where no sample landed

// An xform with NP parameters. Go writes FlameXform, with every parameter
// slot (NUM_PARAMS, the plugin slab included). A block keeps its genome's
// xforms in shared memory as SmemXform: in the flame family, which runs
// flam3's variations only, without the plugin slab (PLUGIN_BASE slots: the
// fields before params are the same, so it is a prefix of FlameXform). The
// slab made that family's xform 1,044 bytes instead of 800 and its chaos
// game slower: 80 more bytes of stack in pg_flame_iterate (ptxas, sm_80 and
// sm_90) and fewer genomes' xforms per SM.
template <int NP> struct FlameXformOf {
	float coefs[6]; // a b c d e f: x' = a x + c y + e, y' = b x + d y + f
	float post[6];
	float color;
	float color_speed;
	float vis;     // adjusted opacity: what a sample deposits
	float opacity; // raw opacity: the final xform's chance of being applied
	int32_t nvars;
	int32_t has_post;
	int32_t linear_only; // every variation is linear: the xform is affine
	float linear_w;      // then this is their summed weight
	int32_t pre_blur;    // index in ids of the first non-zero pre_blur, -1 for none
	int32_t flatten;     // JWildfire's flatten: z is 0 after the variations (flame3d)
	// Fractorium's pre_/post_ stage terms (flame3d): `stages` of them follow
	// the nvars variations in ids and weights; bit k of stage_post marks
	// stage k post_, bit 31 an xform without regular variations (the point
	// passes through them).
	int32_t stages;
	uint32_t stage_post;
	float weights[FLAME_MAX_VARS];
	uint16_t ids[FLAME_MAX_VARS]; // variation ids: the CPU's VarIDs
	float params[NP];
};
typedef FlameXformOf<NUM_PARAMS> FlameXform;
#ifdef PG_FLAME_PLUGINS
typedef FlameXform SmemXform;
#else
typedef FlameXformOf<PLUGIN_BASE> SmemXform;
#endif

struct FlameGenome {
	int32_t nxforms;
	int32_t has_final;
	int32_t xaos;     // choose[row] differs per previous xform
	int32_t linear;   // palette mode linear
	int32_t fuse;
	int32_t bw, bh;   // histogram size in buckets
	int32_t rotate;
	int32_t alpha_hits; // every xform fully visible: hits = A/255, no hit counter needed
	int32_t warp_uniform; // choose one xform per warp per step and shuffle points (no xaos)
	// Launches over several genomes (motion blur, cuda_frame.go): this genome's
	// chains and samples per chain (0: the launch's), and the xforms per
	// genome in the xforms array.
	int32_t chains, chain_samples, xform_stride, pad0;
	// Points carry z (the flame3d family), and the 3D camera projects them
	// when cam is set (internal/flame's camera3d.go): cam_m[col * 3 + row].
	int32_t z3, cam, cam_jwf, cam_blurred;
	float cam_m[9];
	float cam_persp, cam_zpos, cam_blur;
	float cam_pos[3];
	float cam_pad;
	float rot_cos, rot_sin, cx, cy;
	float x0, y0, x1, y1; // camera bounds
	float sx, sy;         // buckets per unit
	// choose[row][j]: cumulative weight of xforms 0..j, normalised to 1, for
	// row 0 (no previous xform) and row i+1 (after xform i).
	float choose[FLAME_MAX_XFORMS + 1][FLAME_MAX_XFORMS];
	float palette[256][4]; // × 255
};

// Density estimation constants (flam3's de helper).
struct FlameDE {
	float k1, k2;
	int32_t bw, bh, ss;
	int32_t kernel_size, max_index;
	float max_filtered, curve;
	int32_t pad[3];
};

// Tone mapping constants (internal/flame/tonemap.go toneParams).
struct FlameTone {
	float gamma, linrange, vibrancy, highpow;
	float bg[3];
	int32_t transparent;
};
