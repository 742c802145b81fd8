//go:build cuda

package flame

import (
	"context"
	"fmt"
	"testing"
	"unsafe"
)

// TestCUDAXformCounts renders genomes of 1 to gpuMaxXforms xforms on the GPU,
// as stills in both schedules and as animation frames, against the CPU. The
// xform table lives in dynamic shared memory beside the kernel's own arrays
// (the warp schedule's swap buffers), so counts whose table fits in 48 KiB
// alone but not with those arrays need the opt-in as much as the largest do:
// electric sheep 243.17397 (21 xforms) and 243.15299 (24) failed to launch
// with CUDA_ERROR_INVALID_VALUE when only tables over 48 KiB asked for it.
func TestCUDAXformCounts(t *testing.T) {
	base := loadTestGenome(t, "simple")
	per := int(unsafe.Sizeof(gpuXform{}))
	lo := (48<<10 - 8<<10 - int(unsafe.Sizeof(gpuGenome{}))) / per // the first counts the swap buffers push over
	for _, n := range []int{1, lo, lo + 1, lo + 4, (48<<10-int(unsafe.Sizeof(gpuGenome{})))/per + 1, gpuMaxXforms} {
		g := *base
		g.Xforms = make([]Xform, n)
		for i := range g.Xforms {
			g.Xforms[i] = base.Xforms[i%len(base.Xforms)]
		}
		o := Options{Width: 96, Quality: 50, Seed: 1}
		cpu, _, err := CPU{}.Render(context.Background(), &g, o)
		if err != nil {
			t.Fatal(err)
		}
		o.Seed = 2
		cpu2, _, err := CPU{}.Render(context.Background(), &g, o)
		if err != nil {
			t.Fatal(err)
		}
		noise := refMAD(cpu.NRGBA(), cpu2.NRGBA())
		for _, sched := range []Schedule{ScheduleThread, ScheduleWarp} {
			t.Run(fmt.Sprintf("still/%d/schedule=%d", n, sched), func(t *testing.T) {
				r := cudaRenderer(t)
				r.Schedule = sched
				o.Seed = 3
				gp, _, err := r.Render(context.Background(), &g, o)
				if err != nil {
					t.Fatalf("%d xforms (%d bytes of shared memory): %v", n, int(unsafe.Sizeof(gpuGenome{}))+n*per, err)
				}
				if got := refMAD(gp.NRGBA(), cpu.NRGBA()); got > 1.5*noise+0.5 {
					t.Fatalf("GPU differs from CPU by %.3f, the CPU's seed noise is %.3f", got, noise)
				}
			})
		}
		t.Run(fmt.Sprintf("frame/%d", n), func(t *testing.T) {
			r := cudaFrameRenderer(t)
			fr, _, err := r.RenderFrame(context.Background(), Still(&g), Options{Width: 96, Quality: 50, Seed: 3})
			if err != nil {
				t.Fatalf("%d xforms: %v", n, err)
			}
			if got := refMAD(fr.NRGBA(), cpu.NRGBA()); got > 1.5*noise+0.5 {
				t.Fatalf("GPU frame differs from CPU by %.3f, the CPU's seed noise is %.3f", got, noise)
			}
		})
	}
}
