package output

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"

	"github.com/disintegration/imaging"
)

// BitDepth is the number of bits per channel in a written PNG.
type BitDepth int

// The bit depths PNG offers for colour images with alpha.
const (
	Depth8  BitDepth = 8
	Depth16 BitDepth = 16
)

// Compression is how hard the PNG encoder works. Renders of noisy images
// (fractal flames) shrink little with effort: CompressFast is about 7 times
// quicker than CompressDefault on them, for a few percent of size.
type Compression int

const (
	CompressDefault Compression = iota // zlib's default: small files
	CompressFast                       // zlib's fastest level
	CompressBest                       // smallest files, slowest
)

func (c Compression) level() png.CompressionLevel {
	switch c {
	case CompressFast:
		return png.BestSpeed
	case CompressBest:
		return png.BestCompression
	}
	return png.DefaultCompression
}

// WritePNG atomically writes img as a PNG file with depth bits per channel,
// at the default compression.
func WritePNG(path string, img image.Image, depth BitDepth) error {
	return WritePNGCompressed(path, img, depth, CompressDefault)
}

// WritePNGCompressed is WritePNG with a chosen compression effort.
func WritePNGCompressed(path string, img image.Image, depth BitDepth, c Compression) error {
	// Checked before any file is created, so a bad call leaves no trace.
	if err := checkDepth(depth); err != nil {
		return fmt.Errorf("output: write %s: %w", path, err)
	}
	return WriteFile(path, func(w io.Writer) error { return encodePNG(context.Background(), w, img, depth, c) })
}

// EncodePNG writes img to w as a PNG with depth bits per channel, keeping
// alpha. Depth8 writes 8-bit gray for *image.Gray and *image.Gray16 and 8-bit RGBA
// otherwise;
// Depth16 writes 16-bit gray for *image.Gray and *image.Gray16 and 16-bit
// RGBA otherwise, with the full precision of 16-bit inputs. The encoder drops
// the alpha channel itself when every pixel is opaque. It stops with ctx's
// error between strips of rows (at most 128 KiB of pixels each).
func EncodePNG(ctx context.Context, w io.Writer, img image.Image, depth BitDepth) error {
	if err := encodePNG(ctx, w, img, depth, CompressDefault); err != nil {
		return fmt.Errorf("output: encode png: %w", err)
	}
	return nil
}

func checkDepth(depth BitDepth) error {
	if depth != Depth8 && depth != Depth16 {
		return fmt.Errorf("png: unsupported bit depth %d (want 8 or 16)", depth)
	}
	return nil
}

func encodePNG(ctx context.Context, w io.Writer, img image.Image, depth BitDepth, c Compression) error {
	return encodePNGChunks(ctx, w, img, depth, c, nil)
}

// encodePNGChunks is encodePNG with extra complete chunks (text) written
// right after IHDR.
func encodePNGChunks(ctx context.Context, w io.Writer, img image.Image, depth BitDepth, c Compression, chunks []byte) error {
	if err := checkDepth(depth); err != nil {
		return err
	}
	if img.Bounds().Empty() {
		return fmt.Errorf("png: empty image %v", img.Bounds())
	}
	var out image.Image
	if depth == Depth8 {
		out = to8Bit(img)
	} else {
		out = to16Bit(img)
	}
	// to8Bit and to16Bit return only the types the encoder takes.
	src, ok := newPNGSource(out)
	if !ok {
		return fmt.Errorf("png: no encoding for %T", out)
	}
	return encodePNGParallel(ctx, w, src, c.level(), chunks)
}

// to8Bit picks a representation the encoder takes (newPNGSource).
// imaging.Clone converts any other type to straight-alpha NRGBA in parallel.
func to8Bit(img image.Image) image.Image {
	switch img := img.(type) {
	case *image.NRGBA, *image.Gray:
		return img
	case *image.Gray16:
		// Gray stays gray: a third of the size of RGB for the same pixels.
		b := img.Bounds()
		dst := image.NewGray(b)
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				dst.SetGray(x, y, color.Gray{Y: uint8(img.Gray16At(x, y).Y >> 8)})
			}
		}
		return dst
	}
	return imaging.Clone(img)
}

func to16Bit(img image.Image) image.Image {
	b := img.Bounds()
	switch src := img.(type) {
	case *image.NRGBA64, *image.Gray16:
		return src
	case *image.Gray:
		dst := image.NewGray16(b)
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				dst.SetGray16(x, y, color.Gray16{Y: uint16(src.GrayAt(x, y).Y) * 0x101})
			}
		}
		return dst
	case *image.NRGBA:
		// Exact widening (v*257 maps 0..255 onto 0..65535), unlike a round
		// trip through premultiplied RGBA(), which loses translucent detail.
		dst := image.NewNRGBA64(b)
		for y := 0; y < b.Dy(); y++ {
			s := src.Pix[y*src.Stride : y*src.Stride+4*b.Dx()]
			d := dst.Pix[y*dst.Stride : y*dst.Stride+8*b.Dx()]
			for i, v := range s {
				d[2*i], d[2*i+1] = v, v
			}
		}
		return dst
	}
	// color.NRGBA64Model un-premultiplies at 16 bits, so RGBA64 and other
	// 16-bit sources keep all the precision that straight alpha can hold.
	dst := image.NewNRGBA64(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			dst.SetNRGBA64(x, y, color.NRGBA64Model.Convert(img.At(x, y)).(color.NRGBA64))
		}
	}
	return dst
}
