package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/output"
)

// lookFFmpeg finds ffmpeg, or says how to get it.
func lookFFmpeg() (string, error) {
	p, err := exec.LookPath("ffmpeg")
	if err != nil {
		return "", errors.New("flame animate: writing a video needs ffmpeg on PATH (Debian/Ubuntu: apt-get install ffmpeg; " +
			"macOS: brew install ffmpeg); or write frames (-o frames/f%05d.png) or a .y4m")
	}
	return p, nil
}

// writeVideo pipes raw RGB frames into ffmpeg, which writes a temporary
// file beside the output; only a finished encode is renamed into place.
func (r *animRun) writeVideo(ctx context.Context, out animOutput) (err error) {
	ff, err := lookFFmpeg()
	if err != nil {
		return usageError{err}
	}
	t, err := output.Resolve(out.path)
	if err != nil {
		return usageError{err}
	}
	if t.Kind != output.KindFile {
		return usageErrorf("-o %s: a video is written to a regular file", out.path)
	}
	if output.SameFile(t, r.src) {
		return usageErrorf("-o %s is the input %s; choose another output", out.path, r.src)
	}
	dir := filepath.Dir(t.File)
	if err := output.ProbeCreatableDir(dir); err != nil {
		return usageError{err}
	}
	if r.skipAll(out.path) {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(t.File)+".*.tmp")
	if err != nil {
		return err
	}
	tmp.Close()
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	k0 := r.an.At(r.times[0])
	w, h := k0.Width, k0.Height
	codec := r.af.codec
	if codec == "" {
		codec = "libx264"
		if out.format == "webm" {
			codec = "libvpx-vp9"
		}
	}
	args := []string{"-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24",
		"-s", fmt.Sprintf("%dx%d", w, h), "-r", fmt.Sprint(r.af.fps), "-i", "-", "-an", "-c:v", codec,
		"-crf", fmt.Sprint(r.af.crf), "-pix_fmt", "yuv420p"}
	if w%2 != 0 || h%2 != 0 { // 4:2:0 needs even sides
		args = append(args, "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2")
	}
	if strings.Contains(codec, "vpx") {
		args = append(args, "-b:v", "0")
	}
	// x264 holds back rc-lookahead frames (40 at its default preset) plus
	// its frame threads, and encodes them only when the input ends: the
	// time after the last frame that the command waits for. Ten frames of
	// lookahead (its veryfast preset's) halved that tail on the GPU host,
	// 0.35 against 0.62 s for 120 frames of 1080p fed at 10 frames/s, with
	// a file of the same size at the same --crf.
	if codec == "libx264" {
		args = append(args, "-x264-params", "rc-lookahead=10")
	}
	args = append(args, "-f", out.format, tmp.Name())
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, ff, args...)
	var stderr tailBuffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("flame animate: start ffmpeg: %w", err)
	}
	buf := make([]byte, 3*w*h)
	err = r.run(ctx, func(int) bool { return false }, func(_ int, f *flame.Frame) error {
		if f.Width != w || f.Height != h {
			return fmt.Errorf("flame animate: frame of %dx%d in a %dx%d video", f.Width, f.Height, w, h)
		}
		img := f.NRGBA()
		for p := 0; p < w*h; p++ {
			copy(buf[3*p:3*p+3], img.Pix[4*p:4*p+3])
		}
		if _, err := stdin.Write(buf); err != nil {
			return fmt.Errorf("flame animate: ffmpeg stopped reading frames: %s", stderr.String())
		}
		return nil
	})
	stdin.Close()
	if err != nil {
		cancel()
		cmd.Wait()
		return err
	}
	if werr := cmd.Wait(); werr != nil {
		return fmt.Errorf("flame animate: ffmpeg (%s) failed: %v: %s", codec, werr, stderr.String())
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), t.File); err != nil {
		return err
	}
	r.app.log.Infof("wrote %s (%d frames, %dx%d, %s)", out.path, len(r.times), w, h, codec)
	return nil
}

// tailBuffer keeps the last few hundred bytes written to it (ffmpeg's
// stderr, for error messages).
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 600 {
		t.b = t.b[len(t.b)-600:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(strings.Fields(string(t.b)), " ")
}

// y4mWriter writes frames as a YUV4MPEG2 stream: 4:4:4, full-range BT.601.
type y4mWriter struct {
	w      io.Writer
	fps    float64
	header bool
	buf    []byte
}

func newY4MWriter(w io.Writer, fps float64) *y4mWriter { return &y4mWriter{w: w, fps: fps} }

func (y *y4mWriter) frame(f *flame.Frame) error {
	n := f.Width * f.Height
	if !y.header {
		num, den := int64(math.Round(y.fps*1000)), int64(1000)
		a, b := num, den
		for b != 0 {
			a, b = b, a%b
		}
		num, den = num/a, den/a
		if _, err := fmt.Fprintf(y.w, "YUV4MPEG2 W%d H%d F%d:%d Ip A1:1 C444 XCOLORRANGE=FULL\n", f.Width, f.Height, num, den); err != nil {
			return err
		}
		y.header = true
		y.buf = make([]byte, 3*n)
	}
	img := f.NRGBA()
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
