package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/phase"
)

func (a *app) newFlameMergeCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "merge PART.accum ... -o OUT",
		Short: "Sum the accumulation parts of one still and finish the image",
		Long: `Sum the raw accumulations that 'flame render --shard I/N -o PART.accum' wrote
(one per shard, on as many nodes as you like) and finish the image: density
estimation, spatial filter, gamma and vibrancy. Every shard 0..N-1 of the same
render (genome, size, quality, --seed) must be given, each once. The shards
split the chaos game's sub-batches, so the result is the image that one
'flame render' at the same --quality and --seed writes, bit for bit.

-o FILE: .png (8-bit, or --png16), .jpg/.jpeg (--jpeg-quality), or - for a PNG
on standard output. A part from another render, another procgen format
version, or a truncated or damaged file is an error (exit 1), and nothing is
written.`,
		Example: `  # on node i of 8 (a Slurm array sets I and N: --shard may be left out)
  procgen --device cpu flame render poster.flam3 --quality 20000 --shard $I/8 -o part$I.accum
  # then, anywhere
  procgen flame merge part*.accum -o poster.png`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var o flameOptions
			if err := a.decode("flame", &o); err != nil {
				return err
			}
			if err := o.validate(); err != nil {
				return err
			}
			return a.flameMerge(cmd, args, out, o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "output image `FILE` (.png, .jpg; - for stdout)")
	a.bindFlag(f, "flame.png16", "png16", "")
	a.bindFlag(f, "flame.jpeg-quality", "jpeg-quality", "")
	a.bindFlag(f, "flame.compression", "compression", "")
	return cmd
}

// mergeBucketBytes is the host memory per histogram bucket of a merge: the
// summed histogram (4 uint64 sums and a uint32 count) and the float64
// density-estimation accumulator, as a CPU render needs.
const mergeBucketBytes = 36 + 32

func (a *app) flameMerge(cmd *cobra.Command, parts []string, out string, o flameOptions) error {
	ctx := cmd.Context()
	switch {
	case out == "":
		return usageErrorf("flame merge: -o is required (.png, .jpg or -)")
	case out != output.Stdout && !flameImageExts[lowerExt(out)] && !isStream(out):
		return usageErrorf("-o %s: want a .png, .jpg or .jpeg file, or - for standard output", out)
	case isJPEG(out) && o.PNG16:
		return usageErrorf("--png16 with -o %s: JPEG has 8 bits per channel; write a .png", out)
	}
	for _, p := range parts {
		if err := checkInputFile("flame merge", p); err != nil {
			return err
		}
	}
	plan, err := a.planOutputs(parts, out)
	if err != nil {
		return err
	}
	open := func(p string) (io.ReadCloser, error) { return input.Open(ctx, p, input.Accum) }
	phase.Enter(ctx, "flame.merge")
	var sum *flame.Accum
	for _, p := range parts {
		part, err := openAccumPart(ctx, p, open)
		if err != nil {
			return err
		}
		if sum == nil {
			in := part.r.Info()
			what := fmt.Sprintf("flame merge: %dx%d buckets of %s", in.BucketsW, in.BucketsH, p)
			px := float64(in.Finish.Width) * float64(in.Finish.Height)
			if err := a.checkMemory(what, float64(in.Buckets())*mergeBucketBytes+px*32+64<<20, "the render's size"); err != nil {
				_ = part.close()
				return err
			}
			if sum, err = flame.NewAccumSum(in); err != nil {
				_ = part.close()
				return fmt.Errorf("flame merge: %s: %w", p, err)
			}
		}
		err = sum.Add(ctx, part.r)
		_ = part.close()
		if err != nil {
			return fmt.Errorf("flame merge: %w", err)
		}
	}
	if err := sum.Complete(); err != nil {
		return err
	}
	frame, err := sum.Finish(ctx)
	if err != nil {
		return err
	}
	in := sum.Info()
	depth := output.Depth8
	if o.PNG16 {
		depth = output.Depth16
	}
	level := pngCompression[o.Compression]
	// The image carries the genome and samples one render's image does.
	text := flam3TextOf(in.GenomeXML, in.Samples, in.BadValues)
	phase.Enter(ctx, "write")
	if err := plan.Commit(ctx, []output.Write{{Path: out, Func: func(w io.Writer) error {
		switch {
		case isJPEG(out):
			return output.EncodeJPEG(ctx, w, frame.NRGBA(), o.JPEGQuality)
		case depth == output.Depth16:
			return output.EncodePNGText(ctx, w, frame.NRGBA64(), depth, level, text)
		}
		return output.EncodePNGText(ctx, w, frame.NRGBA(), depth, level, text)
	}}}); err != nil {
		return err
	}
	if out != output.Stdout {
		a.log.Infof("wrote %s (%dx%d, %d samples from %d parts)", out, frame.Width, frame.Height, in.Samples, len(parts))
	}
	return nil
}

func lowerExt(p string) string { return strings.ToLower(filepath.Ext(p)) }
