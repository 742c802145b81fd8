package flamejob

import (
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/output"
)

func TestResolveFormat(t *testing.T) {
	for _, c := range []struct {
		out, flag string
		png16     bool
		dir       bool
		want      imageFormat
		err       string
	}{
		{out: "a.png", want: formatPNG},
		{out: "a.PNG", png16: true, want: formatPNG},
		{out: "a.jpeg", want: formatJPEG},
		{out: "a.tiff", want: formatTIFF},
		{out: "a.exr", want: formatEXR},
		{out: "a.exr", flag: "exr32", want: formatEXR32},
		{out: "a.jpg", flag: "jpeg", want: formatJPEG},
		{out: "-", want: formatPNG},
		{out: "-", flag: "Tif", want: formatTIFF},
		{out: "/dev/stdout", flag: "exr", want: formatEXR},
		{out: "renders.exr", flag: "tiff", dir: true, want: formatTIFF}, // a directory's name is no extension
		{out: "-", flag: "bmp", err: `invalid --format "bmp"`},
		{out: "a.png", flag: "exr", err: "the extension says png"},
		{out: "a.exr", flag: "png", err: "the extension says exr"},
		{out: "a.jpg", png16: true, err: "--png16 with jpeg output"},
		{out: "-", flag: "exr32", png16: true, err: "--png16 with exr32 output"},
	} {
		got, err := resolveFormat(c.out, c.flag, c.png16, c.dir)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q --format %q: error %v, want %q", c.out, c.flag, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%q --format %q: %v, %v; want %v", c.out, c.flag, got, err, c.want)
		}
	}
}

// A genome too long for a JPEG comment is left out of a JPEG with a
// warning, and kept in every other format.
func TestFitText(t *testing.T) {
	long := output.PNGText{Key: "flam3_genome", Text: strings.Repeat("x", output.JPEGMaxComment)}
	text := []output.PNGText{{Key: "flam3_version", Text: "v"}, long}
	var warned []string
	warn := func(f string, a ...any) { warned = append(warned, f) }
	if got := fitText(warn, formatJPEG, "g", text); len(got) != 1 || got[0].Key != "flam3_version" || len(warned) != 1 {
		t.Errorf("JPEG kept %d entries, %d warnings", len(got), len(warned))
	}
	if got := fitText(warn, formatEXR, "g", text); len(got) != 2 || len(warned) != 1 {
		t.Errorf("EXR kept %d entries, %d warnings", len(got), len(warned))
	}
}
