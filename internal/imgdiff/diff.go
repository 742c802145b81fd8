package imgdiff

import (
	"github.com/procgen-dev/procgen/internal/parallel"

	"image"
)

// DefaultGain makes a difference of 1/255 per channel, the smallest an
// 8-bit image can have, show as 8/255: faint but visible on a black
// background.
const DefaultGain = 8

// DiffImage returns an opaque image of where a and b differ: each of R, G
// and B is the absolute difference of the two images' straight-alpha
// channel, multiplied by gain and clamped to 1. A gain that is not positive
// means DefaultGain. Differences in alpha alone do not show. Images of
// different sizes are compared over their common top-left part, aligned at
// their bounds' minimum points, so a caller can still look at what it has.
func DiffImage(a, b image.Image, gain float64) *image.NRGBA {
	if !(gain > 0) {
		gain = DefaultGain
	}
	// Past 65535 every non-zero difference saturates already; the cap also
	// keeps an infinite gain from multiplying zero into NaN.
	gain = min(gain, 0xffff)
	sa, sb := a.Bounds().Size(), b.Bounds().Size()
	w, h := min(sa.X, sb.X), min(sa.Y, sb.Y)
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	if w <= 0 || h <= 0 {
		return out
	}
	ra, rb := newRowReader(a), newRowReader(b)
	scale := gain * 255 / 0xffff
	parallel.For(h, minRowsPerBand, func(_, lo, hi int) {
		pa := make([]uint16, 4*w)
		pb := make([]uint16, 4*w)
		for y := lo; y < hi; y++ {
			ra(y, pa)
			rb(y, pb)
			row := out.Pix[y*out.Stride : y*out.Stride+4*w]
			for i := 0; i < len(row); i += 4 {
				for c := range 3 {
					v := float64(absDiff(pa[i+c], pb[i+c]))*scale + 0.5
					row[i+c] = uint8(min(v, 255))
				}
				row[i+3] = 0xff
			}
		}
	})
	return out
}
