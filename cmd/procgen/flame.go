package main

import (
	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/job/flamejob"
)

// flameOptions decodes the flame settings and checks them.
func (a *app) flameOptions() (flamejob.Options, error) {
	o := flamejob.Options{Version: version}
	if err := a.decode("flame", &o); err != nil {
		return o, err
	}
	return o, o.Validate()
}

func (a *app) newFlameCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "flame",
		Short: "Fractal flames: render flam3 genomes and animations",
	}
	cmd.AddCommand(a.newFlameRenderCmd())
	cmd.AddCommand(a.newFlameAnimateCmd())
	cmd.AddCommand(a.newFlameSequenceCmd())
	cmd.AddCommand(a.newFlameMergeCmd())
	cmd.AddCommand(a.newFlameGenomeCmd())
	return cmd
}

func (a *app) newFlameRenderCmd() *cobra.Command {
	var out, format string
	var resume bool
	var shardSpec string
	cmd := &cobra.Command{
		Use:   "render GENOME.flam3|DIR|IMAGE.png|- ... [-o OUT]",
		Short: "Render flam3 genomes to PNG",
		Long: `Render fractal flames from flam3 genomes (as written by flam3, Apophysis,
Fractorium and Electric Sheep) with the flam3 algorithm: chaos game, log-density
accumulation, density estimation, spatial filter, gamma and vibrancy.

One genome file with one flame renders to -o FILE: .png (8-bit, or --png16),
.jpg/.jpeg (--jpeg-quality), .tif/.tiff (16-bit RGBA), .exr (linear light,
half float; --format exr32 for 32-bit float), or - for a PNG on standard
output (--format for another; default: the genome's name with .png). Several files, a directory, or a file holding several flames render
every flame into the directory -o DIR (default: the current directory), named
after the file and the flame; a bad genome does not stop the others, and the
failures are listed at the end (exit 1). --resume skips outputs that exist.

A PNG keeps the genome it was rendered from, as flam3 keeps it (a
flam3_genome text chunk, with --width/--height/--quality applied, beside
flam3_version, flam3_samples and flam3_error_rate; not flam3_time, so the
same input and --seed give the same file), and a PNG by procgen or flam3
renders again: 'procgen flame render old.png -o new.png'. A JPEG keeps the
same as comments ("flam3_genome: <flame ...>"), as flam3 writes them; an EXR
as string attributes of its header. An EXR holds linear light: the image at
gamma 1, premultiplied, unclipped (values above 1 are the dense cores the
tone curve clips), on flam3's scale, where 1 is what a PNG at gamma 1 shows
as white; gamma, vibrancy, highlight power and early clip do not apply.
- reads one genome file from standard input.

Size and quality default to the genome's own; --width/--height rescale the
framing, --quality sets samples per output pixel. The same --seed gives the
same image on the same backend, whatever the number of threads.

Fractorium's and JWildfire's 3D camera (cam_pitch, cam_yaw, cam_persp,
cam_zpos, cam_dof; JWildfire's cam_pos_x/y/z) is honoured on the CPU: a
genome with one, like one with JWildfire's variations, renders on the CPU
even with --device cuda or auto, and the GPU animation paths refuse it
(--device cpu renders it). cam_roll, cam_zoom and JWildfire's focus point
are not honoured (a warning; an error with --strict).

--shard I/N renders only flames k (files in order, then the flames of each)
with k mod N = I, so N runs write exactly one run's files; in a Slurm job
array it defaults to the task's (SLURM_ARRAY_TASK_ID, _COUNT, _MIN), in a
Kubernetes indexed Job to JOB_COMPLETION_INDEX of PROCGEN_SHARD_COUNT (but one
flame alone is rendered whole); the flag wins. With -o PART.accum one genome's samples are split instead: each shard
writes its raw accumulation (CPU or GPU, not mixed), and 'procgen flame merge' finishes them.`,
		Example: `  procgen flame render sheep.flam3 -o sheep.png
  procgen flame render sheep.flam3 --width 1920 --quality 2000 --png16 -o sheep.png
  procgen flame render genomes/ -o renders/ --resume
  procgen flame render sheep.flam3 -o sheep.exr
  procgen flame render genomes/ -o renders/ --format tiff
  procgen flame render sheep.png --quality 4000 -o sheep-hq.png
  curl -s https://example.org/sheep.flam3 | procgen flame render - -o sheep.png
  procgen --device cpu flame render sheep.flam3 --seed 7
  procgen flame render genomes/ -o renders/ --shard 2/8
  procgen --device cpu flame render poster.flam3 --quality 20000 --shard 2/8 -o part2.accum`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := a.flameOptions()
			if err != nil {
				return err
			}
			o.Format = format
			sh, err := a.shardOf(shardSpec)
			if err != nil {
				return err
			}
			return flamejob.Render(cmd.Context(), a.env(), o, flamejob.RenderArgs{Inputs: args, Out: out, Resume: resume, Shard: sh})
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "", flamejob.FormatHelp)
	f.StringVarP(&out, "output", "o", "", "output `FILE` (.png, .jpg, .tif, .exr; - for stdout) for one flame, or a directory for several")
	f.BoolVar(&resume, "resume", false, "skip flames whose output file already exists")
	addShardFlag(f, &shardSpec)
	a.bindFlag(f, "flame.width", "width", "")
	a.bindFlag(f, "flame.height", "height", "")
	a.bindFlag(f, "flame.quality", "quality", "")
	a.bindFlag(f, "flame.supersample", "supersample", "")
	a.bindFlag(f, "flame.png16", "png16", "")
	a.bindFlag(f, "flame.jpeg-quality", "jpeg-quality", "")
	a.bindFlag(f, "flame.compression", "compression", "")
	a.bindFlag(f, "flame.palettes", "palettes", "")
	a.bindFlag(f, "flame.strict", "strict", "")
	a.bindFlag(f, "flame.earlyclip", "earlyclip", "")
	a.bindFlag(f, "flame.transparent", "transparent", "")
	return cmd
}
