package turtle

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

var update = flag.Bool("update", false, "rewrite golden files (refused when CI is set)")

// TestPreviewColorsGolden: a preview draws each segment, polygon and
// surface in its colour index's material colour, the default palette's
// when no colour map is given and the map's when one is, against golden
// images (go test ./internal/lsys/turtle -run TestPreviewColorsGolden
// -update rewrites them; compared to within 2 levels a channel, as float
// rounding may differ between machines).
func TestPreviewColorsGolden(t *testing.T) {
	sys := &lsys.System{Angle: 90, Step: 1}
	// Bark, two greens and a polygon of index 5, then a leaf of index 4.
	g := interpret(t, sys, parseModules(t, sys, "!(0.3)F;(1)F;(2)F[+;(5){.f.+f.+f.+f.}]-;(4)F"), 1)
	g.Surfaces = []SurfaceUse{{P: [3]float32{0, 3, 0}, H: [3]float32{0, 1, 0}, L: [3]float32{-1, 0, 0},
		U: [3]float32{0, 0, 1}, Scale: 1.5, Color: 2, Name: 'L'}}
	g = g.WithSurfaces(BuiltinSurfaces())
	cmap := [][3]float64{{1, 0, 0}, {0, 0, 1}}
	for _, tc := range []struct {
		golden string
		pal    [][3]float64
		want   [][3]float64 // colours some pixel must have
	}{
		{"testdata/preview_default.png", nil, [][3]float64{GLBPalette[0], GLBPalette[1], GLBPalette[2], GLBPalette[4], GLBPalette[5]}},
		{"testdata/preview_colormap.png", cmap, cmap},
	} {
		img := render(t, g, RenderOptions{Width: 64, Height: 64, Margin: 4, View: mustView("front"),
			Background: white, Palette: PreviewPalette(tc.pal)})
		for _, c := range tc.want {
			if !hasColor(img, PreviewPalette([][3]float64{c})[0]) {
				t.Errorf("%s: no pixel of colour %v", tc.golden, c)
			}
		}
		if *update {
			if os.Getenv("CI") != "" {
				t.Fatal("-update is refused under CI")
			}
			var b bytes.Buffer
			if err := png.Encode(&b, img); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(tc.golden, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		f, err := os.Open(tc.golden)
		if err != nil {
			t.Fatal(err)
		}
		want, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if d := maxDiff(img, want); d > 2 {
			t.Errorf("%s: differs by up to %d levels a channel (run with -update if the change is meant)", tc.golden, d)
		}
	}
}

func hasColor(img *image.NRGBA, c color.NRGBA) bool {
	for i := 0; i+3 < len(img.Pix); i += 4 {
		if (color.NRGBA{img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3]}) == c {
			return true
		}
	}
	return false
}

// maxDiff is the largest difference of a channel between a and b, 255 when
// their sizes differ.
func maxDiff(a *image.NRGBA, b image.Image) int {
	if a.Bounds() != b.Bounds() {
		return 255
	}
	d := 0
	for y := a.Rect.Min.Y; y < a.Rect.Max.Y; y++ {
		for x := a.Rect.Min.X; x < a.Rect.Max.X; x++ {
			p, q := a.NRGBAAt(x, y), color.NRGBAModel.Convert(b.At(x, y)).(color.NRGBA)
			for _, v := range [][2]uint8{{p.R, q.R}, {p.G, q.G}, {p.B, q.B}, {p.A, q.A}} {
				d = max(d, int(v[0])-int(v[1]), int(v[1])-int(v[0]))
			}
		}
	}
	return d
}
