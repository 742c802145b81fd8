package output

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testLinear is a small image with values a tone curve would clip (above
// 1), fractions, zeros and partial alpha, different in every pixel.
func testLinear(w, h int) LinearImage {
	img := LinearImage{Width: w, Height: h, Pix: make([]float32, 4*w*h)}
	for i := 0; i < w*h; i++ {
		x, y := float32(i%w), float32(i/w)
		img.Pix[4*i] = x * 0.37
		img.Pix[4*i+1] = y / float32(h)
		img.Pix[4*i+2] = float32(math.Sin(float64(i))) * 3
		img.Pix[4*i+3] = float32(i%5) / 4
	}
	return img
}

// Each EXR the writer makes is accepted by OpenEXR's exrheader, which
// shows the channels, compression and the genome attribute, and read back
// by OpenImageIO to the values written (exactly for float, to half's
// precision for half).
func TestEXRReadBack(t *testing.T) {
	img := testLinear(37, 21) // 21 lines: a ZIP file's last chunk is short
	genome := "<flame name=\"t\" size=\"37 21\">\n  <xform weight=\"1\"/>\n</flame>\n"
	for _, c := range []struct {
		name  string
		pixel EXRPixel
		comp  EXRCompression
	}{{"half-zip", EXRHalf, EXRZip}, {"float-zip", EXRFloat, EXRZip}, {"half-none", EXRHalf, EXRNone}, {"float-none", EXRFloat, EXRNone}} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), c.name+".exr")
			var b bytes.Buffer
			err := EncodeEXR(context.Background(), &b, img, EXROptions{Pixel: c.pixel, Compression: c.comp,
				Attributes: []PNGText{{Key: "flam3_version", Text: "procgen test"}, {Key: "flam3_genome", Text: genome}}})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			checkEXRHeader(t, path, c.pixel, c.comp)
			px := oiioPixels(t, path)
			if len(px) != img.Width*img.Height {
				t.Fatalf("oiiotool read %d pixels, want %d", len(px), img.Width*img.Height)
			}
			for i, p := range px {
				if len(p) != 4 {
					t.Fatalf("pixel %d has %d channels, want 4", i, len(p))
				}
				for ch := 0; ch < 4; ch++ {
					want := float64(img.Pix[4*i+ch])
					if c.pixel == EXRHalf {
						want = halfValue(halfBits(img.Pix[4*i+ch]))
					}
					// oiiotool prints 9 decimals.
					if math.Abs(p[ch]-want) > 1e-8+1e-7*math.Abs(want) {
						t.Fatalf("pixel %d channel %d: read %g, wrote %g", i, ch, p[ch], want)
					}
				}
			}
		})
	}
}

func checkEXRHeader(t *testing.T, path string, pixel EXRPixel, comp EXRCompression) {
	t.Helper()
	out := toolOutput(t, "openexr", "exrheader", path)
	typ := map[EXRPixel]string{EXRHalf: "16-bit floating-point", EXRFloat: "32-bit floating-point"}[pixel]
	want := []string{"A, " + typ, "B, " + typ, "G, " + typ, "R, " + typ,
		map[EXRCompression]string{EXRZip: "zip, multi-scanline", EXRNone: "compression): none"}[comp],
		`flam3_version (type string): "procgen test"`, `flam3_genome (type string): "<flame name="t" size="37 21">`,
		"dataWindow (type box2i): (0 0) - (36 20)"}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("exrheader output lacks %q:\n%s", w, out)
		}
	}
}

// ZIP compression shrinks a smooth image, and a chunk that would not
// shrink is stored raw (its size equal to the raw size), as readers expect.
func TestEXRZip(t *testing.T) {
	raw := make([]byte, 4096)
	for i := range raw {
		raw[i] = byte(i / 64)
	}
	z, err := exrZip(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(z) >= len(raw)/4 {
		t.Errorf("a smooth chunk of %d bytes compressed to %d", len(raw), len(z))
	}
	noise := make([]byte, 64)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	if z, err := exrZip(noise); err != nil || !bytes.Equal(z, noise) {
		t.Errorf("an incompressible chunk was not stored raw (err %v)", err)
	}
}

func TestEXRRefuses(t *testing.T) {
	img := testLinear(2, 2)
	for _, c := range []struct {
		name string
		img  LinearImage
		o    EXROptions
	}{
		{"empty", LinearImage{}, EXROptions{Pixel: EXRHalf}},
		{"short pix", LinearImage{Width: 2, Height: 2, Pix: img.Pix[:8]}, EXROptions{Pixel: EXRHalf}},
		{"pixel type", img, EXROptions{Pixel: 7}},
		{"compression", img, EXROptions{Pixel: EXRHalf, Compression: 4}},
		{"required name", img, EXROptions{Pixel: EXRHalf, Attributes: []PNGText{{Key: "channels", Text: "x"}}}},
		{"long name", img, EXROptions{Pixel: EXRHalf, Attributes: []PNGText{{Key: strings.Repeat("k", 32), Text: "x"}}}},
	} {
		var b bytes.Buffer
		if err := EncodeEXR(context.Background(), &b, c.img, c.o); err == nil {
			t.Errorf("%s: no error", c.name)
		} else if b.Len() != 0 {
			t.Errorf("%s: %d bytes written before the error", c.name, b.Len())
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := EncodeEXR(ctx, &bytes.Buffer{}, img, EXROptions{Pixel: EXRHalf}); err == nil {
		t.Error("a cancelled context wrote the file")
	}
}
