package forest

import (
	"hash/fnv"
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// realizeDomain separates forest's random streams from other commands'.
const realizeDomain = 0x666f72657374 // "forest"

// SpeciesKey is the random-stream key of a species: a hash of its name, so a
// species' draws do not change when others are added to or dropped from a
// run.
func SpeciesKey(name string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(name))
	return h.Sum64()
}

// Realize draws the number of seeds landing in each cell in a year: Poisson
// with mean density x cell area. The draw for a cell is keyed by (seed,
// species key, cell index) through the counter-based generator, so it does
// not depend on the number of workers or on the other cells.
func Realize(g Grid, density []float64, speciesKey, seed uint64, workers int) []int64 {
	counts := make([]int64, len(density))
	area := g.Cell * g.Cell
	parallelRange(len(density), max(workers, 1), func(lo, hi int) {
		for c := lo; c < hi; c++ {
			if lam := density[c] * area; lam > 0 {
				s := rng.NewStream(rng.Key(seed, realizeDomain, speciesKey, uint64(c)))
				counts[c] = poisson(&s, lam)
			}
		}
	})
	return counts
}

// poisson draws from Poisson(lam): by inversion (multiplying uniforms) for
// small means, by Hormann's PTRS transformed rejection for large ones.
func poisson(s *rng.Stream, lam float64) int64 {
	if lam > 1e15 {
		// Beyond int64's comfort; the relative spread is below 1e-7 anyway.
		return int64(math.Min(math.Round(lam), math.MaxInt64/2))
	}
	if lam < 10 {
		limit := math.Exp(-lam)
		prod := s.Float64()
		var k int64
		for prod > limit {
			prod *= s.Float64()
			k++
			if k > 1000 { // lam < 10: unreachable but for a broken stream
				break
			}
		}
		return k
	}
	slam, loglam := math.Sqrt(lam), math.Log(lam)
	b := 0.931 + 2.53*slam
	a := -0.059 + 0.02483*b
	invAlpha := 1.1239 + 1.1328/(b-3.4)
	vr := 0.9277 - 3.6224/(b-2)
	for {
		u := s.Float64() - 0.5
		v := s.Float64()
		us := 0.5 - math.Abs(u)
		k := math.Floor((2*a/us+b)*u + lam + 0.43)
		if us >= 0.07 && v <= vr {
			return int64(k)
		}
		if k < 0 || (us < 0.013 && v > us) {
			continue
		}
		lg, _ := math.Lgamma(k + 1)
		if math.Log(v)+math.Log(invAlpha)-math.Log(a/(us*us)+b) <= -lam+k*loglam-lg {
			return int64(k)
		}
	}
}
