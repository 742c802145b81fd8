package flame

import (
	"context"
	"testing"
)

// TestDemoGenome: the README's first image (configs/flame/demo.flam3) parses
// cleanly and renders bright and colourful, not a dim blur: a fair share of
// pixels are lit, and both warm and cool hues appear.
func TestDemoGenome(t *testing.T) {
	gs, warns, err := ParseFile("../../configs/flame/demo.flam3", ParseOptions{Strict: true})
	if err != nil || len(warns) > 0 || len(gs) != 1 {
		t.Fatalf("parse: %v, warnings %v, %d genomes", err, warns, len(gs))
	}
	f, _, err := CPU{}.Render(context.Background(), gs[0], Options{Width: 160, Quality: 40, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	img := f.NRGBA()
	lit, warm, cool, n := 0, 0, 0, 0
	for i := 0; i+3 < len(img.Pix); i += 4 {
		r, g, b := int(img.Pix[i]), int(img.Pix[i+1]), int(img.Pix[i+2])
		n++
		if (r+g+b)/3 > 60 {
			lit++
			if r > b+40 {
				warm++
			}
			if b > r+20 {
				cool++
			}
		}
	}
	t.Logf("%d pixels: %d lit, %d warm, %d cool", n, lit, warm, cool)
	if lit < n/10 || warm < n/100 || cool < n/200 {
		t.Fatalf("the demo renders dim or one-coloured: %d of %d pixels lit, %d warm, %d cool", lit, n, warm, cool)
	}
}
