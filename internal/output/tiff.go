package output

import (
	"context"
	"fmt"
	"image"
	"io"

	"golang.org/x/image/tiff"
)

// EncodeTIFF16 writes img to w as a 16-bit RGBA TIFF with unassociated
// (straight) alpha, Deflate-compressed: golang.org/x/image/tiff writes 16
// bits per channel for an *image.NRGBA64, which every TIFF reader takes.
// The encoder has no context: ctx is checked before it starts, and a TIFF
// of a frame encodes in a fraction of the render's time.
func EncodeTIFF16(ctx context.Context, w io.Writer, img *image.NRGBA64) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("output: encode tiff: %w", err)
	}
	if img.Bounds().Empty() {
		return fmt.Errorf("output: encode tiff: empty image %v", img.Bounds())
	}
	if err := tiff.Encode(w, img, &tiff.Options{Compression: tiff.Deflate}); err != nil {
		return fmt.Errorf("output: encode tiff: %w", err)
	}
	return nil
}
