package flame

import (
	"context"
	"math"
	"testing"
)

// At gamma 1, vibrancy 1, no highlight power and a black background,
// flam3's tone curve is the identity up to its clip (ls = 256: 256/255 per
// unit of density scale), so the tone-mapped image is 255 times the linear
// one wherever it does not clip, and the linear one goes on above 1 where
// it clips. Alpha is the coverage, 1 where the tone curve's is.
func TestFinishLinearIsToneAtGammaOne(t *testing.T) {
	g := loadGenome(t, "../../testdata/flame/simple.flam3")
	g.Gamma, g.Vibrancy, g.HighlightPower, g.Background = 1, 1, -1, [3]float64{}
	g.Transparent = true
	ctx := context.Background()
	a, _, err := CPU{}.Accumulate(ctx, g, Options{Width: 96, Quality: 200, Seed: 3}, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	tone, err := a.Finish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lin, err := a.FinishLinear(ctx)
	if err != nil {
		t.Fatal(err)
	}
	compared, above := 0, 0
	for i := 0; i < len(lin.Pix); i += 4 {
		la := float64(lin.Pix[i+3])
		if math.Abs(la-float64(tone.Pix[i+3])) > 1e-6 {
			t.Fatalf("pixel %d: linear alpha %g, tone-mapped %g", i/4, la, tone.Pix[i+3])
		}
		for ch := 0; ch < 3; ch++ {
			l, tm := float64(lin.Pix[i+ch]), float64(tone.Pix[i+ch])
			switch {
			case l*255 >= 254.9:
				above++
				if tm < 254.9 {
					t.Fatalf("pixel %d ch %d: linear %g clips, tone-mapped %g does not", i/4, ch, l, tm)
				}
			case la > 0:
				// Transparent tone-mapped colour is un-premultiplied; linear is not.
				if want := l * 255 / la; math.Abs(min(want, 255)-tm) > 1e-3*max(1, tm) {
					t.Fatalf("pixel %d ch %d: linear %g (alpha %g) makes %g, tone-mapped %g", i/4, ch, l, la, want, tm)
				}
				compared++
			}
		}
	}
	if compared < 1000 {
		t.Fatalf("only %d channels compared", compared)
	}
	t.Logf("%d channels compared, %d above the clip", compared, above)
}

// The linear finish of a render equals the linear finish of its
// accumulation: Options.Linear on the CPU takes the same path.
func TestRenderLinearMatchesFinishLinear(t *testing.T) {
	g := loadGenome(t, "../../testdata/flame/simple.flam3")
	ctx := context.Background()
	o := Options{Width: 48, Quality: 50, Seed: 9}
	a, _, err := CPU{}.Accumulate(ctx, g, o, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	want, err := a.FinishLinear(ctx)
	if err != nil {
		t.Fatal(err)
	}
	o.Linear = true
	got, _, err := CPU{}.Render(ctx, g, o)
	if err != nil {
		t.Fatal(err)
	}
	bright := 0
	for i := range want.Pix {
		if got.Pix[i] != want.Pix[i] {
			t.Fatalf("value %d: Render %g, FinishLinear %g", i, got.Pix[i], want.Pix[i])
		}
		if i%4 != 3 && want.Pix[i] > 0.05 {
			bright++
		}
	}
	if bright == 0 {
		t.Fatal("the linear image is black")
	}
}
