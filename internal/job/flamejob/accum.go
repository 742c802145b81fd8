package flamejob

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/phase"
	"github.com/procgen-dev/procgen/internal/shard"
)

// isAccum: -o names an accumulation part, not an image.
func isAccum(out string) bool { return strings.EqualFold(filepath.Ext(out), ".accum") }

// renderAccum renders this shard's share of one still's samples into a
// raw accumulation (-o PART.accum), for flame merge to sum and finish. The
// shards split the chaos game's sub-batches (range I of N), each with its
// own random stream keyed by --seed and k, so the merged image is the
// one-shot render at the same --quality, bit for bit. On a GPU the shards
// split the device's chains instead: GPU parts merge into the one-GPU render
// (to float rounding), and are never mixed with CPU parts.
func renderAccum(ctx context.Context, env *job.Env, o Options, r RenderArgs) error {
	args, out, sh := r.Inputs, r.Out, r.Shard
	if len(args) != 1 || job.IsDir(args[0]) {
		return job.Usagef("-o %s is one accumulation part: give one genome file with one flame", out)
	}
	path := args[0]
	if err := job.CheckInput("flame", path); err != nil {
		return err
	}
	inputs := []string{path}
	parseOpts, err := parseOptions(o)
	if err != nil {
		return err
	}
	parseOpts.Context = ctx
	if o.Palettes != "" {
		inputs = append(inputs, o.Palettes)
	}
	plan, err := env.PlanOutputs(inputs, out)
	if err != nil {
		return err
	}
	if !sh.Active() {
		sh = shard.Shard{Index: 0, Count: 1}
	}
	phase.Enter(ctx, "flame.parse")
	gs, warns, err := flame.ParseFileContext(ctx, path, parseOpts)
	for _, w := range warns {
		env.Log.Warnf("%s", w)
	}
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(gs) != 1 {
		return job.Usagef("-o %s is one accumulation part, but %s holds %d flames: split the file", out, path, len(gs))
	}
	return accumulate(ctx, env, o, plan, flameJob{genome: gs[0], source: path, out: out}, sh)
}

// accumulate checks the part's size, runs its share of the chaos game on
// the device the policy picks and writes the part.
func accumulate(ctx context.Context, env *job.Env, o Options, plan *output.Plan, j flameJob, sh shard.Shard) error {
	fp, err := checkSize(env, j, o)
	if err != nil {
		return err
	}
	// A part is 1/N of the render's samples: auto weighs that share.
	dev, err := env.Dev.OpenFor("flame", device.FlameWork(fp.Samples/int64(sh.Count), fp.Buckets))
	if err != nil {
		return err
	}
	if dev != nil {
		defer dev.Close()
		if err := checkDeviceSize(j, o, dev); err != nil {
			return err
		}
	}
	var mu sync.Mutex
	bar := env.Progress(1, fmt.Sprintf("flame %s shard %s", filepath.Base(j.source), sh))
	acc, st, err := flame.AccumulateOn(ctx, dev, j.genome, flame.Options{
		Width: o.Width, Height: o.Height, Quality: o.Quality, Supersample: o.Supersample,
		Seed: env.Seed, EarlyClip: o.EarlyClip, Transparent: o.Transparent,
		Progress: func(done, total int64) { mu.Lock(); defer mu.Unlock(); bar(done, total) },
	}, sh.Index, sh.Count)
	if err != nil {
		return fmt.Errorf("%s: %w", j.source, err)
	}
	phase.Enter(ctx, "write")
	if err := plan.Commit(ctx, []output.Write{{Path: j.out, Func: func(w io.Writer) error {
		return acc.Encode(ctx, w)
	}}}); err != nil {
		return err
	}
	if st.BadValues > 0 {
		env.Log.Debugf("%s: %d of %d points went bad (NaN/inf) and were dropped", j.source, st.BadValues, st.Samples)
	}
	in := acc.Info()
	env.Log.Infof("wrote %s (shard %s: %d of %d samples, %dx%d buckets)", j.out, sh, in.Samples, in.TotalSamples,
		in.BucketsW, in.BucketsH)
	return nil
}

// accumPart is one part open for merging; the caller closes it.
type accumPart struct {
	r     *flame.AccumReader
	close func() error
}

func openAccumPart(ctx context.Context, path string, open func(string) (io.ReadCloser, error)) (accumPart, error) {
	if err := ctx.Err(); err != nil {
		return accumPart{}, err
	}
	f, err := open(path)
	if err != nil {
		return accumPart{}, fmt.Errorf("flame merge: %w", err)
	}
	r, err := flame.OpenAccum(f, path)
	if err != nil {
		_ = f.Close()
		return accumPart{}, fmt.Errorf("flame merge: %w", err)
	}
	return accumPart{r: r, close: f.Close}, nil
}
