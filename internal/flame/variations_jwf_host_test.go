//go:build cuda

package flame

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/hosttwin"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwfHostShim compiles the plugin variations' device code
// (flame_variations.cuh with PG_FLAME_PLUGINS, so every
// flame_variations_jwf*.cuh) as host C++: the CUDA qualifiers empty, the
// intrinsics they use as their plain arithmetic, the warp and atomic
// functions of common.cuh (which the variations do not call) as stubs. It
// reads "C <n> <device id> <weight> ... <6 coefs> <NUM_PARAMS params>" to
// start a case and "P <x> <y> <stream state>" per point (float and uint64
// bits in hex), and writes what the pg_flame_vartest kernel writes for the
// point (the affine, then pg_flame_apply_vars), as float bits.
const jwfHostShim = `#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdlib>
struct float2 { float x, y; };
struct float4 { float x, y, z, w; };
static inline float2 make_float2(float x, float y) { return float2{x, y}; }
#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __noinline__
#define __restrict__
#define __fmul_rn(a, b) ((a) * (b))
#define __dmul_rn(a, b) ((a) * (b))
#define __fdividef(a, b) ((a) / (b))
#define __fsub_rn(a, b) ((a) - (b))
#define __fadd_rn(a, b) ((a) + (b))
static inline float rsqrtf(float v) { return 1.f / sqrtf(v); }
struct Dim3 { unsigned x, y, z; };
static Dim3 threadIdx, blockIdx, blockDim;
template <class T> static T atomicAdd(T *p, T v) { T o = *p; *p += v; return o; }
template <class T> static T __shfl_up_sync(unsigned, T v, int) { return v; }
template <class T> static T __shfl_down_sync(unsigned, T v, int) { return v; }
template <class T> static T __shfl_sync(unsigned, T v, int) { return v; }
template <class T> static T __shfl_xor_sync(unsigned, T v, int) { return v; }
static unsigned __ballot_sync(unsigned, int p) { return p; }
static int __popc(unsigned v) { return __builtin_popcount(v); }
static void __syncwarp(unsigned = 0) {}
static void __syncthreads() {}
#define __saturatef(a) fminf(fmaxf((a), 0.f), 1.f)
#define PG_FLAME_PLUGINS 1
#include "common.cuh"
#include "flame_ids.cuh"
#include "flame_variations.cuh"
static float fbits(const char *s) { uint32_t u = (uint32_t)strtoul(s, nullptr, 16); float f; memcpy(&f, &u, 4); return f; }
static uint32_t bitsf(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
int main() {
	static char line[1 << 16];
	float params[NUM_PARAMS] = {0}, weights[32] = {0}, coefs[6] = {0};
	uint16_t ids[32] = {0};
	int n = 0;
	while (fgets(line, sizeof line, stdin)) {
		char *tok = strtok(line, " \n");
		if (!tok) continue;
		if (tok[0] == 'C') {
			n = atoi(strtok(nullptr, " \n"));
			for (int i = 0; i < n; i++) {
				ids[i] = (uint16_t)atoi(strtok(nullptr, " \n"));
				weights[i] = fbits(strtok(nullptr, " \n"));
			}
			for (int i = 0; i < 6; i++) coefs[i] = fbits(strtok(nullptr, " \n"));
			for (int i = 0; i < NUM_PARAMS; i++) params[i] = fbits(strtok(nullptr, " \n"));
			continue;
		}
		const float x = fbits(strtok(nullptr, " \n")), y = fbits(strtok(nullptr, " \n"));
		PgRng rng;
		rng.state = strtoull(strtok(nullptr, " \n"), nullptr, 16);
		const float tx = coefs[0] * x + coefs[2] * y + coefs[4], ty = coefs[1] * x + coefs[3] * y + coefs[5];
		const float2 o = pg_flame_apply_vars(ids, weights, n, pg_flame_pre_blur(ids, weights, n), tx, ty, coefs, params, rng);
		printf("%x %x\n", bitsf(o.x), bitsf(o.y));
	}
	return 0;
}
`

// TestPluginVariationsHostTwin runs TestCUDAPluginVariationsMatchCPU's
// cases (vtPluginCases: every ported plugin variation alone at its
// defaults, at random parameters and at the branches those miss) and its
// mixed twin's (vtPluginMixedCases: each with two random partners, flam3's
// or ported) through the device code compiled for the host, against the
// CPU, under the same tolerance: a check of the kernels' formulas, draws and
// parameter slab that needs no GPU (the host's float functions are not
// the device's, so it is no check of the device's rounding: the GPU test
// is).
func TestPluginVariationsHostTwin(t *testing.T) {
	bin := hosttwin.Build(t, jwfHostShim, "-w")
	var cases []vtCase
	var in bytes.Buffer
	for _, c := range append(vtPluginCases(), vtPluginMixedCases()...) {
		x := c.x
		Precalc(&x)
		fmt.Fprintf(&in, "C %d", len(x.Vars))
		for _, v := range x.Vars {
			if !gpuHasVar(v.ID) {
				t.Fatalf("%s: the kernels lack %s", c.name, VarNames[v.ID])
			}
			fmt.Fprintf(&in, " %d %x", v.ID, math.Float32bits(float32(v.Weight)))
		}
		for _, v := range x.Coefs {
			fmt.Fprintf(&in, " %x", math.Float32bits(float32(v)))
		}
		for _, v := range gpuParams(&x) {
			fmt.Fprintf(&in, " %x", math.Float32bits(v))
		}
		in.WriteByte('\n')
		for i := range len(c.in) / 2 {
			fmt.Fprintf(&in, "P %x %x %x\n", math.Float32bits(c.in[2*i]), math.Float32bits(c.in[2*i+1]),
				rng.Hash64(c.seed, uint64(i)))
		}
		cases = append(cases, c)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run the host twin: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	next := func() (float64, float64) {
		if !sc.Scan() {
			t.Fatal("the host twin answered fewer points than it was given")
		}
		f := strings.Fields(sc.Text())
		a, err1 := strconv.ParseUint(f[0], 16, 32)
		b, err2 := strconv.ParseUint(f[1], 16, 32)
		if len(f) != 2 || err1 != nil || err2 != nil {
			t.Fatalf("host twin line %q", sc.Text())
		}
		return float64(math.Float32frombits(uint32(a))), float64(math.Float32frombits(uint32(b)))
	}
	for _, c := range cases {
		x := c.x
		Precalc(&x)
		compared, miss, worst := 0, 0, ""
		for i := range len(c.in) / 2 {
			gx, gy := next()
			s := rng.NewStream(rng.Hash64(c.seed, uint64(i)))
			cx, cy, ok := ApplyXform(&x, float64(c.in[2*i]), float64(c.in[2*i+1]), &s)
			if !ok {
				continue
			}
			compared++
			e := math.Max(math.Abs(gx-cx)/(1+math.Abs(cx)), math.Abs(gy-cy)/(1+math.Abs(cy)))
			if math.IsNaN(e) || e > vtTol {
				if miss++; worst == "" {
					worst = fmt.Sprintf("point (%g, %g): host twin (%g, %g), cpu (%g, %g)", c.in[2*i], c.in[2*i+1],
						gx, gy, cx, cy)
				}
			}
		}
		if compared > 0 && float64(miss) > vtMaxMiss*float64(compared) {
			t.Errorf("%s: %d of %d points differ, first %s", c.name, miss, compared, worst)
		} else if miss > 0 {
			t.Logf("%s: %d of %d points differ (within %g)", c.name, miss, compared, vtMaxMiss)
		}
	}
}
