package flame

import (
	"bytes"
	"context"
	"testing"
)

// FuzzOpenAccum: no accumulation file, however damaged, panics or hangs the
// reader; one it accepts finishes to an image.
func FuzzOpenAccum(f *testing.F) {
	gs, _, err := ParseFile("../../testdata/flame/simple.flam3", ParseOptions{})
	if err != nil {
		f.Fatal(err)
	}
	for _, n := range []int{1, 2} {
		a, _, err := CPU{Workers: 1}.Accumulate(context.Background(), gs[0], Options{Width: 8, Quality: 5, Seed: 1}, 0, n)
		if err != nil {
			f.Fatal(err)
		}
		var b bytes.Buffer
		if err := a.Encode(context.Background(), &b); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Add([]byte(accumMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx := context.Background()
		ar, err := OpenAccum(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		// The command checks memory first; so does the test.
		if ar.Info().Buckets() > 1<<16 {
			return
		}
		sum, err := NewAccumSum(ar.Info())
		if err != nil {
			t.Fatalf("header accepted by OpenAccum refused by NewAccumSum: %v", err)
		}
		if err := sum.Add(ctx, ar); err != nil {
			return
		}
		if sum.Complete() != nil {
			return
		}
		if _, err := sum.Finish(ctx); err != nil {
			t.Fatalf("a complete accumulation does not finish: %v", err)
		}
	})
}
