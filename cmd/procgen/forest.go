package main

import (
	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/job/forestjob"
)

func (a *app) newForestCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "forest",
		Short: "Forests: seed dispersal over a stem map",
		Args:  noSubcommand,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(a.newForestDisperseCmd(), a.newForestFitCmd())
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
  procgen forest disperse stems.csv --species p.yaml --realize --clumping 0.8 --seed 7
  procgen forest disperse plots/ --species p.yaml -o rain --shard 3/16`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var o forestjob.Options
			if err := a.decode("forest", &o); err != nil {
				return err
			}
			p, err := o.Validate()
			if err != nil {
				return err
			}
			sh, err := a.shardOf(shardSpec)
			if err != nil {
				return err
			}
			return forestjob.Run(cmd.Context(), a.env(), o, p, forestjob.Request{Stems: args, Out: out, Force: force, Shard: sh})
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "output `DIR` (default: the stem file's name without extension + \"-seedrain\")")
	addShardFlag(f, &shardSpec)
	f.BoolVar(&force, "force", false, "replace an existing, non-empty output directory that holds only what procgen wrote there (as a whole: old and new files never mix)")
	for _, k := range []string{"species", "method", "cell", "bounds", "boundary", "margin", "cutoff", "tolerance",
		"cluster-distance", "x-col", "y-col", "species-col", "dbh-col", "dbh-unit", "girth", "where", "delimiter",
		"skip-unknown", "realize", "clumping", "formats", "stems", "crs"} {
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

with K the dispersal kernel, eta its integral over the plane, DBH in cm and d
in m; only trees at or above the species' minimum reproductive DBH are
parents (SORTIE-ND's disperse model). Kernels (key kernel, parameters as the
literature names them; each normalised to 1 over the plane):
  weibull      exp(-D d^theta): d, theta (SORTIE-ND; the default)
  lognormal    exp(-ln(d/x0)^2 / (2 xb^2)): x0 (m), xb
  2dt          Clark et al. 1999: p / (pi u (1 + d^2/u)^(p+1)): p, u (m^2)
  exppow       exponential power b/(2 pi a^2 Gamma(2/b)) exp(-(d/a)^b): a (m),
               b (the Weibull with D = a^-b, theta = b)
  exponential  exppow with b = 1: a;   gaussian  exppow with b = 2: a
  mixture      w of the kernel "first" plus 1-w of "second", each a mapping
               with a kernel and its parameters: w, first, second
    e.g. birch: {kernel: mixture, str: 50, w: 0.9,
                 first: {kernel: gaussian, a: 6}, second: {kernel: 2dt, p: 1, u: 400}}

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
Keys: kernel, str (required), beta (2), the kernel's parameters, min_dbh
(cm, 0), clumping (--realize's negative binomial k, 0: Poisson), names.
Errors name file:line:col. A stem map species the file does not name is an
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
  torus     the plot wraps around: every periodic image of every parent lands on it, for
            every kernel (images too far to sum are spread evenly, with a stated bound);
            what the cells still miss is reported as lost
  buffer    with --margin M: the standard buffer (guard) zone: stems in the
            outer M metres act as parents, but densities and totals are
            reported for the inner plot only

--realize also draws the number of seeds landing in each cell, keyed by
--seed, species and cell (the same on any number of threads): Poisson, or
negative binomial (variance mean + mean^2/k: clumped seed rain) where the
species file sets clumping: k or --clumping K sets it for every species.

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
