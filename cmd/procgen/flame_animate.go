package main

import (
	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/job/flamejob"
)

func (a *app) newFlameAnimateCmd() *cobra.Command {
	var af flamejob.AnimateArgs
	var format string
	var shardSpec string
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
  a pattern with a printf verb   frames/f%05d.png (or .jpg, .tif, .exr, as for
                                 'flame render'; --format exr32 for float EXR,
                                 rendered on the CPU); the number is the
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
			o, err := a.flameOptions()
			if err != nil {
				return err
			}
			o.Format = format
			af.BeginSet, af.EndSet = cmd.Flags().Changed("begin"), cmd.Flags().Changed("end")
			af.Flock.FPSSet, af.Flock.DTimeSet = cmd.Flags().Changed("fps"), cmd.Flags().Changed("dtime")
			af.Flock.FramesSet = cmd.Flags().Changed("frames")
			af.Shard = func() (shard, error) { return a.shardOf(shardSpec) }
			return flamejob.Animate(cmd.Context(), a.env(), o, args[0], af)
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "", flamejob.FormatHelp)
	f.StringVarP(&af.Out, "output", "o", "", "output: `PATTERN` with a printf verb (frames/f%05d.png), FILE.y4m, or FILE.mp4/.webm/.mkv/.mov")
	f.Float64Var(&af.Begin, "begin", 0, "first frame `TIME` (default: the first keyframe's time)")
	f.Float64Var(&af.End, "end", 0, "last frame `TIME` (default: the last keyframe's time minus 1)")
	f.Float64Var(&af.DTime, "dtime", 1, "time `STEP` between frames")
	f.Float64Var(&af.FPS, "fps", 24, "video frames per second")
	f.IntVar(&af.CRF, "crf", 18, "video quality (ffmpeg -crf; lower is better)")
	f.StringVar(&af.Codec, "codec", "", "ffmpeg video `CODEC` (default: libx264, libvpx-vp9 for .webm)")
	f.BoolVar(&af.Resume, "resume", false, "skip frames whose file already exists")
	addShardFlag(f, &shardSpec)
	addFlockFlags(f, &af.Flock)
	for _, k := range []string{"width", "height", "quality", "supersample", "png16", "jpeg-quality", "compression",
		"palettes", "strict", "earlyclip", "transparent"} {
		a.bindFlag(f, "flame."+k, k, "")
	}
	return cmd
}
