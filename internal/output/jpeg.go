package output

import (
	"fmt"
	"image"
	"image/jpeg"
	"io"
)

// EncodeJPEG writes img to w as a baseline JPEG at quality 1..100, as flam3
// writes its .jpg renders (alpha is dropped: JPEG has none).
func EncodeJPEG(w io.Writer, img image.Image, quality int) error {
	if quality < 1 || quality > 100 {
		return fmt.Errorf("output: encode jpeg: quality %d outside 1..100", quality)
	}
	if err := jpeg.Encode(w, img, &jpeg.Options{Quality: quality}); err != nil {
		return fmt.Errorf("output: encode jpeg: %w", err)
	}
	return nil
}

// EncodePNGCompressed is EncodePNG with a chosen compression effort.
func EncodePNGCompressed(w io.Writer, img image.Image, depth BitDepth, c Compression) error {
	if err := checkDepth(depth); err != nil {
		return fmt.Errorf("output: encode png: %w", err)
	}
	if err := encodePNG(w, img, depth, c); err != nil {
		return fmt.Errorf("output: encode png: %w", err)
	}
	return nil
}
