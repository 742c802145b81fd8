package forest

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// RealizeClumped draws the number of seeds landing in each cell in a year
// from the negative binomial with mean density x cell area and clumping
// parameter k (variance mean + mean^2/k: seed rain is overdispersed, and k
// is what trap studies fit, e.g. Clark et al. 1999), keyed like Realize by
// (seed, species key, cell index). k = 0 means no clumping: Poisson, the
// same draws as Realize.
func RealizeClumped(g Grid, density []float64, k float64, speciesKey, seed uint64, workers int) []int64 {
	if !(k > 0) || math.IsInf(k, 1) {
		return Realize(g, density, speciesKey, seed, workers)
	}
	counts := make([]int64, len(density))
	area := g.Cell * g.Cell
	parallelRange(len(density), max(workers, 1), func(lo, hi int) {
		for c := lo; c < hi; c++ {
			if mu := density[c] * area; mu > 0 {
				s := rng.NewStream(rng.Key(seed, realizeDomain, speciesKey, uint64(c)))
				counts[c] = negBinomial(&s, mu, k)
			}
		}
	})
	return counts
}

// negBinomial draws NB(mean mu, clumping k) as the gamma-Poisson mixture
// it is: a Poisson count whose mean is Gamma(shape k, scale mu/k).
func negBinomial(s *rng.Stream, mu, k float64) int64 {
	lam := gammaDraw(s, k) * (mu / k)
	if !(lam > 0) {
		return 0
	}
	return poisson(s, lam)
}

// gammaDraw draws Gamma(shape a, scale 1) by Marsaglia and Tsang's
// squeeze (ACM TOMS 26, 2000); for a < 1 it draws Gamma(a+1) and scales by
// U^(1/a).
func gammaDraw(s *rng.Stream, a float64) float64 {
	if a < 1 {
		u := s.Float64()
		for u == 0 {
			u = s.Float64()
		}
		return gammaDraw(s, a+1) * math.Pow(u, 1/a)
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := normalDraw(s)
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := s.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// normalDraw is a standard normal deviate (Box-Muller, one of the pair).
func normalDraw(s *rng.Stream) float64 {
	u := s.Float64()
	for u == 0 {
		u = s.Float64()
	}
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*s.Float64())
}
