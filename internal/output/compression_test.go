package output

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// Every compression level writes the same pixels; only size and time differ.
func TestWritePNGCompressedLevels(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 37, 23))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7919 % 251)
	}
	dir := t.TempDir()
	for _, c := range []Compression{CompressDefault, CompressFast, CompressBest} {
		path := filepath.Join(dir, "x.png")
		if err := WritePNGCompressed(path, img, Depth8, c); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for y := 0; y < 23; y++ {
			for x := 0; x < 37; x++ {
				if color.NRGBAModel.Convert(got.At(x, y)) != img.NRGBAAt(x, y) {
					t.Fatalf("level %d: pixel (%d,%d) differs", c, x, y)
				}
			}
		}
	}
}
