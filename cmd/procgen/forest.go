package main

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

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/forest"
	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/phase"
)

type forestOptions struct {
	Species         string   `mapstructure:"species"`
	Method          string   `mapstructure:"method"`
	Cell            float64  `mapstructure:"cell"`
	Bounds          string   `mapstructure:"bounds"`
	Boundary        string   `mapstructure:"boundary"`
	Margin          float64  `mapstructure:"margin"`
	Cutoff          float64  `mapstructure:"cutoff"`
	Tolerance       float64  `mapstructure:"tolerance"`
	ClusterDistance float64  `mapstructure:"cluster-distance"`
	XCol            string   `mapstructure:"x-col"`
	YCol            string   `mapstructure:"y-col"`
	SpeciesCol      string   `mapstructure:"species-col"`
	DBHCol          string   `mapstructure:"dbh-col"`
	DBHUnit         string   `mapstructure:"dbh-unit"`
	Girth           bool     `mapstructure:"girth"`
	Where           []string `mapstructure:"where"`
	Delimiter       string   `mapstructure:"delimiter"`
	SkipUnknown     bool     `mapstructure:"skip-unknown"`
	Realize         bool     `mapstructure:"realize"`
	Stems           bool     `mapstructure:"stems"`
	CRS             string   `mapstructure:"crs"`
	Formats         []string `mapstructure:"formats"`
}

var forestDelimiters = map[string]rune{"auto": 0, "comma": ',', "tab": '\t', "semicolon": ';', "space": ' '}

var forestFormats = map[string]bool{"csv": true, "asc": true, "png": true, "tif": true}

// forestPlan is what validate derives from the options.
type forestPlan struct {
	where  []forest.Condition
	bounds *forest.Bounds
	delim  rune
	outs   map[string]bool
	epsg   int // from --crs; 0: none
}

func (o *forestOptions) validate() (*forestPlan, error) {
	p := &forestPlan{outs: map[string]bool{}}
	switch {
	case o.Species == "":
		return nil, usageErrorf("no species parameter file: give --species PARAMS.yaml (configs/forest/ has presets)")
	case !(o.Cell > 0) || math.IsInf(o.Cell, 0):
		return nil, usageErrorf("invalid --cell %g: want the cell size in metres, above 0", o.Cell)
	case !(o.Margin >= 0) || math.IsInf(o.Margin, 0):
		return nil, usageErrorf("invalid --margin %g: want metres, 0 or more", o.Margin)
	case !(o.Cutoff >= 0) || math.IsInf(o.Cutoff, 0):
		return nil, usageErrorf("invalid --cutoff %g: want a radius in metres (0: none)", o.Cutoff)
	case !(o.Tolerance > 0 && o.Tolerance < 0.5):
		return nil, usageErrorf("invalid --tolerance %g: want a relative error between 0 and 0.5", o.Tolerance)
	case !(o.ClusterDistance >= 0) || math.IsInf(o.ClusterDistance, 0):
		return nil, usageErrorf("invalid --cluster-distance %g: want metres (0: per species, as in the paper)", o.ClusterDistance)
	}
	switch forest.Method(o.Method) {
	case forest.Exact, forest.FFT, forest.Multires:
	default:
		return nil, usageErrorf("invalid --method %q: want exact, fft or multires", o.Method)
	}
	switch o.Boundary {
	case "open", "torus":
		if o.Margin > 0 {
			return nil, usageErrorf("--margin %g needs --boundary buffer (it is the width of the buffer zone)", o.Margin)
		}
	case "buffer":
		if o.Margin <= 0 {
			return nil, usageErrorf("--boundary buffer needs --margin M: the width of the buffer zone in metres")
		}
	default:
		return nil, usageErrorf("invalid --boundary %q: want open, torus or buffer", o.Boundary)
	}
	if o.Cutoff > 0 && o.Method != "exact" {
		return nil, usageErrorf("--cutoff applies to --method exact (the fft method is exact to --tolerance)")
	}
	switch o.DBHUnit {
	case "cm", "mm":
	default:
		return nil, usageErrorf("invalid --dbh-unit %q: want cm or mm", o.DBHUnit)
	}
	d, ok := forestDelimiters[o.Delimiter]
	if !ok {
		return nil, usageErrorf("invalid --delimiter %q: want auto, comma, tab, semicolon or space", o.Delimiter)
	}
	p.delim = d
	for _, w := range o.Where {
		if strings.TrimSpace(w) == "" {
			continue
		}
		c, err := forest.ParseCondition(w)
		if err != nil {
			return nil, usageError{Err: err}
		}
		p.where = append(p.where, c)
	}
	if o.Bounds != "" {
		b, err := forest.ParseBounds(o.Bounds)
		if err != nil {
			return nil, usageErrorf("--bounds: %v", err)
		}
		p.bounds = &b
	}
	for _, f := range o.Formats {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" || f == "json" {
			continue
		}
		if !forestFormats[f] {
			return nil, usageErrorf("invalid --formats entry %q: want csv, asc, png and/or tif (the JSON summary is always written)", f)
		}
		p.outs[f] = true
	}
	epsg, err := forest.ParseCRS(o.CRS)
	if err != nil {
		return nil, usageErrorf("--crs: %v", err)
	}
	if epsg > 0 && p.outs["asc"] {
		if _, err := forest.PRJ(epsg); err != nil {
			return nil, usageErrorf("--crs %s: %v (drop asc from --formats, or use a UTM zone)", o.CRS, err)
		}
	}
	p.epsg = epsg
	return p, nil
}

func (a *app) newForestCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "forest",
		Short: "Forests: seed dispersal over a stem map",
		Args:  noSubcommand,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(a.newForestDisperseCmd())
	return cmd
}

func (a *app) newForestDisperseCmd() *cobra.Command {
	var out string
	var force bool
	var shardSpec string
	cmd := &cobra.Command{
		Use:   "disperse STEMS.csv|DIR ... --species PARAMS.yaml [-o OUTDIR]",
		Short: "Seed (or recruit) density over a plot from a stem map",
		Long:  forestLong,
		Example: `  procgen forest disperse stems.csv --species configs/forest/bc-sbs.yaml
  procgen forest disperse bci.tsv --species params.yaml --dbh-unit mm \
      --where Status=alive --where PlotCensusNumber=7 -o bci-rain
  procgen forest disperse bigwoods2015.csv --species params.yaml --dbh-col gbh14 --girth --where 'gbh14>0'
  procgen forest disperse stems.csv --species p.yaml --method exact --cutoff 60
  procgen forest disperse stems.csv --species p.yaml --boundary buffer --margin 20 --realize --seed 7
  procgen forest disperse plots/ --species p.yaml -o rain --shard 3/16`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var o forestOptions
			if err := a.decode("forest", &o); err != nil {
				return err
			}
			p, err := o.validate()
			if err != nil {
				return err
			}
			sh, err := a.shardOf(shardSpec)
			if err != nil {
				return err
			}
			return a.forestDisperseBatch(cmd.Context(), args, out, force, sh, o, p)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "output `DIR` (default: the stem file's name without extension + \"-seedrain\")")
	addShardFlag(f, &shardSpec)
	f.BoolVar(&force, "force", false, "replace an existing, non-empty output directory that holds only what procgen wrote there (as a whole: old and new files never mix)")
	for _, k := range []string{"species", "method", "cell", "bounds", "boundary", "margin", "cutoff", "tolerance",
		"cluster-distance", "x-col", "y-col", "species-col", "dbh-col", "dbh-unit", "girth", "where", "delimiter",
		"skip-unknown", "realize", "formats", "stems", "crs"} {
		a.bindFlag(f, "forest."+k, k, "")
	}
	_ = cmd.RegisterFlagCompletionFunc("method", cobra.FixedCompletions(
		[]string{"fft", "exact", "multires"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("boundary", cobra.FixedCompletions(
		[]string{"open", "torus", "buffer"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

const forestLong = `Compute the density of seeds (or recruits) landing on a grid over a forest
plot from a stem map, per species and in total, in seeds per m^2 per year:

  R = STR/eta * sum over parents k of (DBH_k/30)^beta * K(d_k)

with K the dispersal kernel (Weibull exp(-D d^theta), or lognormal), eta its
integral over the plane, DBH in cm and d in m; only trees at or above the
species' minimum reproductive DBH are parents (SORTIE-ND's disperse model).

Stem map: CSV, TSV or blank-separated, with a header. The columns are found
by their usual names (x/gx/PX, y/gy/PY, species/sp/Mnemonic, dbh/Diam) or
named with --x-col, --y-col, --species-col, --dbh-col. --dbh-unit mm for
ForestGEO's millimetres; --girth when the column is the girth (DBH =
girth/pi). --where keeps the rows every condition holds for (repeatable, or
comma-separated): COL=V, COL=V1|V2, COL!=V, COL<N, COL<=N, COL>N, COL>=N;
= compares numbers as numbers. Rows it drops are not checked.

Species file (YAML; configs/forest/ has the paper's four BC species):
  defaults: {theta: 3, min_dbh: 15}        # optional
  species:
    lodgepole-pine: {names: [Pl], str: 80, d: 2.8e-4}
    "*": {str: 50, d: 1e-4}                # optional: every other species
Keys: kernel (weibull|lognormal), str (required), beta (2), d, theta, x0, xb,
min_dbh (cm, 0), names. A stem map species the file does not name is an
error, or dropped with --skip-unknown.

Plot: --bounds x0,y0,x1,y1, else the stems' bounding box widened to whole
cells; --cell sets the cell size (1 m). Stems outside the bounds are
dropped and counted.

Methods (--method):
  fft       parents spread onto the grid with cubic weights, convolved with
            the kernel by FFT; cells whose error estimate exceeds
            --tolerance of their density are summed exactly (default)
  exact     the direct sum over every parent for every cell, float64;
            --cutoff R ignores parents farther than R m and reports the
            error bound that implies
  multires  the paper's quadtree clustering (Fan et al. 2012), for comparison

Boundaries (--boundary):
  open      seeds landing off the plot are lost (counted in the summary)
  torus     the plot wraps around: every periodic image of every parent is summed, no seed is lost
  buffer    with --margin M: the standard buffer (guard) zone: stems in the
            outer M metres act as parents, but densities and totals are
            reported for the inner plot only

--realize also draws the number of seeds landing in each cell (Poisson, keyed
by --seed, species and cell: the same on any number of threads).

Outputs in OUTDIR, per species and total: NAME.csv (x, y, species, density
[, count]), NAME.asc (ESRI ASCII grid), NAME.png (log-scale heat map with a
colour bar), and summary.json (totals, seeds lost, method, error estimate,
timings, units). --formats picks among csv, asc, png, tif. Everything is written
to a temporary directory first: a failed run leaves no partial outputs.
.procgen-manifest.json names the files written; --force replaces an existing
OUTDIR only while it holds nothing else, unchanged (no other files,
subdirectories, mount points or other users' files: those are refused before
any work), and the new directory keeps the old one's mode.

Several plots (stem maps given as files, or the .csv, .tsv and .txt files of
a directory) run one after another with the same species file and options,
each into OUTDIR/NAME (NAME: the stem map's file name without extension; without
-o, NAME-seedrain). A failing plot is reported and the others go on. --shard
I/N computes only plots k with k mod N = I (files in order, a directory's in
name order), so the N tasks of a Slurm job array (SLURM_ARRAY_TASK_ID/COUNT)
or Kubernetes indexed Job (JOB_COMPLETION_INDEX with PROCGEN_SHARD_COUNT)
write one run's directories; the flag wins over the environment, and a
single plot runs whole under a job array's variables.

` + exitCodeHelp

// forestRun carries a run's inputs and results to the writers.
type forestRun struct {
	stemFile, speciesFile string
	o                     forestOptions
	p                     *forestPlan
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

func (a *app) warn(r *forestRun, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.warnings = append(r.warnings, msg)
	a.log.Warnf("%s", msg)
}

func (a *app) forestDisperse(ctx context.Context, stemFile, outDir string, force bool, o forestOptions, p *forestPlan) error {
	a.dev.Prefetch()
	start := time.Now()
	if outDir == "" {
		base := filepath.Base(stemFile)
		outDir = strings.TrimSuffix(base, filepath.Ext(base)) + "-seedrain"
	}
	if err := checkInputFile("forest: stem map", stemFile); err != nil {
		return err
	}
	if err := checkInputFile("forest: --species", o.Species); err != nil {
		return err
	}
	out, err := forestOutDir(outDir, force, stemFile, o.Species)
	if err != nil {
		return err
	}
	r := &forestRun{stemFile: stemFile, speciesFile: o.Species, o: o, p: p, timings: map[string]float64{}}
	phase.Enter(ctx, "forest.read")
	if err := a.forestRead(ctx, r); err != nil {
		return err
	}
	if err := a.checkForestMemory(r); err != nil {
		return err
	}
	r.timings["read_s"] = time.Since(start).Seconds()
	if err := ctx.Err(); err != nil {
		return err
	}
	phase.Enter(ctx, "forest.compute")
	if err := a.forestCompute(ctx, r); err != nil {
		return err
	}
	writeStart := time.Now()
	phase.Enter(ctx, "write")
	if err := a.forestWrite(ctx, r, out, writeStart, start); err != nil {
		return err
	}
	tot := r.layers[len(r.layers)-1]
	a.log.Infof("wrote %s: %d species on %dx%d cells of %g m, %s; %.4g seeds/yr landed, %.4g lost off the plot",
		out.Path(), len(r.layers)-1, r.grid.NX, r.grid.NY, r.grid.Cell, o.Method, tot.Total, tot.Lost)
	return nil
}

// forestRead reads the species file and the stem map and sets up the grid.
func (a *app) forestRead(ctx context.Context, r *forestRun) error {
	o, p := r.o, r.p
	sdata, err := input.ReadFile(ctx, o.Species, input.Species)
	if err != nil {
		return asUsage(fmt.Errorf("species file: %w", err))
	}
	table, err := forest.ParseSpecies(bytes.NewReader(sdata), o.Species)
	if err != nil {
		return fmt.Errorf("forest: %w", err)
	}
	f, err := input.Open(ctx, r.stemFile, input.StemMap)
	if err != nil {
		return asUsage(fmt.Errorf("stem map: %w", err))
	}
	defer f.Close()
	r.stems, err = forest.ReadStems(f, r.stemFile, forest.StemOptions{
		X: o.XCol, Y: o.YCol, Species: o.SpeciesCol, DBH: o.DBHCol, DBHUnit: o.DBHUnit, Girth: o.Girth,
		Where: p.where, Delimiter: p.delim,
	})
	if err != nil {
		return fmt.Errorf("forest: %w", err)
	}
	a.log.Debugf("%s: %d rows, %d dropped by --where, columns %s", r.stemFile, r.stems.Rows, r.stems.Filtered,
		strings.Join(r.stems.Columns[:], ", "))
	for _, w := range r.stems.Warnings { // unit sanity (forest/stems_check.go)
		a.warn(r, "%s: %s", r.stemFile, w)
	}
	r.res, err = table.Resolve(r.stems.Species(), o.SkipUnknown)
	if err != nil {
		return fmt.Errorf("forest: %w", err)
	}
	if len(r.res.Skipped) > 0 {
		a.warn(r, "skipped %d species the species file does not name (--skip-unknown): %s", len(r.res.Skipped),
			strings.Join(r.res.Skipped, ", "))
	}
	var b forest.Bounds
	switch {
	case p.bounds != nil:
		b = *p.bounds
	case len(r.stems.Stems) == 0:
		return fmt.Errorf("forest: %s: no stems (after --where): give --bounds x0,y0,x1,y1 for an all-zero grid", r.stemFile)
	default:
		b, _ = forest.BoundsOf(r.stems.Stems, o.Cell)
	}
	if r.grid, err = forest.GridFor(b, o.Cell); err != nil {
		return usageErrorf("%v", err)
	}
	if !r.grid.Whole(b) {
		if o.Boundary == "torus" {
			return usageErrorf("--bounds %s is not a whole number of %g m cells, which a torus needs", b, o.Cell)
		}
		a.warn(r, "the plot %s is not a whole number of %g m cells: the grid extends to %g,%g", b, o.Cell,
			r.grid.X0+float64(r.grid.NX)*o.Cell, r.grid.Y0+float64(r.grid.NY)*o.Cell)
	}
	var trees []forest.Tree
	trees, r.outside = forest.Trees(r.stems.Stems, r.res, r.grid)
	if r.outside > 0 {
		if r.outside == 1 {
			a.warn(r, "1 stem lies outside the plot %s and was dropped", b)
		} else {
			a.warn(r, "%d stems lie outside the plot %s and were dropped", r.outside, b)
		}
	}
	if len(trees) == 0 {
		a.warn(r, "no stems on the plot: every density is 0")
	}
	r.stemsPerLayer = make([]int, len(r.res.Species))
	for _, t := range trees {
		r.stemsPerLayer[t.Species]++
	}
	r.trees = trees
	return nil
}

// forestCompute runs the engine, applies the buffer zone, adds the total
// layer and draws the realization.
func (a *app) forestCompute(ctx context.Context, r *forestRun) error {
	o := r.o
	margin := 0
	if o.Boundary == "buffer" {
		m := o.Margin / o.Cell
		margin = int(math.Round(m))
		if math.Abs(m-float64(margin)) > 1e-9*math.Max(1, m) {
			return usageErrorf("--margin %g is not a whole number of --cell %g m cells", o.Margin, o.Cell)
		}
		if _, err := r.grid.Inset(margin); err != nil {
			return usageErrorf("--margin: %v", err)
		}
	}
	job, work := device.ForestWork(o.Method, r.grid.NX*r.grid.NY*max(len(r.res.Species), 1), len(r.trees))
	dev, err := a.dev.OpenFor(job, work)
	if err != nil {
		return err
	}
	defer a.dev.Release(dev)
	if dev != nil {
		r.device = "cuda"
	} else {
		r.device = "cpu"
	}
	engine := forest.NewEngine(dev)
	boundary := forest.Open
	if o.Boundary == "torus" {
		boundary = forest.Torus
	}
	var mu sync.Mutex
	bar := a.newProgress(int64(r.grid.NY)*int64(max(len(r.res.Species), 1)), "forest disperse")
	progress := func(done, total int64) {
		mu.Lock()
		defer mu.Unlock()
		bar(done, total)
	}
	start := time.Now()
	layers, err := engine.Disperse(ctx, r.grid, r.trees, r.res.Species, forest.Options{
		Method: forest.Method(o.Method), Boundary: boundary, Cutoff: o.Cutoff, Progress: progress,
		Tolerance: o.Tolerance, ClusterDistance: o.ClusterDistance,
	})
	a.dev.HintJIT(dev, "forest")
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return fmt.Errorf("forest: %w", err)
	}
	r.timings["compute_s"] = time.Since(start).Seconds()
	if margin > 0 {
		if r.grid, layers, err = forest.Crop(r.grid, layers, margin); err != nil {
			return usageErrorf("--margin: %v", err)
		}
	}
	r.layers = append(layers, forest.Total(r.grid, layers, boundary)) // its accuracy: the largest species estimate, or "mixed"
	r.names = layerFileNames(r.res.Species)
	if o.Realize {
		rs := time.Now()
		r.seed = a.opts.Seed
		r.counts = make([][]int64, len(r.layers))
		for s := range layers {
			key := forest.SpeciesKey(r.res.Species[s].Name)
			r.counts[s] = forest.Realize(r.grid, layers[s].Density, key, a.opts.Seed, 0)
		}
		sum := make([]int64, r.grid.Cells())
		for _, c := range r.counts[:len(layers)] {
			for i, v := range c {
				sum[i] += v
			}
		}
		r.counts[len(layers)] = sum
		r.timings["realize_s"] = time.Since(rs).Seconds()
	}
	return nil
}

// layerFileNames are the species' file names (safe characters only, unique,
// never "total" or "summary"), then "total".
func layerFileNames(species []forest.Species) []string {
	used := map[string]bool{"total": true, "summary": true}
	names := make([]string, 0, len(species)+1)
	for _, s := range species {
		base := sanitize(s.Name)
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
