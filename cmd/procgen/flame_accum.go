package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/phase"
)

// isAccum: -o names an accumulation part, not an image.
func isAccum(out string) bool { return strings.EqualFold(filepath.Ext(out), ".accum") }

// flameRenderAccum renders this shard's share of one still's samples into a
// raw accumulation (-o PART.accum), for flame merge to sum and finish. The
// shards split the chaos game's sub-batches (range I of N), each with its
// own random stream keyed by --seed and k, so the merged image is the
// one-shot render at the same --quality, bit for bit. On a GPU the shards
// split the device's chains instead: GPU parts merge into the one-GPU render
// (to float rounding), and are never mixed with CPU parts.
func (a *app) flameRenderAccum(cmd *cobra.Command, args []string, out string, sh shard, o flameOptions) error {
	ctx := cmd.Context()
	if len(args) != 1 || isDir(args[0]) {
		return usageErrorf("-o %s is one accumulation part: give one genome file with one flame", out)
	}
	path := args[0]
	if err := checkInputFile("flame", path); err != nil {
		return err
	}
	inputs := []string{path}
	parseOpts, err := flameParseOptions(o)
	if err != nil {
		return err
	}
	parseOpts.Context = ctx
	if o.Palettes != "" {
		inputs = append(inputs, o.Palettes)
	}
	plan, err := a.planOutputs(inputs, out)
	if err != nil {
		return err
	}
	if !sh.Active() {
		sh = shard{Index: 0, Count: 1}
	}
	phase.Enter(ctx, "flame.parse")
	gs, warns, err := flame.ParseFileContext(ctx, path, parseOpts)
	for _, w := range warns {
		a.log.Warnf("%s", w)
	}
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(gs) != 1 {
		return usageErrorf("-o %s is one accumulation part, but %s holds %d flames: split the file", out, path, len(gs))
	}
	j := flameJob{genome: gs[0], source: path, out: out}
	fp, err := a.checkFlameSize(j, o)
	if err != nil {
		return err
	}
	// A part is 1/N of the render's samples: auto weighs that share.
	dev, err := a.dev.OpenFor("flame", device.FlameWork(fp.Samples/int64(sh.Count), fp.Buckets))
	if err != nil {
		return err
	}
	if dev != nil {
		defer dev.Close()
		if err := a.checkFlameDeviceSize(j, o, dev); err != nil {
			return err
		}
	}
	var mu sync.Mutex
	bar := a.newProgress(1, fmt.Sprintf("flame %s shard %s", filepath.Base(path), sh))
	acc, st, err := flame.AccumulateOn(ctx, dev, j.genome, flame.Options{
		Width: o.Width, Height: o.Height, Quality: o.Quality, Supersample: o.Supersample,
		Seed: a.opts.Seed, EarlyClip: o.EarlyClip, Transparent: o.Transparent,
		Progress: func(done, total int64) { mu.Lock(); defer mu.Unlock(); bar(done, total) },
	}, sh.Index, sh.Count)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	phase.Enter(ctx, "write")
	if err := plan.Commit(ctx, []output.Write{{Path: out, Func: func(w io.Writer) error {
		return acc.Encode(ctx, w)
	}}}); err != nil {
		return err
	}
	if st.BadValues > 0 {
		a.log.Debugf("%s: %d of %d points went bad (NaN/inf) and were dropped", path, st.BadValues, st.Samples)
	}
	in := acc.Info()
	a.log.Infof("wrote %s (shard %s: %d of %d samples, %dx%d buckets)", out, sh, in.Samples, in.TotalSamples,
		in.BucketsW, in.BucketsH)
	return nil
}

// openAccumPart opens one part for merging; the caller closes it.
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
