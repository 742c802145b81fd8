package output

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/ctxtest"
)

// TestCommitCancelLatency cancels the write of a large image part way and
// wants Commit back with context.Canceled within ctxtest.Limit, and no file,
// temporary or final, left: the encoders look at the context themselves, not
// only once per buffer flush, which for a well compressed image at the best
// level was seconds of work (2.2 s for 4000x2960 on 2 loaded cores).
func TestCommitCancelLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes a 12-megapixel image")
	}
	img := testImage("nrgba", image.Rect(0, 0, 4000, 2960), true, true, 1).(*image.NRGBA)
	cases := []struct {
		name, file string
		delay      time.Duration
		encode     func(ctx context.Context, w io.Writer) error
	}{
		{"png best", "out.png", 300 * time.Millisecond, func(ctx context.Context, w io.Writer) error {
			return EncodePNGText(ctx, w, img, Depth8, CompressBest, []PNGText{{Key: "Software", Text: "test"}})
		}},
		{"png16 default", "out16.png", 150 * time.Millisecond, func(ctx context.Context, w io.Writer) error {
			return EncodePNG(ctx, w, img, Depth16)
		}},
		{"jpeg", "out.jpg", 150 * time.Millisecond, func(ctx context.Context, w io.Writer) error {
			return EncodeJPEG(ctx, w, img, 95)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := NewPlan(io.Discard)
			ctxtest.Latency(t, c.delay, func(ctx context.Context) error {
				return p.Commit(ctx, []Write{{Path: filepath.Join(dir, c.file),
					Func: func(w io.Writer) error { return c.encode(ctx, w) }}})
			})
			left, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range left {
				t.Errorf("left behind: %s", e.Name())
			}
		})
	}
}

// TestEncodeJPEGSameBytes: the cancellable writer under jpeg.Encode changes
// nothing in what it writes.
func TestEncodeJPEGSameBytes(t *testing.T) {
	for _, kind := range []string{"nrgba", "gray"} {
		img := testImage(kind, image.Rect(0, 0, 301, 157), true, true, 3)
		var ours, std bytes.Buffer
		if err := EncodeJPEG(context.Background(), &ours, img, 90); err != nil {
			t.Fatal(err)
		}
		if err := jpeg.Encode(&std, img, &jpeg.Options{Quality: 90}); err != nil {
			t.Fatal(err)
		}
		if ours.Len() < cancelCheckBytes || !bytes.Equal(ours.Bytes(), std.Bytes()) {
			t.Errorf("%s: %d bytes, image/jpeg wrote %d, or they differ", kind, ours.Len(), std.Len())
		}
	}
}
