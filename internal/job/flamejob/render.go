package flamejob

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/phase"
	"github.com/procgen-dev/procgen/internal/shard"
)

// RenderArgs are what 'flame render' is given beside the flame settings.
type RenderArgs struct {
	Inputs []string // genome files, directories, PNGs or -
	Out    string   // -o: an image, a directory, or PART.accum
	Resume bool
	Shard  shard.Shard // resolved (and logged) by the caller
}

// Render is 'flame render': every flame of the inputs to an image, or, with
// -o PART.accum, this shard's share of one still's samples to a raw
// accumulation for Merge.
func Render(ctx context.Context, env *job.Env, o Options, r RenderArgs) error {
	if isAccum(r.Out) {
		return renderAccum(ctx, env, o, r)
	}
	return renderImages(ctx, env, o, r)
}

// flameJob is one flame to render and where its image goes.
type flameJob struct {
	genome *flame.Genome
	source string
	out    string
	slot   int // position in the batch, for --shard
}

// parsed is the batch after parsing: the flames to render, and the files
// that failed (each one item of the batch).
type parsed struct {
	jobs          []flameJob
	failures      []string
	parseFailures int
	items         int // flames and bad files: the batch's slots
}

func renderImages(ctx context.Context, env *job.Env, o Options, r RenderArgs) error {
	env.Dev.Prefetch()
	files, err := genomeFiles(r.Inputs)
	if err != nil {
		return job.UsageError{Err: err}
	}
	dest, err := planDestination(env, r.Inputs, files, r.Out, o)
	if err != nil {
		return err
	}
	o.format = dest.format
	parseOpts, err := parseOptions(o)
	if err != nil {
		return err
	}
	parseOpts.Context = ctx
	phase.Enter(ctx, "flame.parse")
	b, err := parseBatch(ctx, env, files, parseOpts, r.Shard)
	if err != nil {
		return err
	}
	if dest.isFile && len(b.jobs) > 1 {
		return job.Usagef("-o %s names one image, but %s holds %d flames: give a directory", r.Out, files[0], len(b.jobs))
	}
	if err := dest.claim(b.jobs, r.Out, files); err != nil {
		return err
	}
	work, err := checkSizes(ctx, env, b.jobs, o)
	if err != nil {
		return err
	}
	// Every shard checks the whole batch and picks the device by its whole
	// work, as one run would, then renders only its own flames.
	b.jobs = shardJobs(env.Log, b.jobs, b.items, r.Shard)
	// --resume takes an image that exists as rendered: --fsync auto syncs.
	return renderBatch(output.Resumable(ctx), env, o, dest, b, work, r.Resume)
}

// checkSizes checks every size before the first render, so a batch never
// stops half-way on a genome it could have refused at the start, and sums
// the batch's work for --device auto.
func checkSizes(ctx context.Context, env *job.Env, jobs []flameJob, o Options) (float64, error) {
	work := 0.0
	for _, j := range jobs {
		if err := ctx.Err(); err != nil { // 100,000 flames take seconds to check
			return 0, err
		}
		fp, err := checkSize(env, j, o)
		if err != nil {
			return 0, err
		}
		work += device.FlameWork(fp.Samples, fp.Buckets)
	}
	return work, nil
}

// renderBatch opens the devices, renders the batch's flames (less those
// --resume skips) and lists the failures.
func renderBatch(ctx context.Context, env *job.Env, o Options, dest destination, b parsed, work float64, resume bool) error {
	devs, release, err := env.Dev.OpenAllFor("flame", work)
	if err != nil {
		return err
	}
	defer release()
	for _, d := range devs {
		for _, j := range b.jobs {
			if err := checkDeviceSize(j, o, d); err != nil {
				return err
			}
		}
	}
	if dest.dir != "" {
		if err := os.MkdirAll(dest.dir, 0o755); err != nil {
			return err
		}
	}
	batch := len(b.jobs) // before --resume skips any
	jobs := b.jobs
	if resume {
		jobs = skipExisting(env.Log, jobs)
	}
	var errs []error
	if len(devs) > 1 && len(jobs) > 1 {
		errs = renderOnDevices(ctx, env, devs, dest.plan, jobs, o)
	} else if errs, err = renderEach(ctx, env, devs, dest.plan, jobs, o, batch); err != nil {
		return err
	}
	failures := b.failures
	for _, err := range errs {
		if errors.Is(err, ctx.Err()) || batch == 1 {
			return err
		}
		failures = append(failures, err.Error())
	}
	if len(failures) > 0 {
		return fmt.Errorf("flame: %d of %d flames failed:\n  %s", len(failures), batch+b.parseFailures,
			strings.Join(failures, "\n  "))
	}
	return nil
}

// skipExisting drops the flames whose output exists (--resume).
func skipExisting(log job.Logger, jobs []flameJob) []flameJob {
	kept := jobs[:0]
	for _, j := range jobs {
		if j.out != output.Stdout {
			if _, err := os.Stat(j.out); err == nil {
				log.Infof("skip %s: exists (--resume)", j.out)
				continue
			}
		}
		kept = append(kept, j)
	}
	return kept
}

// renderEach renders the flames one after another on one renderer (a still
// on several devices splits its samples over them). A failure of one flame
// of a batch is warned of and returned in the list; it ends a batch of one.
func renderEach(ctx context.Context, env *job.Env, devs []*gpu.Device, plan *output.Plan,
	jobs []flameJob, o Options, batch int) ([]error, error) {
	dev := device.First(devs)
	r := flame.NewRenderer(dev)
	switch {
	case o.format.linear():
		// A linear still is the accumulation finished on the host: one
		// device's, as a split still's parts are.
		r = linearRenderer{dev: dev}
	case len(devs) > 1:
		r = flame.NewMultiRenderer(devs) // one still: its samples split over the devices
	}
	var errs []error
	for _, j := range jobs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		err := renderOne(ctx, env, r, plan, j, o, nil)
		env.Dev.HintJIT(dev, "flame")
		if err != nil {
			if errors.Is(err, ctx.Err()) || batch == 1 {
				return nil, err
			}
			errs = append(errs, err)
			env.Log.Warnf("%v", err)
		}
	}
	return errs, nil
}

// renderOnDevices renders a batch of genomes on several GPUs, dealt by
// device.Deal: each genome's image is written as it finishes, a failure is
// warned of and the batch goes on. One progress bar counts finished
// genomes. It returns the errors of the genomes that failed.
func renderOnDevices(ctx context.Context, env *job.Env, devs []*gpu.Device, plan *output.Plan, jobs []flameJob,
	o Options) []error {
	rs := make([]flame.Renderer, len(devs))
	for i, d := range devs {
		rs[i] = flame.NewRenderer(d)
		if o.format.linear() {
			rs[i] = linearRenderer{dev: d}
		}
	}
	done := int64(0)
	bar := env.Progress(int64(len(jobs)), "flame render")
	errs := device.Deal(ctx, rs, len(jobs), func(r flame.Renderer, i int) error {
		return renderOne(ctx, env, r, plan, jobs[i], o, func(int64, int64) {})
	}, func(_ int, err error) {
		if err != nil && ctx.Err() == nil {
			env.Log.Warnf("%v", err)
		}
		done++
		bar(done, int64(len(jobs)))
	})
	env.Dev.HintJIT(devs[0], "flame")
	return errs
}
