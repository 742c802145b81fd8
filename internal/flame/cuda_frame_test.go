//go:build cuda

package flame

import (
	"context"
	"os"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// TestCUDAFrameMatchesCPU: a motion-blurred frame (8 gaussian-weighted
// temporal samples of a turning genome) on the GPU is as close to the CPU's
// as two CPU seeds are to each other, and a still frame on the GPU is as
// close to the GPU still renderer's image.
func TestCUDAFrameMatchesCPU(t *testing.T) {
	r := cudaRenderer(t)
	a := twoKeys(t)
	for _, k := range a.Keys {
		k.TemporalSamples, k.TemporalFilter, k.TemporalFilterWidth, k.Quality = 8, TemporalGaussian, 0.8, 400
	}
	fs, err := a.Frame(0.5)
	if err != nil {
		t.Fatal(err)
	}
	frameWithinCPUNoise(t, r, fs, "blurred frame")

	ctx := context.Background()
	g := &a.Keys[0].Genome
	still, _, err := r.Render(ctx, g, Options{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	frame, _, err := r.RenderFrame(ctx, Still(g), Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	c1, _, _ := CPU{}.Render(ctx, g, Options{Seed: 1})
	c2, _, _ := CPU{}.Render(ctx, g, Options{Seed: 2})
	noise := refMAD(c1.NRGBA(), c2.NRGBA())
	if got := refMAD(still.NRGBA(), frame.NRGBA()); got > 1.5*noise+0.5 {
		t.Fatalf("GPU still frame differs from GPU still render by %.3f (seed noise %.3f)", got, noise)
	}
}

// TestCUDAFrameBatches: a frame of 1100 temporal samples (three batched
// launches of up to 512 genomes, exp-weighted) on the GPU is as close to the
// CPU's frame as two CPU seeds are to each other.
func TestCUDAFrameBatches(t *testing.T) {
	r := cudaRenderer(t)
	a := twoKeys(t)
	for _, k := range a.Keys {
		k.TemporalSamples, k.TemporalFilter, k.TemporalFilterExp, k.TemporalFilterWidth, k.Quality = 1100, TemporalExp, 1.5, 1, 400
	}
	fs, err := a.Frame(0.3)
	if err != nil {
		t.Fatal(err)
	}
	frameWithinCPUNoise(t, r, fs, "frame of 1100 temporal samples")
}

// TestAnimFidelityCUDA renders every frame of the flam3 animation corpus on
// the GPU against flam3-animate (PROCGEN_ANIM_FIDELITY=blur also checks
// them against flam3's unblurred frames).
func TestAnimFidelityCUDA(t *testing.T) {
	mode := os.Getenv("PROCGEN_ANIM_FIDELITY")
	if mode == "" {
		mode = "all"
	}
	runAnimFidelity(t, cudaRenderer(t), mode)
}

// BenchmarkCUDAAnimFrame1080p: frames of the corpus edge at cuburn's 1080p
// profile (1920×1080, 2500 samples per pixel), 80 gaussian temporal
// samples; BenchmarkCUDAAnimStill1080p the same frames' centre genomes
// without motion blur (the still renderer's rate on the same work).
// Both keep device buffers between frames, as `flame animate` does;
// BenchmarkCUDAAnimFrame1080pNoReuse allocates them per frame.
func BenchmarkCUDAAnimFrame1080p(b *testing.B) {
	benchAnim(b, cudaFrameRenderer(b), 1920, 1080, 2500, false)
}

func BenchmarkCUDAAnimStill1080p(b *testing.B) {
	benchAnim(b, cudaFrameRenderer(b), 1920, 1080, 2500, true)
}

// BenchmarkCUDAAnimFrame1080pBox: the same frames with a box temporal filter:
// every temporal sample weighs 1, so hit counts come from alpha as in a
// still, where the gaussian filter needs flam3's separate unweighted count
// (a second atomic per sample).
func BenchmarkCUDAAnimFrame1080pBox(b *testing.B) {
	benchAnimFilter(b, cudaFrameRenderer(b), 1920, 1080, 2500, false, TemporalBox)
}

func BenchmarkCUDAAnimFrame1080pNoReuse(b *testing.B) {
	benchAnim(b, cudaRenderer(b), 1920, 1080, 2500, false)
}

// cudaFrameRenderer is cudaRenderer with the buffer cache NewFrameRenderer
// gives `flame animate`.
func cudaFrameRenderer(tb testing.TB) CUDA {
	r := cudaRenderer(tb)
	r.cache = newBufferCache()
	tb.Cleanup(func() { r.Close() })
	return r
}

// TestCUDAFrameBufferReuse: a renderer that keeps its device buffers renders
// frames of different sizes in turn (so buffers are both reused and left
// behind), and each frame is as close to a fresh-buffer render of the same
// seed as float atomics allow. With no room for stale buffers, after each
// frame the cache holds at most that frame's buffers; with room (the
// default), the 96-pixel frame's buffers are still kept after the
// 120-pixel frames come back.
func TestCUDAFrameBufferReuse(t *testing.T) {
	for _, limit := range []int64{0, staleBytes} {
		frameBufferReuse(t, limit)
	}
}

func frameBufferReuse(t *testing.T, limit int64) {
	fresh := cudaRenderer(t)
	kept := cudaFrameRenderer(t)
	kept.cache.limit = limit
	var idle120 int64
	a := twoKeys(t)
	ctx := context.Background()
	for i, w := range []int{120, 120, 96, 120, 120} {
		for _, k := range a.Keys {
			k.Width, k.Height, k.Quality = w, w*3/4, 50
		}
		fs, err := a.Frame(0.25 * float64(i))
		if err != nil {
			t.Fatal(err)
		}
		want, st, err := fresh.RenderFrame(ctx, fs, Options{Seed: 9})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := kept.RenderFrame(ctx, fs, Options{Seed: 9})
		if err != nil {
			t.Fatal(err)
		}
		if d := refMAD(got.NRGBA(), want.NRGBA()); d > 0.05 {
			t.Fatalf("frame %d (%d px wide): kept buffers give MAD %.4f to fresh ones", i, w, d)
		}
		switch {
		case limit == 0 && kept.cache.bytes > st.DeviceBytes:
			t.Fatalf("frame %d: the cache holds %d bytes, more than the frame's %d", i, kept.cache.bytes, st.DeviceBytes)
		case i == 1:
			idle120 = kept.cache.bytes
		case i == 3 && limit == 0 && kept.cache.bytes != idle120:
			t.Fatalf("frame 3: %d bytes idle, want the 120-pixel frames' %d alone", kept.cache.bytes, idle120)
		case i == 3 && limit > 0 && kept.cache.bytes <= idle120:
			t.Fatalf("frame 3: %d bytes idle, no more than the 120-pixel frames' %d: the 96-pixel frame's were freed",
				kept.cache.bytes, idle120)
		}
	}
	if err := kept.Close(); err != nil || kept.cache.bytes != 0 {
		t.Fatalf("Close: %v, %d bytes left", err, kept.cache.bytes)
	}
}

// frameWithinCPUNoise renders fs on the CPU with two seeds and on r with a
// third, and fails unless the GPU frame is as close to the CPU's as the two
// CPU seeds are to each other (MAD <= 1.5 x their MAD + 0.5).
func frameWithinCPUNoise(t *testing.T, r FrameRenderer, fs *FrameSpec, what string) {
	t.Helper()
	ctx := context.Background()
	cpu1, _, err := CPU{}.RenderFrame(ctx, fs, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	cpu2, _, err := CPU{}.RenderFrame(ctx, fs, Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	gp, st, err := r.RenderFrame(ctx, fs, Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	noise := refMAD(cpu1.NRGBA(), cpu2.NRGBA())
	got := refMAD(gp.NRGBA(), cpu1.NRGBA())
	t.Logf("%s: MAD(gpu, cpu) %.3f, MAD(cpu seeds) %.3f, %d samples", what, got, noise, st.Samples)
	if got > 1.5*noise+0.5 {
		t.Fatalf("%s: GPU frame differs from CPU by %.3f, more than the CPU's seed noise %.3f allows", what, got, noise)
	}
}

// A batched launch is cut where its whole waves end, rounded down to whole
// genomes; a launch under one wave, or one without the occupancy figure,
// is not cut.
func TestWholeWaveRows(t *testing.T) {
	for _, c := range []struct {
		x, y uint32
		wave int64
		want uint32
	}{
		{2, 1024, 396, 990}, // 2048 blocks: 5 waves of 396 are 1980 blocks, 990 genomes
		{3, 1024, 396, 924}, // 3072 blocks: 7 waves are 2772 blocks, 924 genomes
		{2, 100, 396, 0},    // 200 blocks: under a wave
		{2, 198, 396, 198},  // exactly one wave: nothing left over
		{2, 1024, 0, 0},     // no occupancy figure
		{1000, 1, 396, 0},   // one genome: rows cannot be cut
	} {
		if got := wholeWaveRows(gpu.Dim3{X: c.x, Y: c.y, Z: 1}, c.wave); got != c.want {
			t.Errorf("%dx%d blocks, waves of %d: %d rows, want %d", c.x, c.y, c.wave, got, c.want)
		}
	}
}
