package anim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/output/video"
)

// Output says how frames are written.
type Output struct {
	Stdout io.Writer // where "-" streams
	Resume bool      // skip frames (and a video) whose file exists
	// Frame files.
	PNG16       bool
	Compression output.Compression
	JPEGQuality int
	// PNGText is what each PNG keeps beside the image: the genome at the
	// frame's time (flam3's flam3_genome chunk), as flam3-animate's do.
	PNGText func(k *flame.AnimGenome) ([]output.PNGText, error)
	// Encode, when set, writes each frame file instead of the PNG or JPEG
	// encoder its name picks: the caller's formats (TIFF, EXR), with text.
	Encode func(ctx context.Context, w io.Writer, f *flame.Frame, text []output.PNGText) error
	// Video: frames per second, and ffmpeg's -crf, codec (empty: its
	// default for the container) and container (-f).
	FPS    float64
	CRF    int
	Codec  string
	Format string
}

func (p *Pipeline) infof(format string, args ...any) { debugf(p.Log, format, args...) }

// isJPEG says whether a frame file is a JPEG.
func isJPEG(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".jpg" || ext == ".jpeg"
}

// WritePattern writes each frame to the file that pattern (a printf verb
// taking the frame number) names, several frames encoding at once.
func (p *Pipeline) WritePattern(ctx context.Context, pattern string, o Output) error {
	names := make([]string, len(p.Times))
	for i, num := range p.Numbers {
		names[i] = fmt.Sprintf(pattern, num)
	}
	dir := filepath.Dir(names[0])
	if err := output.ProbeCreatableDir(dir); err != nil {
		return usage(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	plan := output.NewPlan(o.Stdout)
	for _, name := range names {
		if _, err := plan.Add(name); err != nil {
			return usage(err)
		}
	}
	if err := plan.RefuseInputs(p.Src); err != nil {
		return usage(err)
	}
	skip := func(i int) bool {
		if !o.Resume {
			return false
		}
		_, err := os.Stat(names[i])
		return err == nil
	}
	written := 0
	pool := newEncodePool(0)
	err := p.Run(ctx, skip, func(i int, f *flame.Frame) error {
		text, err := o.PNGText(p.Source.At(p.Times[i]))
		if err != nil {
			return err
		}
		written++
		encode := frameEncoder(ctx, names[i], f, o, text)
		return pool.submit(func() error { return plan.Commit(ctx, []output.Write{{Path: names[i], Func: encode}}) })
	})
	if werr := pool.wait(); err == nil {
		err = werr
	}
	if err == nil {
		p.infof("wrote %d frames (%s)", written, pattern)
	}
	return err
}

// frameEncoder encodes a frame as the image its file name says.
func frameEncoder(ctx context.Context, name string, f *flame.Frame, o Output, text []output.PNGText) func(io.Writer) error {
	depth := output.Depth8
	if o.PNG16 {
		depth = output.Depth16
	}
	return func(w io.Writer) error {
		switch {
		case o.Encode != nil:
			return o.Encode(ctx, w, f, text)
		case isJPEG(name):
			return output.EncodeJPEG(ctx, w, f.NRGBA(), o.JPEGQuality)
		case depth == output.Depth16:
			return output.EncodePNGText(ctx, w, f.NRGBA64(), depth, o.Compression, text)
		}
		return output.EncodePNGText(ctx, w, f.NRGBA(), depth, o.Compression, text)
	}
}

// skipAll says whether --resume skips a one-file output that exists.
func (p *Pipeline) skipAll(path string, o Output) bool {
	if !o.Resume || path == output.Stdout {
		return false
	}
	if _, err := os.Stat(path); err == nil {
		p.infof("skip %s: exists (--resume)", path)
		return true
	}
	return false
}

// WriteY4M writes the frames as one YUV4MPEG2 stream to path (or
// standard output).
func (p *Pipeline) WriteY4M(ctx context.Context, path string, o Output) error {
	plan := output.NewPlan(o.Stdout)
	if _, err := plan.Add(path); err != nil {
		return usage(err)
	}
	if err := plan.RefuseInputs(p.Src); err != nil {
		return usage(err)
	}
	if p.skipAll(path, o) {
		return nil
	}
	err := plan.Commit(ctx, []output.Write{{Path: path, Func: func(w io.Writer) error {
		y := video.NewY4M(w, o.FPS)
		return p.Run(ctx, func(int) bool { return false }, func(_ int, f *flame.Frame) error { return y.WriteFrame(f.NRGBA()) })
	}}})
	if err == nil && path != output.Stdout {
		p.infof("wrote %s (%d frames)", path, len(p.Times))
	}
	return err
}

// LookFFmpeg finds ffmpeg, or says how to get it (a usage error).
func LookFFmpeg() (string, error) {
	ff, err := video.LookFFmpeg()
	if err != nil {
		return "", usage(fmt.Errorf("flame animate: %w; or write frames (-o frames/f%%05d.png) or a .y4m", err))
	}
	return ff, nil
}

// WriteVideo pipes the frames into ffmpeg, which writes a temporary file
// beside path; only a finished encode is renamed into place.
func (p *Pipeline) WriteVideo(ctx context.Context, path string, o Output) error {
	ff, err := LookFFmpeg()
	if err != nil {
		return err
	}
	t, err := output.Resolve(path)
	if err != nil {
		return usage(err)
	}
	if t.Kind != output.KindFile {
		return usagef("-o %s: a video is written to a regular file", path)
	}
	if output.SameFile(t, p.Src) {
		return usagef("-o %s is the input %s; choose another output", path, p.Src)
	}
	if err := output.ProbeCreatableDir(filepath.Dir(t.File)); err != nil {
		return usage(err)
	}
	if p.skipAll(path, o) {
		return nil
	}
	k0 := p.Source.At(p.Times[0])
	vo := video.Options{Width: k0.Width, Height: k0.Height, FPS: o.FPS, CRF: o.CRF, Codec: o.Codec, Format: o.Format}
	enc, err := video.Create(ctx, ff, t.File, vo)
	if err != nil {
		return videoError(err)
	}
	err = p.Run(ctx, func(int) bool { return false }, func(_ int, f *flame.Frame) error {
		return videoError(enc.WriteFrame(f.NRGBA()))
	})
	if err != nil {
		enc.Abort()
		return err
	}
	if err := enc.Close(); err != nil {
		return videoError(err)
	}
	if err := enc.Commit(); err != nil {
		return err
	}
	p.infof("wrote %s (%d frames, %dx%d, %s)", path, len(p.Times), vo.Width, vo.Height, enc.Codec())
	return nil
}

// videoError names the step in ffmpeg's own failures; those of the file
// system say which file.
func videoError(err error) error {
	var ve *video.Error
	if err != nil && errors.As(err, &ve) {
		return fmt.Errorf("flame animate: %w", err)
	}
	return err
}
