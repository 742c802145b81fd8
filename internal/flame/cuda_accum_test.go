//go:build cuda

package flame

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestCUDAAccumPartsMatchOneGPU: n GPU parts, merged and finished on the CPU,
// give the one-GPU render of the same seed but for float rounding (far
// closer than two seeds), and a CPU part does not merge with them.
func TestCUDAAccumPartsMatchOneGPU(t *testing.T) {
	r := cudaRenderer(t)
	ctx := context.Background()
	for _, name := range []string{"simple", "heavy"} {
		g := loadTestGenome(t, name)
		o := Options{Width: 160, Quality: 100, Seed: 7}
		one, _, err := r.Render(ctx, g, o)
		if err != nil {
			t.Fatal(err)
		}
		other, _, err := r.Render(ctx, g, Options{Width: 160, Quality: 100, Seed: 8})
		if err != nil {
			t.Fatal(err)
		}
		noise := refMAD(one.NRGBA(), other.NRGBA())
		var files [][]byte
		var samples int64
		for i := 0; i < 3; i++ {
			a, st, err := r.AccumulatePart(ctx, g, o, i, 3)
			if err != nil {
				t.Fatal(err)
			}
			if a.Info().Backend != "cuda" || st.Samples != a.Info().Samples {
				t.Fatalf("part %d: backend %q, %d samples in stats, %d in the header", i, a.Info().Backend, st.Samples, a.Info().Samples)
			}
			samples += st.Samples
			var b bytes.Buffer
			if err := a.Encode(ctx, &b); err != nil {
				t.Fatal(err)
			}
			files = append(files, b.Bytes())
		}
		sum, err := mergeParts(ctx, files)
		if err != nil {
			t.Fatal(err)
		}
		if samples != sum.Info().TotalSamples {
			t.Fatalf("%s: parts hold %d samples, the render %d", name, samples, sum.Info().TotalSamples)
		}
		f, err := sum.Finish(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := refMAD(f.NRGBA(), one.NRGBA())
		t.Logf("%s: merged GPU parts against one GPU render: MAD %.4f (seed noise %.3f)", name, got, noise)
		if got > 0.1*noise+0.1 {
			t.Fatalf("%s: merged GPU parts differ from the one-GPU render by %.4f", name, got)
		}
		cpuPart, _, err := CPU{}.Accumulate(ctx, g, o, 1, 3)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := cpuPart.Encode(ctx, &b); err != nil {
			t.Fatal(err)
		}
		if _, err := mergeParts(ctx, [][]byte{files[0], b.Bytes()}); err == nil || !strings.Contains(err.Error(), "one backend") {
			t.Fatalf("a CPU part merged with GPU parts: %v", err)
		}
	}
}
