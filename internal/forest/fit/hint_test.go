package fit

import (
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/forest"
)

// TestBoundHints: a fit refused with a parameter on the search box says
// what that usually means, by family, coordinate and side.
func TestBoundHints(t *testing.T) {
	tests := []struct {
		kind   forest.KernelKind
		counts Counts
		d      int
		upper  bool
		want   string
	}{
		{forest.Weibull, NegBinom, 1, true, "flat disc"},
		{forest.ExpPower, Poisson, 1, true, "flat disc"},
		{forest.Weibull, Poisson, 1, false, "traps may be too few"},
		{forest.Lognormal, NegBinom, 0, true, "fall evenly"},
		{forest.Gaussian, Poisson, 0, true, "fall evenly"},
		{forest.Lognormal, NegBinom, 0, false, "traps may be too few"},
		{forest.TwoDt, Poisson, 0, true, "no fat tail"},
		{forest.Lognormal, NegBinom, 2, true, "no overdispersion"},
		// Duke Forest's Liriodendron traps (MASTIF's example data): the
		// 2Dt p, the Weibull scale and the exponential power's a run to
		// their lower bounds, the seed of parents off the map.
		{forest.TwoDt, NegBinom, 0, false, "beyond the stem map"},
		{forest.Weibull, NegBinom, 0, false, "beyond the stem map"},
		{forest.ExpPower, NegBinom, 0, false, "beyond the stem map"},
		{forest.Lognormal, NegBinom, 2, false, "a few traps hold"},
		{forest.Gaussian, Poisson, 0, false, "traps may be too few"},
	}
	for _, tt := range tests {
		fam, err := familyOf(tt.kind)
		if err != nil {
			t.Fatal(err)
		}
		sp := &space{fam: fam, dim: fam.n(), iBeta: -1, iK: -1}
		if tt.counts == NegBinom {
			sp.iK = sp.dim
			sp.dim++
		}
		if got := sp.hint(tt.d, tt.upper); !strings.Contains(got, tt.want) {
			t.Errorf("%s/%s coordinate %d (upper %v): %q, want it to say %q", tt.kind, tt.counts, tt.d, tt.upper, got, tt.want)
		}
	}
}
