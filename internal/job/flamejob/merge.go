package flamejob

import (
	"context"
	"fmt"
	"io"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/phase"
)

// mergeBucketBytes is the host memory per histogram bucket of a merge: the
// summed histogram (4 uint64 sums and a uint32 count) and the float64
// density-estimation accumulator, as a CPU render needs.
const mergeBucketBytes = 36 + 32

// Merge is 'flame merge': the accumulation parts of one still summed and
// finished into the image -o names.
func Merge(ctx context.Context, env *job.Env, o Options, parts []string, out string) error {
	switch {
	case out == "":
		return job.Usagef("flame merge: -o is required (.png, .jpg, .tif, .exr or -)")
	case out != output.Stdout && !isImagePath(out) && !job.IsStream(out):
		return job.Usagef("-o %s: want a .png, .jpg, .jpeg, .tif, .tiff or .exr file, or - for standard output", out)
	}
	f, err := resolveFormat(out, o.Format, o.PNG16, false)
	if err != nil {
		return err
	}
	for _, p := range parts {
		if err := job.CheckInput("flame merge", p); err != nil {
			return err
		}
	}
	plan, err := env.PlanOutputs(parts, out)
	if err != nil {
		return err
	}
	phase.Enter(ctx, "flame.merge")
	sum, err := sumParts(ctx, env, parts)
	if err != nil {
		return err
	}
	if err := sum.Complete(); err != nil {
		return err
	}
	finish := sum.Finish
	if f.linear() {
		finish = sum.FinishLinear
	}
	frame, err := finish(ctx)
	if err != nil {
		return err
	}
	in := sum.Info()
	// The image carries the genome and samples one render's image does.
	text := fitText(env.Log.Warnf, f, out, flam3TextOf(o.Version, in.GenomeXML, in.Samples, in.BadValues))
	phase.Enter(ctx, "write")
	if err := plan.Commit(ctx, []output.Write{{Path: out, Func: func(w io.Writer) error {
		return encodeImage(ctx, w, f, frame, o, text)
	}}}); err != nil {
		return err
	}
	if out != output.Stdout {
		env.Log.Infof("wrote %s (%dx%d, %d samples from %d parts)", out, frame.Width, frame.Height, in.Samples, len(parts))
	}
	return nil
}

// sumParts reads the parts one at a time into one sum, its memory checked
// against --max-memory from the first part's header.
func sumParts(ctx context.Context, env *job.Env, parts []string) (*flame.Accum, error) {
	open := func(p string) (io.ReadCloser, error) { return input.Open(ctx, p, input.Accum) }
	var sum *flame.Accum
	for _, p := range parts {
		part, err := openAccumPart(ctx, p, open)
		if err != nil {
			return nil, err
		}
		if sum == nil {
			in := part.r.Info()
			what := fmt.Sprintf("flame merge: %dx%d buckets of %s", in.BucketsW, in.BucketsH, p)
			px := float64(in.Finish.Width) * float64(in.Finish.Height)
			if err := env.CheckMemory(what, float64(in.Buckets())*mergeBucketBytes+px*32+64<<20, "the render's size"); err != nil {
				_ = part.close()
				return nil, err
			}
			if sum, err = flame.NewAccumSum(in); err != nil {
				_ = part.close()
				return nil, fmt.Errorf("flame merge: %s: %w", p, err)
			}
		}
		err = sum.Add(ctx, part.r)
		_ = part.close()
		if err != nil {
			return nil, fmt.Errorf("flame merge: %w", err)
		}
	}
	return sum, nil
}
