package genome

import (
	"math"
	"math/rand/v2"

	"github.com/procgen-dev/procgen/internal/flame"
)

// MaxSymmetry bounds |symmetry|: each unit adds an xform.
const MaxSymmetry = 64

// randomSymmetry is the symmetry a random genome or a symmetry mutation
// gets: mostly small orders, mirrored or not, now and then a large one.
func randomSymmetry(r *rand.Rand) int {
	small := []int{-4, -3, -2, -2, -2, -1, -1, -1, 2, 2, 2, 3, 3, 4, 4}
	switch {
	case r.IntN(2) == 0:
		return small[r.IntN(len(small))]
	case r.IntN(32) != 0:
		return r.IntN(13) - 6
	default:
		return r.IntN(51) - 25
	}
}

// AddSymmetry appends the xforms of symmetry sym to k, as flam3's symmetry
// element means it: sym >= 2 the sym-1 rotations about the origin, sym <=
// -1 a mirror in x and the rotations of order -sym; 0 and 1 add nothing.
// The added xforms are linear, weight 1, colour speed 0 and not animated,
// so sequences keep them still.
func AddSymmetry(k *flame.AnimGenome, sym int) {
	add := func(c flame.Affine) {
		x := newXform(len(k.Xforms))
		x.Weight, x.ColorSpeed, x.Animate = 1, 0, 0
		x.Coefs = c
		x.Vars = []flame.VarTerm{{ID: flame.VarLinear, Weight: 1}}
		k.Xforms = append(k.Xforms, x)
	}
	if sym < 0 {
		add(flame.Affine{-1, 0, 0, 1, 0, 0})
		sym = -sym
	}
	for i := 1; i < sym; i++ {
		a := 2 * math.Pi * float64(i) / float64(sym)
		s, c := math.Sincos(a)
		add(flame.Affine{round6(c), round6(s), round6(-s), round6(c), 0, 0})
	}
}

// round6 keeps symmetry coefficients as flam3 writes them (six digits), so
// that a written genome reads back to the same numbers.
func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }
