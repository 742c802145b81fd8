package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/input"
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

// maxAnimFrames bounds the frames of one run (a day of 60 fps video).
const maxAnimFrames = 60 * 60 * 60 * 24

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

// frameTimes lists the frame times and the number each frame's file gets.
func frameTimes(an animSource, af animateFlags) (times []float64, numbers []int, err error) {
	if cb, ok := an.(*flame.CuburnAnim); ok {
		return flockFrameTimes(cb, af)
	}
	first, last := an.Span()
	begin, end := math.Trunc(first), math.Trunc(last)-1
	if af.beginSet {
		begin = af.begin
	}
	if af.endSet {
		end = af.end
	} else if end < begin {
		end = begin
	}
	switch {
	case math.IsNaN(begin) || math.IsInf(begin, 0) || math.IsNaN(end) || math.IsInf(end, 0):
		return nil, nil, usageErrorf("invalid --begin %g / --end %g: want finite times", begin, end)
	case !(af.dtime > 0) || math.IsInf(af.dtime, 0):
		return nil, nil, usageErrorf("invalid --dtime %g: want a positive time step", af.dtime)
	case begin > end:
		return nil, nil, usageErrorf("--begin %g is after --end %g", begin, end)
	}
	n := math.Floor((end-begin)/af.dtime+1e-9) + 1
	if n > maxAnimFrames {
		return nil, nil, usageErrorf("%.0f frames from --begin %g to --end %g by --dtime %g: over %d", n, begin, end, af.dtime, maxAnimFrames)
	}
	whole := begin == math.Trunc(begin) && af.dtime == math.Trunc(af.dtime)
	for i := 0; i < int(n); i++ {
		t := begin + float64(i)*af.dtime
		times = append(times, t)
		if whole {
			numbers = append(numbers, int(t))
		} else {
			numbers = append(numbers, i)
		}
	}
	return times, numbers, nil
}

func (a *app) flameAnimate(ctx context.Context, path string, af animateFlags, o flameOptions) error {
	a.dev.Prefetch()
	out, err := parseAnimOutput(af.out, o)
	if err != nil {
		return err
	}
	sh, err := a.animShard(af, out)
	if err != nil {
		return err
	}
	if path != output.Stdout {
		if err := checkInputFile("flame animate", path); err != nil {
			return err
		}
	}
	if out.kind == "video" {
		if _, err := lookFFmpeg(); err != nil {
			return usageError{err}
		}
		if !(af.fps > 0) || af.fps > 1000 || af.crf < 0 || af.crf > 63 {
			return usageErrorf("invalid --fps %g or --crf %d: want 0 < fps <= 1000 and 0 <= crf <= 63", af.fps, af.crf)
		}
	}
	parseOpts, err := flameParseOptions(o)
	if err != nil {
		return err
	}
	parseOpts.Context = ctx
	var an animSource
	var warns []flame.Warning
	var data []byte
	if path == output.Stdout {
		if data, err = input.Read(ctx, a.stdin, "standard input", input.Genome); err != nil {
			return fmt.Errorf("flame animate: %w", err)
		}
	} else if strings.EqualFold(filepath.Ext(path), ".json") {
		if data, err = input.ReadFile(ctx, path, input.CuburnJSON); err != nil {
			return fmt.Errorf("flame animate: %w", err)
		}
	}
	switch {
	case isFlockInput(path, data):
		an, err = a.loadFlock(path, data, &af)
	case af.flock.profile != "" || af.flock.frames != 0 || af.flock.half || af.flock.still || af.flock.db != "":
		return usageErrorf("--profile, --frames, --half, --still and --genome-db apply to cuburn JSON edges and nodes, not %s", path)
	case path == output.Stdout:
		an, warns, err = flame.ParseAnimation(data, "<stdin>", parseOpts)
	default:
		an, warns, err = flame.ParseAnimationFileContext(ctx, path, parseOpts)
	}
	for _, w := range warns {
		a.log.Warnf("%s", w)
	}
	if err != nil {
		return err
	}
	if err := an.Override(flame.Options{Width: o.Width, Height: o.Height, Quality: o.Quality, Supersample: o.Supersample}); err != nil {
		return usageErrorf("%s: %v: lower --width/--height, --quality or --supersample", path, err)
	}
	times, numbers, err := frameTimes(an, af)
	if err != nil {
		return err
	}
	fp, err := animFootprint(path, an, times)
	if err != nil {
		return err
	}
	dev, err := a.dev.OpenFor("flame", float64(len(times))*device.FlameWork(fp.Samples, fp.Buckets))
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
		if err := a.checkAnimMemory(path, fp, d); err != nil {
			return err
		}
	}
	if times, numbers = sharding.Frames(times, numbers, sh); len(times) == 0 {
		a.log.Infof("shard %s: no frames to render", sh)
		return nil
	}
	r := &animRun{app: a, an: an, times: times, numbers: numbers, o: o, af: af,
		render: device.FrameRenderers(devs), src: path}
	defer device.CloseRenderers(r.render)
	switch out.kind {
	case "pattern":
		err = r.writePattern(ctx, out.pattern)
	case "y4m":
		err = r.writeY4M(ctx, out.path)
	default:
		err = r.writeVideo(ctx, out)
	}
	a.dev.HintJIT(dev, "flame")
	return err
}

// animFootprint is what one frame of the animation needs (its first frame;
// frames of one animation share the size), or a usage error naming the
// flags when it is over a limit.
func animFootprint(path string, an animSource, times []float64) (flame.Footprint, error) {
	g := an.At(times[0]).Genome
	fp, err := flame.Estimate(&g, flame.Options{})
	if errors.Is(err, flame.ErrTooLarge) {
		return fp, usageErrorf("%s: %v: lower --width/--height, --quality or --supersample", path, err)
	}
	if err != nil {
		return fp, fmt.Errorf("%s: %w", path, err)
	}
	return fp, nil
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

// animRun renders the frames of one animation.
type animRun struct {
	app     *app
	an      animSource
	times   []float64
	numbers []int
	o       flameOptions
	af      animateFlags
	render  []flame.FrameRenderer // one per device; frames are dealt over them
	src     string
}

func (r *animRun) writePattern(ctx context.Context, pattern string) error {
	names := make([]string, len(r.times))
	for i, num := range r.numbers {
		names[i] = fmt.Sprintf(pattern, num)
	}
	dir := filepath.Dir(names[0])
	if err := output.ProbeCreatableDir(dir); err != nil {
		return usageError{err}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	plan := output.NewPlan(r.app.stdout)
	for _, name := range names {
		if _, err := plan.Add(name); err != nil {
			return usageError{err}
		}
	}
	if err := plan.RefuseInputs(r.src); err != nil {
		return usageError{err}
	}
	skip := func(i int) bool {
		if !r.af.resume {
			return false
		}
		_, err := os.Stat(names[i])
		return err == nil
	}
	depth := output.Depth8
	if r.o.PNG16 {
		depth = output.Depth16
	}
	level := pngCompression[r.o.Compression]
	written := 0
	pool := newEncodePool(0)
	err := r.run(ctx, skip, func(i int, f *flame.Frame) error {
		// Each PNG keeps the genome at the frame's time, as flam3-animate's do.
		text, err := flam3Text(&r.an.At(r.times[i]).Genome, flame.Options{}, flame.Stats{})
		if err != nil {
			return err
		}
		encode := func(w io.Writer) error {
			switch {
			case isJPEG(names[i]):
				return output.EncodeJPEG(ctx, w, f.NRGBA(), r.o.JPEGQuality)
			case depth == output.Depth16:
				return output.EncodePNGText(ctx, w, f.NRGBA64(), depth, level, text)
			}
			return output.EncodePNGText(ctx, w, f.NRGBA(), depth, level, text)
		}
		written++
		return pool.submit(func() error { return plan.Commit(ctx, []output.Write{{Path: names[i], Func: encode}}) })
	})
	if werr := pool.wait(); err == nil {
		err = werr
	}
	if err == nil {
		r.app.log.Infof("wrote %d frames (%s)", written, pattern)
	}
	return err
}

func (r *animRun) skipAll(path string) bool {
	if !r.af.resume || path == output.Stdout {
		return false
	}
	if _, err := os.Stat(path); err == nil {
		r.app.log.Infof("skip %s: exists (--resume)", path)
		return true
	}
	return false
}

func (r *animRun) writeY4M(ctx context.Context, path string) error {
	plan := output.NewPlan(r.app.stdout)
	if _, err := plan.Add(path); err != nil {
		return usageError{err}
	}
	if err := plan.RefuseInputs(r.src); err != nil {
		return usageError{err}
	}
	if r.skipAll(path) {
		return nil
	}
	err := plan.Commit(ctx, []output.Write{{Path: path, Func: func(w io.Writer) error {
		y := newY4MWriter(w, r.af.fps)
		return r.run(ctx, func(int) bool { return false }, func(_ int, f *flame.Frame) error { return y.frame(f) })
	}}})
	if err == nil && path != output.Stdout {
		r.app.log.Infof("wrote %s (%d frames)", path, len(r.times))
	}
	return err
}
