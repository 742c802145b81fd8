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
	s := newHeatScale(density, o.Decades)
	mapImg := s.cells(g, density, o.MaxSide)
	l := newHeatLayout(g, s, mapImg.Bounds().Size(), o.Title)
	c := &heatCanvas{img: image.NewNRGBA(image.Rect(0, 0, l.width, l.height))}
	draw.Draw(c.img, c.img.Bounds(), image.NewUniform(heatPaper), image.Point{}, draw.Src)
	c.text(heatPad, heatPad+11, o.Title)
	c.text(heatPad, heatPad+heatLineH+11, heatUnits)
	draw.Draw(c.img, l.mapRect, mapImg, image.Point{}, draw.Src)
	c.axes(l)
	c.stems(g, l, o.Stems)
	if s.hi == 0 && o.Empty != "" {
		msg := "empty: " + o.Empty
		x, y := l.mapRect.Min.X+max(4, (l.mapRect.Dx()-measure(msg))/2), l.mapRect.Min.Y+l.mapRect.Dy()/2
		draw.Draw(c.img, image.Rect(x-3, y-12, x+measure(msg)+3, y+4), image.NewUniform(heatPaper), image.Point{}, draw.Src)
		c.text(x, y, msg)
	}
	c.colourBar(s, l)
	return c.img, l.mapRect
}

// heatScale is a layer's log colour scale: hi its largest finite density,
// lo the floor Decades below it (or its smallest density, if higher; at
// least a decade below hi).
type heatScale struct{ lo, hi, logLo, logHi float64 }

func newHeatScale(density []float64, decades float64) heatScale {
	hi, minPos := 0.0, math.Inf(1)
	for _, v := range density {
		if v > hi && !math.IsInf(v, 0) {
			hi = v
		}
		if v > 0 && v < minPos {
			minPos = v
		}
	}
	lo := math.Min(math.Max(hi*math.Pow(10, -decades), minPos*0.999), hi/10)
	return heatScale{lo: lo, hi: hi, logLo: math.Log10(lo), logHi: math.Log10(hi)}
}

func (s heatScale) colour(v float64) color.NRGBA {
	switch {
	case !(v > 0) || s.hi == 0:
		return heatBackground
	case !(v > s.lo):
		return heatBelow
	}
	return ramp((math.Log10(v) - s.logLo) / (s.logHi - s.logLo))
}

// cells is the map at one pixel per cell, north up, then scaled: down to
// maxSide, or up to about 720 pixels by whole pixels per cell.
func (s heatScale) cells(g Grid, density []float64, maxSide int) *image.NRGBA {
	cells := image.NewNRGBA(image.Rect(0, 0, g.NX, g.NY))
	for j := 0; j < g.NY; j++ {
		row := cells.Pix[(g.NY-1-j)*cells.Stride:]
		for i := 0; i < g.NX; i++ {
			c := s.colour(density[j*g.NX+i])
			copy(row[4*i:4*i+4], []uint8{c.R, c.G, c.B, c.A})
		}
	}
	long := max(g.NX, g.NY)
	switch {
	case long > maxSide:
		w, h := g.NX*maxSide/long, g.NY*maxSide/long
		return imaging.Resize(cells, max(w, 1), max(h, 1), imaging.Box)
	case long < 720:
		k := min(720/long, 16)
		return imaging.Resize(cells, g.NX*k, g.NY*k, imaging.NearestNeighbor)
	}
	return cells
}

// The heat map's fixed measures in pixels, its font and its units line.
const (
	heatPad, heatLineH, heatBarW, heatTickL = 10, 14, 16, 4
	heatUnits                               = "seeds per m^2 per year, log scale"
)

var heatFace = basicfont.Face7x13

func measure(s string) int { return font.MeasureString(heatFace, s).Round() }

type heatLegend struct {
	c     color.NRGBA
	label string
}

// heatLayout places the parts of a heat map: the map (mapRect), its axis
// ticks (xt, yt, in metres from x0, y0 to x1, y1), the colour bar (at bx,
// barH high) with its tick labels and ends, and the legend below it.
type heatLayout struct {
	mapRect        image.Rectangle
	x0, y0, x1, y1 float64
	xt, yt         []float64
	bx, barH       int
	labels, ends   []string
	ticks          []float64
	legend         []heatLegend
	width, height  int
}

func newHeatLayout(g Grid, s heatScale, mapSize image.Point, title string) heatLayout {
	mw, mh := mapSize.X, mapSize.Y
	l := heatLayout{x0: g.X0, y0: g.Y0, x1: g.X0 + float64(g.NX)*g.Cell, y1: g.Y0 + float64(g.NY)*g.Cell, barH: max(mh, 160)}
	l.xt, l.yt = axisTicks(l.x0, l.x1, mw), axisTicks(l.y0, l.y1, mh)
	yLabelW := 0
	for _, v := range l.yt {
		yLabelW = max(yLabelW, measure(fmtTick(v)))
	}
	l.labels, l.ticks = heatTicks(s.lo, s.hi)
	l.ends = []string{"", ""} // the bar's bottom and top: the tick says "0" when all is zero
	l.legend = []heatLegend{{heatBackground, "no seeds"}}
	if s.hi > 0 {
		l.ends = []string{"min " + fmtDensity(s.lo), "max " + fmtDensity(s.hi)}
		l.legend = append(l.legend, heatLegend{heatBelow, "seeds, below " + fmtDensity(s.lo)})
	}
	labelW := max(measure(l.ends[0]), measure(l.ends[1]))
	for _, t := range l.labels {
		labelW = max(labelW, measure(t))
	}
	for _, g := range l.legend {
		labelW = max(labelW, measure(g.label))
	}
	mx := heatPad + yLabelW + heatTickL + 4 // the map's left edge
	l.bx = mx + mw + 2*heatPad              // the colour bar's
	l.width = l.bx + heatBarW + 6 + max(labelW, 24) + heatPad
	for _, t := range []string{title, heatUnits} {
		l.width = max(l.width, 2*heatPad+measure(t)+40)
	}
	top := heatPad + 3*heatLineH + 4
	legendH := len(l.legend) * (heatLineH + 4)
	bottom := top + max(mh+heatTickL+heatLineH+heatLineH+4, l.barH+heatLineH+legendH+8)
	l.height = bottom + heatPad
	l.mapRect = image.Rect(mx, top, mx+mw, top+mh)
	return l
}

// xPix and yPix are where a point of the plot (m) lies in the image.
func (l heatLayout) xPix(v float64) int {
	return l.mapRect.Min.X + int(math.Round((v-l.x0)/(l.x1-l.x0)*float64(l.mapRect.Dx())))
}

func (l heatLayout) yPix(v float64) int {
	return l.mapRect.Max.Y - int(math.Round((v-l.y0)/(l.y1-l.y0)*float64(l.mapRect.Dy())))
}

// heatCanvas draws text and lines in ink on a heat map's image.
type heatCanvas struct{ img *image.NRGBA }

func (c *heatCanvas) text(x, y int, s string) {
	d := font.Drawer{Dst: c.img, Src: image.NewUniform(heatInk), Face: heatFace, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

func (c *heatCanvas) hline(x0, x1, y int) {
	for x := x0; x < x1; x++ {
		c.img.SetNRGBA(x, y, heatInk)
	}
}

func (c *heatCanvas) vline(x, y0, y1 int) {
	for y := y0; y < y1; y++ {
		c.img.SetNRGBA(x, y, heatInk)
	}
}

// axes draws the ticks in metres below and left of the map, and "N" with
// an arrow above its top right corner.
func (c *heatCanvas) axes(l heatLayout) {
	mx, top, mw, mh := l.mapRect.Min.X, l.mapRect.Min.Y, l.mapRect.Dx(), l.mapRect.Dy()
	for _, v := range l.xt {
		x := min(l.xPix(v), mx+mw-1)
		c.vline(x, top+mh, top+mh+heatTickL)
		t := fmtTick(v)
		c.text(x-measure(t)/2, top+mh+heatTickL+11, t)
	}
	for _, v := range l.yt {
		y := max(l.yPix(v), top)
		c.hline(mx-heatTickL, mx, y)
		t := fmtTick(v)
		c.text(mx-heatTickL-2-measure(t), y+4, t)
	}
	axis := "x, y in m"
	c.text(mx+mw-measure(axis), top+mh+heatTickL+heatLineH+11, axis)
	ax := mx + mw - 4
	c.text(ax-measure("N")-6, top-4, "N")
	c.vline(ax, top-heatLineH-2, top-2)
	for k := 1; k <= 3; k++ {
		c.hline(ax-k, ax+k+1, top-heatLineH-2+k)
	}
}

// stems draws the stems over the map: dots of radius 1..6 px by DBH
// (area-proportional), outlined in ink.
func (c *heatCanvas) stems(g Grid, l heatLayout, stems []Tree) {
	maxD := 0.0
	for _, s := range stems {
		maxD = math.Max(maxD, s.DBH)
	}
	for _, s := range stems {
		if !g.Contains(s.X, s.Y) || !(s.DBH > 0) {
			continue
		}
		r := max(1, math.Min(6, 6*math.Sqrt(s.DBH/maxD)))
		cx, cy := float64(l.xPix(s.X)), float64(l.yPix(s.Y))
		for dy := -int(r) - 1; dy <= int(r)+1; dy++ {
			for dx := -int(r) - 1; dx <= int(r)+1; dx++ {
				d := math.Hypot(float64(dx), float64(dy))
				p := image.Pt(int(cx)+dx, int(cy)+dy)
				if !p.In(l.mapRect) || d > r+0.5 {
					continue
				}
				col := heatStem
				if d > r-0.7 {
					col = heatInk // outline
				}
				c.img.SetNRGBA(p.X, p.Y, col)
			}
		}
	}
}

// colourBar draws the colour bar (top the maximum, bottom Decades below
// it, its ends labelled with the scale's values) and the legend's
// swatches for no seeds and seeds below the scale.
func (c *heatCanvas) colourBar(s heatScale, l heatLayout) {
	barTop := l.mapRect.Min.Y + heatLineH
	for y := 0; y < l.barH; y++ {
		col := heatBackground
		if s.hi != 0 {
			col = ramp(1 - float64(y)/float64(l.barH-1))
		}
		for x := l.bx; x < l.bx+heatBarW; x++ {
			c.img.SetNRGBA(x, barTop+y, col)
		}
	}
	c.text(l.bx, barTop-4, l.ends[1])
	c.text(l.bx, barTop+l.barH+11, l.ends[0])
	for i, t := range l.ticks {
		y := barTop + int(math.Round((1-t)*float64(l.barH-1)))
		c.hline(l.bx+heatBarW, l.bx+heatBarW+4, y)
		c.text(l.bx+heatBarW+6, y+4, l.labels[i])
	}
	ly := barTop + l.barH + heatLineH + 8
	for _, g := range l.legend {
		draw.Draw(c.img, image.Rect(l.bx, ly, l.bx+heatBarW, ly+heatLineH-3), image.NewUniform(g.c), image.Point{}, draw.Src)
		c.text(l.bx+heatBarW+6, ly+heatLineH-4, g.label)
		ly += heatLineH + 4
	}
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
