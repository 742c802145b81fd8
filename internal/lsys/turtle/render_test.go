package turtle

import (
	"context"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

var (
	white = color.NRGBA{255, 255, 255, 255}
	black = color.NRGBA{0, 0, 0, 255}
)

func render(t *testing.T, g *Geometry, o RenderOptions) *image.NRGBA {
	t.Helper()
	img, err := Render(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// inked returns the columns and rows with any pixel a fifth or more
// covered by a black line on white, and how many such pixels there are.
func inked(img *image.NRGBA) (x0, x1, y0, y1, n int) {
	b := img.Bounds()
	x0, y0, x1, y1 = b.Max.X, b.Max.Y, -1, -1
	for y := range b.Dy() {
		for x := range b.Dx() {
			if img.NRGBAAt(x, y).R < 205 {
				x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
				n++
			}
		}
	}
	return
}

func TestRenderFitsMargins(t *testing.T) {
	sys := &lsys.System{Angle: 90, Step: 1}
	// A 1 x 2 rectangle: the height fits 80 px, the width is centred.
	g := interpret(t, sys, parseModules(t, sys, "FF+F+FF+F"), 1)
	img := render(t, g, RenderOptions{Width: 100, Height: 100, Margin: 10, View: mustView("front"),
		Background: white, Foreground: black})
	x0, x1, y0, y1, n := inked(img)
	// A one-pixel line on the pixel boundary at 10 covers columns 9 and 10
	// by half each.
	if y0 != 9 && y0 != 10 || y1 != 89 && y1 != 90 || x0 < 29 || x0 > 30 || x1 < 69 || x1 > 70 {
		t.Fatalf("ink spans x %d..%d, y %d..%d", x0, x1, y0, y1)
	}
	if n < 2*(80+40) || n > 4*(80+40)+8 {
		t.Fatalf("%d inked pixels for a 240 px outline", n)
	}
	// Inside stays background.
	if img.NRGBAAt(50, 50) != white {
		t.Fatalf("centre pixel %v", img.NRGBAAt(50, 50))
	}
}

func TestRenderViewsAndWidths(t *testing.T) {
	sys := &lsys.System{Angle: 90, Step: 1, Width: 0.2}
	// Up one, then forward along -Z (pitch down): "front" sees a vertical
	// line, "side" an L, "top" a vertical line (-Z is up there).
	g := interpret(t, sys, parseModules(t, sys, "F&FF"), 1)
	for name, wantWide := range map[string]bool{"front": false, "side": true, "top": false} {
		v, err := ParseView(name)
		if err != nil {
			t.Fatal(err)
		}
		img := render(t, g, RenderOptions{Width: 64, Height: 64, Margin: 4, View: v, Background: white})
		x0, x1, y0, y1, n := inked(img)
		if n == 0 {
			t.Fatalf("%s: empty image", name)
		}
		if wide := x1-x0 > 20 && y1-y0 > 20; wide != wantWide {
			t.Fatalf("%s: ink x %d..%d y %d..%d", name, x0, x1, y0, y1)
		}
	}
	// Line widths scale with the drawing, which is fitted with them: the
	// side view shows 2 units and half a line's width on either side,
	// 2.2 units in 56 px, so a width of 0.2 is 5.09 px.
	img := render(t, g, RenderOptions{Width: 64, Height: 64, Margin: 4, View: mustView("side"), Background: white})
	ink := 0.0
	for x := range 64 {
		ink += float64(255-img.NRGBAAt(x, 40).R) / 255
	}
	if want := 0.2 * 56 / 2.2; math.Abs(ink-want) > 0.3 {
		t.Fatalf("%.2f px of ink across a %.2f px line", ink, want)
	}
}

func TestRenderPolygonsAndPalette(t *testing.T) {
	sys := &lsys.System{Angle: 90, Step: 1}
	g := interpret(t, sys, parseModules(t, sys, "'{.f.+f.+f.}"), 1)
	red := color.NRGBA{255, 0, 0, 255}
	// 51 rows: the square spans y 5.5..45.5, so row 45 is half covered.
	img := render(t, g, RenderOptions{Width: 50, Height: 51, Margin: 5, View: mustView("front"),
		Background: white, Palette: []color.NRGBA{black, red}})
	if c := img.NRGBAAt(25, 25); c != red {
		t.Fatalf("inside the square: %v", c)
	}
	if c := img.NRGBAAt(2, 25); c != white {
		t.Fatalf("in the margin: %v", c)
	}
	// Half-covered edge pixels blend.
	if c := img.NRGBAAt(25, 45); c.G < 100 || c.G > 160 || c.R != 255 {
		t.Fatalf("edge pixel %v", c)
	}
}

func TestRenderIndependentOfWorkers(t *testing.T) {
	sys := &lsys.System{Angle: 23, Step: 1, Width: 0.3}
	g := interpret(t, sys, randomString(newRand(11), sys, 50_000, alphabet, ""), 0)
	o := RenderOptions{Width: 301, Height: 199, Margin: 7, View: View{Dir: [3]float64{1, -2, -3}},
		Background: color.NRGBA{10, 20, 30, 200}, Palette: []color.NRGBA{black, {0, 128, 0, 180}, {200, 0, 0, 255}}}
	o.Workers = 1
	one := render(t, g, o)
	o.Workers = 4
	four := render(t, g, o)
	if string(one.Pix) != string(four.Pix) {
		t.Fatal("image depends on workers")
	}
}

func TestRenderEdgeCases(t *testing.T) {
	for _, o := range []RenderOptions{{Width: 0, Height: 10}, {Width: 10, Height: 10, Margin: 5}, {Width: 1 << 20, Height: 1}} {
		if _, err := Render(context.Background(), &Geometry{}, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	// Empty geometry, a single point, a single straight line: no panic.
	sys := &lsys.System{Angle: 90, Step: 1}
	for _, src := range []string{"", "F(0)", "FFF", "{.f.f.}"} {
		g := interpret(t, sys, parseModules(t, sys, src), 1)
		render(t, g, RenderOptions{Width: 16, Height: 9, View: mustView("front")})
	}
	for _, s := range []string{"", "1,2", "0,0,0", "a,b,c", "front,x"} {
		if _, err := ParseView(s); err == nil {
			t.Errorf("view %q: no error", s)
		}
	}
}
