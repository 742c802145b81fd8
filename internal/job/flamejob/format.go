package flamejob

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
)

// imageFormat is the kind of image a flame command writes.
type imageFormat int

const (
	formatPNG   imageFormat = iota // 8-bit, or 16 with --png16; the genome in text chunks
	formatJPEG                     // 8-bit; the genome in comment segments, as flam3 writes them
	formatTIFF                     // 16-bit RGBA, straight alpha
	formatEXR                      // linear half-float RGBA; the genome in a header attribute
	formatEXR32                    // linear 32-bit float RGBA; likewise
)

// formatNames are --format's values; "jpg" and "tif" are accepted too.
var formatNames = map[string]imageFormat{
	"png": formatPNG, "jpeg": formatJPEG, "jpg": formatJPEG, "tiff": formatTIFF, "tif": formatTIFF,
	"exr": formatEXR, "exr32": formatEXR32,
}

// formatExts are the image files -o can name, by lower-case extension.
var formatExts = map[string]imageFormat{
	".png": formatPNG, ".jpg": formatJPEG, ".jpeg": formatJPEG, ".tif": formatTIFF, ".tiff": formatTIFF,
	".exr": formatEXR,
}

// FormatHelp is the --format flag's text, shared by the flame commands.
const FormatHelp = "image `FORMAT`: png, jpeg, tiff (16-bit), exr (linear half float) or exr32 (linear float); " +
	"needed for -o - and devices, else the extension decides (exr32 with .exr)"

// ext is the extension of files in f, for names procgen makes.
func (f imageFormat) ext() string {
	return [...]string{".png", ".jpg", ".tif", ".exr", ".exr"}[f]
}

// linear says whether f holds linear light, finished without the tone curve.
func (f imageFormat) linear() bool { return f == formatEXR || f == formatEXR32 }

func (f imageFormat) String() string { return [...]string{"png", "jpeg", "tiff", "exr", "exr32"}[f] }

// isImagePath: p's extension names an image format.
func isImagePath(p string) bool {
	_, ok := formatExts[lowerExt(p)]
	return ok
}

// resolveFormat is the format of the images written to out (a file, a
// stream, or a directory when dir): --format where given, which must agree
// with a file's extension, else the extension, else PNG. A bad --format,
// or --png16 for anything but PNG, is a usage error.
func resolveFormat(out, flag string, png16, dir bool) (imageFormat, error) {
	byExt, hasExt := formatExts[lowerExt(out)]
	if dir {
		hasExt = false
	}
	f := byExt
	if flag != "" {
		var ok bool
		if f, ok = formatNames[strings.ToLower(flag)]; !ok {
			return 0, job.Usagef("invalid --format %q: want png, jpeg, tiff, exr or exr32", flag)
		}
		if hasExt && f.ext() != byExt.ext() {
			return 0, job.Usagef("--format %s with -o %s: the extension says %s; give a %s file or leave --format out",
				flag, out, byExt, f.ext())
		}
	} else if !hasExt {
		f = formatPNG
	}
	if png16 && f != formatPNG {
		return 0, job.Usagef("--png16 with %s output: it sets a PNG's depth (JPEG has 8 bits per channel, TIFF 16, EXR floats)", f)
	}
	return f, nil
}

// encodeImage writes a finished frame in format f: the genome and render
// figures in text travel as each format keeps them (PNG text chunks, JPEG
// comments, EXR string attributes; TIFF carries none).
func encodeImage(ctx context.Context, w io.Writer, f imageFormat, frame *flame.Frame, o Options, text []output.PNGText) error {
	switch f {
	case formatJPEG:
		return output.EncodeJPEGComments(ctx, w, frame.NRGBA(), o.JPEGQuality, jpegComments(text))
	case formatTIFF:
		return output.EncodeTIFF16(ctx, w, frame.NRGBA64())
	case formatEXR, formatEXR32:
		pixel := output.EXRHalf
		if f == formatEXR32 {
			pixel = output.EXRFloat
		}
		return output.EncodeEXR(ctx, w, output.LinearImage{Width: frame.Width, Height: frame.Height, Pix: frame.Pix},
			output.EXROptions{Pixel: pixel, Compression: output.EXRZip, Attributes: text})
	}
	level, _ := compression(o.Compression)
	if depth := o.depth(); depth == output.Depth16 {
		return output.EncodePNGText(ctx, w, frame.NRGBA64(), depth, level, text)
	}
	return output.EncodePNGText(ctx, w, frame.NRGBA(), output.Depth8, level, text)
}

// jpegComments are flam3's JPEG comments: "key: value", one a segment.
func jpegComments(text []output.PNGText) []string {
	out := make([]string, len(text))
	for i, t := range text {
		out[i] = t.Key + ": " + t.Text
	}
	return out
}

// fitText drops what format f cannot hold, with a warning: a genome over
// a JPEG comment's 64 KiB (flam3's own writer fails on such a genome).
func fitText(warn func(string, ...any), f imageFormat, name string, text []output.PNGText) []output.PNGText {
	if f != formatJPEG {
		return text
	}
	kept := text[:0:0]
	for _, t := range text {
		if n := len(t.Key) + 2 + len(t.Text); n > output.JPEGMaxComment {
			warn("%s: %s is %d bytes, over a JPEG comment's %d: left out of the JPEG (write a PNG or EXR to keep it)",
				name, t.Key, n, output.JPEGMaxComment)
			continue
		}
		kept = append(kept, t)
	}
	return kept
}

// linearRenderer renders stills to linear light on any device: the chaos
// game on dev (the GPU, or the CPU when nil) into an accumulation, finished
// on the host without the tone curve, as a split still's merge finishes.
type linearRenderer struct{ dev *gpu.Device }

func (l linearRenderer) Render(ctx context.Context, g *flame.Genome, o flame.Options) (*flame.Frame, flame.Stats, error) {
	acc, st, err := flame.AccumulateOn(ctx, l.dev, g, o, 0, 1)
	if err != nil {
		return nil, st, err
	}
	f, err := acc.FinishLinear(ctx)
	if err != nil {
		return nil, st, fmt.Errorf("flame: finish: %w", err)
	}
	return f, st, nil
}
