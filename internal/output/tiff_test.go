package output

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A 16-bit TIFF is described by libtiff's tiffinfo as 16-bit RGBA with
// unassociated alpha, and OpenImageIO reads back every 16-bit value.
func TestTIFF16ReadBack(t *testing.T) {
	img := image.NewNRGBA64(image.Rect(0, 0, 19, 7))
	for y := 0; y < 7; y++ {
		for x := 0; x < 19; x++ {
			// Values whose low byte matters: an 8-bit writer would lose them.
			img.SetNRGBA64(x, y, color.NRGBA64{R: uint16(x*3001 + 7), G: uint16(y*9001 + 1), B: uint16(x*y*257 + 3), A: 65535 - uint16(x*11)})
		}
	}
	var b bytes.Buffer
	if err := EncodeTIFF16(context.Background(), &b, img); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.tif")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	info := toolOutput(t, "libtiff-tools", "tiffinfo", path)
	for _, w := range []string{"Image Width: 19 Image Length: 7", "Bits/Sample: 16", "Samples/Pixel: 4", "unassoc-alpha"} {
		if !strings.Contains(info, w) {
			t.Errorf("tiffinfo lacks %q:\n%s", w, info)
		}
	}
	// OpenImageIO premultiplies straight alpha unless told to keep it.
	px := oiioPixels(t, path, "--iconfig", "oiio:UnassociatedAlpha", "1")
	if len(px) != 19*7 {
		t.Fatalf("oiiotool read %d pixels, want %d", len(px), 19*7)
	}
	for i, p := range px {
		c := img.NRGBA64At(i%19, i/19)
		for ch, want := range []uint16{c.R, c.G, c.B, c.A} {
			if got := p[ch]; got != float64(want) {
				t.Fatalf("pixel %d channel %d: read %v, wrote %d", i, ch, got, want)
			}
		}
	}
}

func TestTIFF16Refuses(t *testing.T) {
	var b bytes.Buffer
	if err := EncodeTIFF16(context.Background(), &b, image.NewNRGBA64(image.Rect(0, 0, 0, 3))); err == nil || b.Len() != 0 {
		t.Errorf("empty image: err %v, %d bytes", err, b.Len())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := EncodeTIFF16(ctx, &b, image.NewNRGBA64(image.Rect(0, 0, 2, 2))); err == nil || b.Len() != 0 {
		t.Errorf("cancelled: err %v, %d bytes", err, b.Len())
	}
}
