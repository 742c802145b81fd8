//go:build cuda

package flame

import (
	"context"
	"os"
	"testing"
	"time"
)

// BenchmarkCUDAFlockSchedule renders frames of three flock edges at
// cuburn's 1080p profile (1024 temporal samples a frame), queued as `flame
// animate` queues them, with each iterate schedule: what ScheduleAuto's
// choice (warpUniform) is measured against. frames/s and G samples/s.
func BenchmarkCUDAFlockSchedule(b *testing.B) {
	const corpus = "../../../shared/corpus/flames/flock"
	edges := []struct{ name, file, db string }{
		{"linear", "../../configs/flame/flock/edges/linear-a=linear-b.json", ""},
		{"simple", "../../configs/flame/flock/edges/simple-a=simple-b.json", ""},
		{"cuburn-00216=80674", corpus + "/edges/electricsheep.244.00216=electricsheep.244.80674.json", corpus},
	}
	prof, err := ReadCuburnProfile("../../configs/flame/flock/profiles/1080p.json")
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range edges {
		for _, sc := range []struct {
			name  string
			sched Schedule
		}{{"auto", ScheduleAuto}, {"warp", ScheduleWarp}, {"thread", ScheduleThread}} {
			b.Run(e.name+"/"+sc.name, func(b *testing.B) {
				if _, err := os.Stat(e.file); err != nil {
					b.Skipf("no edge: %v", err)
				}
				a, err := LoadCuburnFile(e.file, prof, CuburnOptions{DB: e.db})
				if err != nil {
					b.Fatal(err)
				}
				a.SetFrameCount(120)
				r := cudaFrameRenderer(b)
				r.Schedule = sc.sched
				var samples int64
				var last PendingFrame
				wait := func() {
					_, st, err := last.Wait()
					if err != nil {
						b.Fatal(err)
					}
					samples += st.Samples
				}
				// One frame first: module load, buffers and staging are
				// not what a sustained rate measures.
				fs, err := a.Frame(0.5 / 120)
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := r.RenderFrame(context.Background(), fs, Options{Seed: 1 << 40}); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				start := time.Now()
				for i := 0; i < b.N; i++ {
					fs, err := a.Frame((float64(i%120) + 0.5) / 120)
					if err != nil {
						b.Fatal(err)
					}
					pf, err := r.SubmitFrame(context.Background(), fs, Options{Seed: uint64(i)})
					if err != nil {
						b.Fatal(err)
					}
					if last != nil {
						wait()
					}
					last = pf
				}
				wait()
				sec := time.Since(start).Seconds()
				b.ReportMetric(float64(b.N)/sec, "frames/s")
				b.ReportMetric(float64(samples)/sec/1e9, "Gsamples/s")
			})
		}
	}
}
