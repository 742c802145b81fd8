package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/flame/anim"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/output"
	sharding "github.com/procgen-dev/procgen/internal/shard"
)

// animateFlags are the flags of 'flame animate' that only it has.
type animateFlags struct {
	out               string
	begin, end, dtime float64
	fps               float64
	crf               int
	codec             string
	resume            bool
	beginSet, endSet  bool
	shardSpec         string
	flock             flockFlags // cuburn edges and nodes
}

// videoExts are the containers written through ffmpeg, and its -f names.
var videoExts = map[string]string{".mp4": "mp4", ".webm": "webm", ".mkv": "matroska", ".mov": "mov"}

func (a *app) newFlameAnimateCmd() *cobra.Command {
	var af animateFlags
	cmd := &cobra.Command{
		Use:   "animate SEQUENCE.flam3|- -o OUT",
		Short: "Render the frames of a flam3 animation",
		Long: `Render a flam3 animation file (keyframes: <flame> elements with a time
attribute, as flam3-genome writes) frame by frame, as flam3-animate does: frame t
is the genome interpolated at time t (linear, or Catmull-Rom where a keyframe
says interpolation="smooth"; affines in polar form unless interpolation_type
says linear; palettes in hsv, hsv_circular, rgb or as a sweep), with motion blur
over temporal_samples genomes of the window temporal_filter_width wide, weighted
by temporal_filter_type (box, gaussian, exp).

Frames run from --begin to --end in steps of --dtime; by default, as in
flam3-animate, from the first keyframe's time to the last one's minus 1 (a loop's
last keyframe is its first).

-o is one of:
  a pattern with a printf verb   frames/f%05d.png (or .jpg); the number is the
                                 frame time (the frame index when times are not
                                 whole numbers); each file written atomically,
                                 each PNG keeping the genome at its time (flam3's
                                 flam3_genome chunk: flame render f00042.png
                                 renders it as a still)
  FILE.y4m, or - (stdout)        uncompressed YUV 4:4:4 video, written natively
  FILE.mp4 .webm .mkv .mov       encoded by ffmpeg (on PATH), raw frames piped
                                 in (--codec, --crf, --fps); a failed encode
                                 leaves no file
--resume skips frames whose file exists (and a video that exists). SEQUENCE - reads
the animation from standard input.
--shard I/N renders frames i (0-based, in order) with i mod N = I into the
pattern, so N runs write one run's frames (default from a Slurm job array or
a Kubernetes indexed Job, as flame render); encode the video after them.
--width/--height/--quality/--supersample change every keyframe as flame render
changes a genome: the camera scales with the size, so the framing stays.` + flockHelp,
		Example: `  procgen flame animate loop.flam3 -o frames/f%05d.png
  procgen flame animate edge.flam3 --width 640 --quality 200 -o edge.mp4 --fps 30
  procgen flame animate seq.flam3 --begin 10 --end 20 -o part.y4m
  procgen flame animate flock/edges/A=B.json --profile flock/profiles/1080p.json -o edge.mp4`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var o flameOptions
			if err := a.decode("flame", &o); err != nil {
				return err
			}
			if err := o.validate(); err != nil {
				return err
			}
			af.beginSet, af.endSet = cmd.Flags().Changed("begin"), cmd.Flags().Changed("end")
			af.flock.fpsSet, af.flock.dtimeSet = cmd.Flags().Changed("fps"), cmd.Flags().Changed("dtime")
			return a.flameAnimate(cmd.Context(), args[0], af, o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&af.out, "output", "o", "", "output: `PATTERN` with a printf verb (frames/f%05d.png), FILE.y4m, or FILE.mp4/.webm/.mkv/.mov")
	f.Float64Var(&af.begin, "begin", 0, "first frame `TIME` (default: the first keyframe's time)")
	f.Float64Var(&af.end, "end", 0, "last frame `TIME` (default: the last keyframe's time minus 1)")
	f.Float64Var(&af.dtime, "dtime", 1, "time `STEP` between frames")
	f.Float64Var(&af.fps, "fps", 24, "video frames per second")
	f.IntVar(&af.crf, "crf", 18, "video quality (ffmpeg -crf; lower is better)")
	f.StringVar(&af.codec, "codec", "", "ffmpeg video `CODEC` (default: libx264, libvpx-vp9 for .webm)")
	f.BoolVar(&af.resume, "resume", false, "skip frames whose file already exists")
	addShardFlag(f, &af.shardSpec)
	addFlockFlags(f, &af.flock)
	for _, k := range []string{"width", "height", "quality", "supersample", "png16", "jpeg-quality", "compression",
		"palettes", "strict", "earlyclip", "transparent"} {
		a.bindFlag(f, "flame."+k, k, "")
	}
	return cmd
}

// animOutput is where frames go: files named by a pattern, a y4m stream, or
// ffmpeg.
type animOutput struct {
	kind    string // "pattern", "y4m", "video"
	path    string
	pattern string
	format  string // ffmpeg -f for videos
}

func parseAnimOutput(out string, o flameOptions) (animOutput, error) {
	ext := strings.ToLower(filepath.Ext(out))
	switch {
	case out == "":
		return animOutput{}, usageErrorf("flame animate: -o is required: a pattern (frames/f%%05d.png), FILE.y4m or a video")
	case strings.Contains(out, "%"):
		if ext != ".png" && ext != ".jpg" && ext != ".jpeg" {
			return animOutput{}, usageErrorf("-o %s: a frame pattern must end in .png, .jpg or .jpeg", out)
		}
		if s := fmt.Sprintf(out, 1); strings.Contains(s, "%!") || fmt.Sprintf(out, 1) == fmt.Sprintf(out, 2) {
			return animOutput{}, usageErrorf("-o %s: want exactly one integer verb such as %%05d in the pattern", out)
		}
		if isJPEG(out) && o.PNG16 {
			return animOutput{}, usageErrorf("--png16 with -o %s: JPEG has 8 bits per channel", out)
		}
		return animOutput{kind: "pattern", pattern: out}, nil
	case ext == ".y4m" || out == output.Stdout:
		return animOutput{kind: "y4m", path: out}, nil
	case videoExts[ext] != "":
		return animOutput{kind: "video", path: out, format: videoExts[ext]}, nil
	}
	return animOutput{}, usageErrorf("-o %s: want a frame pattern (frames/f%%05d.png), FILE.y4m, or FILE.mp4/.webm/.mkv/.mov", out)
}

func (a *app) flameAnimate(ctx context.Context, path string, af animateFlags, o flameOptions) error {
	a.dev.Prefetch()
	out, sh, err := a.checkAnimate(path, af, o)
	if err != nil {
		return err
	}
	job, err := a.loadAnimation(ctx, path, af, o)
	if err != nil {
		return err
	}
	dev, err := a.dev.OpenFor("flame", float64(len(job.times))*device.FlameWork(job.fp.Samples, job.fp.Buckets))
	if err != nil {
		return err
	}
	if dev != nil {
		defer dev.Close()
	}
	devs, err := a.dev.More(dev)
	if err != nil {
		return err
	}
	defer a.dev.CloseMore(devs)
	for _, d := range append([]*gpu.Device{dev}, devs[min(1, len(devs)):]...) {
		if err := a.checkAnimMemory(path, job.fp, d); err != nil {
			return err
		}
	}
	times, numbers := sharding.Frames(job.times, job.numbers, sh)
	if len(times) == 0 {
		a.log.Infof("shard %s: no frames to render", sh)
		return nil
	}
	render := device.FrameRenderers(devs)
	defer device.CloseRenderers(render)
	p := &anim.Pipeline{Source: job.src, Times: times, Numbers: numbers, Render: render, Src: path,
		Frame:    flame.Options{Seed: a.opts.Seed, EarlyClip: o.EarlyClip, Transparent: o.Transparent},
		Progress: a.lazyProgress("flame animate"), Log: logLines(a.log.Infof), Debug: a.debugLines()}
	err = a.writeAnimation(ctx, p, out, af, o, job.fps)
	a.dev.HintJIT(dev, "flame")
	return err
}

// checkAnimate is the usage check before any input is read: the output,
// the shard, the input file, and ffmpeg and its flags for a video.
func (a *app) checkAnimate(path string, af animateFlags, o flameOptions) (animOutput, shard, error) {
	out, err := parseAnimOutput(af.out, o)
	if err != nil {
		return out, shard{}, err
	}
	sh, err := a.animShard(af, out)
	if err != nil {
		return out, sh, err
	}
	if path != output.Stdout {
		if err := checkInputFile("flame animate", path); err != nil {
			return out, sh, err
		}
	}
	if out.kind == "video" {
		if _, err := anim.LookFFmpeg(); err != nil {
			return out, sh, usageError{Err: err}
		}
		if !(af.fps > 0) || af.fps > 1000 || af.crf < 0 || af.crf > 63 {
			return out, sh, usageErrorf("invalid --fps %g or --crf %d: want 0 < fps <= 1000 and 0 <= crf <= 63", af.fps, af.crf)
		}
	}
	return out, sh, nil
}

// animJob is an animation read in, with its frames and what one needs.
type animJob struct {
	src     anim.Source
	times   []float64
	numbers []int
	fp      flame.Footprint
	fps     float64 // the video's frame rate
}

// loadAnimation reads the animation, applies the size flags and lists its
// frames.
func (a *app) loadAnimation(ctx context.Context, path string, af animateFlags, o flameOptions) (animJob, error) {
	parseOpts, err := flameParseOptions(o)
	if err != nil {
		return animJob{}, err
	}
	flock := af.flockOptions()
	in, err := anim.Load(ctx, anim.Input{Path: path, Stdin: a.stdin, Parse: parseOpts, Flock: flock,
		CheckFile: checkInputFile, Debug: a.debugLines()})
	for _, w := range in.Warnings {
		a.log.Warnf("%s", w)
	}
	if err != nil {
		return animJob{}, animError(err)
	}
	job := animJob{src: in.Source, fps: in.FPS}
	if err := job.src.Override(flame.Options{Width: o.Width, Height: o.Height, Quality: o.Quality, Supersample: o.Supersample}); err != nil {
		return job, usageErrorf("%s: %v: lower --width/--height, --quality or --supersample", path, err)
	}
	job.times, job.numbers, err = anim.FrameTimes(job.src, anim.Range{Begin: af.begin, End: af.end, BeginSet: af.beginSet,
		EndSet: af.endSet, DTime: af.dtime}, flock)
	if err != nil {
		return job, animError(err)
	}
	job.fp, err = anim.Footprint(path, job.src, job.times)
	return job, animError(err)
}

// writeAnimation runs the pipeline into the output -o names.
func (a *app) writeAnimation(ctx context.Context, p *anim.Pipeline, out animOutput, af animateFlags, o flameOptions, fps float64) error {
	ao := anim.Output{Stdout: a.stdout, Resume: af.resume, PNG16: o.PNG16, Compression: pngCompression[o.Compression],
		JPEGQuality: o.JPEGQuality, FPS: fps, CRF: af.crf, Codec: af.codec, Format: out.format,
		PNGText: func(g *flame.Genome) ([]output.PNGText, error) { return flam3Text(g, flame.Options{}, flame.Stats{}) }}
	var err error
	switch out.kind {
	case "pattern":
		err = p.WritePattern(ctx, out.pattern, ao)
	case "y4m":
		err = p.WriteY4M(ctx, out.path, ao)
	default:
		err = p.WriteVideo(ctx, out.path, ao)
	}
	return animError(err)
}

// animError makes the pipeline's usage errors ours (exit code 2).
func animError(err error) error {
	if errors.Is(err, anim.ErrUsage) {
		return usageError{Err: err}
	}
	return err
}

// lazyProgress is a.newProgress for work whose total the callee knows: the
// bar is made at its first report.
func (a *app) lazyProgress(description string) func(done, total int64) {
	var once sync.Once
	var bar func(done, total int64)
	return func(done, total int64) {
		once.Do(func() { bar = a.newProgress(total, description) })
		bar(done, total)
	}
}

// logLines logs each line an internal package writes (one Write a line)
// through one of the logger's levels.
type logLines func(format string, args ...any)

func (l logLines) Write(p []byte) (int, error) {
	l("%s", strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// debugLines is where -v lines go; nil without -v, so they are not even
// formatted.
func (a *app) debugLines() io.Writer {
	if a.log.verbose < 1 {
		return nil
	}
	return logLines(a.log.Debugf)
}

// checkAnimMemory refuses frames that cannot fit in memory on the device
// that renders them.
func (a *app) checkAnimMemory(path string, fp flame.Footprint, dev *gpu.Device) error {
	what := fmt.Sprintf("%s: %dx%d at supersample %d", path, fp.Width, fp.Height, fp.Supersample)
	const flags = "--width/--height or --supersample"
	if dev == nil {
		return a.checkMemory(what, fp.CPUBytes, flags)
	}
	if err := a.checkMemory(what, fp.GPUHostBytes, flags); err != nil {
		return err
	}
	return checkDeviceMemory(what, fp.DeviceBytes, dev.Info().MemoryBytes, flags)
}
