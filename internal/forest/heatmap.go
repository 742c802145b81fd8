package forest

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strconv"

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
	// lower densities are drawn in their own colour ("below the scale"),
	// zero in the background colour ("no seeds").
	Decades float64
	// MaxSide bounds the map's longer side in pixels (0: 2048); small grids
	// are enlarged to about 720 pixels, whole pixels per cell.
	MaxSide int
	// Stems, when set, are drawn over the map as dots sized by DBH (the
	// parents, --stems).
	Stems []Tree
	// Empty says why an all-zero layer is empty ("no parent at or above
	// min_dbh 15 cm"); it is written across the map.
	Empty string
}

// viridis, sampled at nine points.
var heatRamp = [...]color.NRGBA{
	{68, 1, 84, 255}, {71, 44, 122, 255}, {59, 81, 139, 255}, {44, 113, 142, 255}, {33, 144, 141, 255},
	{39, 173, 129, 255}, {92, 200, 99, 255}, {170, 220, 50, 255}, {253, 231, 37, 255},
}

var (
	heatBackground = color.NRGBA{24, 24, 24, 255}  // no seeds
	heatBelow      = color.NRGBA{96, 96, 104, 255} // seeds, below the scale's floor
	heatPaper      = color.NRGBA{255, 255, 255, 255}
	heatInk        = color.NRGBA{0, 0, 0, 255}
	heatStem       = color.NRGBA{255, 255, 255, 255}
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

// HeatMap draws a density grid, north up, on a log colour scale: axes
// ticked in metres, "N" with an arrow, a colour bar whose ticks are
// labelled in the density's units (per m^2 per year) and whose ends give
// the scale's minimum and maximum, a legend for cells with no seeds and
// cells below the scale, and optionally the stems as dots.
func HeatMap(g Grid, density []float64, o HeatMapOptions) *image.NRGBA {
	img, _ := heatMap(g, density, o)
	return img
}

// heatMap is HeatMap, also returning where the map lies in the image.
func heatMap(g Grid, density []float64, o HeatMapOptions) (*image.NRGBA, image.Rectangle) {
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
		switch {
		case !(v > 0) || hi == 0:
			return heatBackground
		case !(v > lo):
			return heatBelow
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
	const pad, lineH, barW, tickL = 10, 14, 16, 4
	face := basicfont.Face7x13
	measure := func(s string) int { return font.MeasureString(face, s).Round() }
	mw, mh := mapImg.Bounds().Dx(), mapImg.Bounds().Dy()
	barH := max(mh, 160)
	x1, y1 := g.X0+float64(g.NX)*g.Cell, g.Y0+float64(g.NY)*g.Cell
	xt, yt := axisTicks(g.X0, x1, mw), axisTicks(g.Y0, y1, mh)
	yLabelW := 0
	for _, v := range yt {
		yLabelW = max(yLabelW, measure(fmtTick(v)))
	}
	units := "seeds per m^2 per year, log scale"
	labels, ticks := heatTicks(lo, hi)
	var ends [2]string // the bar's bottom and top: the tick says "0" when all is zero
	if hi > 0 {
		ends = [2]string{"min " + fmtDensity(lo), "max " + fmtDensity(hi)}
	}
	legend := []struct {
		c     color.NRGBA
		label string
	}{{heatBackground, "no seeds"}}
	if hi > 0 {
		legend = append(legend, struct {
			c     color.NRGBA
			label string
		}{heatBelow, "seeds, below " + fmtDensity(lo)})
	}
	labelW := max(measure(ends[0]), measure(ends[1]))
	for _, l := range labels {
		labelW = max(labelW, measure(l))
	}
	for _, l := range legend {
		labelW = max(labelW, measure(l.label))
	}
	mx := pad + yLabelW + tickL + 4 // the map's left edge
	bx := mx + mw + 2*pad           // the colour bar's
	width := bx + barW + 6 + max(labelW, 24) + pad
	for _, s := range []string{o.Title, units} {
		width = max(width, 2*pad+measure(s)+40)
	}
	top := pad + 3*lineH + 4
	legendH := len(legend) * (lineH + 4)
	bottom := top + max(mh+tickL+lineH+lineH+4, barH+lineH+legendH+8)
	height := bottom + pad
	img := image.NewNRGBA(image.Rect(0, 0, width, height))
	draw.Draw(img, img.Bounds(), image.NewUniform(heatPaper), image.Point{}, draw.Src)
	text := func(x, y int, s string) {
		d := font.Drawer{Dst: img, Src: image.NewUniform(heatInk), Face: face, Dot: fixed.P(x, y)}
		d.DrawString(s)
	}
	hline := func(x0, x1, y int) {
		for x := x0; x < x1; x++ {
			img.SetNRGBA(x, y, heatInk)
		}
	}
	vline := func(x, y0, y1 int) {
		for y := y0; y < y1; y++ {
			img.SetNRGBA(x, y, heatInk)
		}
	}
	text(pad, pad+11, o.Title)
	text(pad, pad+lineH+11, units)
	mapRect := image.Rect(mx, top, mx+mw, top+mh)
	draw.Draw(img, mapRect, mapImg, image.Point{}, draw.Src)

	// Axes in metres: ticks below and left of the map, north up.
	xPix := func(v float64) int { return mx + int(math.Round((v-g.X0)/(x1-g.X0)*float64(mw))) }
	yPix := func(v float64) int { return top + mh - int(math.Round((v-g.Y0)/(y1-g.Y0)*float64(mh))) }
	for _, v := range xt {
		x := min(xPix(v), mx+mw-1)
		vline(x, top+mh, top+mh+tickL)
		l := fmtTick(v)
		text(x-measure(l)/2, top+mh+tickL+11, l)
	}
	for _, v := range yt {
		y := max(yPix(v), top)
		hline(mx-tickL, mx, y)
		l := fmtTick(v)
		text(mx-tickL-2-measure(l), y+4, l)
	}
	axis := "x, y in m"
	text(mx+mw-measure(axis), top+mh+tickL+lineH+11, axis)
	// N and an arrow, above the map's top right corner.
	ax := mx + mw - 4
	text(ax-measure("N")-6, top-4, "N")
	vline(ax, top-lineH-2, top-2)
	for k := 1; k <= 3; k++ {
		hline(ax-k, ax+k+1, top-lineH-2+k)
	}

	// The stems: dots of radius 1..6 px by DBH (area-proportional).
	if len(o.Stems) > 0 {
		maxD := 0.0
		for _, s := range o.Stems {
			maxD = math.Max(maxD, s.DBH)
		}
		for _, s := range o.Stems {
			if !g.Contains(s.X, s.Y) || !(s.DBH > 0) {
				continue
			}
			r := max(1, math.Min(6, 6*math.Sqrt(s.DBH/maxD)))
			cx, cy := float64(xPix(s.X)), float64(yPix(s.Y))
			for dy := -int(r) - 1; dy <= int(r)+1; dy++ {
				for dx := -int(r) - 1; dx <= int(r)+1; dx++ {
					d := math.Hypot(float64(dx), float64(dy))
					p := image.Pt(int(cx)+dx, int(cy)+dy)
					if !p.In(mapRect) || d > r+0.5 {
						continue
					}
					c := heatStem
					if d > r-0.7 {
						c = heatInk // outline
					}
					img.SetNRGBA(p.X, p.Y, c)
				}
			}
		}
	}
	if hi == 0 && o.Empty != "" {
		msg := "empty: " + o.Empty
		x, y := mx+max(4, (mw-measure(msg))/2), top+mh/2
		draw.Draw(img, image.Rect(x-3, y-12, x+measure(msg)+3, y+4), image.NewUniform(heatPaper), image.Point{}, draw.Src)
		text(x, y, msg)
	}

	// The colour bar: top is the maximum, bottom Decades below it; its
	// ends labelled with the scale's values.
	barTop := top + lineH
	for y := 0; y < barH; y++ {
		var c color.NRGBA
		if hi == 0 {
			c = heatBackground
		} else {
			c = ramp(1 - float64(y)/float64(barH-1))
		}
		for x := bx; x < bx+barW; x++ {
			img.SetNRGBA(x, barTop+y, c)
		}
	}
	text(bx, barTop-4, ends[1])
	text(bx, barTop+barH+11, ends[0])
	for i, t := range ticks {
		y := barTop + int(math.Round((1-t)*float64(barH-1)))
		hline(bx+barW, bx+barW+4, y)
		text(bx+barW+6, y+4, labels[i])
	}
	// The legend: swatches for no seeds and seeds below the scale.
	ly := barTop + barH + lineH + 8
	for _, l := range legend {
		draw.Draw(img, image.Rect(bx, ly, bx+barW, ly+lineH-3), image.NewUniform(l.c), image.Point{}, draw.Src)
		text(bx+barW+6, ly+lineH-4, l.label)
		ly += lineH + 4
	}
	return img, mapRect
}

// axisTicks are round values between lo and hi (m), spaced so that labels
// about 70 pixels apart fit along px pixels.
func axisTicks(lo, hi float64, px int) []float64 {
	n := max(2, px/70)
	raw := (hi - lo) / float64(n)
	if !(raw > 0) {
		return []float64{lo}
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	step := p
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			step = m * p
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step-1e-9) * step; v <= hi+1e-9*step; v += step {
		out = append(out, v)
	}
	return out
}

// fmtTick formats an axis value in metres.
func fmtTick(v float64) string {
	if math.Abs(v) < 1e-9 {
		v = 0
	}
	return strconv.FormatFloat(v, 'g', 7, 64)
}

// fmtDensity formats a density for the colour bar's ends.
func fmtDensity(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }

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
