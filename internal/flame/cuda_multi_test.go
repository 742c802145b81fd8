//go:build cuda

package flame

import (
	"context"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// TestMultiCUDAMatchesOneDevice: a still split over "several devices" (the
// one test GPU named twice and three times, which exercises the chain
// ranges, the per-device histograms and the sum) plays the same chains as a
// one-device render, so the images agree but for float rounding: far closer
// than two seeds are.
func TestMultiCUDAMatchesOneDevice(t *testing.T) {
	r := cudaRenderer(t)
	for _, name := range []string{"simple", "heavy"} {
		g := loadTestGenome(t, name)
		o := Options{Width: 200, Quality: 200, Seed: 5}
		one, st1, err := r.Render(context.Background(), g, o)
		if err != nil {
			t.Fatal(err)
		}
		o.Seed = 6
		other, _, err := r.Render(context.Background(), g, o)
		if err != nil {
			t.Fatal(err)
		}
		o.Seed = 5
		noise := refMAD(one.NRGBA(), other.NRGBA())
		for _, n := range []int{2, 3} {
			devs := make([]*gpu.Device, n)
			for i := range devs {
				devs[i] = r.Dev
			}
			var last int64
			o.Progress = func(done, total int64) { last = done }
			multi, st, err := MultiCUDA{Devs: devs}.Render(context.Background(), g, o)
			o.Progress = nil
			if err != nil {
				t.Fatal(err)
			}
			if st.Samples != st1.Samples || last != st1.Samples {
				t.Fatalf("%s on %d devices: %d samples, progress ended at %d, want %d", name, n, st.Samples, last, st1.Samples)
			}
			got := refMAD(multi.NRGBA(), one.NRGBA())
			t.Logf("%s on %d devices: MAD to one device %.4f (seed noise %.3f)", name, n, got, noise)
			if got > 0.05*noise+0.05 {
				t.Fatalf("%s on %d devices differs from one device by %.4f: the parts do not add up to the same chains", name, n, got)
			}
		}
	}
}
