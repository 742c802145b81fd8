package comparejob

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/imgdiff"
	"github.com/procgen-dev/procgen/internal/job"
)

// TestPrintComparison: the JSON has null PSNR and an empty (not null)
// violation list for identical images; the text lists each failure and
// says PASS only without one.
func TestPrintComparison(t *testing.T) {
	var buf bytes.Buffer
	same := imgdiff.Metrics{Width: 2, Height: 3, PSNR: math.Inf(1), SSIM: 1}
	if err := printComparison(&buf, "a.png", "b.png", same, nil, true); err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r["psnr"] != nil || r["pass"] != true || r["identical"] != true {
		t.Errorf("identical: %s", buf.String())
	}
	if v, ok := r["violations"].([]any); !ok || len(v) != 0 {
		t.Errorf("violations %v, want []", r["violations"])
	}
	buf.Reset()
	diff := imgdiff.Metrics{Width: 2, Height: 3, MAD: 0.5, PSNR: 6, SSIM: 0.1, MaxDiff: 1}
	if err := printComparison(&buf, "a.png", "b.png", diff, []string{"mad 0.5 > max 0.1"}, false); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); !strings.Contains(s, "FAIL mad 0.5 > max 0.1\n") || strings.Contains(s, "PASS") ||
		!strings.HasPrefix(s, "size      2x3\n") {
		t.Errorf("text:\n%s", s)
	}
}

// TestReadPNG: a PNG decodes; anything else (missing, not an image, a
// JPEG) is a usage error naming the file.
func TestReadPNG(t *testing.T) {
	dir := t.TempDir()
	img := image.NewNRGBA(image.Rect(0, 0, 4, 3))
	write := func(name string, enc func(*os.File) error) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := enc(f); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pngPath := write("a.png", func(f *os.File) error { return png.Encode(f, img) })
	jpgPath := write("a.jpg", func(f *os.File) error { return jpeg.Encode(f, img, nil) })
	txtPath := write("a.txt", func(f *os.File) error { _, err := f.WriteString("not an image"); return err })
	got, err := readPNG(context.Background(), pngPath)
	if err != nil || got.Bounds().Dx() != 4 || got.Bounds().Dy() != 3 {
		t.Fatalf("PNG: %v, %v", got, err)
	}
	for path, want := range map[string]string{
		jpgPath:                        "a jpeg image, not a PNG",
		txtPath:                        "not a PNG image",
		filepath.Join(dir, "none.png"): "compare: ",
	} {
		_, err := readPNG(context.Background(), path)
		var ue job.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a usage error with %q", path, err, want)
		}
	}
}
