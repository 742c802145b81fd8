package main

import (
	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/job/fitjob"
)

func (a *app) newForestFitCmd() *cobra.Command {
	r := fitjob.Request{}
	cmd := &cobra.Command{
		Use:   "fit STEMS.csv TRAPS.csv -o FITTED.yaml",
		Short: "Estimate fecundity and dispersal kernels from seed-trap counts",
		Long:  forestFitLong,
		Example: `  procgen forest fit stems.csv traps.csv -o fitted.yaml
  procgen forest fit stems.csv traps.csv -o fitted.yaml --kernel weibull,lognormal --counts poisson,nb
  procgen forest fit stems.csv traps.csv -o fitted.yaml --species ABLA --min-dbh 10 --fit-beta
  procgen forest disperse stems.csv --species fitted.yaml`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			r.Stems, r.Traps = args[0], args[1]
			if err := r.Validate(); err != nil {
				return err
			}
			r.Seed = a.env().Seed
			return fitjob.Run(cmd.Context(), a.env(), r)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&r.Out, "output", "o", "", "the fitted species `FILE` (YAML that forest disperse --species reads)")
	f.StringSliceVar(&r.Kernels, "kernel", []string{"weibull", "lognormal"}, "kernel families to fit and rank by AIC")
	f.StringSliceVar(&r.Counts, "counts", []string{"poisson", "nb"}, "count models: poisson, nb (negative binomial) or both")
	f.StringVar(&r.Species, "species", "", "the stem map species the counts are of (when the trap file has no species column)")
	f.BoolVar(&r.FitBeta, "fit-beta", false, "estimate beta, the fecundity exponent, too (needs parents of many sizes)")
	f.Float64Var(&r.Beta, "beta", 2, "the fecundity exponent when it is not fitted")
	f.Float64Var(&r.MinDBH, "min-dbh", 0, "minimum reproductive DBH (cm): smaller trees are not parents")
	f.IntVar(&r.Candidates, "candidates", 4096, "random parameter sets of the global search, evaluated in batches")
	f.IntVar(&r.MaxEvals, "max-evals", 0, "likelihood evaluations each Nelder-Mead search may take (0: 1000 per parameter)")
	f.StringVar(&r.XCol, "x-col", "", "stem map x column (default: found by name)")
	f.StringVar(&r.YCol, "y-col", "", "stem map y column")
	f.StringVar(&r.SpeciesCol, "species-col", "", "stem map species column")
	f.StringVar(&r.DBHCol, "dbh-col", "", "stem map DBH column")
	f.StringVar(&r.DBHUnit, "dbh-unit", "cm", "stem map DBH unit: cm or mm")
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
file that 'procgen forest disperse --species FILE' reads, with each parameter's
95% profile-likelihood interval as a comment.

Stem map: as forest disperse reads it (same columns and flags). Trap file: CSV
with a header naming x, y (m, the stem map's coordinates), area (m^2), count,
and optionally species; without a species column the counts are of the stem
map's only species, or of --species NAME.

Search: --candidates random parameter sets over a wide box (Weibull scale
0.1-2000 m and theta 0.2-8; lognormal x0 0.05-2000 m, xb 0.05-4; k 0.01-1e4;
beta -4..8), evaluated together (all traps x parents x candidates: on the GPU
with --device cuda or auto, else on every core), then Nelder-Mead from the best
few and once more from where it ended; STR is maximised in closed form
(Poisson) or by Newton steps (NB) for every candidate. --seed keys the
candidates.

A fit that does not converge, or whose estimate sits on the edge of the search
box, gives no numbers: the run says which and why, writes nothing and exits 1.

` + exitCodeHelp
