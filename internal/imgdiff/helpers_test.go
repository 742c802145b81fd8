package imgdiff

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"math/rand/v2"
)

func sizeName(p image.Point) string { return fmt.Sprintf("%dx%d", p.X, p.Y) }

func flat(size image.Point, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rectangle{Max: size})
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

func noise(rng *rand.Rand, w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(rng.Uint32())
		if i%4 == 3 {
			img.Pix[i] = 255
		}
	}
	return img
}

func translucent(rng *rand.Rand, w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(rng.Uint32())
	}
	return img
}

// scene is smooth structure, gradients and rings, of the kind renders
// have, so that SSIM has something to lose when noise is added.
func scene(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			r := math.Hypot(float64(x-w/2), float64(y-h/2))
			ring := uint8(127 + 120*math.Sin(r/4))
			img.SetNRGBA(x, y, color.NRGBA{ring, uint8(255 * x / w), uint8(255 * y / h), 255})
		}
	}
	return img
}

func clone(img image.Image) image.Image {
	b := img.Bounds()
	switch img := img.(type) {
	case *image.NRGBA:
		c := image.NewNRGBA(b)
		copy(c.Pix, img.Pix)
		return c
	}
	c := image.NewNRGBA64(b)
	draw.Draw(c, b, img, b.Min, draw.Src)
	return c
}

func clamp8(v int) uint8 { return uint8(min(max(v, 0), 255)) }
