package forest

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/disintegration/imaging"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// HeatMapOptions control HeatMap.
type HeatMapOptions struct {
	// Title is written above the map (the species, "total").
	Title string
	// Decades is the range shown below the maximum, on a log scale (0: 6);
	// lower densities and zero are drawn in the background colour.
	Decades float64
	// MaxSide bounds the map's longer side in pixels (0: 2048); small grids
	// are enlarged to about 720 pixels, whole pixels per cell.
	MaxSide int
}

// viridis, sampled at nine points.
var heatRamp = [...]color.NRGBA{
	{68, 1, 84, 255}, {71, 44, 122, 255}, {59, 81, 139, 255}, {44, 113, 142, 255}, {33, 144, 141, 255},
	{39, 173, 129, 255}, {92, 200, 99, 255}, {170, 220, 50, 255}, {253, 231, 37, 255},
}

var (
	heatBackground = color.NRGBA{24, 24, 24, 255}
	heatPaper      = color.NRGBA{255, 255, 255, 255}
	heatInk        = color.NRGBA{0, 0, 0, 255}
)

// ramp maps t in [0, 1] to a colour.
func ramp(t float64) color.NRGBA {
	t = math.Min(math.Max(t, 0), 1) * float64(len(heatRamp)-1)
	i := min(int(t), len(heatRamp)-2)
	f := t - float64(i)
	a, b := heatRamp[i], heatRamp[i+1]
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-f) + float64(y)*f)) }
	return color.NRGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 255}
}

// HeatMap draws a density grid (north up) on a log colour scale, with a
// colour bar whose ticks are labelled in the density's units (per m^2 per
// year), a title and the plot's extent.
func HeatMap(g Grid, density []float64, o HeatMapOptions) *image.NRGBA {
	if o.Decades <= 0 {
		o.Decades = 6
	}
	if o.MaxSide <= 0 {
		o.MaxSide = 2048
	}
	hi, minPos := 0.0, math.Inf(1)
	for _, v := range density {
		if v > hi && !math.IsInf(v, 0) {
			hi = v
		}
		if v > 0 && v < minPos {
			minPos = v
		}
	}
	// Down to Decades below the maximum, or the smallest density if that
	// is higher, but at least one decade.
	lo := math.Min(math.Max(hi*math.Pow(10, -o.Decades), minPos*0.999), hi/10)
	logLo, logHi := math.Log10(lo), math.Log10(hi)
	colourOf := func(v float64) color.NRGBA {
		if !(v > lo) || hi == 0 {
			return heatBackground
		}
		return ramp((math.Log10(v) - logLo) / (logHi - logLo))
	}
	// The map at one pixel per cell, then scaled.
	cells := image.NewNRGBA(image.Rect(0, 0, g.NX, g.NY))
	for j := 0; j < g.NY; j++ {
		row := cells.Pix[(g.NY-1-j)*cells.Stride:]
		for i := 0; i < g.NX; i++ {
			c := colourOf(density[j*g.NX+i])
			copy(row[4*i:4*i+4], []uint8{c.R, c.G, c.B, c.A})
		}
	}
	long := max(g.NX, g.NY)
	var mapImg *image.NRGBA
	switch {
	case long > o.MaxSide:
		w, h := g.NX*o.MaxSide/long, g.NY*o.MaxSide/long
		mapImg = imaging.Resize(cells, max(w, 1), max(h, 1), imaging.Box)
	case long < 720:
		s := min(720/long, 16)
		mapImg = imaging.Resize(cells, g.NX*s, g.NY*s, imaging.NearestNeighbor)
	default:
		mapImg = cells
	}
	const pad, lineH, barW = 10, 14, 16
	face := basicfont.Face7x13
	mw, mh := mapImg.Bounds().Dx(), mapImg.Bounds().Dy()
	barH := max(mh, 160)
	title := o.Title
	units := "seeds per m^2 per year, log scale"
	extent := fmt.Sprintf("x %g..%g m, y %g..%g m, %g m cells", g.X0, g.X0+float64(g.NX)*g.Cell, g.Y0,
		g.Y0+float64(g.NY)*g.Cell, g.Cell)
	labels, ticks := heatTicks(lo, hi)
	labelW := 0
	for _, l := range labels {
		labelW = max(labelW, font.MeasureString(face, l).Round())
	}
	width := pad + mw + 2*pad + barW + 6 + labelW + pad
	for _, s := range []string{title, units, extent} {
		width = max(width, 2*pad+font.MeasureString(face, s).Round())
	}
	top := pad + 2*lineH + 4
	height := top + max(mh, barH) + lineH + 2*pad
	img := image.NewNRGBA(image.Rect(0, 0, width, height))
	draw.Draw(img, img.Bounds(), image.NewUniform(heatPaper), image.Point{}, draw.Src)
	text := func(x, y int, s string) {
		d := font.Drawer{Dst: img, Src: image.NewUniform(heatInk), Face: face, Dot: fixed.P(x, y)}
		d.DrawString(s)
	}
	text(pad, pad+11, title)
	text(pad, pad+lineH+11, units)
	draw.Draw(img, image.Rect(pad, top, pad+mw, top+mh), mapImg, image.Point{}, draw.Src)
	text(pad, top+max(mh, barH)+pad+4, extent)
	// The colour bar: top is the maximum, bottom Decades below it.
	bx := pad + mw + 2*pad
	for y := 0; y < barH; y++ {
		var c color.NRGBA
		if hi == 0 {
			c = heatBackground
		} else {
			c = ramp(1 - float64(y)/float64(barH-1))
		}
		for x := bx; x < bx+barW; x++ {
			img.SetNRGBA(x, top+y, c)
		}
	}
	for i, t := range ticks {
		y := top + int(math.Round((1-t)*float64(barH-1)))
		for x := bx + barW; x < bx+barW+4; x++ {
			img.SetNRGBA(x, y, heatInk)
		}
		text(bx+barW+6, y+4, labels[i])
	}
	return img
}

// heatTicks labels the decades between lo and hi, with their positions on
// the bar (0 bottom, 1 top); an all-zero map gets one "0" tick.
func heatTicks(lo, hi float64) (labels []string, pos []float64) {
	if hi == 0 {
		return []string{"0 (no seeds)"}, []float64{0}
	}
	a, b := math.Log10(lo), math.Log10(hi)
	steps := []float64{1}
	if b-a < 2.5 {
		steps = []float64{1, 2, 5} // a short range gets 1-2-5 ticks
	}
	for k := math.Floor(a); k <= b+1e-9; k++ {
		for _, m := range steps {
			v := math.Log10(m) + k
			if v < a-1e-9 || v > b+1e-9 {
				continue
			}
			label := decadeLabel(int(k))
			if m != 1 {
				label = fmt.Sprintf("%g", m*math.Pow(10, k))
			}
			labels = append(labels, label)
			pos = append(pos, (v-a)/(b-a))
		}
	}
	return labels, pos
}

func decadeLabel(k int) string {
	if k >= -3 && k <= 4 {
		return fmt.Sprintf("%g", math.Pow(10, float64(k)))
	}
	return fmt.Sprintf("1e%d", k)
}
