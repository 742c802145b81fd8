package output

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// EXRPixel is the type of every channel of a written OpenEXR file.
type EXRPixel int

const (
	EXRHalf  EXRPixel = 1 // OpenEXR's HALF: 16-bit float, what viewers and compositors expect
	EXRFloat EXRPixel = 2 // OpenEXR's FLOAT: 32-bit float, the render's own precision
)

// EXRCompression is the compression of a written OpenEXR file.
type EXRCompression byte

const (
	EXRNone EXRCompression = 0 // NO_COMPRESSION: one scan line per chunk
	EXRZip  EXRCompression = 3 // ZIP_COMPRESSION: zlib over 16 scan lines
)

// EXROptions say how an OpenEXR file is written.
type EXROptions struct {
	Pixel       EXRPixel
	Compression EXRCompression
	// Attributes are extra string attributes of the header, in order:
	// flam3's keys (flam3_genome and the like) as a PNG's text holds them.
	Attributes []PNGText
}

// LinearImage is an image of linear, premultiplied RGBA floats, row by
// row from the top, as OpenEXR stores them.
type LinearImage struct {
	Width, Height int
	Pix           []float32 // R, G, B, A per pixel
}

// EncodeEXR writes img to w as a single-part scan-line OpenEXR file (format
// version 2) with channels A, B, G, R. It stops with ctx's error between
// chunks.
func EncodeEXR(ctx context.Context, w io.Writer, img LinearImage, o EXROptions) error {
	if err := encodeEXR(ctx, w, img, o); err != nil {
		return fmt.Errorf("output: encode exr: %w", err)
	}
	return nil
}

func encodeEXR(ctx context.Context, w io.Writer, img LinearImage, o EXROptions) error {
	if img.Width < 1 || img.Height < 1 || len(img.Pix) != 4*img.Width*img.Height {
		return fmt.Errorf("bad image: %dx%d with %d values", img.Width, img.Height, len(img.Pix))
	}
	if o.Pixel != EXRHalf && o.Pixel != EXRFloat {
		return fmt.Errorf("unknown pixel type %d", o.Pixel)
	}
	lines := 1 // scan lines per chunk, fixed by the compression
	switch o.Compression {
	case EXRNone:
	case EXRZip:
		lines = 16
	default:
		return fmt.Errorf("unknown compression %d", o.Compression)
	}
	header, err := exrHeader(img, o)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if _, err := bw.Write(header); err != nil {
		return err
	}
	// The offset table precedes the chunks, so every chunk is encoded
	// before the first is written: an EXR holds a few bytes per pixel,
	// as the image itself does in memory.
	chunks := (img.Height + lines - 1) / lines
	data := make([][]byte, chunks)
	for c := range data {
		if err := ctx.Err(); err != nil {
			return err
		}
		if data[c], err = exrChunk(img, o, c*lines, min(lines, img.Height-c*lines)); err != nil {
			return err
		}
	}
	off := uint64(len(header)) + 8*uint64(chunks)
	var b [8]byte
	for _, d := range data {
		binary.LittleEndian.PutUint64(b[:], off)
		if _, err := bw.Write(b[:]); err != nil {
			return err
		}
		off += 8 + uint64(len(d))
	}
	for c, d := range data {
		binary.LittleEndian.PutUint32(b[:4], uint32(c*lines))
		binary.LittleEndian.PutUint32(b[4:], uint32(len(d)))
		if _, err := bw.Write(b[:]); err != nil {
			return err
		}
		if _, err := bw.Write(d); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// exrHeader is the magic number, the version field and the header: the
// required attributes, then o's, then the terminating NUL.
func exrHeader(img LinearImage, o EXROptions) ([]byte, error) {
	var h bytes.Buffer
	h.Write([]byte{0x76, 0x2f, 0x31, 0x01, 2, 0, 0, 0})
	attr := func(name, typ string, value []byte) {
		h.WriteString(name)
		h.WriteByte(0)
		h.WriteString(typ)
		h.WriteByte(0)
		_ = binary.Write(&h, binary.LittleEndian, int32(len(value)))
		h.Write(value)
	}
	le := func(vs ...any) []byte {
		var b bytes.Buffer
		for _, v := range vs {
			_ = binary.Write(&b, binary.LittleEndian, v)
		}
		return b.Bytes()
	}
	var ch bytes.Buffer
	for _, name := range "ABGR" { // channels sorted by name, as the format requires
		ch.WriteByte(byte(name))
		ch.WriteByte(0)
		// pixel type, pLinear and 3 reserved bytes, x and y sampling
		ch.Write(le(int32(o.Pixel), uint8(0), [3]uint8{}, int32(1), int32(1)))
	}
	ch.WriteByte(0)
	attr("channels", "chlist", ch.Bytes())
	attr("compression", "compression", []byte{byte(o.Compression)})
	window := le(int32(0), int32(0), int32(img.Width-1), int32(img.Height-1))
	attr("dataWindow", "box2i", window)
	attr("displayWindow", "box2i", window)
	attr("lineOrder", "lineOrder", []byte{0}) // INCREASING_Y
	attr("pixelAspectRatio", "float", le(float32(1)))
	attr("screenWindowCenter", "v2f", le(float32(0), float32(0)))
	attr("screenWindowWidth", "float", le(float32(1)))
	for _, a := range o.Attributes {
		if err := checkEXRName(a.Key); err != nil {
			return nil, err
		}
		if len(a.Text) > math.MaxInt32 {
			return nil, fmt.Errorf("attribute %q: %d bytes is too long", a.Key, len(a.Text))
		}
		attr(a.Key, "string", []byte(a.Text))
	}
	h.WriteByte(0)
	return h.Bytes(), nil
}

// checkEXRName refuses an attribute name a reader would misparse or take
// for a required one.
func checkEXRName(name string) error {
	switch {
	case name == "" || len(name) > 31: // longer names need the long-names flag, which old readers refuse
		return fmt.Errorf("attribute name %q: want 1 to 31 bytes", name)
	case bytes.IndexByte([]byte(name), 0) >= 0:
		return fmt.Errorf("attribute name %q holds a NUL", name)
	}
	switch name {
	case "channels", "compression", "dataWindow", "displayWindow", "lineOrder", "pixelAspectRatio",
		"screenWindowCenter", "screenWindowWidth":
		return fmt.Errorf("attribute name %q is one the writer sets", name)
	}
	return nil
}

// exrChunk is the pixel data of n scan lines from y0: per line, each
// channel's values in A, B, G, R order; compressed as o says.
func exrChunk(img LinearImage, o EXROptions, y0, n int) ([]byte, error) {
	size := 2
	if o.Pixel == EXRFloat {
		size = 4
	}
	raw := make([]byte, 0, n*img.Width*4*size)
	for y := y0; y < y0+n; y++ {
		row := img.Pix[4*y*img.Width : 4*(y+1)*img.Width]
		for _, c := range [4]int{3, 2, 1, 0} {
			for x := 0; x < img.Width; x++ {
				v := row[4*x+c]
				if o.Pixel == EXRHalf {
					raw = binary.LittleEndian.AppendUint16(raw, halfBits(v))
				} else {
					raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
				}
			}
		}
	}
	if o.Compression == EXRNone {
		return raw, nil
	}
	return exrZip(raw)
}

// exrZip is OpenEXR's ZIP compression: the bytes split into the even- and
// odd-numbered halves, each byte replaced by its difference from the one
// before (plus 128), then zlib. Data that would not shrink is stored as
// it is, which readers recognise by its length.
func exrZip(raw []byte) ([]byte, error) {
	t := make([]byte, len(raw))
	half := (len(raw) + 1) / 2
	for i, v := range raw {
		if i%2 == 0 {
			t[i/2] = v
		} else {
			t[half+i/2] = v
		}
	}
	for i := len(t) - 1; i > 0; i-- {
		t[i] = t[i] - t[i-1] + 128
	}
	var z bytes.Buffer
	zw, err := zlib.NewWriterLevel(&z, zlib.DefaultCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(t); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if z.Len() >= len(raw) {
		return raw, nil
	}
	return z.Bytes(), nil
}
