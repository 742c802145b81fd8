//go:build cuda

package flame

import (
	"context"
	"fmt"
	"image"
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
		if n > 1 && lit(cpu.NRGBA()) < 0.02 {
			t.Fatalf("%d xforms: the CPU image is nearly empty: the comparison tests little", n)
		}
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
		if n > 1 { // one of simple's maps alone draws a point
			t.Run(fmt.Sprintf("frame/%d", n), func(t *testing.T) { checkFrameAgainstCPU(t, &g, Options{Quality: 50}) })
		}
	}
}

// checkFrameAgainstCPU renders g as a one-sample animation frame on the GPU
// (the frame path: cuda_frame.go) and twice on the CPU, and fails when the
// GPU frame is further from the CPU's than the CPU's two seeds are from
// each other, or when the CPU's frame is nearly empty.
func checkFrameAgainstCPU(t *testing.T, g *Genome, o Options) {
	t.Helper()
	render := func(r FrameRenderer, seed uint64) *image.NRGBA {
		t.Helper()
		o.Seed = seed
		f, _, err := r.RenderFrame(context.Background(), Still(g), o)
		if err != nil {
			t.Fatal(err)
		}
		return f.NRGBA()
	}
	cpu1, cpu2 := render(CPU{}, 1), render(CPU{}, 2)
	if lit(cpu1) < 0.02 {
		t.Fatal("the CPU frame is nearly empty: the comparison tests little")
	}
	noise := refMAD(cpu1, cpu2)
	if got := refMAD(render(cudaFrameRenderer(t), 3), cpu1); got > 1.5*noise+0.5 {
		t.Fatalf("GPU frame differs from CPU by %.3f, the CPU's seed noise is %.3f", got, noise)
	}
}

// lit is the share of img's pixels brighter than near-black.
func lit(img *image.NRGBA) float64 {
	n := 0
	for i := 0; i < len(img.Pix); i += 4 {
		if int(img.Pix[i])+int(img.Pix[i+1])+int(img.Pix[i+2]) > 30 {
			n++
		}
	}
	return float64(n) / float64(len(img.Pix)/4)
}
