package flame

import (
	"image"
	"image/color"
	"math"
)

// Frame is a rendered image before quantisation: per pixel R, G, B on
// flam3's 0..255 scale and alpha on 0..1, as float32.
type Frame struct {
	Width, Height int
	Pix           []float32
}

func newFrame(w, h int) *Frame { return &Frame{Width: w, Height: h, Pix: make([]float32, 4*w*h)} }

// NRGBA quantises to 8 bits the way flam3 does (truncation), so renders can
// be compared with flam3's pixel for pixel.
func (f *Frame) NRGBA() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, f.Width, f.Height))
	for i := 0; i < f.Width*f.Height; i++ {
		p := f.Pix[4*i : 4*i+4]
		img.Pix[4*i] = uint8(p[0])
		img.Pix[4*i+1] = uint8(p[1])
		img.Pix[4*i+2] = uint8(p[2])
		img.Pix[4*i+3] = uint8(p[3] * 255)
	}
	return img
}

// NRGBA64 quantises to 16 bits over the full 0..65535 range (flam3 writes
// 0..65280; the full range is what other tools expect of a 16-bit PNG).
func (f *Frame) NRGBA64() *image.NRGBA64 {
	img := image.NewNRGBA64(image.Rect(0, 0, f.Width, f.Height))
	for y := 0; y < f.Height; y++ {
		for x := 0; x < f.Width; x++ {
			p := f.Pix[4*(y*f.Width+x):]
			img.SetNRGBA64(x, y, color.NRGBA64{
				R: uint16(math.Round(float64(p[0]) * 257)), G: uint16(math.Round(float64(p[1]) * 257)),
				B: uint16(math.Round(float64(p[2]) * 257)), A: uint16(math.Round(float64(p[3]) * 65535)),
			})
		}
	}
	return img
}
