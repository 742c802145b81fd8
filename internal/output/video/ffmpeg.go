package video

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// ErrNoFFmpeg is returned when ffmpeg is not on PATH.
var ErrNoFFmpeg = errors.New("writing a video needs ffmpeg on PATH (Debian/Ubuntu: apt-get install ffmpeg; " +
	"macOS: brew install ffmpeg)")

// Error is a failure of ffmpeg itself (it would not start, stopped reading
// or failed), as against one of the file system, so that callers can say
// whose step failed.
type Error struct{ err error }

func (e *Error) Error() string { return e.err.Error() }
func (e *Error) Unwrap() error { return e.err }

func ffmpegErrorf(format string, args ...any) error { return &Error{fmt.Errorf(format, args...)} }

// LookFFmpeg finds ffmpeg, or says how to get it.
func LookFFmpeg() (string, error) {
	p, err := exec.LookPath("ffmpeg")
	if err != nil {
		return "", ErrNoFFmpeg
	}
	return p, nil
}

// Options say how ffmpeg encodes: the frames' size, the rate, the codec
// (empty: libx264, libvpx-vp9 for webm), its -crf and the container (-f).
type Options struct {
	Width, Height int
	FPS           float64
	CRF           int
	Codec         string
	Format        string
}

// codec is the codec ffmpeg is asked for.
func (o Options) codec() string {
	if o.Codec != "" {
		return o.Codec
	}
	if o.Format == "webm" {
		return "libvpx-vp9"
	}
	return "libx264"
}

// args is ffmpeg's command line for raw RGB frames on stdin into file.
func (o Options) args(file string) []string {
	codec, w, h := o.codec(), o.Width, o.Height
	args := []string{"-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24",
		"-s", fmt.Sprintf("%dx%d", w, h), "-r", fmt.Sprint(o.FPS), "-i", "-", "-an", "-c:v", codec,
		"-crf", fmt.Sprint(o.CRF), "-pix_fmt", "yuv420p"}
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
	return append(args, "-f", o.Format, file)
}

// Encoder pipes raw RGB frames into ffmpeg, which writes a temporary file
// beside the output; only a finished encode (Close, then Commit) is renamed
// into place.
type Encoder struct {
	o      Options
	file   string
	tmp    string
	cmd    *exec.Cmd
	cancel context.CancelFunc
	stdin  io.WriteCloser
	stderr tailBuffer
	buf    []byte
}

// Create starts ffmpeg (found at ffmpeg) encoding into a temporary file
// beside file, creating file's directory if need be.
func Create(ctx context.Context, ffmpeg, file string, o Options) (_ *Encoder, err error) {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(file)+".*.tmp")
	if err != nil {
		return nil, err
	}
	tmp.Close()
	e := &Encoder{o: o, file: file, tmp: tmp.Name(), buf: make([]byte, 3*o.Width*o.Height)}
	defer func() {
		if err != nil {
			e.cancel()
			os.Remove(e.tmp)
		}
	}()
	ctx, e.cancel = context.WithCancel(ctx)
	e.cmd = exec.CommandContext(ctx, ffmpeg, o.args(e.tmp)...)
	e.cmd.Stderr = &e.stderr
	if e.stdin, err = e.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if err := e.cmd.Start(); err != nil {
		return nil, ffmpegErrorf("start ffmpeg: %w", err)
	}
	return e, nil
}

// Codec is the codec the video is encoded with.
func (e *Encoder) Codec() string { return e.o.codec() }

// WriteFrame sends one frame, of the size in Options, to ffmpeg.
func (e *Encoder) WriteFrame(img *image.NRGBA) error {
	w, h := e.o.Width, e.o.Height
	if dx, dy := img.Rect.Dx(), img.Rect.Dy(); dx != w || dy != h {
		return ffmpegErrorf("frame of %dx%d in a %dx%d video", dx, dy, w, h)
	}
	for p := 0; p < w*h; p++ {
		copy(e.buf[3*p:3*p+3], img.Pix[4*p:4*p+3])
	}
	if _, err := e.stdin.Write(e.buf); err != nil {
		return ffmpegErrorf("ffmpeg stopped reading frames: %s", e.stderr.String())
	}
	return nil
}

// Abort stops ffmpeg and removes the temporary file.
func (e *Encoder) Abort() {
	e.stdin.Close()
	e.cancel()
	e.cmd.Wait()
	os.Remove(e.tmp)
}

// Close ends the input and waits for ffmpeg; on failure the temporary
// file is removed.
func (e *Encoder) Close() error {
	defer e.cancel()
	e.stdin.Close()
	if werr := e.cmd.Wait(); werr != nil {
		os.Remove(e.tmp)
		return ffmpegErrorf("ffmpeg (%s) failed: %v: %s", e.o.codec(), werr, e.stderr.String())
	}
	return nil
}

// Commit renames the finished video into place (after Close); on failure
// the temporary file is removed.
func (e *Encoder) Commit() (err error) {
	defer func() {
		if err != nil {
			os.Remove(e.tmp)
		}
	}()
	if err := os.Chmod(e.tmp, 0o644); err != nil {
		return err
	}
	return os.Rename(e.tmp, e.file)
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
