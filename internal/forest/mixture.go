package forest

import (
	"context"
	"fmt"
)

// A mixture's density is linear in its components: w STR/eta1 K1 + (1-w)
// STR/eta2 K2 summed over the parents. Both backends therefore disperse a
// mixture species as two species, one per component (STR scaled by w and
// 1-w, the same parents), with the methods and device kernels that each
// component's family has, and add the two layers. The layer's Accuracy is
// that of the sum (Total's rules: the larger relative estimate, absolute
// bounds added), and on a torus each component's periodic sum is complete
// on its own (or reports what it left out), so the mixture's is too.

// mixtureSplit is a run with its mixtures split into components.
type mixtureSplit struct {
	trees   []Tree
	species []Species
	// second[s] is the index of species s's second component in species,
	// -1 where s is not a mixture.
	second []int
}

// splitMixtures returns the run with mixtures split, ok false when it has
// none. The mixtures are validated here, as the components no longer say
// what their weight is.
func splitMixtures(trees []Tree, species []Species) (*mixtureSplit, bool, error) {
	n := len(species)
	sp := &mixtureSplit{species: append([]Species(nil), species...), second: make([]int, n)}
	for s, x := range species {
		sp.second[s] = -1
		if x.Kernel != Mixture {
			continue
		}
		if err := x.Validate(); err != nil {
			return nil, false, fmt.Errorf("forest: %w", err)
		}
		part := func(c Species, share float64) Species {
			c.Name, c.STR, c.Beta, c.MinDBH, c.Clumping, c.Mix = x.Name, x.STR*share, x.Beta, x.MinDBH, 0, nil
			return c
		}
		sp.species[s] = part(x.Mix.First, x.Mix.W)
		sp.second[s] = len(sp.species)
		sp.species = append(sp.species, part(x.Mix.Second, 1-x.Mix.W))
	}
	if len(sp.species) == n {
		return nil, false, nil
	}
	sp.trees = append([]Tree(nil), trees...)
	for _, t := range trees {
		if t.Species >= 0 && t.Species < n && sp.second[t.Species] >= 0 {
			t.Species = sp.second[t.Species]
			sp.trees = append(sp.trees, t)
		}
	}
	return sp, true, nil
}

// run disperses the split species with disperse and adds each mixture's
// second component into its first.
func (sp *mixtureSplit) run(ctx context.Context, g Grid, o Options,
	disperse func(context.Context, Grid, []Tree, []Species, Options) ([]Layer, error)) ([]Layer, error) {
	parts, err := disperse(ctx, g, sp.trees, sp.species, o)
	if err != nil {
		return nil, err
	}
	layers := parts[:len(sp.second)]
	for s, j := range sp.second {
		if j < 0 {
			continue
		}
		sum := Total(g, []Layer{parts[s], parts[j]}, o.Boundary)
		sum.Species, sum.Parents = s, parts[s].Parents
		if o.Boundary != Torus {
			// As finishLayer: what did not land (the components' own Lost
			// are each clamped at 0 against their quadrature).
			sum.Lost = max(0, sum.Produced-sum.Total)
		}
		layers[s] = sum
	}
	return layers, nil
}
