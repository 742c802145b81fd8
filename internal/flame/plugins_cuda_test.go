//go:build cuda

package flame

import (
	"context"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// TestCUDAPluginsMatchCPU renders testdata/flame/plugins.flam3 (linear3D,
// zscale, flatten, hypertile2, bwraps7, julian2, sineblur, waves23,
// boarders2), plugins2.flam3 (synth, waves2b, nBlur, xheart, vibration2,
// starblur, waves3_wf, npolar, tile_hlp: the plugin slab holding two and
// three variations' parameters) and plugins3.flam3 (Mobius, gnarly, bwraps,
// cos2_bs, target, lazyTravis, maple_leaf, chrysanthemum, circlize2,
// eScale, acoth, glynnSim2, murl, checks; gnarly and lazyTravis by device
// ids, their CPU ids being past a byte) on both backends, with the built-in kernel
// (the flame_plugins family's) and with the one compiled for the genome:
// the GPU image must be as close to the CPU image as two CPU images of
// different seeds are, and must come from the GPU (CUDA.Render hands
// genomes the kernels lack to the CPU).
func TestCUDAPluginsMatchCPU(t *testing.T) {
	r := cudaRenderer(t)
	for _, genome := range []string{"plugins", "plugins2", "plugins3"} {
		t.Run(genome, func(t *testing.T) { cudaPluginsMatchCPU(t, r, loadTestGenome(t, genome)) })
	}
}

func cudaPluginsMatchCPU(t *testing.T, r CUDA, g *Genome) {
	o := Options{Width: 200, Quality: 500}
	o.Seed = 1
	cpu1, _, err := CPU{}.Render(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	o.Seed = 2
	cpu2, _, err := CPU{}.Render(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	noise := refMAD(cpu1.NRGBA(), cpu2.NRGBA())
	defer func(n float64) { specialStillSamples = n }(specialStillSamples)
	for _, builtin := range []bool{true, false} {
		name := map[bool]string{true: "built-in", false: "compiled"}[builtin]
		t.Run(name, func(t *testing.T) {
			if _, _, err := gpu.NVRTCVersion(); err != nil && !builtin {
				t.Skip(err)
			}
			builtinOnly, specialStillSamples = builtin, 0
			defer func() { builtinOnly = false }()
			o.Seed = 3
			gp, st, err := r.Render(context.Background(), g, o)
			if err != nil {
				t.Fatal(err)
			}
			if st.DeviceBytes == 0 || strings.HasPrefix(st.Kernel, "compiled") == builtin {
				t.Fatalf("device bytes %d, kernel %q: the render did not run the %s kernel", st.DeviceBytes, st.Kernel, name)
			}
			got := refMAD(gp.NRGBA(), cpu1.NRGBA())
			t.Logf("MAD(gpu, cpu) %.3f, MAD(cpu seed 1, cpu seed 2) %.3f", got, noise)
			if got > 1.5*noise+0.5 {
				t.Fatalf("GPU differs from CPU by %.3f, more than the CPU's own seed noise %.3f allows", got, noise)
			}
		})
	}
}

// TestSpecialSourceCompilesPlugins: the kernels compiled for plugins2's
// and plugins3's xforms (plugin ids with constant dispatch into
// flame_variations_jwf*.cuh, which PG_FLAME_PLUGINS brings in) compile with
// NVRTC; no device needed.
func TestSpecialSourceCompilesPlugins(t *testing.T) {
	if _, _, err := gpu.NVRTCVersion(); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct{ genome, names string }{{"plugins2", "synth"}, {"plugins3", "gnarly"}} {
		t.Run(c.genome, func(t *testing.T) { specialSourceCompiles(t, c.genome, c.names) })
	}
}

// specialSourceCompiles compiles the kernel for genome's xforms, whose
// source must name variation name.
func specialSourceCompiles(t *testing.T, genome, name string) {
	g := loadTestGenome(t, genome)
	p, err := newPlan(g, Options{Width: 64, Height: 64})
	if err != nil {
		t.Fatal(err)
	}
	gg, xs, err := p.gpuInputs(p.chaosGame(1))
	if err != nil {
		t.Fatal(err)
	}
	src := specialSource(xs, int(gg.NXforms))
	if !strings.Contains(src, name) || !strings.Contains(src, "PG_FLAME_PLUGINS") {
		t.Fatalf("the generated source names no plugin variation or lacks PG_FLAME_PLUGINS:\n%s", src)
	}
	ptx, err := gpu.CompileToPTX("flame_special.cu", src, specialHeaders(), []string{"--gpu-architecture=compute_90", "--std=c++17"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ptx), ".entry pg_flame_iterate(") {
		t.Fatal("no pg_flame_iterate in the PTX")
	}
}
