package flame

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// benchAnim renders successive frames of the corpus edge (A2: gaussian
// motion blur, 80 temporal samples) at w×h and quality q with r, and
// reports frames per second and samples per second (whole frame: interpolate,
// iterate, finish). With still set it renders each frame's centre genome
// without motion blur instead, for the still renderer's rate.
func benchAnim(b *testing.B, r FrameRenderer, w, h int, q float64, still bool) {
	benchAnimFilter(b, r, w, h, q, still, -1)
}

// benchAnimFilter is benchAnim with every keyframe's temporal filter set to
// filter (unless it is negative).
func benchAnimFilter(b *testing.B, r FrameRenderer, w, h int, q float64, still bool, filter TemporalFilter) {
	a := loadA2(b)
	if err := a.Override(Options{Width: w, Height: h, Quality: q}); err != nil {
		b.Fatal(err)
	}
	if filter >= 0 {
		for _, k := range a.Keys {
			k.TemporalFilter = filter
		}
	}
	var samples int64
	start := time.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := float64(i % 40)
		var fs *FrameSpec
		var err error
		if still {
			fs = Still(&a.At(t).Genome)
		} else if fs, err = a.Frame(t); err != nil {
			b.Fatal(err)
		}
		_, st, err := r.RenderFrame(context.Background(), fs, Options{Seed: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		samples += st.Samples
	}
	sec := time.Since(start).Seconds()
	b.ReportMetric(float64(b.N)/sec, "frames/s")
	b.ReportMetric(float64(samples)/sec/1e6, "Msamples/s")
}

// BenchmarkAnimFrameCPU: one core-count-bound frame at 320×236, quality 1000
// (the corpus frames' settings), motion blurred and as a still.
func BenchmarkAnimFrameCPU(b *testing.B)      { benchAnim(b, CPU{}, 320, 236, 1000, false) }
func BenchmarkAnimFrameCPUStill(b *testing.B) { benchAnim(b, CPU{}, 320, 236, 1000, true) }

// BenchmarkAnimFrameSpec measures the host's share of an animation frame:
// interpolating the corpus edge's temporal genomes (A2: 80 of them) and
// planning the frame, without rendering it.
func BenchmarkAnimFrameSpec(b *testing.B) {
	a := loadA2(b)
	for i := 0; i < b.N; i++ {
		if _, err := a.Frame(float64(i % 40)); err != nil {
			b.Fatal(err)
		}
	}
}

// loadA2 reads the corpus edge A2 (skipping without the corpus).
func loadA2(b *testing.B) *Animation {
	a, _, err := ParseAnimationFile(filepath.Join(animDir, "sequences", "A2_edge.flam3"), ParseOptions{})
	if err != nil {
		if os.IsNotExist(unwrapAll(err)) {
			b.Skipf("no flam3 animation corpus: %v", err)
		}
		b.Fatal(err)
	}
	return a
}
