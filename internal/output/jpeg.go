package output

import (
	"bufio"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"io"
)

// EncodeJPEG writes img to w as a baseline JPEG at quality 1..100, as flam3
// writes its .jpg renders (alpha is dropped: JPEG has none). It stops with
// ctx's error within a few thousand blocks of the cancel.
func EncodeJPEG(ctx context.Context, w io.Writer, img image.Image, quality int) (err error) {
	if quality < 1 || quality > 100 {
		return fmt.Errorf("output: encode jpeg: quality %d outside 1..100", quality)
	}
	// jpeg.Encode takes no context, and after a failed write it goes on
	// converting, transforming and coding every remaining block, only
	// dropping the output: a writer that fails on cancel ends the file but
	// not the second of work. Its one hook during the scan is the writer's
	// WriteByte (the entropy coder emits at least a byte per two blocks,
	// even of a black image), so that checks the context and, once it is
	// done, unwinds the encoder with a panic recovered here. The encoder
	// holds no lock or resource to leave behind, and the bytes written are
	// the same as a plain jpeg.Encode's. Encoding by bands instead would
	// need restart markers, which image/jpeg does not write.
	cw := &cancelByteWriter{ctx: ctx, w: bufio.NewWriter(w)}
	defer func() {
		if r := recover(); r != nil {
			c, ok := r.(jpegCancelled)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("output: encode jpeg: %w", c.err)
		}
	}()
	if err := jpeg.Encode(cw, img, &jpeg.Options{Quality: quality}); err != nil {
		return fmt.Errorf("output: encode jpeg: %w", err)
	}
	return nil
}

// jpegCancelled is the panic value that unwinds jpeg.Encode on cancel.
type jpegCancelled struct{ err error }

// cancelByteWriter is the buffered writer jpeg.Encode uses as is (it has
// Flush and WriteByte), looking at the context every cancelCheckBytes.
type cancelByteWriter struct {
	ctx context.Context
	w   *bufio.Writer
	n   int
}

// cancelCheckBytes is the output between context checks: ctx.Err costs a
// lock, and a thousand bytes are at most a few thousand blocks, milliseconds.
const cancelCheckBytes = 1 << 10

func (c *cancelByteWriter) check(n int) {
	c.n += n
	if c.n < cancelCheckBytes {
		return
	}
	c.n = 0
	if err := c.ctx.Err(); err != nil {
		panic(jpegCancelled{err})
	}
}

func (c *cancelByteWriter) WriteByte(b byte) error {
	c.check(1)
	return c.w.WriteByte(b)
}

func (c *cancelByteWriter) Write(p []byte) (int, error) {
	c.check(len(p))
	return c.w.Write(p)
}

func (c *cancelByteWriter) Flush() error { return c.w.Flush() }

// EncodePNGCompressed is EncodePNG with a chosen compression effort.
func EncodePNGCompressed(ctx context.Context, w io.Writer, img image.Image, depth BitDepth, c Compression) error {
	if err := checkDepth(depth); err != nil {
		return fmt.Errorf("output: encode png: %w", err)
	}
	if err := encodePNG(ctx, w, img, depth, c); err != nil {
		return fmt.Errorf("output: encode png: %w", err)
	}
	return nil
}
