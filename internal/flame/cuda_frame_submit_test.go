//go:build cuda

package flame

import (
	"context"
	"testing"
)

// TestCUDAFramePipeline: frames queued two at a time (SubmitFrame before
// the last frame's Wait, as `flame animate` queues them), of sizes that
// change so that buffers and staging are both reused and left behind, each
// match a fresh-buffer render of the same seed as closely as float atomics
// allow (the fresh renders come first, so that nothing on the default
// stream orders the queued frames' two streams while they overlap); the
// renderer keeps at most two staging arenas, a second Wait is
// an error, a cancelled frame leaves the renderer usable, and Close frees
// everything.
func TestCUDAFramePipeline(t *testing.T) {
	fresh := cudaRenderer(t)
	kept := cudaFrameRenderer(t)
	a := twoKeys(t)
	ctx := context.Background()
	widths := []int{120, 120, 96, 96, 120, 160}
	specs := make([]*FrameSpec, len(widths))
	for i, w := range widths {
		for _, k := range a.Keys {
			k.Width, k.Height, k.Quality = w, w*3/4, 50
		}
		fs, err := a.Frame(0.2 * float64(i))
		if err != nil {
			t.Fatal(err)
		}
		specs[i] = fs
	}
	wants := make([]*Frame, len(specs))
	for i, fs := range specs {
		want, _, err := fresh.RenderFrame(ctx, fs, Options{Seed: uint64(10 + i)})
		if err != nil {
			t.Fatal(err)
		}
		wants[i] = want
	}
	check := func(i int, pf PendingFrame) {
		t.Helper()
		got, st, err := pf.Wait()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if st.IterateSeconds <= 0 || st.Samples <= 0 {
			t.Fatalf("frame %d: stats %+v", i, st)
		}
		want := wants[i]
		if got.Width != want.Width || got.Height != want.Height {
			t.Fatalf("frame %d: %dx%d, want %dx%d", i, got.Width, got.Height, want.Width, want.Height)
		}
		if d := refMAD(got.NRGBA(), want.NRGBA()); d > 0.05 {
			t.Fatalf("frame %d (%d px wide): queued render gives MAD %.4f to a fresh one", i, widths[i], d)
		}
		if _, _, err := pf.Wait(); err == nil {
			t.Fatalf("frame %d: a second Wait succeeded", i)
		}
	}
	var last PendingFrame
	for i, fs := range specs {
		pf, err := kept.SubmitFrame(ctx, fs, Options{Seed: uint64(10 + i)})
		if err != nil {
			t.Fatal(err)
		}
		if last != nil {
			check(i-1, last)
		}
		last = pf
		if n := len(kept.cache.arenas); n > 2 {
			t.Fatalf("after frame %d the renderer keeps %d idle arenas", i, n)
		}
	}
	check(len(specs)-1, last)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := kept.SubmitFrame(cancelled, specs[0], Options{Seed: 1}); err == nil {
		t.Fatal("a frame submitted with a cancelled context was queued")
	}
	pf, err := kept.SubmitFrame(ctx, specs[0], Options{Seed: 10})
	if err != nil {
		t.Fatal(err)
	}
	check(0, pf)
	if err := kept.Close(); err != nil || kept.cache.bytes != 0 || len(kept.cache.arenas) != 0 {
		t.Fatalf("Close: %v, %d bytes and %d arenas left", err, kept.cache.bytes, len(kept.cache.arenas))
	}
}

// TestCUDAFrameSplitLaunch: frames big enough that their launch is cut into
// whole waves and the rest (1024 temporal samples of one block each: 1024
// blocks, over two waves on any current GPU), queued two at a time so the
// second starts in the first's last wave, match fresh renders, which run
// every genome in one launch on the default stream.
func TestCUDAFrameSplitLaunch(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 10 G samples")
	}
	fresh := cudaRenderer(t)
	kept := cudaFrameRenderer(t)
	a := twoKeys(t)
	for _, k := range a.Keys {
		k.Width, k.Height, k.Quality, k.TemporalSamples = 320, 180, 40000, 1024
	}
	ctx := context.Background()
	var specs [2]*FrameSpec
	var pending [2]PendingFrame
	for i := range specs {
		fs, err := a.Frame(0.3 + 0.4*float64(i))
		if err != nil {
			t.Fatal(err)
		}
		specs[i] = fs
		if pending[i], err = kept.SubmitFrame(ctx, fs, Options{Seed: uint64(20 + i)}); err != nil {
			t.Fatal(err)
		}
	}
	for i, pf := range pending {
		got, st, err := pf.Wait()
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := fresh.RenderFrame(ctx, specs[i], Options{Seed: uint64(20 + i)})
		if err != nil {
			t.Fatal(err)
		}
		d := refMAD(got.NRGBA(), want.NRGBA())
		t.Logf("frame %d: %d samples, MAD %.4f to a fresh render", i, st.Samples, d)
		if d > 0.05 {
			t.Fatalf("frame %d: a split, queued launch gives MAD %.4f to a fresh render", i, d)
		}
	}
}

// TestCUDAWarm: Warm readies n arenas, each with its page-locked memory, so
// the first n frames queued at once take no more; a second Warm adds
// nothing, and a renderer that keeps no buffers has nothing to warm.
func TestCUDAWarm(t *testing.T) {
	if err := cudaRenderer(t).Warm(3); err != nil {
		t.Fatal(err)
	}
	kept := cudaFrameRenderer(t)
	held := func() (arenas, chunks int) {
		for _, a := range kept.cache.arenas {
			chunks += len(a.chunks)
		}
		return len(kept.cache.arenas), chunks
	}
	for range 2 {
		if err := kept.Warm(3); err != nil {
			t.Fatal(err)
		}
		if a, c := held(); a != 3 || c != 3 {
			t.Fatalf("after Warm(3): %d arenas, %d chunks of page-locked memory; want 3 and 3", a, c)
		}
	}
	a := twoKeys(t)
	for _, k := range a.Keys {
		k.Width, k.Height, k.Quality = 160, 120, 50
	}
	ctx := context.Background()
	var pending []PendingFrame
	for i := range 3 {
		fs, err := a.Frame(0.3 * float64(i))
		if err != nil {
			t.Fatal(err)
		}
		pf, err := kept.SubmitFrame(ctx, fs, Options{Seed: uint64(i + 1)})
		if err != nil {
			t.Fatal(err)
		}
		pending = append(pending, pf)
	}
	if a, _ := held(); a != 0 {
		t.Fatalf("3 frames in flight left %d arenas idle, want 0", a)
	}
	for _, pf := range pending {
		if _, _, err := pf.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	if a, c := held(); a != 3 || c != 3 {
		t.Fatalf("after 3 frames: %d arenas, %d chunks; want the 3 and 3 Warm made", a, c)
	}
}
