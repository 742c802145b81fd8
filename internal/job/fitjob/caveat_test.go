package fitjob

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/forest"
	"github.com/procgen-dev/procgen/internal/forest/fit"
)

// TestIntervalCaveat: only the models whose intervals fell short of 90 %
// coverage in the studies (the lognormal and the Weibull with NB counts)
// carry a caveat.
func TestIntervalCaveat(t *testing.T) {
	for _, k := range []forest.KernelKind{forest.Weibull, forest.Lognormal, forest.KernelKind("2dt"), forest.KernelKind("exppow")} {
		for _, c := range []fit.Counts{fit.Poisson, fit.NegBinom} {
			got := intervalCaveat(k, c) != ""
			if want := (k == forest.Lognormal || k == forest.Weibull) && c == fit.NegBinom; got != want {
				t.Errorf("%s/%s: caveat %v, want %v", k, c, got, want)
			}
		}
	}
}
