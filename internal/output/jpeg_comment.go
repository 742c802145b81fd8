package output

import (
	"context"
	"fmt"
	"image"
	"io"
)

// JPEGMaxComment is the most a COM segment holds: its length field counts
// itself (2 bytes) and is 16 bits.
const JPEGMaxComment = 0xffff - 2

// EncodeJPEGComments is EncodeJPEG with comment (COM) segments right after
// the start-of-image marker, one per entry, as flam3 writes its
// "flam3_version: ..." and "flam3_genome: <flame ...>" comments: the text
// as it is, no terminating NUL. Every comment is checked before anything
// is written.
func EncodeJPEGComments(ctx context.Context, w io.Writer, img image.Image, quality int, comments []string) error {
	var segs []byte
	for i, c := range comments {
		if len(c) > JPEGMaxComment {
			return fmt.Errorf("output: encode jpeg: comment %d is %d bytes, over JPEG's %d", i, len(c), JPEGMaxComment)
		}
		n := len(c) + 2
		segs = append(segs, 0xff, 0xfe, byte(n>>8), byte(n))
		segs = append(segs, c...)
	}
	return EncodeJPEG(ctx, &afterSOI{w: w, insert: segs}, img, quality)
}

// afterSOI passes a JPEG stream through, inserting segments after its
// first two bytes, the SOI marker: image/jpeg writes DQT next, and a
// comment may stand anywhere between SOI and SOS.
type afterSOI struct {
	w      io.Writer
	insert []byte
	passed int
}

func (a *afterSOI) Write(p []byte) (int, error) {
	if a.passed >= 2 || a.insert == nil {
		return a.w.Write(p)
	}
	k := min(2-a.passed, len(p))
	n, err := a.w.Write(p[:k])
	a.passed += n
	if err != nil {
		return n, err
	}
	if a.passed == 2 {
		if _, err := a.w.Write(a.insert); err != nil {
			return n, err
		}
		a.insert = nil
	}
	m, err := a.w.Write(p[k:])
	return n + m, err
}
