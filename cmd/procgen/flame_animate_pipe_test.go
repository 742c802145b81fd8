package main

import (
	"bytes"
	"errors"
	"image"
	"testing"

	"github.com/procgen-dev/procgen/internal/flame"
)

// failAfter accepts n writes, then fails every one.
type failAfter struct {
	n   int
	got bytes.Buffer
}

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("broken pipe")
	}
	f.n--
	return f.got.Write(p)
}

// Frames reach the writer whole and in order; once a write fails, send
// and close report it and no frame is written after it.
func TestFramePipe(t *testing.T) {
	w := &failAfter{n: 1 << 30}
	p := newFramePipe(w, 3)
	for i := range 20 {
		if err := p.send(func(b []byte) { b[0], b[1], b[2] = byte(i), byte(i+1), byte(i+2) }); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.close(); err != nil {
		t.Fatal(err)
	}
	got := w.got.Bytes()
	if len(got) != 60 {
		t.Fatalf("%d bytes written, want 60", len(got))
	}
	for i := range 20 {
		if got[3*i] != byte(i) || got[3*i+2] != byte(i+2) {
			t.Fatalf("frame %d came out as %v", i, got[3*i:3*i+3])
		}
	}

	w = &failAfter{n: 2}
	p = newFramePipe(w, 3)
	var err error
	for i := 0; i < 1000 && err == nil; i++ {
		err = p.send(func(b []byte) {})
	}
	if err == nil {
		t.Fatal("send never reported the failed write")
	}
	if cerr := p.close(); cerr == nil {
		t.Fatal("close did not report the failed write")
	}
	if w.got.Len() != 6 {
		t.Fatalf("%d bytes written, want the 2 frames before the failure", w.got.Len())
	}
}

// rgb24 is Frame.NRGBA's quantisation without its alpha.
func TestRGB24MatchesNRGBA(t *testing.T) {
	f := &flame.Frame{Width: 37, Height: 23}
	f.Pix = make([]float32, 4*f.Width*f.Height)
	for i := range f.Pix {
		f.Pix[i] = float32((i*7919)%25600) / 100
		if i%4 == 3 {
			f.Pix[i] /= 256
		}
	}
	buf := make([]byte, 3*f.Width*f.Height)
	rgb24(buf, f)
	img := f.NRGBA()
	for y := range f.Height {
		for x := range f.Width {
			c := img.NRGBAAt(x, y)
			i := 3 * (y*f.Width + x)
			if buf[i] != c.R || buf[i+1] != c.G || buf[i+2] != c.B {
				t.Fatalf("pixel %v: %v, NRGBA has %v", image.Pt(x, y), buf[i:i+3], c)
			}
		}
	}
}
