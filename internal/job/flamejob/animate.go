package flamejob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/flame/anim"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/shard"
)

// AnimateArgs are the flags of 'flame animate' that only it has.
type AnimateArgs struct {
	Out               string
	Begin, End, DTime float64
	FPS               float64
	CRF               int
	Codec             string
	Resume            bool
	BeginSet, EndSet  bool // --begin, --end given
	// Shard resolves --shard (and the array's variables), logging it; it
	// is called after -o is checked, so a bad -o is reported first.
	Shard func() (shard.Shard, error)
	Flock FlockArgs // cuburn edges and nodes
}

// FlockArgs are the flags of 'flame animate' for cuburn's JSON flocks.
type FlockArgs struct {
	Profile   string
	Frames    int
	Half      bool
	Still     bool
	DB        string
	FPSSet    bool // --fps given
	FramesSet bool // --frames given (0 included)
	DTimeSet  bool // --dtime given
}

// flockOptions are the cuburn options as the animation pipeline takes them.
func (af AnimateArgs) flockOptions() anim.FlockOptions {
	f := af.Flock
	return anim.FlockOptions{Profile: f.Profile, Frames: f.Frames, FramesSet: f.FramesSet, Half: f.Half, Still: f.Still, DB: f.DB,
		FPS: af.FPS, FPSSet: f.FPSSet, DTime: f.DTimeSet}
}

// videoExts are the containers written through ffmpeg, and its -f names.
var videoExts = map[string]string{".mp4": "mp4", ".webm": "webm", ".mkv": "matroska", ".mov": "mov"}

// animOutput is where frames go: files named by a pattern, a y4m stream, or
// ffmpeg.
type animOutput struct {
	kind    string // "pattern", "y4m", "video"
	path    string
	pattern string
	format  string      // ffmpeg -f for videos
	image   imageFormat // of a pattern's frame files
}

func parseAnimOutput(out string, o Options) (animOutput, error) {
	ext := strings.ToLower(filepath.Ext(out))
	if o.Format != "" && !strings.Contains(out, "%") {
		return animOutput{}, job.Usagef("--format %s with -o %s: --format is for frame files; give a pattern such as frames/f%%05d.exr", o.Format, out)
	}
	switch {
	case out == "":
		return animOutput{}, job.Usagef("flame animate: -o is required: a pattern (frames/f%%05d.png), FILE.y4m or a video")
	case strings.Contains(out, "%"):
		if !isImagePath(out) {
			return animOutput{}, job.Usagef("-o %s: a frame pattern must end in .png, .jpg, .jpeg, .tif, .tiff or .exr", out)
		}
		if s := fmt.Sprintf(out, 1); strings.Contains(s, "%!") || fmt.Sprintf(out, 1) == fmt.Sprintf(out, 2) {
			return animOutput{}, job.Usagef("-o %s: want exactly one integer verb such as %%05d in the pattern", out)
		}
		f, err := resolveFormat(out, o.Format, o.PNG16, false)
		if err != nil {
			return animOutput{}, err
		}
		return animOutput{kind: "pattern", pattern: out, image: f}, nil
	case ext == ".y4m" || out == output.Stdout:
		return animOutput{kind: "y4m", path: out}, nil
	case videoExts[ext] != "":
		return animOutput{kind: "video", path: out, format: videoExts[ext]}, nil
	}
	return animOutput{}, job.Usagef("-o %s: want a frame pattern (frames/f%%05d.png), FILE.y4m, or FILE.mp4/.webm/.mkv/.mov", out)
}

// Animate is 'flame animate': the frames of a flam3 animation or a cuburn
// edge or node, rendered on the devices the policy opens, into a frame
// pattern, a y4m stream or a video.
func Animate(ctx context.Context, env *job.Env, o Options, path string, af AnimateArgs) error {
	env.Dev.Prefetch()
	out, sh, err := checkAnimate(env, path, af, o)
	if err != nil {
		return err
	}
	a, err := loadAnimation(ctx, env, path, af, o)
	if err != nil {
		return err
	}
	devs, release, err := animDevices(env, out, float64(len(a.times))*device.FlameWork(a.fp.Samples, a.fp.Buckets))
	if err != nil {
		return err
	}
	defer release()
	checkOn := devs
	if len(checkOn) == 0 {
		checkOn = []*gpu.Device{nil} // the CPU's memory
	}
	for _, d := range checkOn {
		if err := checkAnimMemory(env, path, a.fp, d); err != nil {
			return err
		}
	}
	times, numbers := shard.Frames(a.times, a.numbers, sh)
	if len(times) == 0 {
		env.Log.Infof("shard %s: no frames to render", sh)
		return nil
	}
	render := device.FrameRenderers(devs)
	defer device.CloseRenderers(render)
	p := &anim.Pipeline{Source: a.src, Times: times, Numbers: numbers, Render: render, Src: path,
		Frame:    flame.Options{Seed: env.Seed, EarlyClip: o.EarlyClip, Transparent: o.Transparent, Linear: out.image.linear()},
		Progress: lazyProgress(env.Progress, "flame animate"), Log: logLines(env.Log.Infof), Debug: debugLines(env.Log)}
	err = writeAnimation(ctx, env, p, out, af, o, a.fps)
	env.Dev.HintJIT(device.First(devs), "flame")
	return err
}

// checkAnimate is the usage check before any input is read: the output,
// the shard, the input file, and ffmpeg and its flags for a video.
func checkAnimate(env *job.Env, path string, af AnimateArgs, o Options) (animOutput, shard.Shard, error) {
	out, err := parseAnimOutput(af.Out, o)
	if err != nil {
		return out, shard.Shard{}, err
	}
	sh, err := animShard(env.Log, af, out)
	if err != nil {
		return out, sh, err
	}
	if path != output.Stdout {
		if err := job.CheckInput("flame animate", path); err != nil {
			return out, sh, err
		}
	}
	if out.kind == "video" {
		if _, err := anim.LookFFmpeg(); err != nil {
			return out, sh, job.UsageError{Err: err}
		}
		if !(af.FPS > 0) || af.FPS > 1000 || af.CRF < 0 || af.CRF > 63 {
			return out, sh, job.Usagef("invalid --fps %g or --crf %d: want 0 < fps <= 1000 and 0 <= crf <= 63", af.FPS, af.CRF)
		}
	}
	return out, sh, nil
}

// animShard resolves flame animate's shard: only frame files can be split,
// a y4m stream or a video is one file that one run writes.
func animShard(log job.Logger, af AnimateArgs, out animOutput) (shard.Shard, error) {
	sh, err := af.Shard()
	if err != nil || !sh.Active() || out.kind == "pattern" {
		return sh, err
	}
	if sh.FromEnv() {
		log.Infof("%s ignored: -o %s is one file; frame patterns are split", sh.From, af.Out)
		return shard.Shard{Count: 1}, nil
	}
	return shard.Shard{}, job.Usagef("--shard %s (from %s) with -o %s: shards write frame files; give a pattern such as frames/f%%05d.png and encode the frames after the array",
		sh, sh.From, af.Out)
}

// animation is an animation read in, with its frames and what one needs.
type animation struct {
	src     anim.Source
	times   []float64
	numbers []int
	fp      flame.Footprint
	fps     float64 // the video's frame rate
}

// loadAnimation reads the animation, applies the size flags and lists its
// frames.
func loadAnimation(ctx context.Context, env *job.Env, path string, af AnimateArgs, o Options) (animation, error) {
	parseOpts, err := parseOptions(o)
	if err != nil {
		return animation{}, err
	}
	flock := af.flockOptions()
	in, err := anim.Load(ctx, anim.Input{Path: path, Stdin: env.Stdin, Parse: parseOpts, Flock: flock,
		CheckFile: job.CheckInput, Debug: debugLines(env.Log)})
	for _, w := range in.Warnings {
		env.Log.Warnf("%s", w)
	}
	if err != nil {
		return animation{}, animError(err)
	}
	a := animation{src: in.Source, fps: in.FPS}
	if err := a.src.Override(o.size()); err != nil {
		return a, job.Usagef("%s: %v: lower --width/--height, --quality or --supersample", path, err)
	}
	a.times, a.numbers, err = anim.FrameTimes(a.src, anim.Range{Begin: af.Begin, End: af.End, BeginSet: af.BeginSet,
		EndSet: af.EndSet, DTime: af.DTime}, flock)
	if err != nil {
		return a, animError(err)
	}
	a.fp, err = anim.Footprint(path, a.src, a.times)
	return a, animError(err)
}

// writeAnimation runs the pipeline into the output -o names.
func writeAnimation(ctx context.Context, env *job.Env, p *anim.Pipeline, out animOutput, af AnimateArgs, o Options, fps float64) error {
	level, _ := compression(o.Compression)
	ao := anim.Output{Stdout: env.Stdout, Resume: af.Resume, PNG16: o.PNG16, Compression: level,
		JPEGQuality: o.JPEGQuality, FPS: fps, CRF: af.CRF, Codec: af.Codec, Format: out.format,
		PNGText: func(k *flame.AnimGenome) ([]output.PNGText, error) {
			xml, err := flame.FrameXML(k, o.Version)
			return fitText(env.Log.Warnf, out.image, "frame", flam3TextOf(o.Version, string(xml), 0, 0)), err
		}}
	if out.kind == "pattern" {
		ao.Encode = func(ctx context.Context, w io.Writer, f *flame.Frame, text []output.PNGText) error {
			return encodeImage(ctx, w, out.image, f, o, text)
		}
	}
	// --resume takes a frame that exists as rendered: --fsync auto syncs.
	ctx = output.Resumable(ctx)
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

// animDevices opens the devices the policy picks for the frames, but none
// for linear (EXR) frames: the GPU's finish kernel tone-maps, so they are
// finished, and rendered, on the CPU.
func animDevices(env *job.Env, out animOutput, work float64) ([]*gpu.Device, func(), error) {
	if out.image.linear() {
		env.Log.Infof("%s frames are rendered on the CPU (linear light is finished there)", out.image)
		return nil, func() {}, nil
	}
	return env.Dev.OpenAllFor("flame", work)
}

// animError makes the pipeline's usage errors the job's (exit code 2).
func animError(err error) error {
	if errors.Is(err, anim.ErrUsage) {
		return job.UsageError{Err: err}
	}
	return err
}

// checkAnimMemory refuses frames that cannot fit in memory on the device
// that renders them.
func checkAnimMemory(env *job.Env, path string, fp flame.Footprint, dev *gpu.Device) error {
	what := fmt.Sprintf("%s: %dx%d at supersample %d", path, fp.Width, fp.Height, fp.Supersample)
	const flags = "--width/--height or --supersample"
	if dev == nil {
		return env.CheckMemory(what, fp.CPUBytes, flags)
	}
	if err := env.CheckMemory(what, fp.GPUHostBytes, flags); err != nil {
		return err
	}
	return job.CheckDeviceMemory(what, fp.DeviceBytes, dev.Info().MemoryBytes, flags)
}
