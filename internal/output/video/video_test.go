package video

import (
	"bytes"
	"image"
	"slices"
	"strings"
	"testing"
)

// TestY4M checks the header (size, reduced frame rate, 4:4:4 full range)
// and the BT.601 full-range conversion of known colours, plane by plane.
func TestY4M(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 3, 1))
	copy(img.Pix, []byte{255, 255, 255, 255, 255, 0, 0, 255, 0, 0, 0, 255}) // white, red, black
	var b bytes.Buffer
	y := NewY4M(&b, 29.97)
	for i := 0; i < 2; i++ {
		if err := y.WriteFrame(img); err != nil {
			t.Fatal(err)
		}
	}
	header := "YUV4MPEG2 W3 H1 F2997:100 Ip A1:1 C444 XCOLORRANGE=FULL\n"
	frame := "FRAME\n" + string([]byte{255, 76, 0, 128, 85, 128, 128, 255, 128})
	if got, want := b.String(), header+frame+frame; got != want {
		t.Errorf("stream %q, want %q", got, want)
	}
}

// TestFFmpegArgs: codec defaults per container, even sides for 4:2:0, the
// constant-quality switch of vpx and x264's shorter lookahead.
func TestFFmpegArgs(t *testing.T) {
	for _, c := range []struct {
		o         Options
		want, not []string
		wantCodec string
	}{
		{Options{Width: 4, Height: 2, FPS: 24, CRF: 18, Format: "mp4"}, []string{"-x264-params", "-s 4x2", "-r 24", "-crf 18"}, []string{"pad=", "-b:v"}, "libx264"},
		{Options{Width: 5, Height: 2, FPS: 30, Format: "webm"}, []string{"pad=ceil(iw/2)*2:ceil(ih/2)*2", "-b:v 0", "-f webm out"}, []string{"-x264-params"}, "libvpx-vp9"},
		{Options{Width: 4, Height: 3, Codec: "libx265", Format: "matroska"}, []string{"-c:v libx265", "pad="}, []string{"-x264-params", "-b:v"}, "libx265"},
	} {
		args := strings.Join(c.o.args("out"), " ")
		if c.o.codec() != c.wantCodec {
			t.Errorf("%+v: codec %s, want %s", c.o, c.o.codec(), c.wantCodec)
		}
		for _, w := range c.want {
			if !strings.Contains(args, w) {
				t.Errorf("%+v: args %q lack %q", c.o, args, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(args, n) {
				t.Errorf("%+v: args %q have %q", c.o, args, n)
			}
		}
		if a := c.o.args("out"); !slices.Equal(a[len(a)-1:], []string{"out"}) {
			t.Errorf("%+v: output not last: %q", c.o, a)
		}
	}
}
