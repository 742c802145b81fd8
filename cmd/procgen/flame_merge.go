package main

import (
	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/job/flamejob"
)

func (a *app) newFlameMergeCmd() *cobra.Command {
	var out, format string
	cmd := &cobra.Command{
		Use:   "merge PART.accum ... -o OUT",
		Short: "Sum the accumulation parts of one still and finish the image",
		Long: `Sum the raw accumulations that 'flame render --shard I/N -o PART.accum' wrote
(one per shard, on as many nodes as you like) and finish the image: density
estimation, spatial filter, gamma and vibrancy. Every shard 0..N-1 of the same
render (genome, size, quality, --seed) must be given, each once. The shards
split the chaos game's sub-batches, so the result is the image that one
'flame render' at the same --quality and --seed writes, bit for bit.

-o FILE: .png (8-bit, or --png16), .jpg/.jpeg (--jpeg-quality), .tif (16-bit),
.exr (linear light, as 'flame render' writes it; --format exr32 for 32-bit
float), or - for a PNG on standard output (--format for another). A part from another render, another procgen format
version, or a truncated or damaged file is an error (exit 1), and nothing is
written.`,
		Example: `  # on node i of 8 (a Slurm array sets I and N: --shard may be left out)
  procgen --device cpu flame render poster.flam3 --quality 20000 --shard $I/8 -o part$I.accum
  # then, anywhere
  procgen flame merge part*.accum -o poster.png`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := a.flameOptions()
			if err != nil {
				return err
			}
			o.Format = format
			return flamejob.Merge(cmd.Context(), a.env(), o, args, out)
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "", flamejob.FormatHelp)
	f.StringVarP(&out, "output", "o", "", "output image `FILE` (.png, .jpg, .tif, .exr; - for stdout)")
	a.bindFlag(f, "flame.png16", "png16", "")
	a.bindFlag(f, "flame.jpeg-quality", "jpeg-quality", "")
	a.bindFlag(f, "flame.compression", "compression", "")
	return cmd
}
