package main

import (
	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/job/fitjob"
)

func (a *app) newForestFitCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "fit STEMS.csv TRAPS.csv -o FITTED.yaml",
		Short: "Estimate fecundity and dispersal kernels from seed-trap counts",
		Long:  forestFitLong,
		Example: `  procgen forest fit stems.csv traps.csv -o fitted.yaml
  procgen forest fit stems.csv traps.csv -o fitted.yaml --kernel weibull,lognormal,2dt,exppow,exponential,gaussian --counts poisson,nb
  procgen forest fit stems.csv traps.csv -o fitted.yaml --species ABLA --min-dbh 10 --fit-beta
  procgen forest fit bci_hec37_ViewFullTable.tsv traps.csv --dbh-unit mm --where Status=alive --where PlotCensusNumber=7 --species alsebl -o fitted.yaml
  procgen forest disperse stems.csv --species fitted.yaml`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			var r fitjob.Request
			if err := a.decode("forest.fit", &r); err != nil {
				return err
			}
			if err := a.decode("forest", &r.Columns); err != nil {
				return err
			}
			r.Stems, r.Traps, r.Out = args[0], args[1], out
			if err := r.Validate(); err != nil {
				return err
			}
			r.Seed = a.env().Seed
			return fitjob.Run(cmd.Context(), a.env(), r)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "the fitted species `FILE` (YAML that forest disperse --species reads)")
	for _, k := range []string{"kernel", "counts", "species", "fit-beta", "beta", "min-dbh", "candidates", "max-evals", "bootstrap"} {
		a.bindFlag(f, "forest.fit."+k, k, "")
	}
	// The stem map's columns are forest disperse's settings.
	for _, k := range []string{"x-col", "y-col", "species-col", "dbh-col", "dbh-unit", "girth", "where"} {
		a.bindFlag(f, "forest."+k, k, "")
	}
	return cmd
}

const forestFitLong = `Estimate, per species, the fecundity STR (seeds a year from a 30 cm parent)
and the dispersal kernel's parameters by maximum likelihood from a stem map and
seed counts at traps or quadrats, under forest disperse's model: the expected
count at a trap of area A is

  mu = A * STR/eta * sum over parents of (DBH/30)^beta * K(distance)

Counts are Poisson or negative binomial (--counts; NB's clumping k is fitted:
variance mu + mu^2/k). Each kernel family in --kernel is fitted with each count
model and ranked by AIC; the best per species is written to -o as a species
file that 'procgen forest disperse --species FILE' reads (an NB fit's k as the
species' clumping, which --realize draws with), with each parameter's
95% profile-likelihood interval as a comment. The interval's cut-off is
chi-squared's (3.84), which covers too rarely at a seed or two per trap;
--bootstrap B calibrates it per parameter from B datasets simulated from the
fit and fitted again (B = 99 gives 95 % intervals; it costs about B/5 fits).

Stem map: as forest disperse reads it (the same column flags, --girth and
--where). Trap file: CSV
with a header naming x, y (m, the stem map's coordinates), area (m^2), count,
and optionally species; without a species column the counts are of the stem
map's only species, or of --species NAME.

Kernels (--kernel; each as forest disperse names it and its parameters):
weibull (d, theta), lognormal (x0, xb), 2dt (p, u), exppow (a, b), exponential
(a) and gaussian (a). Mixtures are not fitted: their five kernel parameters,
whose components can swap places, need more than this search.

Search: --candidates random parameter sets over a wide box (Weibull scale
0.1-2000 m and theta 0.1-20; lognormal median seed distance x0 exp(2 xb^2)
0.05-2000 m, xb 0.05-4; 2dt p 0.05-50 and length scale sqrt(u/p) 0.1-2000 m;
exppow a 0.05-2000 m and b 0.1-20; exponential and gaussian a 0.05-2000 m; k 0.01-1e4; beta -4..8), evaluated together (all traps x parents x candidates: on the GPU
with --device cuda or auto, else on every core), then Nelder-Mead from the best
few and once more from where it ended; STR is maximised in closed form
(Poisson) or by Newton steps (NB) for every candidate. --seed keys the
candidates.

Every option is also a setting: forest.fit.kernel, forest.fit.counts ... in
the config file or PROCGEN_FOREST_FIT_KERNEL ...; the stem map columns are
forest disperse's (forest.x-col ...).

A fit that does not converge, or whose estimate sits on the edge of the search
box, gives no numbers: the run says which and why, writes nothing and exits 1.

` + exitCodeHelp
