package genome

import (
	"fmt"
	"math/rand/v2"

	"github.com/procgen-dev/procgen/internal/flame"
)

// Crossing is one of flam3-genome's crossover methods.
type Crossing string

// The crossover methods, as flam3-genome's method= names them.
const (
	CrossRandom      Crossing = "random"      // one of the three, each equally likely
	CrossUnion       Crossing = "union"       // all the xforms of both parents
	CrossInterpolate Crossing = "interpolate" // the parents blended at a random point
	CrossAlternate   Crossing = "alternate"   // each xform from one parent or the other
)

// Crossings lists the methods CrossRandom chooses from.
var Crossings = []Crossing{CrossUnion, CrossInterpolate, CrossAlternate}

// Cross breeds a and b and returns the child and the method applied. The
// camera, render settings and final xform come from a; the palette from a
// parent chosen at random (interpolate blends it).
func Cross(r *rand.Rand, a, b *flame.AnimGenome, how Crossing) (*flame.AnimGenome, Crossing, error) {
	if how == CrossRandom {
		how = Crossings[r.IntN(len(Crossings))]
	}
	var k *flame.AnimGenome
	switch how {
	case CrossUnion:
		k = Clone(a)
		k.Xforms = append(k.Xforms, Clone(b).Xforms...)
		dropChaos(k)
	case CrossInterpolate:
		a0, b1 := Clone(a), Clone(b)
		a0.Time, b1.Time = 0, 1
		k = (&flame.Animation{Keys: []*flame.AnimGenome{a0, b1}}).At(r.Float64())
		k.Time = 0
	case CrossAlternate:
		k = Clone(a)
		k.Xforms = alternate(r, Clone(a).Xforms, Clone(b).Xforms)
		dropChaos(k)
	default:
		return nil, how, fmt.Errorf("unknown crossover %q: want random or one of %v", how, Crossings)
	}
	if how != CrossInterpolate && r.IntN(2) == 1 {
		k.Palette = b.Palette
	}
	return k, how, nil
}

// alternate takes xform i from one parent or the other at random, where
// both have one, and makes sure that each parent gives at least one.
func alternate(r *rand.Rand, xa, xb []flame.Xform) []flame.Xform {
	n := max(len(xa), len(xb))
	from := make([]int, n) // 0: a, 1: b
	for i := range n {
		switch {
		case i >= len(xa):
			from[i] = 1
		case i >= len(xb):
			from[i] = 0
		default:
			from[i] = r.IntN(2)
		}
	}
	var got [2]int
	for _, f := range from {
		got[f]++
	}
	if shared := min(len(xa), len(xb)); shared > 0 && (got[0] == 0 || got[1] == 0) {
		from[r.IntN(shared)] ^= 1
	}
	out := make([]flame.Xform, n)
	for i, f := range from {
		if f == 0 {
			out[i] = xa[i]
		} else {
			out[i] = xb[i]
		}
	}
	return out
}

// dropChaos clears xaos: rows written for one parent's xforms do not
// describe the child's.
func dropChaos(k *flame.AnimGenome) {
	for i := range k.Xforms {
		k.Xforms[i].Chaos = nil
	}
}
