// Package video writes frames as video: a YUV4MPEG2 stream written natively,
// or any container ffmpeg writes, fed raw frames through a pipe. It knows
// images, not what rendered them.
package video

import (
	"fmt"
	"image"
	"io"
	"math"
)

// Y4M writes frames as a YUV4MPEG2 stream: 4:4:4, full-range BT.601. The
// header, sized by the first frame, is written with it.
type Y4M struct {
	w      io.Writer
	fps    float64
	header bool
	buf    []byte
}

// NewY4M returns a writer of fps frames per second to w.
func NewY4M(w io.Writer, fps float64) *Y4M { return &Y4M{w: w, fps: fps} }

// WriteFrame writes one frame; img's bounds start at (0, 0).
func (y *Y4M) WriteFrame(img *image.NRGBA) error {
	width, height := img.Rect.Dx(), img.Rect.Dy()
	n := width * height
	if !y.header {
		num, den := int64(math.Round(y.fps*1000)), int64(1000)
		a, b := num, den
		for b != 0 {
			a, b = b, a%b
		}
		num, den = num/a, den/a
		if _, err := fmt.Fprintf(y.w, "YUV4MPEG2 W%d H%d F%d:%d Ip A1:1 C444 XCOLORRANGE=FULL\n", width, height, num, den); err != nil {
			return err
		}
		y.header = true
		y.buf = make([]byte, 3*n)
	}
	for p := 0; p < n; p++ {
		r, g, b := float64(img.Pix[4*p]), float64(img.Pix[4*p+1]), float64(img.Pix[4*p+2])
		y.buf[p] = clampByte(0.299*r + 0.587*g + 0.114*b)
		y.buf[n+p] = clampByte(128 - 0.168736*r - 0.331264*g + 0.5*b)
		y.buf[2*n+p] = clampByte(128 + 0.5*r - 0.418688*g - 0.081312*b)
	}
	if _, err := io.WriteString(y.w, "FRAME\n"); err != nil {
		return err
	}
	_, err := y.w.Write(y.buf)
	return err
}

func clampByte(v float64) byte { return byte(min(max(math.Round(v), 0), 255)) }
