package fitjob

import (
	"github.com/procgen-dev/procgen/internal/forest"
	"github.com/procgen-dev/procgen/internal/forest/fit"
)

// intervalCaveat is what a user must know about the intervals of a kernel
// and count model, from the coverage studies (README, Forest): "" where the
// 95% intervals held the truth in at least 90% of simulations. Two models
// with negative-binomial counts fell short at 100 traps among 300 parents
// on a hectare, and one of them still does at 196 traps:
//   - the lognormal (k 42, STR 43, x0 41, xb 41 of 50 with 99 bootstrap
//     samples; k 41, STR 44, x0 44, xb 43 with 19; 39-42 with
//     chi-squared's cut-off; at 196 traps, 19 samples, seeds 0-197 (198
//     simulations, 6 refused): k 183, STR 186, x0 180, xb 181, 91-94 %,
//     where seeds 0-49 alone gave x0 44 of 50): its shape is poorly
//     identified at 100 traps, and thin rings
//     (small xb) with a longer x0 fit about as well as the truth;
//   - the Weibull with theta 2 (d 42, theta 38, k 41, STR 43 of 50 with 19
//     bootstrap samples, d 42, theta 37, k 41, STR 42 with chi-squared's, 7
//     fits refused with theta on its bound): with overdispersed counts a
//     flat disc fits about as well as its shape. At 196 traps chi-squared's
//     intervals held d 45, theta 47, k 45 and STR 46 (1 refused).
func intervalCaveat(k forest.KernelKind, c fit.Counts) string {
	if c != fit.NegBinom {
		return ""
	}
	switch k {
	case forest.Lognormal:
		return "lognormal/nb: in 50 simulated data sets among 300 parents on a hectare, these 95% intervals " +
			"held the true value only 78-88% of the time with 100 traps, and 91-94% of 198 with 196 traps (README, Forest): " +
			"with a hundred traps or fewer, read them as too narrow"
	case forest.Weibull:
		return "weibull/nb: in 50 simulated data sets among 300 parents on a hectare, these 95% intervals " +
			"held the true value only 74-86% of the time with 100 traps (7 fits refused, theta on its bound) " +
			"and 90-94% with 196 (README, Forest): with a hundred traps or fewer, read them as too narrow"
	}
	return ""
}
