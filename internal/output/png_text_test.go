package output

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

func TestEncodePNGTextRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	gray := image.NewGray(image.Rect(0, 0, 21, 13))
	gray16 := image.NewGray16(image.Rect(0, 0, 21, 13))
	for i := range gray.Pix {
		gray.Pix[i] = uint8(rng.Uint32())
	}
	for i := range gray16.Pix {
		gray16.Pix[i] = uint8(rng.Uint32())
	}
	texts := []PNGText{
		{Key: "flam3_version", Text: "procgen 1.0"},
		{Key: "flam3_genome", Text: `<flame name="a &amp; b" size="640 480"/>`, Compress: true},
		{Key: "Comment", Text: "Grüße, 世界"},                     // iTXt
		{Key: "Title", Text: "Ωμέγα", Compress: true},           // compressed iTXt
		{Key: "Description", Text: "café crème, déjà vu"},       // Latin-1 in tEXt
		{Key: "flam3_nick", Text: ""},                           // empty
		{Key: "Empty z", Text: "", Compress: true},              // empty, compressed
		{Key: strings.Repeat("k", 79), Text: "longest keyword"}, // limit
	}
	wantTypes := []string{"IHDR", "tEXt", "zTXt", "iTXt", "iTXt", "tEXt", "tEXt", "zTXt", "tEXt"}
	tests := []struct {
		name  string
		img   image.Image
		depth BitDepth
	}{
		{"nrgba 8", randomNRGBA(rng, 37, 23, false), Depth8},
		{"opaque nrgba 8", randomNRGBA(rng, 16, 9, true), Depth8},
		{"nrgba64 16", randomNRGBA64(rng, 19, 31), Depth16},
		{"gray 8", gray, Depth8},
		{"gray16 16", gray16, Depth16},
		// Large enough for several strips on several goroutines.
		{"nrgba 8 large", randomNRGBA(rng, 700, 400, false), Depth8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var plain, withText bytes.Buffer
			if err := EncodePNGCompressed(context.Background(), &plain, tt.img, tt.depth, CompressFast); err != nil {
				t.Fatal(err)
			}
			if err := EncodePNGText(context.Background(), &withText, tt.img, tt.depth, CompressFast, texts); err != nil {
				t.Fatal(err)
			}
			types, stripped := splitChunks(t, withText.Bytes())
			if got := types[:len(wantTypes)]; fmt.Sprint(got) != fmt.Sprint(wantTypes) {
				t.Errorf("chunks %v, want %v then image data", types, wantTypes)
			}
			// The text is the only difference from the plain encoding.
			if !bytes.Equal(stripped, plain.Bytes()) {
				t.Error("without its text chunks, the PNG differs from EncodePNGCompressed's")
			}
			checkDecodes(t, withText.Bytes(), tt.img)
			checkTexts(t, withText.Bytes(), texts)
		})
	}
}

// pngHeadBytes is the signature and the IHDR chunk (length, type, 13 bytes
// of data, CRC), which the encoder writes first.
const pngHeadBytes = 8 + 4 + 4 + 13 + 4

// TestPNGTextConvertedTypes: types the encoder does not take as they are
// (paletted, premultiplied) are converted and still carry their text, right
// after IHDR.
func TestPNGTextConvertedTypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pal := image.NewPaletted(image.Rect(0, 0, 17, 11), color.Palette{
		color.NRGBA{0, 0, 0, 255}, color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 255, 0, 128}, color.NRGBA{0, 0, 255, 0},
	})
	for i := range pal.Pix {
		pal.Pix[i] = uint8(rng.IntN(len(pal.Palette)))
	}
	texts := []PNGText{{Key: "flam3_id", Text: "7"}, {Key: "flam3_genome", Text: "<flame/>", Compress: true}}
	for _, img := range []image.Image{pal, premultiplied(randomNRGBA(rng, 9, 14, false))} {
		t.Run(fmt.Sprintf("%T", img), func(t *testing.T) {
			if _, ok := newPNGSource(img); ok {
				t.Fatalf("%T takes the encoder unconverted", img)
			}
			depth := Depth8
			if _, wide := img.(*image.RGBA64); wide {
				depth = Depth16
			}
			var buf bytes.Buffer
			if err := EncodePNGText(context.Background(), &buf, img, depth, CompressDefault, texts); err != nil {
				t.Fatal(err)
			}
			types, _ := splitChunks(t, buf.Bytes())
			if types[0] != "IHDR" || types[1] != "tEXt" || types[2] != "zTXt" {
				t.Errorf("chunks %v", types)
			}
			checkDecodes(t, buf.Bytes(), img)
			checkTexts(t, buf.Bytes(), texts)
		})
	}
}

func TestReadPNGTextLargeGenome(t *testing.T) {
	var xml strings.Builder
	xml.WriteString("<flames>\n")
	rng := rand.New(rand.NewPCG(7, 8))
	for xml.Len() < 1<<20 {
		fmt.Fprintf(&xml, `  <xform weight="%.6f" color="%.4f" linear="%.5f" coefs="%.6f %.6f %.6f %.6f %.6f %.6f"/>`+"\n",
			rng.Float64(), rng.Float64(), rng.Float64(), rng.NormFloat64(), rng.NormFloat64(),
			rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
	}
	xml.WriteString("</flames>\n")
	texts := []PNGText{{Key: "flam3_genome", Text: xml.String(), Compress: true}}
	var buf bytes.Buffer
	if err := EncodePNGText(context.Background(), &buf, randomNRGBA(rng, 8, 8, false), Depth8, CompressDefault, texts); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > xml.Len()/2 {
		t.Errorf("PNG of %d bytes for %d bytes of XML: genome not compressed", buf.Len(), xml.Len())
	}
	checkTexts(t, buf.Bytes(), texts)
	// The limit counts keywords too: the text alone is not enough.
	if _, err := ReadPNGText(bytes.NewReader(buf.Bytes()), int64(xml.Len())); err == nil {
		t.Error("limit of the text's size: no error")
	}
}

func TestReadPNGTextChunksAnywhere(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 3, 3))
	var buf bytes.Buffer
	if err := EncodePNGText(context.Background(), &buf, img, Depth8, CompressDefault, []PNGText{
		{Key: "a", Text: "first"}, {Key: "a", Text: "second"}, {Key: "b", Text: "before"},
	}); err != nil {
		t.Fatal(err)
	}
	// A text chunk after the image data, as PNG allows, is read too.
	b := buf.Bytes()
	iend := len(b) - 12
	var after bytes.Buffer
	after.Write(b[:iend])
	if err := writeChunk(&after, "tEXt", []byte("c\x00after")); err != nil {
		t.Fatal(err)
	}
	// Unknown ancillary chunks are skipped.
	if err := writeChunk(&after, "prIv", []byte("whatever")); err != nil {
		t.Fatal(err)
	}
	after.Write(b[iend:])
	after.WriteString("trailing bytes after IEND are not read")
	got, err := ReadPNGText(bytes.NewReader(after.Bytes()), 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "first", "b": "before", "c": "after"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestEncodePNGTextRefuses(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 2, 2))
	tests := []struct {
		name string
		text PNGText
		want string
	}{
		{"empty key", PNGText{Key: ""}, "1 to 79"},
		{"long key", PNGText{Key: strings.Repeat("k", 80)}, "1 to 79"},
		{"long Latin-1 key", PNGText{Key: strings.Repeat("é", 80)}, "1 to 79"},
		{"leading space", PNGText{Key: " key"}, "spaces"},
		{"trailing space", PNGText{Key: "key "}, "spaces"},
		{"consecutive spaces", PNGText{Key: "a  b"}, "spaces"},
		{"tab in key", PNGText{Key: "a\tb"}, "non-printable"},
		{"NUL in key", PNGText{Key: "a\x00b"}, "non-printable"},
		{"DEL in key", PNGText{Key: "a\x7fb"}, "non-printable"},
		{"NBSP in key", PNGText{Key: "a\u00a0b"}, "non-printable"},
		{"non-Latin-1 key", PNGText{Key: "ключ"}, "not Latin-1"},
		{"invalid UTF-8 key", PNGText{Key: "a\xffb"}, "not Latin-1"},
		{"NUL in tEXt", PNGText{Key: "k", Text: "a\x00b"}, "NUL"},
		{"NUL in zTXt", PNGText{Key: "k", Text: "a\x00b", Compress: true}, "NUL"},
		{"NUL in iTXt", PNGText{Key: "k", Text: "世\x00界"}, "NUL"},
		{"invalid UTF-8 text", PNGText{Key: "k", Text: "a\xffb"}, "UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			texts := []PNGText{{Key: "fine", Text: "ok"}, tt.text}
			err := EncodePNGText(context.Background(), &buf, img, Depth8, CompressDefault, texts)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "text 1") {
				t.Errorf("error %v, want one naming text 1 and %q", err, tt.want)
			}
			if buf.Len() != 0 {
				t.Errorf("%d bytes written before the error", buf.Len())
			}
		})
	}
	// The edges that are allowed.
	var buf bytes.Buffer
	ok := []PNGText{{Key: "x"}, {Key: "a b c"}, {Key: "~!é\u00ff"}, {Key: strings.Repeat("é", 79)}}
	if err := EncodePNGText(context.Background(), &buf, img, Depth8, CompressDefault, ok); err != nil {
		t.Fatal(err)
	}
	checkTexts(t, buf.Bytes(), ok)
	if err := EncodePNGText(context.Background(), io.Discard, img, 12, CompressDefault, ok); err == nil {
		t.Error("bit depth 12: no error")
	}
}

func TestEncodePNGTextWriteError(t *testing.T) {
	img := testImage("nrgba", image.Rect(0, 0, 300, 300), false, false, 9)
	texts := []PNGText{{Key: "flam3_genome", Text: strings.Repeat("<xform/>", 1000), Compress: true}}
	var full bytes.Buffer
	if err := EncodePNGText(context.Background(), &full, img, Depth8, CompressFast, texts); err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{0, 8, 32, 33, 40, 200, full.Len() / 2, full.Len() - 1} {
		if err := EncodePNGText(context.Background(), &failWriter{left: at}, img, Depth8, CompressFast, texts); err == nil {
			t.Errorf("write failing after %d bytes: no error", at)
		}
	}
}

func TestReadPNGTextBadInput(t *testing.T) {
	var buf bytes.Buffer
	texts := []PNGText{{Key: "t", Text: "plain"}, {Key: "z", Text: "squeezed", Compress: true}, {Key: "i", Text: "ü世"}}
	if err := EncodePNGText(context.Background(), &buf, randomNRGBA(rand.New(rand.NewPCG(1, 1)), 5, 4, false), Depth8, CompressDefault, texts); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()

	// Every byte of every chunk is under a CRC (or is the signature): any
	// flipped bit must be caught.
	for i := range good {
		bad := bytes.Clone(good)
		bad[i] ^= 0x10
		if _, err := ReadPNGText(bytes.NewReader(bad), 1<<20); err == nil {
			t.Errorf("bit flipped at byte %d: no error", i)
		} else if !strings.HasPrefix(err.Error(), "png: ") {
			t.Errorf("error %q not prefixed with png:", err)
		}
	}
	for n := range len(good) {
		if _, err := ReadPNGText(bytes.NewReader(good[:n]), 1<<20); err == nil {
			t.Errorf("truncated to %d of %d bytes: no error", n, len(good))
		}
	}
	_, err := ReadPNGText(bytes.NewReader(bytes.Clone(good)), -1)
	if err == nil {
		t.Error("negative limit: no error")
	}

	// Hostile chunk headers: the length is not trusted for allocation.
	head := good[:pngHeadBytes]
	for _, tc := range []struct {
		name, want string
		chunk      []byte
	}{
		{"length over 2^31-1", "exceeds", chunkHeader(0xffffffff, "tEXt")},
		{"huge tEXt, short data", "truncated", append(chunkHeader(pngMaxChunk, "tEXt"), "k\x00text"...)},
		{"huge zTXt, short data", "", append(chunkHeader(pngMaxChunk, "zTXt"), "k\x00\x00\x78\x9c"...)},
		{"huge IDAT, short data", "truncated", append(chunkHeader(pngMaxChunk, "IDAT"), make([]byte, 100)...)},
		{"bad chunk type", "chunk type", chunkHeader(0, "ID\x00T")},
	} {
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := ReadPNGText(bytes.NewReader(append(bytes.Clone(head), tc.chunk...)), 1<<40)
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > 4<<20 {
			t.Errorf("%s: allocated %d bytes", tc.name, d)
		}
	}
	if _, err := ReadPNGText(strings.NewReader("GIF89a..."), 1<<20); err == nil || !strings.Contains(err.Error(), "signature") {
		t.Errorf("not a PNG: error %v", err)
	}
	noIHDR := append([]byte(pngSignature), good[pngHeadBytes:]...)
	if _, err := ReadPNGText(bytes.NewReader(noIHDR), 1<<20); err == nil || !strings.Contains(err.Error(), "IHDR") {
		t.Errorf("no IHDR: error %v", err)
	}
}

func TestReadPNGTextBomb(t *testing.T) {
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	zeros := make([]byte, 1<<20)
	for range 100 {
		zw.Write(zeros)
	}
	zw.Close()
	img := image.NewGray(image.Rect(0, 0, 2, 2))
	for _, tc := range []struct{ typ, prefix string }{
		{"zTXt", "bomb\x00\x00"},
		{"iTXt", "bomb\x00\x01\x00en\x00Bombe\x00"},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			var buf bytes.Buffer
			if err := EncodePNGText(context.Background(), &buf, img, Depth8, CompressDefault, []PNGText{{Key: "small", Text: "x"}}); err != nil {
				t.Fatal(err)
			}
			b := insertChunk(t, buf.Bytes(), tc.typ, append([]byte(tc.prefix), z.Bytes()...))
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := ReadPNGText(bytes.NewReader(b), 1<<20)
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), "limit of 1048576 bytes") {
				t.Errorf("error %v, want one naming the limit", err)
			}
			if d := after.TotalAlloc - before.TotalAlloc; d > 16<<20 {
				t.Errorf("allocated %d bytes for a 1 MiB limit", d)
			}
		})
	}
	// Many texts together are held to the limit as well.
	var buf bytes.Buffer
	var texts []PNGText
	for i := range 5 {
		texts = append(texts, PNGText{Key: fmt.Sprint("k", i), Text: strings.Repeat("a", 300<<10), Compress: true})
	}
	if err := EncodePNGText(context.Background(), &buf, img, Depth8, CompressDefault, texts); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPNGText(bytes.NewReader(buf.Bytes()), 1<<20); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("1.5 MB of texts under a 1 MiB limit: error %v", err)
	}
}

func FuzzReadPNGText(f *testing.F) {
	var buf bytes.Buffer
	texts := []PNGText{
		{Key: "flam3_version", Text: "1"},
		{Key: "flam3_genome", Text: "<flame><xform/></flame>", Compress: true},
		{Key: "i", Text: "世界"}, {Key: "iz", Text: "世界", Compress: true},
	}
	if err := EncodePNGText(context.Background(), &buf, image.NewGray(image.Rect(0, 0, 3, 2)), Depth8, CompressDefault, texts); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add(buf.Bytes()[:60])
	f.Add([]byte(pngSignature))
	const limit = 1 << 16
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := ReadPNGText(bytes.NewReader(b), limit)
		if err != nil {
			return
		}
		n := 0
		for k, v := range got {
			n += len(k) + len(v)
		}
		// Latin-1 doubles at most in UTF-8.
		if n > 2*limit {
			t.Fatalf("%d bytes of text returned under a limit of %d", n, limit)
		}
	})
}

// splitChunks checks the layout and CRCs of a PNG and returns its chunk
// types and the PNG without its text chunks.
func splitChunks(t *testing.T, b []byte) (types []string, stripped []byte) {
	t.Helper()
	if !bytes.HasPrefix(b, []byte(pngSignature)) {
		t.Fatal("no PNG signature")
	}
	stripped = append(stripped, b[:8]...)
	for p := b[8:]; len(p) > 0; {
		if len(p) < 12 {
			t.Fatalf("truncated chunk after %v", types)
		}
		n := int(binary.BigEndian.Uint32(p))
		typ := string(p[4:8])
		if 12+n > len(p) {
			t.Fatalf("%s chunk of %d bytes", typ, n)
		}
		types = append(types, typ)
		if typ != "tEXt" && typ != "zTXt" && typ != "iTXt" {
			stripped = append(stripped, p[:12+n]...)
		}
		p = p[12+n:]
	}
	return types, stripped
}

// checkDecodes checks that image/png decodes b to exactly want's pixels.
func checkDecodes(t *testing.T, b []byte, want image.Image) {
	t.Helper()
	got, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	wb := want.Bounds()
	if got.Bounds().Size() != wb.Size() {
		t.Fatalf("decoded %v, want size %v", got.Bounds(), wb.Size())
	}
	gb := got.Bounds()
	for y := 0; y < wb.Dy(); y++ {
		for x := 0; x < wb.Dx(); x++ {
			g := color.NRGBA64Model.Convert(got.At(gb.Min.X+x, gb.Min.Y+y))
			w := color.NRGBA64Model.Convert(want.At(wb.Min.X+x, wb.Min.Y+y))
			if g != w {
				t.Fatalf("pixel (%d,%d) = %v, want %v", x, y, g, w)
			}
		}
	}
}

// checkTexts checks that ReadPNGText finds texts in b, the first of each key.
func checkTexts(t *testing.T, b []byte, texts []PNGText) {
	t.Helper()
	got, err := ReadPNGText(bytes.NewReader(b), 4<<20)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, x := range texts {
		if _, ok := want[x.Key]; !ok {
			want[x.Key] = x.Text
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d texts, want %d", len(got), len(want))
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("text %q = %.60q (found %v), want %.60q", k, g, ok, v)
		}
	}
}

func chunkHeader(n uint32, typ string) []byte {
	return append(binary.BigEndian.AppendUint32(nil, n), typ...)
}

// insertChunk returns the PNG b with a chunk added right after IHDR.
func insertChunk(t *testing.T, b []byte, typ string, data []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	out.Write(b[:pngHeadBytes])
	if err := writeChunk(&out, typ, data); err != nil {
		t.Fatal(err)
	}
	out.Write(b[pngHeadBytes:])
	return out.Bytes()
}
