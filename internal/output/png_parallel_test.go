package output

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"testing"
)

// testImage builds an image of one supported type with random (noise) or
// smooth (flame-like) content; alpha 0 makes it translucent, 1 opaque.
func testImage(kind string, r image.Rectangle, smooth, opaque bool, seed uint64) image.Image {
	rng := rand.New(rand.NewPCG(seed, 7))
	var pix []byte
	var img image.Image
	sample, chans := 1, 4
	switch kind {
	case "nrgba":
		m := image.NewNRGBA(r)
		pix, img = m.Pix, m
	case "nrgba64":
		m := image.NewNRGBA64(r)
		pix, img, sample = m.Pix, m, 2
	case "gray":
		m := image.NewGray(r)
		pix, img, chans = m.Pix, m, 1
	case "gray16":
		m := image.NewGray16(r)
		pix, img, sample, chans = m.Pix, m, 2, 1
	default:
		panic(kind)
	}
	if !smooth {
		for i := range pix {
			pix[i] = uint8(rng.Uint32())
		}
	} else {
		fillFlameLike(pix, r.Dx(), r.Dy(), sample*chans, rng)
	}
	if opaque && chans == 4 {
		for i := 3 * sample; i < len(pix); i += 4 * sample {
			for k := range sample {
				pix[i+k] = 0xff
			}
		}
	}
	return img
}

// fillFlameLike draws what a fractal flame render compresses like: mostly
// black, a few soft glowing blobs, and a little noise where they are lit.
func fillFlameLike(pix []byte, w, h, bpp int, rng *rand.Rand) {
	type blob struct{ x, y, r, hue float64 }
	blobs := make([]blob, 6)
	for i := range blobs {
		blobs[i] = blob{rng.Float64() * float64(w), rng.Float64() * float64(h), (0.05 + 0.15*rng.Float64()) * float64(max(w, h)), rng.Float64()}
	}
	for y := range h {
		for x := range w {
			v, hue := 0.0, 0.0
			for _, b := range blobs {
				d := math.Hypot(float64(x)-b.x, float64(y)-b.y) / b.r
				if d < 1 {
					e := (1 - d) * (1 - d)
					v += e
					hue += e * b.hue
				}
			}
			p := pix[(y*w+x)*bpp : (y*w+x+1)*bpp]
			if v == 0 {
				continue
			}
			hue /= v
			v = min(v, 1)
			n := float64(rng.IntN(9)) - 4
			c := [4]float64{v * (0.5 + 0.5*math.Cos(6.28*hue)), v * (0.5 + 0.5*math.Cos(6.28*(hue+0.33))), v * (0.5 + 0.5*math.Cos(6.28*(hue+0.67))), v}
			for k := range p {
				ch := c[k*4/bpp] // the channel this byte belongs to
				val := uint16(min(max(ch*65535+n*64, 0), 65535))
				if bpp == 1 || bpp == 4 {
					p[k] = uint8(val >> 8)
				} else if k%2 == 0 {
					p[k] = uint8(val >> 8)
				} else {
					p[k] = uint8(val)
				}
			}
		}
	}
}

func depthOf(img image.Image) BitDepth {
	switch img.(type) {
	case *image.NRGBA64, *image.Gray16:
		return Depth16
	}
	return Depth8
}

func subImage(img image.Image, r image.Rectangle) image.Image {
	return img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(r)
}

func TestParallelPNGRoundTrip(t *testing.T) {
	type tc struct {
		name string
		img  image.Image
	}
	var tests []tc
	sizes := []image.Rectangle{
		image.Rect(0, 0, 1, 1), image.Rect(0, 0, 1, 1037), image.Rect(0, 0, 1037, 1),
		image.Rect(0, 0, 3, 1000), image.Rect(-5, 17, 300, 320), image.Rect(0, 0, 600, 300),
	}
	for _, kind := range []string{"nrgba", "nrgba64", "gray", "gray16"} {
		for i, r := range sizes {
			for _, opaque := range []bool{false, true} {
				name := fmt.Sprintf("%s %v opaque=%v", kind, r, opaque)
				tests = append(tests, tc{name + " noise", testImage(kind, r, false, opaque, uint64(i))})
				tests = append(tests, tc{name + " smooth", testImage(kind, r, true, opaque, uint64(i))})
			}
		}
		// Sub-images: Stride wider than a row, Pix starting mid-buffer.
		big := testImage(kind, image.Rect(-3, -4, 700, 400), true, false, 9)
		tests = append(tests,
			tc{kind + " sub image", subImage(big, image.Rect(10, 20, 611, 397))},
			tc{kind + " sub image 1 wide", subImage(big, image.Rect(-3, -4, -2, 400))},
		)
		if !testing.Short() {
			r := image.Rect(0, 0, 1920, 1080)
			tests = append(tests,
				tc{kind + " 1080p noise", testImage(kind, r, false, false, 3)},
				tc{kind + " 1080p smooth opaque", testImage(kind, r, true, true, 4)},
			)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			levels := []Compression{CompressDefault}
			if tt.img.Bounds().Dx()*tt.img.Bounds().Dy() < 1e6 {
				levels = append(levels, CompressFast, CompressBest)
			}
			for _, c := range levels {
				var buf bytes.Buffer
				if err := encodePNG(context.Background(), &buf, tt.img, depthOf(tt.img), c); err != nil {
					t.Fatal(err)
				}
				checkChunks(t, buf.Bytes())
				got, err := png.Decode(bytes.NewReader(buf.Bytes()))
				if err != nil {
					t.Fatalf("level %d: %v", c, err)
				}
				comparePixels(t, got, tt.img, 0)
			}
		})
	}
}

// The filtered scanlines match image/png's byte for byte: same heuristic,
// same row above at strip boundaries.
func TestParallelPNGFiltersLikeImagePNG(t *testing.T) {
	for _, kind := range []string{"nrgba", "nrgba64", "gray", "gray16"} {
		for _, opaque := range []bool{false, true} {
			img := testImage(kind, image.Rect(0, 0, 513, 700), true, opaque, 5)
			var ours, theirs bytes.Buffer
			if err := encodePNG(context.Background(), &ours, img, depthOf(img), CompressDefault); err != nil {
				t.Fatal(err)
			}
			if err := png.Encode(&theirs, img); err != nil {
				t.Fatal(err)
			}
			a, b := inflateIDAT(t, ours.Bytes()), inflateIDAT(t, theirs.Bytes())
			if !bytes.Equal(a, b) {
				t.Errorf("%s opaque=%v: filtered data differs from image/png's (%d vs %d bytes)", kind, opaque, len(a), len(b))
			}
			if !bytes.Equal(ours.Bytes()[8:33], theirs.Bytes()[8:33]) {
				t.Errorf("%s opaque=%v: IHDR % x, image/png's % x", kind, opaque, ours.Bytes()[8:33], theirs.Bytes()[8:33])
			}
		}
	}
}

// Strips depend on the image alone, so the bytes do not depend on the cores.
func TestParallelPNGDeterministic(t *testing.T) {
	img := testImage("nrgba", image.Rect(0, 0, 800, 600), true, false, 6)
	encode := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var buf bytes.Buffer
		if err := encodePNG(context.Background(), &buf, img, Depth8, CompressDefault); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if !bytes.Equal(encode(1), encode(8)) {
		t.Error("output differs between GOMAXPROCS 1 and 8")
	}
}

type failWriter struct{ left int }

func (f *failWriter) Write(p []byte) (int, error) {
	if len(p) > f.left {
		n := f.left
		f.left = 0
		return n, io.ErrShortWrite
	}
	f.left -= len(p)
	return len(p), nil
}

func TestParallelPNGWriteError(t *testing.T) {
	img := testImage("nrgba", image.Rect(0, 0, 1000, 1000), false, false, 8)
	for _, at := range []int{0, 10, 40, 1 << 20, 3 << 20} {
		err := encodePNG(context.Background(), &failWriter{left: at}, img, Depth8, CompressFast)
		if err == nil {
			t.Errorf("write failing after %d bytes: no error", at)
		}
	}
}

// checkChunks walks the chunk layout: signature, IHDR, then IDATs of at most
// pngMaxIDAT bytes with nothing between them, IEND last; every CRC right.
func checkChunks(t *testing.T, b []byte) {
	t.Helper()
	if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatal("no PNG signature")
	}
	var types []string
	for p := b[8:]; len(p) > 0; {
		if len(p) < 12 {
			t.Fatalf("truncated chunk after %v", types)
		}
		n := int(binary.BigEndian.Uint32(p))
		typ := string(p[4:8])
		if n > pngMaxIDAT || 12+n > len(p) {
			t.Fatalf("%s chunk of %d bytes", typ, n)
		}
		if crc32.ChecksumIEEE(p[4:8+n]) != binary.BigEndian.Uint32(p[8+n:]) {
			t.Fatalf("%s chunk: bad CRC", typ)
		}
		types = append(types, typ)
		p = p[12+n:]
	}
	if len(types) < 3 || types[0] != "IHDR" || types[len(types)-1] != "IEND" {
		t.Fatalf("chunks %v", types)
	}
	for _, typ := range types[1 : len(types)-1] {
		if typ != "IDAT" {
			t.Fatalf("chunks %v", types)
		}
	}
}

func inflateIDAT(t testing.TB, b []byte) []byte {
	t.Helper()
	var z []byte
	for p := b[8:]; len(p) >= 12; {
		n := int(binary.BigEndian.Uint32(p))
		if string(p[4:8]) == "IDAT" {
			z = append(z, p[8:8+n]...)
		}
		p = p[12+n:]
	}
	r, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestAdler32Combine(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 300 {
		n := rng.IntN(200000)
		if trial < 10 {
			n = trial
		}
		data := make([]byte, n)
		for i := range data {
			data[i] = uint8(rng.Uint32())
		}
		if trial%3 == 0 {
			for i := range data {
				data[i] = 0xff // the largest sums, to exercise the modulus
			}
		}
		// Random split points, repeats allowed, so pieces may be empty.
		cuts := []int{0, n}
		for range rng.IntN(6) {
			cuts = append(cuts, rng.IntN(n+1))
		}
		sortInts(cuts)
		sum := adler32.Checksum(nil)
		for i := 1; i < len(cuts); i++ {
			piece := data[cuts[i-1]:cuts[i]]
			sum = adler32Combine(sum, adler32.Checksum(piece), int64(len(piece)))
		}
		if want := adler32.Checksum(data); sum != want {
			t.Fatalf("%d bytes cut at %v: combined %#x, want %#x", n, cuts, sum, want)
		}
	}
	// Lengths beyond the modulus and beyond 32 bits: n copies of byte x
	// have a = 1 + n*x and b = n + x*n(n+1)/2, computed here independently.
	rep := func(n uint64, x uint64) uint32 {
		const m = adler32Mod
		tri := new(big.Int).Mul(new(big.Int).SetUint64(n), new(big.Int).SetUint64(n+1))
		tri.Rsh(tri, 1).Mul(tri, new(big.Int).SetUint64(x)).Add(tri, new(big.Int).SetUint64(n))
		b := tri.Mod(tri, big.NewInt(m)).Uint64()
		return uint32(b)<<16 | uint32((1+n%m*x)%m)
	}
	if got, want := rep(1000, 0xab), adler32.Checksum(bytes.Repeat([]byte{0xab}, 1000)); got != want {
		t.Fatalf("closed form %#x, hash/adler32 %#x", got, want)
	}
	for _, n := range [][2]uint64{{65521, 65521}, {1 << 32, 1 << 32}, {3, 1<<33 + 5}, {1<<40 + 1, 77}} {
		got := adler32Combine(rep(n[0], 0xff), rep(n[1], 0xff), int64(n[1]))
		if want := rep(n[0]+n[1], 0xff); got != want {
			t.Errorf("%d+%d bytes: combined %#x, want %#x", n[0], n[1], got, want)
		}
	}
}

func sortInts(v []int) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

// FuzzParallelPNG: any size, content and depth survives a round trip.
func FuzzParallelPNG(f *testing.F) {
	f.Add(uint16(1), uint16(1), uint64(0), false, uint8(0))
	f.Add(uint16(300), uint16(700), uint64(1), true, uint8(1))
	f.Add(uint16(1), uint16(2000), uint64(2), false, uint8(2))
	f.Add(uint16(2000), uint16(3), uint64(3), true, uint8(3))
	f.Fuzz(func(t *testing.T, w, h uint16, seed uint64, deep bool, kind uint8) {
		w, h = w%1500+1, h%1500+1
		kinds := []string{"nrgba", "gray"}
		if deep {
			kinds = []string{"nrgba64", "gray16"}
		}
		img := testImage(kinds[kind%2], image.Rect(0, 0, int(w), int(h)), seed%2 == 0, kind&4 != 0, seed)
		var buf bytes.Buffer
		if err := encodePNG(context.Background(), &buf, img, depthOf(img), Compression(kind>>3%3)); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		comparePixels(t, got, img, 0)
	})
}

// BenchmarkEncodePNG1080p compares image/png with the parallel encoder on a
// 1080p flame-like frame (opaque, as flame renders are unless transparent).
func BenchmarkEncodePNG1080p(b *testing.B) {
	img := testImage("nrgba", image.Rect(0, 0, 1920, 1080), true, true, 42).(*image.NRGBA)
	levels := []struct {
		name string
		c    Compression
	}{{"default", CompressDefault}, {"fast", CompressFast}, {"best", CompressBest}}
	for _, l := range levels {
		b.Run("imagepng/"+l.name, func(b *testing.B) {
			enc := png.Encoder{CompressionLevel: l.c.level()}
			var n int
			for b.Loop() {
				var cw countWriter
				if err := enc.Encode(&cw, img); err != nil {
					b.Fatal(err)
				}
				n = int(cw)
			}
			b.ReportMetric(float64(n), "out-bytes")
		})
		b.Run("parallel/"+l.name, func(b *testing.B) {
			var n int
			for b.Loop() {
				var cw countWriter
				if err := encodePNG(context.Background(), &cw, img, Depth8, l.c); err != nil {
					b.Fatal(err)
				}
				n = int(cw)
			}
			b.ReportMetric(float64(n), "out-bytes")
		})
	}
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}
