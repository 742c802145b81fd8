//go:build cuda

package flame

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/gpu/gputest"
)

func cudaRenderer(t testing.TB) CUDA {
	t.Helper()
	// Tests and benchmarks run the fastest code the device has: compile the
	// vector-reduction kernels if the cache lacks them.
	return CUDA{Dev: gputest.Device(t, func(d *gpu.Device) error { return d.SetJIT(gpu.JITAlways, "") })}
}

func loadTestGenome(t testing.TB, name string) *Genome {
	gs, _, err := ParseFile("../../testdata/flame/"+name+".flam3", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return gs[0]
}

// TestCUDAMatchesCPU: with different random streams the two backends cannot
// agree pixel for pixel, so the GPU image must be as close to the CPU image
// as two CPU images of different seeds are to each other.
func TestCUDAMatchesCPU(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sched Schedule
		acc   Accumulation
	}{{"simple", ScheduleWarp, AccumDeferred}, {"heavy", ScheduleWarp, AccumDeferred},
		{"simple", ScheduleThread, AccumDeferred}, {"simple", ScheduleWarp, AccumAtomic},
		{"heavy", ScheduleThread, AccumAtomic}} {
		name := tc.name
		r := cudaRenderer(t)
		r.Schedule, r.Accumulate = tc.sched, tc.acc
		t.Run(fmt.Sprintf("%s/schedule=%d/accumulate=%d", name, tc.sched, tc.acc), func(t *testing.T) {
			g := loadTestGenome(t, name)
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
			o.Seed = 3
			gp, st, err := r.Render(context.Background(), g, o)
			if err != nil {
				t.Fatal(err)
			}
			noise := refMAD(cpu1.NRGBA(), cpu2.NRGBA())
			got := refMAD(gp.NRGBA(), cpu1.NRGBA())
			t.Logf("%s: MAD(gpu, cpu) %.3f, MAD(cpu seed 1, cpu seed 2) %.3f, device bytes %d", name, got, noise, st.DeviceBytes)
			if got > 1.5*noise+0.5 {
				t.Fatalf("GPU differs from CPU by %.3f, more than the CPU's own seed noise %.3f allows", got, noise)
			}
		})
	}
}

// TestFidelityCUDA renders all 53 corpus genomes on the GPU against flam3.
// PROCGEN_SCHEDULE=thread or warp forces a schedule; PROCGEN_ACCUMULATE=deferred
// forces deferred writeback where the genome allows it.
func TestFidelityCUDA(t *testing.T) {
	r := cudaRenderer(t)
	switch os.Getenv("PROCGEN_SCHEDULE") {
	case "thread":
		r.Schedule = ScheduleThread
	case "warp":
		r.Schedule = ScheduleWarp
	}
	if os.Getenv("PROCGEN_ACCUMULATE") == "deferred" {
		r.Accumulate = AccumDeferred
	}
	runFidelity(t, r, 1)
}

// TestCUDAKernelLoad reports how long loading the flame kernels takes and
// which variant loads: the vector-reduction PTX is JIT-compiled the first
// time (the driver caches it), the fatbin is not.
func TestCUDAKernelLoad(t *testing.T) {
	cudaRenderer(t)    // skips without a device
	dir := t.TempDir() // a cold cache: the first load compiles
	for _, p := range []gpu.JITPolicy{gpu.JITAlways, gpu.JITCached, gpu.JITNever} {
		d, err := gpu.Open(0)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.SetJIT(p, dir); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := flameIterate.Load(d); err != nil {
			t.Fatal(err)
		}
		t.Logf("flame kernels: %s loaded in %.3f s", d.KernelVariant("flame"), time.Since(start).Seconds())
		if p != gpu.JITNever && d.Info().Major >= 9 && !strings.Contains(d.KernelVariant("flame"), "vector") {
			t.Errorf("sm_%d%d device did not load the vector-reduction kernels: %s", d.Info().Major, d.Info().Minor,
				d.KernelVariant("flame"))
		}
		d.Close()
	}
}

// TestCUDALargeFrames: the sizes the issue requires to fit on the device.
func TestCUDALargeFrames(t *testing.T) {
	r := cudaRenderer(t)
	g := loadTestGenome(t, "simple")
	for _, tc := range []struct{ w, h, ss int }{{1920, 1080, 4}, {7680, 4320, 1}} {
		f, st, err := r.Render(context.Background(), g, Options{Width: tc.w, Height: tc.h, Supersample: tc.ss, Quality: 10})
		if err != nil {
			t.Fatalf("%dx%d ss%d: %v", tc.w, tc.h, tc.ss, err)
		}
		t.Logf("%dx%d supersample %d: %d buckets, %.2f GiB of device memory", f.Width, f.Height, tc.ss, st.Buckets,
			float64(st.DeviceBytes)/(1<<30))
	}
}

func benchCUDA(b *testing.B, name string, o Options, sched Schedule, acc Accumulation) {
	benchCUDAWith(b, name, o, sched, acc, true)
}

// benchCUDAWith also chooses between the vector-reduction kernels (the
// default where they run) and the fatbin's scalar atomics.
func benchCUDAWith(b *testing.B, name string, o Options, sched Schedule, acc Accumulation, vectorRed bool) {
	r := cudaRenderer(b)
	policy := gpu.JITAlways
	if !vectorRed {
		policy = gpu.JITNever
	}
	if err := r.Dev.SetJIT(policy, ""); err != nil {
		b.Fatal(err)
	}
	defer r.Dev.SetJIT(gpu.JITAlways, "")
	r.Schedule = sched
	r.Accumulate = acc
	g := loadTestGenome(b, name)
	if _, _, err := r.Render(context.Background(), g, o); err != nil { // warm-up: module load
		b.Fatal(err)
	}
	var samples int64
	var iterate float64
	start := time.Now()
	for i := 0; i < b.N; i++ {
		_, st, err := r.Render(context.Background(), g, o)
		if err != nil {
			b.Fatal(err)
		}
		samples += st.Samples
		iterate += st.IterateSeconds
	}
	sec := time.Since(start).Seconds()
	b.ReportMetric(float64(samples)/iterate/1e9, "iterate-Gsamples/s")
	b.ReportMetric(sec/float64(b.N)*1e3, "ms/render")
}

// BenchmarkCUDAFrame is the end-to-end figure: an 800x592 frame at
// quality 2000 and supersample 4 (947 million samples), genome to image.
// The genomes are 800x592 at supersample 4; quality 2000 makes the frame.
var frame = Options{Quality: 2000}

func BenchmarkCUDAFrameSimple(b *testing.B) { benchCUDA(b, "simple", frame, ScheduleAuto, AccumAuto) }
func BenchmarkCUDAFrameHeavy(b *testing.B)  { benchCUDA(b, "heavy", frame, ScheduleAuto, AccumAuto) }
func BenchmarkCUDAFrameSimpleScalarAtomics(b *testing.B) {
	benchCUDAWith(b, "simple", frame, ScheduleAuto, AccumAuto, false)
}
func BenchmarkCUDAFrameHeavyScalarAtomics(b *testing.B) {
	benchCUDAWith(b, "heavy", frame, ScheduleAuto, AccumAuto, false)
}
func BenchmarkCUDAFrameSimpleDeferred(b *testing.B) {
	benchCUDA(b, "simple", frame, ScheduleAuto, AccumDeferred)
}
func BenchmarkCUDAFrameHeavyDeferred(b *testing.B) {
	benchCUDA(b, "heavy", frame, ScheduleAuto, AccumDeferred)
}
func BenchmarkCUDAFrameSimpleThread(b *testing.B) {
	benchCUDA(b, "simple", frame, ScheduleThread, AccumAuto)
}
func BenchmarkCUDAFrameHeavyThread(b *testing.B) {
	benchCUDA(b, "heavy", frame, ScheduleThread, AccumAuto)
}
func BenchmarkCUDAFrameSimpleWarp(b *testing.B) {
	benchCUDA(b, "simple", frame, ScheduleWarp, AccumAuto)
}

// BenchmarkCUDAStages breaks the frame render into device stages (each
// stage synchronized, so the total is a little above the real render).
func BenchmarkCUDAStages(b *testing.B) {
	for _, tc := range []struct {
		name string
		acc  Accumulation
	}{{"simple", AccumDeferred}, {"simple", AccumAtomic}, {"heavy", AccumDeferred}, {"heavy", AccumAtomic}} {
		b.Run(fmt.Sprintf("%s/accumulate=%d", tc.name, tc.acc), func(b *testing.B) {
			r := cudaRenderer(b)
			r.Accumulate = tc.acc
			g := loadTestGenome(b, tc.name)
			r.Stages = map[string]time.Duration{}
			for i := 0; i < b.N; i++ {
				if _, _, err := r.Render(context.Background(), g, frame); err != nil {
					b.Fatal(err)
				}
			}
			for name, d := range r.Stages {
				b.ReportMetric(d.Seconds()*1e3/float64(b.N), name+"-ms")
			}
		})
	}
}
