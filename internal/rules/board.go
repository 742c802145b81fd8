package rules

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
)

// Board is how an int array field is drawn as a W x H grid (element
// y*W + x at column x, row y), as Golly and NetLogo show a world.
type Board struct {
	Field int // index in Program.Fields
	W, H  int
}

// BoardOf picks the board of p: its first int array whose size is the
// product of the constants W and H (life.rules, sandpile.rules), or else
// a perfect square.
func BoardOf(p *Program) (Board, error) {
	w, h := p.Consts["W"], p.Consts["H"]
	for fi, f := range p.Fields {
		if f.Type != Int || f.Scalar {
			continue
		}
		if w > 0 && h > 0 && w*h == int64(f.Size) {
			return Board{fi, int(w), int(h)}, nil
		}
		if r := int(math.Sqrt(float64(f.Size))); r*r == f.Size && r > 1 {
			return Board{fi, r, r}, nil
		}
	}
	return Board{}, fmt.Errorf("%s: no board to draw: want an int array of W*H elements (constants W and H) or of a square size", p.File)
}

// MaxSheetPixels bounds a contact sheet (4 bytes a pixel).
const MaxSheetPixels = 1 << 28

// sheetLayout is where BoardSheet puts k boards: columns, rows, the pixels
// per cell and the image's size.
func sheetLayout(b Board, k int) (cols, rows, scale, w, h int) {
	cols = int(math.Ceil(math.Sqrt(float64(k))))
	rows = (k + cols - 1) / cols
	scale = max(1, min(8, 256/max(b.W, b.H)))
	const gap = 2
	return cols, rows, scale, cols*(b.W*scale+gap) + gap, rows*(b.H*scale+gap) + gap
}

// SheetPixels is the size of BoardSheet's image for k boards, to check
// before drawing it.
func SheetPixels(b Board, k int) int64 {
	_, _, _, w, h := sheetLayout(b, k)
	return int64(w) * int64(h)
}

// BoardSheet draws the first k states' boards side by side, in rows, a
// gray gap between them: 0 and 1 only as white and black (Life), up to 8
// distinct values in a fixed palette by rank (a sandpile's 0..3), more as
// a gray ramp from the least (white) to the greatest (black) value shown.
func BoardSheet(p *Program, st *States, b Board, k int) (*image.NRGBA, error) {
	k = min(k, st.N)
	if k < 1 {
		return nil, fmt.Errorf("%s: no states to draw", p.File)
	}
	if px := SheetPixels(b, k); px > MaxSheetPixels {
		return nil, fmt.Errorf("%s: %d boards of %dx%d make %d pixels, more than %d", p.File, k, b.W, b.H, px, int64(MaxSheetPixels))
	}
	f := p.Fields[b.Field]
	var distinct []int32
	lo, hi := int32(math.MaxInt32), int32(math.MinInt32)
	for s := range k {
		for _, v := range st.State(s)[f.Off : f.Off+b.W*b.H] {
			x := int32(v)
			lo, hi = min(lo, x), max(hi, x)
			if len(distinct) <= 8 && !slices.Contains(distinct, x) {
				distinct = append(distinct, x)
			}
		}
	}
	slices.Sort(distinct)
	// White, then light to dark hues, for up to 8 values.
	palette := [8]color.NRGBA{
		{255, 255, 255, 255}, {253, 219, 99, 255}, {244, 128, 56, 255}, {179, 32, 66, 255},
		{92, 24, 112, 255}, {36, 90, 160, 255}, {40, 160, 120, 255}, {0, 0, 0, 255},
	}
	shade := func(x int32) color.NRGBA {
		switch {
		case lo >= 0 && hi <= 1:
			if x == 1 {
				return color.NRGBA{0, 0, 0, 255}
			}
			return color.NRGBA{255, 255, 255, 255}
		case len(distinct) <= 8:
			return palette[slices.Index(distinct, x)]
		}
		g := uint8(255 - math.Round(255*float64(int64(x)-int64(lo))/float64(int64(hi)-int64(lo))))
		return color.NRGBA{g, g, g, 255}
	}
	cols, _, scale, w, h := sheetLayout(b, k)
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = 128, 128, 128, 255
	}
	for s := range k {
		x0 := 2 + (s%cols)*(b.W*scale+2)
		y0 := 2 + (s/cols)*(b.H*scale+2)
		cells := st.State(s)[f.Off : f.Off+b.W*b.H]
		for y := range b.H {
			for x := range b.W {
				c := shade(int32(cells[y*b.W+x]))
				for dy := range scale {
					for dx := range scale {
						img.SetNRGBA(x0+x*scale+dx, y0+y*scale+dy, c)
					}
				}
			}
		}
	}
	return img, nil
}
