//go:build cuda

package flame

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// TestSpecialSourceCompiles compiles the kernels of testdata's genomes with
// NVRTC (no GPU needed; skipped where NVRTC is not installed).
func TestSpecialSourceCompiles(t *testing.T) {
	if _, _, err := gpu.NVRTCVersion(); err != nil {
		t.Skip(err)
	}
	headers := specialHeaders()
	gg, xs := heavyInputs(t)
	for _, opts := range [][]string{{"--gpu-architecture=compute_80", "--std=c++17"},
		{"--gpu-architecture=compute_90", "--std=c++17", "-DPG_VECTOR_RED"}} {
		ptx, err := gpu.CompileToPTX("flame_special.cu", specialSource(xs, int(gg.NXforms)), headers, opts)
		if err != nil {
			t.Fatalf("%v: %v", opts, err)
		}
		if !strings.Contains(string(ptx), ".entry pg_flame_iterate(") {
			t.Fatalf("%v: no pg_flame_iterate in the PTX", opts)
		}
		if vred := strings.Contains(string(ptx), "red.global.add.v4.f32"); vred != (len(opts) == 3) {
			t.Errorf("%v: vector reductions %v", opts, vred)
		}
	}
}

// TestSpecialKernelMatchesBuiltin: a still iterated by the kernel compiled
// for its genome, with the built-in kernel's random streams, is the
// built-in kernel's image within the noise of another seed.
func TestSpecialKernelMatchesBuiltin(t *testing.T) {
	if _, _, err := gpu.NVRTCVersion(); err != nil {
		t.Skip(err)
	}
	r := cudaRenderer(t)
	defer func(n float64) { specialStillSamples = n }(specialStillSamples)
	for _, name := range []string{"heavy", "simple"} {
		for _, sched := range []Schedule{ScheduleWarp, ScheduleThread} {
			t.Run(fmt.Sprintf("%s/schedule=%d", name, sched), func(t *testing.T) {
				g := loadTestGenome(t, name)
				r.Schedule = sched
				render := func(seed uint64, builtin bool) *Frame {
					builtinOnly, specialStillSamples = builtin, 0
					defer func() { builtinOnly = false }()
					f, st, err := r.Render(context.Background(), g, Options{Width: 200, Quality: 500, Seed: seed})
					if err != nil {
						t.Fatal(err)
					}
					if special := strings.HasPrefix(st.Kernel, "compiled"); special == builtin {
						t.Fatalf("builtin %v: the render ran kernel %q", builtin, st.Kernel)
					}
					return f
				}
				b1, b2, s1 := render(1, true), render(2, true), render(1, false)
				noise, got := refMAD(b1.NRGBA(), b2.NRGBA()), refMAD(s1.NRGBA(), b1.NRGBA())
				t.Logf("MAD(compiled, built-in) %.4f, MAD(built-in seed 1, seed 2) %.3f", got, noise)
				if got > 1.5*noise+0.5 {
					t.Fatalf("the compiled kernel differs from the built-in by %.3f, more than seed noise %.3f allows", got, noise)
				}
			})
		}
	}
}

// TestSpecialKernelNoNVRTC: without NVRTC a render runs the built-in kernel
// and says why.
func TestSpecialKernelNoNVRTC(t *testing.T) {
	if _, _, err := gpu.NVRTCVersion(); err == nil || !errors.Is(err, gpu.ErrNoNVRTC) {
		t.Skip("NVRTC is installed")
	}
	r := cudaRenderer(t)
	defer func(n float64) { specialStillSamples = n }(specialStillSamples)
	specialStillSamples = 0
	_, st, err := r.Render(context.Background(), loadTestGenome(t, "simple"), Options{Width: 64, Quality: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(st.Kernel, "built-in (") {
		t.Fatalf("kernel %q", st.Kernel)
	}
}

func TestAtLeastPTX81(t *testing.T) {
	for in, want := range map[string]string{
		"//\n.version 7.8\n.target sm_90\n": "//\n.version 8.1\n.target sm_90\n",
		".version 8.1\n":                    ".version 8.1\n",
		".version 9.0\n":                    ".version 9.0\n",
		".version 8.0\n":                    ".version 8.1\n",
	} {
		if got := string(atLeastPTX81([]byte(in))); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}
