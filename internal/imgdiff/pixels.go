package imgdiff

import (
	"image"
	"image/color"
)

// rowReader fills dst with four straight-alpha 16-bit values (R, G, B, A)
// per pixel for the first len(dst)/4 pixels of row y, counted from the top
// left of the image's bounds; len(dst)/4 must not exceed the width. Readers
// only read the image, so several goroutines may share one.
type rowReader func(y int, dst []uint16)

// newRowReader returns a reader with a fast path for the image types the
// standard library decoders and procgen's renderers produce. Straight alpha
// is what PNG stores, so NRGBA inputs compare without any rounding.
func newRowReader(img image.Image) rowReader {
	b := img.Bounds()
	switch m := img.(type) {
	case *image.NRGBA:
		return func(y int, dst []uint16) {
			w := len(dst) / 4
			pix := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:4*w]
			for i, v := range pix {
				dst[i] = uint16(v) * 0x101
			}
		}
	case *image.NRGBA64:
		return func(y int, dst []uint16) {
			w := len(dst) / 4
			pix := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:8*w]
			for i := range 4 * w {
				dst[i] = uint16(pix[2*i])<<8 | uint16(pix[2*i+1])
			}
		}
	case *image.RGBA:
		return func(y int, dst []uint16) {
			w := len(dst) / 4
			pix := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:4*w]
			for i := 0; i < len(pix); i += 4 {
				a := uint32(pix[i+3]) * 0x101
				dst[i+0] = unpremultiply(uint32(pix[i+0])*0x101, a)
				dst[i+1] = unpremultiply(uint32(pix[i+1])*0x101, a)
				dst[i+2] = unpremultiply(uint32(pix[i+2])*0x101, a)
				dst[i+3] = uint16(a)
			}
		}
	case *image.RGBA64:
		return func(y int, dst []uint16) {
			w := len(dst) / 4
			pix := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:8*w]
			for i := 0; i < 4*w; i += 4 {
				p := pix[2*i : 2*i+8]
				a := uint32(p[6])<<8 | uint32(p[7])
				dst[i+0] = unpremultiply(uint32(p[0])<<8|uint32(p[1]), a)
				dst[i+1] = unpremultiply(uint32(p[2])<<8|uint32(p[3]), a)
				dst[i+2] = unpremultiply(uint32(p[4])<<8|uint32(p[5]), a)
				dst[i+3] = uint16(a)
			}
		}
	case *image.Gray:
		return func(y int, dst []uint16) {
			w := len(dst) / 4
			pix := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:w]
			for i, v := range pix {
				g := uint16(v) * 0x101
				dst[4*i], dst[4*i+1], dst[4*i+2], dst[4*i+3] = g, g, g, 0xffff
			}
		}
	case *image.Gray16:
		return func(y int, dst []uint16) {
			w := len(dst) / 4
			pix := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:2*w]
			for i := range w {
				g := uint16(pix[2*i])<<8 | uint16(pix[2*i+1])
				dst[4*i], dst[4*i+1], dst[4*i+2], dst[4*i+3] = g, g, g, 0xffff
			}
		}
	case *image.Paletted:
		// Indices past the palette read as opaque black, as image/png
		// decodes them, rather than panicking like Paletted.At.
		var table [256][4]uint16
		for i := range table {
			table[i] = [4]uint16{0, 0, 0, 0xffff}
			if i < len(m.Palette) {
				table[i] = straight(m.Palette[i])
			}
		}
		return func(y int, dst []uint16) {
			w := len(dst) / 4
			pix := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:w]
			for i, v := range pix {
				copy(dst[4*i:4*i+4], table[v][:])
			}
		}
	}
	return func(y int, dst []uint16) {
		w := len(dst) / 4
		for x := range w {
			c := straight(img.At(b.Min.X+x, b.Min.Y+y))
			copy(dst[4*x:4*x+4], c[:])
		}
	}
}

// straight converts c to straight alpha at 16 bits. Straight colors are
// widened directly: going through RGBA() would premultiply and lose the
// color of translucent pixels.
func straight(c color.Color) [4]uint16 {
	switch c := c.(type) {
	case color.NRGBA:
		return [4]uint16{uint16(c.R) * 0x101, uint16(c.G) * 0x101, uint16(c.B) * 0x101, uint16(c.A) * 0x101}
	case color.NRGBA64:
		return [4]uint16{c.R, c.G, c.B, c.A}
	}
	r, g, b, a := c.RGBA()
	return [4]uint16{unpremultiply(r, a), unpremultiply(g, a), unpremultiply(b, a), uint16(a)}
}

// unpremultiply matches color.NRGBA64Model, except that it clamps invalid
// premultiplied input (a channel above alpha) instead of wrapping around.
func unpremultiply(c, a uint32) uint16 {
	switch {
	case a == 0xffff:
		return uint16(c)
	case a == 0:
		return 0
	case c >= a:
		return 0xffff
	}
	return uint16(c * 0xffff / a)
}
