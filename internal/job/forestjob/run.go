package forestjob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/forest"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/phase"
)

// run carries one plot's inputs and results to the writers.
type run struct {
	env                   *job.Env
	stemFile, speciesFile string
	o                     Options
	p                     *Plan
	grid                  forest.Grid
	stems                 *forest.StemMap
	res                   *forest.Resolution
	layers                []forest.Layer
	names                 []string // file stems, by layer; the total's is last
	counts                [][]int64
	trees                 []forest.Tree
	stemsPerLayer         []int
	outside               int
	warnings              []string
	device                string
	seed                  uint64 // with --realize
	timings               map[string]float64
}

// warn logs a warning and keeps it for summary.json.
func (r *run) warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.warnings = append(r.warnings, msg)
	r.env.Log.Warnf("%s", msg)
}

// disperse is one plot: read, check memory, compute, write outDir.
func disperse(ctx context.Context, env *job.Env, stemFile, outDir string, force bool, o Options, p *Plan) error {
	env.Dev.Prefetch()
	start := time.Now()
	if outDir == "" {
		base := filepath.Base(stemFile)
		outDir = strings.TrimSuffix(base, filepath.Ext(base)) + "-seedrain"
	}
	if err := job.CheckInput("forest: stem map", stemFile); err != nil {
		return err
	}
	if err := job.CheckInput("forest: --species", o.Species); err != nil {
		return err
	}
	out, err := settleOutDir(outDir, force, stemFile, o.Species)
	if err != nil {
		return err
	}
	r := &run{env: env, stemFile: stemFile, speciesFile: o.Species, o: o, p: p, timings: map[string]float64{}}
	phase.Enter(ctx, "forest.read")
	if err := r.read(ctx); err != nil {
		return err
	}
	if err := r.checkMemory(); err != nil {
		return err
	}
	r.timings["read_s"] = time.Since(start).Seconds()
	if err := ctx.Err(); err != nil {
		return err
	}
	phase.Enter(ctx, "forest.compute")
	if err := r.compute(ctx); err != nil {
		return err
	}
	writeStart := time.Now()
	phase.Enter(ctx, "write")
	if err := r.write(ctx, out, writeStart, start); err != nil {
		return err
	}
	tot := r.layers[len(r.layers)-1]
	env.Log.Infof("wrote %s: %d species on %dx%d cells of %g m, %s; %.4g seeds/yr landed, %.4g lost off the plot",
		out.Path(), len(r.layers)-1, r.grid.NX, r.grid.NY, r.grid.Cell, o.Method, tot.Total, tot.Lost)
	return nil
}

// read reads the species file and the stem map and sets up the grid.
func (r *run) read(ctx context.Context) error {
	o, p := r.o, r.p
	sdata, err := input.ReadFile(ctx, o.Species, input.Species)
	if err != nil {
		return job.AsUsage(fmt.Errorf("species file: %w", err))
	}
	table, err := forest.ParseSpecies(bytes.NewReader(sdata), o.Species)
	if err != nil {
		return fmt.Errorf("forest: %w", err)
	}
	f, err := input.Open(ctx, r.stemFile, input.StemMap)
	if err != nil {
		return job.AsUsage(fmt.Errorf("stem map: %w", err))
	}
	defer f.Close()
	r.stems, err = forest.ReadStems(f, r.stemFile, forest.StemOptions{
		X: o.XCol, Y: o.YCol, Species: o.SpeciesCol, DBH: o.DBHCol, DBHUnit: o.DBHUnit, Girth: o.Girth,
		Where: p.where, Delimiter: p.delim,
	})
	if err != nil {
		return fmt.Errorf("forest: %w", err)
	}
	r.env.Log.Debugf("%s: %d rows, %d dropped by --where, columns %s", r.stemFile, r.stems.Rows, r.stems.Filtered,
		strings.Join(r.stems.Columns[:], ", "))
	for _, w := range r.stems.Warnings { // unit sanity (forest/stems_check.go)
		r.warn("%s: %s", r.stemFile, w)
	}
	r.res, err = table.Resolve(r.stems.Species(), o.SkipUnknown)
	if err != nil {
		return fmt.Errorf("forest: %w", err)
	}
	if len(r.res.Skipped) > 0 {
		r.warn("skipped %d species the species file does not name (--skip-unknown): %s", len(r.res.Skipped),
			strings.Join(r.res.Skipped, ", "))
	}
	return r.plot()
}

// plot sets up the grid over --bounds or the stems, and places the trees
// on it.
func (r *run) plot() error {
	o, p := r.o, r.p
	var b forest.Bounds
	var err error
	switch {
	case p.bounds != nil:
		b = *p.bounds
	case len(r.stems.Stems) == 0:
		return fmt.Errorf("forest: %s: no stems (after --where): give --bounds x0,y0,x1,y1 for an all-zero grid", r.stemFile)
	default:
		b, _ = forest.BoundsOf(r.stems.Stems, o.Cell)
	}
	if r.grid, err = forest.GridFor(b, o.Cell); err != nil {
		return job.Usagef("%v", err)
	}
	if !r.grid.Whole(b) {
		if o.Boundary == "torus" {
			return job.Usagef("--bounds %s is not a whole number of %g m cells, which a torus needs", b, o.Cell)
		}
		r.warn("the plot %s is not a whole number of %g m cells: the grid extends to %g,%g", b, o.Cell,
			r.grid.X0+float64(r.grid.NX)*o.Cell, r.grid.Y0+float64(r.grid.NY)*o.Cell)
	}
	var trees []forest.Tree
	trees, r.outside = forest.Trees(r.stems.Stems, r.res, r.grid)
	if r.outside > 0 {
		if r.outside == 1 {
			r.warn("1 stem lies outside the plot %s and was dropped", b)
		} else {
			r.warn("%d stems lie outside the plot %s and were dropped", r.outside, b)
		}
	}
	if len(trees) == 0 {
		r.warn("no stems on the plot: every density is 0")
	}
	r.stemsPerLayer = make([]int, len(r.res.Species))
	for _, t := range trees {
		r.stemsPerLayer[t.Species]++
	}
	r.trees = trees
	return nil
}

// compute runs the engine, applies the buffer zone, adds the total layer
// and draws the realization.
func (r *run) compute(ctx context.Context) error {
	o := r.o
	margin := 0
	if o.Boundary == "buffer" {
		m := o.Margin / o.Cell
		margin = int(math.Round(m))
		if math.Abs(m-float64(margin)) > 1e-9*math.Max(1, m) {
			return job.Usagef("--margin %g is not a whole number of --cell %g m cells", o.Margin, o.Cell)
		}
		if _, err := r.grid.Inset(margin); err != nil {
			return job.Usagef("--margin: %v", err)
		}
	}
	kind, work := device.ForestWork(o.Method, r.grid.NX*r.grid.NY*max(len(r.res.Species), 1), len(r.trees))
	dev, err := r.env.Dev.OpenFor(kind, work)
	if err != nil {
		return err
	}
	defer r.env.Dev.Release(dev)
	layers, err := r.disperse(ctx, dev)
	if err != nil {
		return err
	}
	if margin > 0 {
		if r.grid, layers, err = forest.Crop(r.grid, layers, margin); err != nil {
			return job.Usagef("--margin: %v", err)
		}
	}
	r.layers = append(layers, forest.Total(r.grid, layers, o.boundary())) // its accuracy: the largest species estimate, or "mixed"
	r.names = layerFileNames(r.res.Species)
	if o.Realize {
		r.realize(len(layers))
	}
	return nil
}

// disperse runs the engine on dev (nil: the CPU).
func (r *run) disperse(ctx context.Context, dev *gpu.Device) ([]forest.Layer, error) {
	o := r.o
	if dev != nil {
		r.device = "cuda"
	} else {
		r.device = "cpu"
	}
	engine := forest.NewEngine(dev)
	var mu sync.Mutex
	bar := r.env.Progress(int64(r.grid.NY)*int64(max(len(r.res.Species), 1)), "forest disperse")
	progress := func(done, total int64) {
		mu.Lock()
		defer mu.Unlock()
		bar(done, total)
	}
	start := time.Now()
	layers, err := engine.Disperse(ctx, r.grid, r.trees, r.res.Species, forest.Options{
		Method: forest.Method(o.Method), Boundary: o.boundary(), Cutoff: o.Cutoff, Progress: progress,
		Tolerance: o.Tolerance, ClusterDistance: o.ClusterDistance,
	})
	r.env.Dev.HintJIT(dev, "forest")
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, err
		}
		return nil, fmt.Errorf("forest: %w", err)
	}
	r.timings["compute_s"] = time.Since(start).Seconds()
	return layers, nil
}

// realize draws the seeds landing in each cell of the species layers (the
// first n), keyed by --seed, species and cell, and sums them for the total:
// negative binomial with --clumping, else the species' clumping, Poisson
// where neither is set.
func (r *run) realize(n int) {
	rs := time.Now()
	seed := r.env.Seed
	r.seed = seed
	r.counts = make([][]int64, len(r.layers))
	for s := range n {
		key := forest.SpeciesKey(r.res.Species[s].Name)
		k := r.res.Species[s].Clumping
		if r.o.Clumping > 0 {
			k = r.o.Clumping
		}
		r.counts[s] = forest.RealizeClumped(r.grid, r.layers[s].Density, k, key, seed, 0)
	}
	sum := make([]int64, r.grid.Cells())
	for _, c := range r.counts[:n] {
		for i, v := range c {
			sum[i] += v
		}
	}
	r.counts[n] = sum
	r.timings["realize_s"] = time.Since(rs).Seconds()
}

// layerFileNames are the species' file names (safe characters only, unique,
// never "total" or "summary"), then "total".
func layerFileNames(species []forest.Species) []string {
	used := map[string]bool{"total": true, "summary": true}
	names := make([]string, 0, len(species)+1)
	for _, s := range species {
		base := job.SafeName(s.Name)
		if base == "" || base == "*" {
			base = "species"
		}
		name := base
		for i := 2; used[strings.ToLower(name)]; i++ {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		used[strings.ToLower(name)] = true
		names = append(names, name)
	}
	return append(names, "total")
}
