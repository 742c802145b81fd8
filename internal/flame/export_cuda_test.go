//go:build cuda

package flame

import (
	"context"
	"testing"
	"time"
)

// This file hands internals to the external CUDA tests (package flame_test)
// that render frames of cuburn edges: flame/cuburn imports flame, so only an
// external test can use both.

// CUDAFrameRenderer is cudaFrameRenderer for the external tests.
func CUDAFrameRenderer(tb testing.TB) CUDA { return cudaFrameRenderer(tb) }

// CheckFrameWithinCPUNoise is frameWithinCPUNoise on the test's CUDA device.
func CheckFrameWithinCPUNoise(t *testing.T, fs *FrameSpec, what string) {
	t.Helper()
	frameWithinCPUNoise(t, cudaRenderer(t), fs, what)
}

// BenchFlockEdge is the body of BenchmarkCUDAFlock1080p (edge_cuda_test.go,
// an external test because flame/cuburn imports flame) for one way name of
// rendering 120 frames of an edge (in b itself); frame returns the edge's
// frame at t.
func BenchFlockEdge(b *testing.B, name string, frame func(t float64) (*FrameSpec, error)) {
	staged, queued := name == "stages", name == "queued"
	r := cudaFrameRenderer(b)
	if staged {
		r.Stages = map[string]time.Duration{}
	}
	var samples int64
	var iterate, interp float64
	var last PendingFrame
	wait := func(pf PendingFrame) {
		_, st, err := pf.Wait()
		if err != nil {
			b.Fatal(err)
		}
		samples += st.Samples
		iterate += st.IterateSeconds
	}
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		fs, err := frame((float64(i%120) + 0.5) / 120)
		if err != nil {
			b.Fatal(err)
		}
		interp += time.Since(t0).Seconds()
		if staged { // the host's share of RenderFrame, done once more
			t1 := time.Now()
			fp, err := newFramePlan(fs, Options{Seed: uint64(i)})
			if err != nil {
				b.Fatal(err)
			}
			for k, cg := range fp.games {
				if _, _, err := fp.plans[k].gpuInputs(cg); err != nil {
					b.Fatal(err)
				}
			}
			r.Stages["host-prep"] += time.Since(t1)
		}
		// RenderFrame is SubmitFrame and Wait; queued waits for the
		// last frame only after the next one is submitted.
		pf, err := r.SubmitFrame(context.Background(), fs, Options{Seed: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		if last != nil {
			wait(last)
		}
		last = pf
		if !queued {
			wait(last)
			last = nil
		}
	}
	if last != nil {
		wait(last)
	}
	sec := time.Since(start).Seconds()
	b.ReportMetric(float64(b.N)/sec, "frames/s")
	b.ReportMetric(float64(samples)/sec/1e9, "Gsamples/s")
	b.ReportMetric(float64(samples)/iterate/1e9, "iterate-Gsamples/s")
	b.ReportMetric(interp*1e3/float64(b.N), "interpolate-ms")
	for name, d := range r.Stages {
		b.ReportMetric(d.Seconds()*1e3/float64(b.N), name+"-ms")
	}
}
