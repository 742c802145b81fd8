package flame

import (
	"context"
	"testing"
)

// TestCPUDeterministicAcrossThreads: the same seed gives the same image
// whatever the number of worker goroutines (flam3 cannot promise this).
func TestCPUDeterministicAcrossThreads(t *testing.T) {
	gs, _, err := ParseFile("../../testdata/flame/heavy.flam3", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Width: 80, Quality: 40, Seed: 7}
	var ref *Frame
	for _, workers := range []int{1, 3, 8} {
		f, st, err := CPU{Workers: workers}.Render(context.Background(), gs[0], o)
		if err != nil {
			t.Fatal(err)
		}
		if st.Samples == 0 || st.IterateSeconds <= 0 {
			t.Fatalf("stats not filled: %+v", st)
		}
		if ref == nil {
			ref = f
			continue
		}
		for i := range f.Pix {
			if f.Pix[i] != ref.Pix[i] {
				t.Fatalf("%d workers: value %d is %v, with 1 worker %v", workers, i, f.Pix[i], ref.Pix[i])
			}
		}
	}
	o.Seed = 8
	other, _, _ := CPU{}.Render(context.Background(), gs[0], o)
	same := true
	for i := range other.Pix {
		if other.Pix[i] != ref.Pix[i] {
			same = false
			break
		}
	}
	if same {
		t.Fatal("a different seed gave the same image")
	}
}

// TestRenderCancel: a cancelled context stops the render with its error.
func TestRenderCancel(t *testing.T) {
	gs, _, err := ParseFile("../../testdata/flame/simple.flam3", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := (CPU{}).Render(ctx, gs[0], Options{Width: 64, Quality: 100}); err != context.Canceled {
		t.Fatalf("cancelled render returned %v", err)
	}
}

// TestPlanRejectsAbsurdSizes: sizes are checked before anything is allocated.
func TestPlanRejectsAbsurdSizes(t *testing.T) {
	gs, _, err := ParseFile("../../testdata/flame/simple.flam3", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{Width: 70000}, {Width: 60000, Height: 60000, Supersample: 16}, {Supersample: 17}} {
		if _, err := newPlan(gs[0], o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
}
