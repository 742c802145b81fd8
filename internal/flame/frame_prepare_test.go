package flame

import (
	"context"
	"testing"
)

// TestPreparedFrameRendersTheSame: a frame prepared ahead renders the image
// the unprepared frame renders with the same seed; the plan is handed over
// once (a second render builds its own and is the same again), and a
// render with another seed does not take a plan built for the first.
func TestPreparedFrameRendersTheSame(t *testing.T) {
	a := twoKeys(t)
	for _, k := range a.Keys {
		k.TemporalSamples, k.Quality = 4, 20
	}
	ctx := context.Background()
	render := func(fs *FrameSpec, seed uint64) []byte {
		f, _, err := CPU{}.RenderFrame(ctx, fs, Options{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return f.NRGBA().Pix
	}
	plain, err := a.Frame(0.5)
	if err != nil {
		t.Fatal(err)
	}
	want := render(plain, 7)
	fs, _ := a.Frame(0.5)
	if err := fs.Prepare(Options{Seed: 7}); err != nil {
		t.Fatal(err)
	}
	if fs.prep.plan == nil {
		t.Fatal("Prepare built no plan")
	}
	if got := render(fs, 7); string(got) != string(want) {
		t.Fatal("the prepared frame renders differently")
	}
	if fs.prep.plan != nil {
		t.Fatal("the render did not take the prepared plan")
	}
	if got := render(fs, 7); string(got) != string(want) {
		t.Fatal("a second render of the frame differs")
	}
	if err := fs.Prepare(Options{Seed: 7}); err != nil {
		t.Fatal(err)
	}
	if got, other := render(fs, 8), render(plain, 8); string(got) != string(other) {
		t.Fatal("a render with seed 8 used the plan prepared for seed 7")
	}
	if fs.prep.plan == nil {
		t.Fatal("the plan for seed 7 was handed to a render with seed 8")
	}
}
