package turtle

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"runtime"
)

// RenderOptions control Render.
type RenderOptions struct {
	Width, Height int // pixels
	Margin        int // pixels left free on every side
	View          View
	Background    color.NRGBA
	// Foreground draws everything when Palette is empty; the zero value
	// means opaque black.
	Foreground color.NRGBA
	// Palette colours colour index i with Palette[i % len(Palette)].
	Palette []color.NRGBA
	// WidthScale multiplies the turtle's widths, which are in world units
	// and scaled with the drawing; 0 means 1. Lines are at least one pixel
	// wide whatever the scale.
	WidthScale float64
	// Units say what the turtle's widths (times WidthScale) measure: world
	// units (the zero value), pixels, as cpfg draws 2D lines, or hundredths
	// of the longest segment (see WidthUnits and AutoWidths). The drawing
	// is fitted to the image with its lines' widths.
	Units WidthUnits
	// PixelWidths is Units = WidthsPixels.
	PixelWidths bool
	// Workers render bands of rows in parallel; 0 means GOMAXPROCS. The
	// image does not depend on it.
	Workers int
}

// PreviewPalette is the colours a preview gives the colour indices: the
// materials' colours, pal (a --color-map's) or GLBPalette when it is
// empty, in 8 bits, so a PNG preview colours each segment, polygon and
// surface as the GLB, OBJ and PLY materials of its index are coloured.
// The values are copied, not converted: a colour map's 0..255 lines come
// back as written.
func PreviewPalette(pal [][3]float64) []color.NRGBA {
	if len(pal) == 0 {
		pal = GLBPalette
	}
	out := make([]color.NRGBA, len(pal))
	for i, c := range pal {
		out[i] = color.NRGBA{to8(float32(c[0])), to8(float32(c[1])), to8(float32(c[2])), 255}
	}
	return out
}

// maxSide bounds the image so that pixel coordinates stay exact in float32.
const maxSide = 1 << 15

// bandRows is the height of the bands of rows rendered as one task.
const bandRows = 16

// Render draws g in orthographic projection along o.View, scaled uniformly
// so that its bounding rectangle fits inside the margins and centred.
// Segments are antialiased capsules (coverage from the exact distance to the
// segment), polygons are filled with the even-odd rule and 4 sub-scanlines
// of exact horizontal coverage; segments are drawn in string order, then the
// polygons, each composited over what is below it.
func Render(ctx context.Context, g *Geometry, o RenderOptions) (*image.NRGBA, error) {
	if o.Width < 1 || o.Height < 1 || o.Width > maxSide || o.Height > maxSide {
		return nil, fmt.Errorf("turtle: render: image size %dx%d outside 1..%d", o.Width, o.Height, maxSide)
	}
	if o.Margin < 0 || 2*o.Margin >= min(o.Width, o.Height) {
		return nil, fmt.Errorf("turtle: render: margin %d does not fit a %dx%d image", o.Margin, o.Width, o.Height)
	}
	if !(o.WidthScale >= 0) || math.IsInf(o.WidthScale, 0) {
		return nil, fmt.Errorf("turtle: render: width scale %v", o.WidthScale)
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	r, err := newRaster(ctx, g, o)
	if err != nil {
		return nil, err
	}
	img := image.NewNRGBA(image.Rect(0, 0, o.Width, o.Height))
	nb := (o.Height + bandRows - 1) / bandRows
	bands, err := r.bin(ctx, nb)
	if err != nil {
		return nil, err
	}
	err = forEach(ctx, workers, nb, func(b int) { r.band(ctx, img, b, bands) })
	if err != nil {
		return nil, err
	}
	return img, nil
}

// renderCheck is how many segments, polygons or vertices the renderer
// handles between looks at the context: its passes over the whole geometry,
// and one band's items, can each be millions, and a core does this many in
// well under a millisecond.
const renderCheck = 1 << 14

// cancelled reports ctx's error every renderCheck-th i.
func cancelled(ctx context.Context, i int) error {
	if i%renderCheck != 0 {
		return nil
	}
	return ctx.Err()
}

// line is a projected segment in pixel coordinates.
type line struct {
	x0, y0, x1, y1, r float32
	color             uint16
}

type raster struct {
	o     RenderOptions
	lines []line
	// Projected polygon vertices, per polygon in g.Polygons.
	pverts [][2]float32
	polys  []Polygon
}

func newRaster(ctx context.Context, g *Geometry, o RenderOptions) (*raster, error) {
	right, up := o.View.basis()
	proj := func(p [3]float32) (float64, float64) {
		v := vec3{float64(p[0]), float64(p[1]), float64(p[2])}
		return dot(v, right), dot(v, up)
	}
	ws := o.WidthScale
	if ws == 0 {
		ws = 1
	}
	units := o.Units
	if o.PixelWidths {
		units = WidthsPixels
	}
	world := ws * g.WorldWidthScale(units) // world width of a turtle width
	inf := math.Inf(1)
	x0, y0, x1, y1 := inf, inf, -inf, -inf
	fit := func(p [3]float32, r float64) {
		x, y := proj(p)
		x0, y0, x1, y1 = min(x0, x-r), min(y0, y-r), max(x1, x+r), max(y1, y+r)
	}
	pxMax := 1.0 // the widest line in pixels
	for i := range g.Segments {
		if err := cancelled(ctx, i); err != nil {
			return nil, err
		}
		sg := &g.Segments[i]
		r := 0.0
		if units == WidthsPixels {
			pxMax = max(pxMax, float64(sg.Width)*ws)
		} else {
			r = float64(sg.Width) * world / 2
		}
		fit(sg.A, r)
		fit(sg.B, r)
	}
	for i, p := range g.PolyVerts {
		if err := cancelled(ctx, i); err != nil {
			return nil, err
		}
		fit(p, 0)
	}
	if x0 > x1 { // nothing to draw
		x0, y0, x1, y1 = 0, 0, 0, 0
	}
	w, h := float64(o.Width-2*o.Margin), float64(o.Height-2*o.Margin)
	if units == WidthsPixels { // lines of constant width: leave room for half of one on every side
		w, h = w-min(pxMax, w/2), h-min(pxMax, h/2)
	}
	s := math.Inf(1)
	if x1 > x0 {
		s = w / (x1 - x0)
	}
	if y1 > y0 {
		s = min(s, h/(y1-y0))
	}
	if math.IsInf(s, 1) {
		s = 1
	}
	cx, cy := (x0+x1)/2, (y0+y1)/2
	screen := func(p [3]float32) (float32, float32) {
		x, y := proj(p)
		return float32(float64(o.Width)/2 + (x-cx)*s), float32(float64(o.Height)/2 - (y-cy)*s)
	}
	r := &raster{o: o, lines: make([]line, len(g.Segments)), polys: g.Polygons}
	for i, sg := range g.Segments {
		if err := cancelled(ctx, i); err != nil {
			return nil, err
		}
		l := &r.lines[i]
		l.x0, l.y0 = screen(sg.A)
		l.x1, l.y1 = screen(sg.B)
		px := float64(sg.Width) * ws
		if units != WidthsPixels {
			px = float64(sg.Width) * world * s
		}
		// At least one pixel; at most the image, so that a huge width costs
		// no more than filling it.
		l.r = float32(min(max(px, 1), float64(o.Width+o.Height)) / 2)
		l.color = sg.Color
	}
	r.pverts = make([][2]float32, len(g.PolyVerts))
	for i, p := range g.PolyVerts {
		if err := cancelled(ctx, i); err != nil {
			return nil, err
		}
		x, y := screen(p)
		r.pverts[i] = [2]float32{x, y}
	}
	return r, nil
}

// bands lists, per band, the lines and then the polygons that reach into
// it, in order: lines as their index, polygons as -1-index.
type bands struct {
	start []int
	items []int32
}

func (r *raster) bin(ctx context.Context, nb int) (bands, error) {
	rowsOf := func(y0, y1 float32) (int, int) {
		if y1 < 0 || y0 >= float32(r.o.Height) {
			return 1, 0
		}
		return floorIn(y0, 0, r.o.Height-1) / bandRows, floorIn(y1, 0, r.o.Height-1) / bandRows
	}
	var b bands
	b.start = make([]int, nb+1)
	visit := func(add func(band int, item int32)) error {
		for i := range r.lines {
			if err := cancelled(ctx, i); err != nil {
				return err
			}
			l := &r.lines[i]
			e := l.r + 0.5
			lo, hi := rowsOf(min(l.y0, l.y1)-e, max(l.y0, l.y1)+e)
			for k := lo; k <= hi; k++ {
				add(k, int32(i))
			}
		}
		for i, p := range r.polys {
			if err := cancelled(ctx, i); err != nil {
				return err
			}
			y0, y1 := float32(math.Inf(1)), float32(math.Inf(-1))
			for _, v := range r.pverts[p.First : p.First+p.Count] {
				y0, y1 = min(y0, v[1]), max(y1, v[1])
			}
			lo, hi := rowsOf(y0, y1)
			for k := lo; k <= hi; k++ {
				add(k, int32(-1-i))
			}
		}
		return nil
	}
	if err := visit(func(k int, _ int32) { b.start[k+1]++ }); err != nil {
		return b, err
	}
	for k := range nb {
		b.start[k+1] += b.start[k]
	}
	b.items = make([]int32, b.start[nb])
	fill := append([]int(nil), b.start[:nb]...)
	err := visit(func(k int, it int32) {
		b.items[fill[k]] = it
		fill[k]++
	})
	return b, err
}

func (r *raster) color(c uint16) [4]float32 {
	col := r.o.Foreground
	if len(r.o.Palette) > 0 {
		col = r.o.Palette[int(c)%len(r.o.Palette)]
	} else if col == (color.NRGBA{}) {
		col = color.NRGBA{A: 255}
	}
	a := float32(col.A) / 255
	return [4]float32{float32(col.R) / 255 * a, float32(col.G) / 255 * a, float32(col.B) / 255 * a, a}
}

// band renders rows [b*bandRows, ...) into img through a premultiplied
// float buffer. It stops, leaving the band unfinished, once ctx is done.
func (r *raster) band(ctx context.Context, img *image.NRGBA, b int, bs bands) {
	W := r.o.Width
	y0 := b * bandRows
	rows := min(bandRows, r.o.Height-y0)
	buf := make([]float32, 4*W*rows)
	bg := r.o.Background
	ba := float32(bg.A) / 255
	bgp := [4]float32{float32(bg.R) / 255 * ba, float32(bg.G) / 255 * ba, float32(bg.B) / 255 * ba, ba}
	copy(buf, bgp[:])
	for k := 4; k < len(buf); k *= 2 {
		copy(buf[k:], buf[:k])
	}
	var acc []float32
	for k, it := range bs.items[bs.start[b]:bs.start[b+1]] {
		if cancelled(ctx, k) != nil {
			return
		}
		if it >= 0 {
			r.drawLine(buf, y0, rows, &r.lines[it])
		} else {
			if acc == nil {
				acc = make([]float32, W)
			}
			r.fillPolygon(buf, acc, y0, rows, &r.polys[-1-it])
		}
	}
	for j := range rows {
		px := img.Pix[(y0+j)*img.Stride:][:4*W]
		src := buf[4*W*j:][:4*W]
		for i, v := range src {
			px[i] = to8(v)
		}
		// Straight alpha: divide the colour by alpha where it is not 1.
		for i := 0; i < 4*W; i += 4 {
			if px[i+3] == 255 {
				continue
			}
			if a := src[i+3]; a > 0 {
				px[i], px[i+1], px[i+2] = to8(src[i]/a), to8(src[i+1]/a), to8(src[i+2]/a)
			} else {
				px[i], px[i+1], px[i+2] = 0, 0, 0
			}
		}
	}
}

// floorIn is floor(v) clamped to lo..hi, clamped before converting so that
// far-away coordinates do not overflow the conversion.
func floorIn(v float32, lo, hi int) int {
	v = min(max(v, float32(lo)), float32(hi))
	t := int(v) // towards zero; math.Floor costs a call
	if v < float32(t) {
		t--
	}
	return t
}

func to8(v float32) uint8 { return uint8(min(max(v, 0), 1)*255 + 0.5) }

// blend composites colour c (premultiplied) with coverage a over pixel p.
func blend(p []float32, c [4]float32, a float32) {
	k := 1 - a*c[3]
	p[0] = c[0]*a + p[0]*k
	p[1] = c[1]*a + p[1]*k
	p[2] = c[2]*a + p[2]*k
	p[3] = c[3]*a + p[3]*k
}

// drawLine draws a capsule of radius l.r around the segment: a pixel's
// coverage is r + 0.5 minus its centre's distance to the segment, clamped
// to 0..1, which for a one-pixel line spreads it over the two pixels it
// passes between in proportion.
func (r *raster) drawLine(buf []float32, y0, rows int, l *line) {
	W := r.o.Width
	c := r.color(l.color)
	e := l.r + 0.5
	dx, dy := l.x1-l.x0, l.y1-l.y0
	dd := dx*dx + dy*dy
	ymin, ymax := min(l.y0, l.y1), max(l.y0, l.y1)
	jlo := -floorIn(-(ymin - e - 0.5), -(y0 + rows), -y0) // ceil
	jhi := floorIn(ymax+e-0.5, y0-1, y0+rows-1)
	for j := jlo; j <= jhi; j++ {
		yc := float32(j) + 0.5
		// The segment's x over the rows within e of this one, widened by e.
		ya, yb := max(yc-e, ymin), min(yc+e, ymax)
		xa, xb := min(l.x0, l.x1), max(l.x0, l.x1)
		if dy != 0 {
			xa = l.x0 + (ya-l.y0)*dx/dy
			xb = l.x0 + (yb-l.y0)*dx/dy
			xa, xb = min(xa, xb), max(xa, xb)
		}
		ilo := -floorIn(-(xa - e - 0.5), -W, 0) // ceil
		ihi := floorIn(xb+e-0.5, -1, W-1)
		row := buf[4*W*(j-y0):]
		for i := ilo; i <= ihi; i++ {
			px, py := float32(i)+0.5-l.x0, yc-l.y0
			t := float32(0)
			if dd > 0 {
				t = min(max((px*dx+py*dy)/dd, 0), 1)
			}
			qx, qy := px-t*dx, py-t*dy
			cov := e - float32(math.Sqrt(float64(qx*qx+qy*qy)))
			if cov <= 0 {
				continue
			}
			blend(row[4*i:4*i+4], c, min(cov, 1))
		}
	}
}

// fillPolygon fills a polygon with the even-odd rule; acc is a scratch row
// of zeros, left zeroed.
func (r *raster) fillPolygon(buf, acc []float32, y0, rows int, pg *Polygon) {
	W := r.o.Width
	vs := r.pverts[pg.First : pg.First+pg.Count]
	c := r.color(pg.Color)
	ylo, yhi := float32(math.Inf(1)), float32(math.Inf(-1))
	for _, v := range vs {
		ylo, yhi = min(ylo, v[1]), max(yhi, v[1])
	}
	jlo := floorIn(ylo, y0, y0+rows)
	jhi := floorIn(yhi, y0-1, y0+rows-1)
	var xs []float32
	for j := jlo; j <= jhi; j++ {
		touched0, touched1 := W, -1
		for k := range 4 {
			y := float32(j) + (float32(k)+0.5)/4
			xs = xs[:0]
			for e := range vs {
				a, b := vs[e], vs[(e+1)%len(vs)]
				if (a[1] <= y) != (b[1] <= y) {
					xs = append(xs, a[0]+(y-a[1])*(b[0]-a[0])/(b[1]-a[1]))
				}
			}
			for m := 1; m < len(xs); m++ { // insertion sort: few crossings
				for n := m; n > 0 && xs[n] < xs[n-1]; n-- {
					xs[n], xs[n-1] = xs[n-1], xs[n]
				}
			}
			for m := 0; m+1 < len(xs); m += 2 {
				xa, xb := max(xs[m], 0), min(xs[m+1], float32(W))
				for i := int(xa); i < W && float32(i) < xb; i++ {
					acc[i] += (min(xb, float32(i+1)) - max(xa, float32(i))) / 4
					touched0, touched1 = min(touched0, i), max(touched1, i)
				}
			}
		}
		row := buf[4*W*(j-y0):]
		for i := touched0; i <= touched1; i++ {
			if a := min(acc[i], 1); a > 0 {
				blend(row[4*i:4*i+4], c, a)
			}
			acc[i] = 0
		}
	}
}
