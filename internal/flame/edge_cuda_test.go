//go:build cuda

package flame_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/flame/cuburn"
)

// flockDir is cuburn's sample flock in the shared corpus.
const flockDir = "../../../shared/corpus/flames/flock"

// TestCUDACuburnFrameMatchesCPU: a motion-blurred frame of a corpus cuburn
// edge (1024 temporal genomes, a final xform on the destination side) on
// the GPU is as close to the CPU's as two CPU seeds are to each other.
func TestCUDACuburnFrameMatchesCPU(t *testing.T) {
	if _, err := os.Stat(flockDir); err != nil {
		t.Skipf("no flock at %s", flockDir)
	}
	a, err := cuburn.LoadFile(filepath.Join(flockDir, "edges", "electricsheep.244.80674=electricsheep.244.80692.json"),
		cuburn.DefaultProfile(), cuburn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Override(flame.Options{Width: 320, Height: 180, Quality: 200}); err != nil {
		t.Fatal(err)
	}
	fs, err := a.Frame(0.5)
	if err != nil {
		t.Fatal(err)
	}
	flame.CheckFrameWithinCPUNoise(t, fs, "cuburn frame")
}

// BenchmarkCUDAFlock1080p: frames of the shipped simple and linear flock
// edges (configs/flame/flock) at cuburn's 1080p profile, 1024 temporal samples a
// frame, rendered one after another (without `flame animate`'s overlap of
// interpolation and encoding): frames/s, the whole frame's samples/s and the
// iterate kernel's. "whole" renders each frame before the next; "queued"
// queues frame N+1 before waiting for frame N, as `flame animate` does;
// "stages" adds each device stage's milliseconds (synchronized per stage).
func BenchmarkCUDAFlock1080p(b *testing.B) {
	for _, edge := range []string{"simple", "linear"} {
		for _, name := range []string{"whole", "queued", "stages"} {
			benchFlockEdge(b, edge, name)
		}
	}
}

func benchFlockEdge(b *testing.B, edge, name string) {
	b.Run(edge+"/"+name, func(b *testing.B) {
		prof, err := cuburn.ReadProfile("../../configs/flame/flock/profiles/1080p.json")
		if err != nil {
			b.Fatal(err)
		}
		a, err := cuburn.LoadFile("../../configs/flame/flock/edges/"+edge+"-a="+edge+"-b.json", prof, cuburn.Options{})
		if err != nil {
			b.Fatal(err)
		}
		a.SetFrameCount(120)
		flame.BenchFlockEdge(b, name, a.Frame)
	})
}

// BenchmarkCUDAFlockSchedule renders frames of three flock edges at
// cuburn's 1080p profile (1024 temporal samples a frame), queued as `flame
// animate` queues them, with each iterate schedule: what ScheduleAuto's
// choice (warpUniform) is measured against. frames/s and G samples/s.
func BenchmarkCUDAFlockSchedule(b *testing.B) {
	const corpus = flockDir
	edges := []struct{ name, file, db string }{
		{"linear", "../../configs/flame/flock/edges/linear-a=linear-b.json", ""},
		{"simple", "../../configs/flame/flock/edges/simple-a=simple-b.json", ""},
		{"cuburn-00216=80674", corpus + "/edges/electricsheep.244.00216=electricsheep.244.80674.json", corpus},
	}
	prof, err := cuburn.ReadProfile("../../configs/flame/flock/profiles/1080p.json")
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range edges {
		for _, sc := range []struct {
			name  string
			sched flame.Schedule
		}{{"auto", flame.ScheduleAuto}, {"warp", flame.ScheduleWarp}, {"thread", flame.ScheduleThread}} {
			b.Run(e.name+"/"+sc.name, func(b *testing.B) {
				if _, err := os.Stat(e.file); err != nil {
					b.Skipf("no edge: %v", err)
				}
				a, err := cuburn.LoadFile(e.file, prof, cuburn.Options{DB: e.db})
				if err != nil {
					b.Fatal(err)
				}
				a.SetFrameCount(120)
				r := flame.CUDAFrameRenderer(b)
				r.Schedule = sc.sched
				var samples int64
				var last flame.PendingFrame
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
				if _, _, err := r.RenderFrame(context.Background(), fs, flame.Options{Seed: 1 << 40}); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				start := time.Now()
				for i := 0; i < b.N; i++ {
					fs, err := a.Frame((float64(i%120) + 0.5) / 120)
					if err != nil {
						b.Fatal(err)
					}
					pf, err := r.SubmitFrame(context.Background(), fs, flame.Options{Seed: uint64(i)})
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
