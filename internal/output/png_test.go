package output

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

func TestWritePNGRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	nrgba := randomNRGBA(rng, 37, 23, false)
	opaque := randomNRGBA(rng, 16, 9, true)
	nrgba64 := randomNRGBA64(rng, 19, 31)
	gray := image.NewGray(image.Rect(0, 0, 13, 7))
	gray16 := image.NewGray16(image.Rect(0, 0, 13, 7))
	for i := range gray.Pix {
		gray.Pix[i] = uint8(rng.Uint32())
	}
	for i := range gray16.Pix {
		gray16.Pix[i] = uint8(rng.Uint32())
	}
	rgba64 := premultiplied(nrgba64)
	opaqueRGBA64 := premultiplied(opaque)

	tests := []struct {
		name     string
		img      image.Image
		depth    BitDepth
		want     image.Image // expected pixels; img when nil
		wantType string      // decoded type, which shows what was encoded
		// tol > 0 compares premultiplied values within tol: un-premultiplying
		// RGBA64 cannot be exact for translucent pixels. Otherwise straight
		// values must match exactly, colour under zero alpha included.
		tol int
	}{
		{name: "nrgba 8", img: nrgba, depth: Depth8, wantType: "*image.NRGBA"},
		{name: "opaque nrgba 8 drops alpha", img: opaque, depth: Depth8, wantType: "*image.RGBA"},
		{name: "gray 8 stays gray", img: gray, depth: Depth8, wantType: "*image.Gray"},
		{name: "gray16 8", img: gray16, depth: Depth8, want: highByteGray(gray16), wantType: "*image.Gray"},
		{name: "nrgba64 8", img: nrgba64, depth: Depth8, want: highBytes(nrgba64), wantType: "*image.NRGBA"},
		{name: "sub image 8", img: nrgba.SubImage(image.Rect(5, 3, 20, 17)), depth: Depth8, wantType: "*image.NRGBA"},
		{name: "nrgba64 16", img: nrgba64, depth: Depth16, wantType: "*image.NRGBA64"},
		{name: "nrgba widened to 16", img: nrgba, depth: Depth16, wantType: "*image.NRGBA64"},
		{name: "gray 16", img: gray, depth: Depth16, wantType: "*image.Gray16"},
		{name: "gray16 16", img: gray16, depth: Depth16, wantType: "*image.Gray16"},
		{name: "opaque rgba64 16", img: opaqueRGBA64, depth: Depth16, wantType: "*image.RGBA64"},
		{name: "rgba64 16", img: rgba64, depth: Depth16, wantType: "*image.NRGBA64", tol: 1},
		{name: "sub image widened to 16", img: nrgba.SubImage(image.Rect(5, 3, 20, 17)), depth: Depth16, wantType: "*image.NRGBA64"},
		{name: "sub image 16", img: nrgba64.SubImage(image.Rect(2, 4, 11, 30)), depth: Depth16, wantType: "*image.NRGBA64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "img.png")
			if err := WritePNG(path, tt.img, tt.depth); err != nil {
				t.Fatal(err)
			}
			assertMode(t, path)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			if typ := fmt.Sprintf("%T", got); typ != tt.wantType {
				t.Errorf("decoded %s, want %s", typ, tt.wantType)
			}
			want := tt.want
			if want == nil {
				want = tt.img
			}
			comparePixels(t, got, want, tt.tol)
		})
	}
}

func TestEncodePNGErrors(t *testing.T) {
	tests := []struct {
		name  string
		img   image.Image
		depth BitDepth
	}{
		{"depth 12", image.NewNRGBA(image.Rect(0, 0, 2, 2)), 12},
		{"depth 0", image.NewNRGBA(image.Rect(0, 0, 2, 2)), 0},
		{"empty image", image.NewNRGBA(image.Rect(0, 0, 0, 3)), Depth8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := EncodePNG(context.Background(), &buf, tt.img, tt.depth); err == nil {
				t.Error("EncodePNG succeeded")
			}
			dir := t.TempDir()
			if err := WritePNG(filepath.Join(dir, "x.png"), tt.img, tt.depth); err == nil {
				t.Error("WritePNG succeeded")
			}
			assertOnly(t, dir, false, "")
		})
	}
}

func BenchmarkWritePNG(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	// A smooth gradient with a little noise compresses like a real render;
	// pure noise would measure only deflate's worst case.
	img := image.NewNRGBA(image.Rect(0, 0, 1024, 1024))
	for y := range 1024 {
		for x := range 1024 {
			n := uint8(rng.IntN(4))
			img.SetNRGBA(x, y, color.NRGBA{uint8(x/4) + n, uint8(y/4) + n, uint8((x + y) / 8), 255})
		}
	}
	for _, depth := range []BitDepth{Depth8, Depth16} {
		b.Run(fmt.Sprintf("depth%d", depth), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "bench.png")
			b.SetBytes(int64(len(img.Pix)))
			for b.Loop() {
				if err := WritePNG(path, img, depth); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func randomNRGBA(rng *rand.Rand, w, h int, opaque bool) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(rng.Uint32())
		if opaque && i%4 == 3 {
			img.Pix[i] = 255
		}
	}
	// Colour under zero alpha must survive a straight-alpha round trip.
	img.Pix[3] = 0
	if opaque {
		img.Pix[3] = 255
	}
	return img
}

func randomNRGBA64(rng *rand.Rand, w, h int) *image.NRGBA64 {
	img := image.NewNRGBA64(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(rng.Uint32())
	}
	return img
}

func premultiplied(src image.Image) *image.RGBA64 {
	dst := image.NewRGBA64(src.Bounds())
	for y := src.Bounds().Min.Y; y < src.Bounds().Max.Y; y++ {
		for x := src.Bounds().Min.X; x < src.Bounds().Max.X; x++ {
			dst.Set(x, y, src.At(x, y))
		}
	}
	return dst
}

func highBytes(src *image.NRGBA64) *image.NRGBA {
	dst := image.NewNRGBA(src.Bounds())
	for i := range dst.Pix {
		dst.Pix[i] = src.Pix[2*i]
	}
	return dst
}

func highByteGray(src *image.Gray16) *image.Gray {
	dst := image.NewGray(src.Bounds())
	for i := range dst.Pix {
		dst.Pix[i] = src.Pix[2*i]
	}
	return dst
}

// straight16 returns c with straight alpha at 16 bits without going through
// RGBA(), which would lose the colour of fully transparent pixels.
func straight16(c color.Color) color.NRGBA64 {
	switch c := c.(type) {
	case color.NRGBA:
		return color.NRGBA64{uint16(c.R) * 0x101, uint16(c.G) * 0x101, uint16(c.B) * 0x101, uint16(c.A) * 0x101}
	case color.NRGBA64:
		return c
	}
	return color.NRGBA64Model.Convert(c).(color.NRGBA64)
}

// comparePixels compares got, whose bounds start at the origin as decoded
// images do, with want at want's own bounds.
func comparePixels(t *testing.T, got, want image.Image, tol int) {
	t.Helper()
	wb := want.Bounds()
	if got.Bounds() != wb.Sub(wb.Min) {
		t.Fatalf("bounds %v, want size %v", got.Bounds(), wb.Size())
	}
	bad := 0
	for y := 0; y < wb.Dy(); y++ {
		for x := 0; x < wb.Dx(); x++ {
			g, w := got.At(x, y), want.At(x+wb.Min.X, y+wb.Min.Y)
			var ok bool
			if tol > 0 {
				ok = near(g, w, tol)
			} else {
				ok = straight16(g) == straight16(w)
			}
			if !ok && bad < 5 {
				t.Errorf("pixel (%d,%d) = %v, want %v", x, y, g, w)
			}
			if !ok {
				bad++
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d pixels differ", bad)
	}
}

func near(a, b color.Color, tol int) bool {
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	for _, d := range []int{int(ar) - int(br), int(ag) - int(bg), int(ab) - int(bb), int(aa) - int(ba)} {
		if d > tol || d < -tol {
			return false
		}
	}
	return true
}
