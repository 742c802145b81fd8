package flamejob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"time"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/phase"
)

// renderOne renders one genome and writes its image. progress, when not
// nil, replaces the genome's own progress bar.
func renderOne(ctx context.Context, env *job.Env, r flame.Renderer, plan *output.Plan, j flameJob, o Options,
	progress func(done, total int64)) error {
	name := j.genome.Name
	if name == "" {
		name = filepath.Base(j.source)
	}
	if progress == nil {
		var mu sync.Mutex
		bar := env.Progress(1, "flame "+name)
		progress = func(done, total int64) {
			mu.Lock() // backends may report from several goroutines
			defer mu.Unlock()
			bar(done, total)
		}
	}
	start := time.Now()
	frame, st, err := r.Render(ctx, j.genome, flame.Options{
		Width: o.Width, Height: o.Height, Quality: o.Quality, Supersample: o.Supersample,
		Seed: env.Seed, EarlyClip: o.EarlyClip, Transparent: o.Transparent, Progress: progress,
	})
	if err != nil {
		return fmt.Errorf("%s: %w", j.source, err)
	}
	rendered := time.Now()
	if st.BadValues > 0 {
		env.Log.Debugf("%s: %d of %d points went bad (NaN/inf) and were dropped", name, st.BadValues, st.Samples)
	}
	text, err := flam3Text(o.Version, j.genome, o.size(), st)
	if err != nil {
		return fmt.Errorf("%s: %w", j.source, err)
	}
	text = fitText(env.Log.Warnf, o.format, j.source, text)
	phase.Enter(ctx, "write")
	if err := plan.Commit(ctx, []output.Write{{Path: j.out, Func: func(w io.Writer) error {
		return encodeImage(ctx, w, o.format, frame, o, text)
	}}}); err != nil {
		return err
	}
	env.Log.Debugf("%s: iterate %.3f s, render %.3f s, write %.3f s", name, st.IterateSeconds,
		rendered.Sub(start).Seconds(), time.Since(rendered).Seconds())
	if st.Kernel != "" {
		env.Log.Debugf("%s: iterate kernel %s", name, st.Kernel)
	}
	if st.PartsWallSeconds > 0 {
		env.Log.Debugf("%s: on several devices: iterate %.3f s of wall time, histograms summed in %.3f s", name,
			st.PartsWallSeconds, st.MergeSeconds)
	}
	if j.out != output.Stdout {
		env.Log.Infof("wrote %s (%dx%d, %d samples)", j.out, frame.Width, frame.Height, st.Samples)
	}
	return nil
}

// checkSize refuses a render whose sample count or host memory is out of
// bounds, naming the flags that change it, and returns its footprint.
func checkSize(env *job.Env, j flameJob, o Options) (flame.Footprint, error) {
	fp, err := flame.Estimate(j.genome, o.size())
	switch {
	case flame.IsKernelError(err): // it names the genome's attributes to lower
		return fp, job.Usagef("%s: %v", j.source, err)
	case errors.Is(err, flame.ErrTooLarge):
		return fp, job.Usagef("%s: %v: lower --width/--height, --quality or --supersample", j.source, err)
	case err != nil:
		return fp, fmt.Errorf("%s: %w", j.source, err)
	}
	what := fmt.Sprintf("%s: %dx%d at supersample %d", j.source, fp.Width, fp.Height, fp.Supersample)
	// The CPU's footprint bounds the GPU path's host side too.
	return fp, env.CheckMemory(what, fp.CPUBytes, memoryFlags(fp))
}

// checkDeviceSize refuses a render the GPU's memory cannot hold.
func checkDeviceSize(j flameJob, o Options, dev *gpu.Device) error {
	fp, err := flame.Estimate(j.genome, o.size())
	if err != nil {
		return fmt.Errorf("%s: %w", j.source, err)
	}
	what := fmt.Sprintf("%s: %dx%d at supersample %d", j.source, fp.Width, fp.Height, fp.Supersample)
	return job.CheckDeviceMemory(what, fp.DeviceBytes, dev.Info().MemoryBytes, memoryFlags(fp))
}

// memoryFlags names what to lower for a footprint over the limit: the
// genome's kernel attributes where their kernels are most of it.
func memoryFlags(fp flame.Footprint) string {
	if fp.KernelBytes > fp.CPUBytes/2 {
		return "the genome's filter or estimator_radius (or --supersample)"
	}
	return "--width/--height or --supersample"
}
