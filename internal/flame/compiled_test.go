package flame

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// TestCompiledXformMatchesApplyXform: the chaos game's compiled xforms
// (zero terms dropped, pre_blur and the post affine looked at once) map
// points and draw random numbers exactly as ApplyXform, for every variation
// among zero-weight terms, with and without pre_blur and a post affine.
func TestCompiledXformMatchesApplyXform(t *testing.T) {
	p := varTestParams()
	post := Affine{0.9, 0.1, -0.2, 1.1, 0.05, -0.3}
	for id := VarID(0); id < NumVars; id++ {
		for _, tc := range []struct {
			terms []VarTerm
			post  Affine
		}{
			{[]VarTerm{{id, 0.8}, {VarLinear, 0.3}}, Identity},
			{[]VarTerm{{VarSpherical, 0}, {id, 0.7}, {VarPreBlur, 0.2}, {VarSwirl, 0}}, post},
			{[]VarTerm{{VarPreBlur, 0}, {id, 1.1}}, post},
		} {
			x := varTestXform(varTestCoefs, p, tc.terms...)
			x.Post = tc.post
			cx := compileXform(x)
			r1, r2 := rng.NewStream(uint64(id)), rng.NewStream(uint64(id))
			for _, pt := range varTestPoints {
				x1, y1, ok1 := ApplyXform(x, pt[0], pt[1], &r1)
				x2, y2, ok2 := cx.apply(pt[0], pt[1], &r2)
				if math.Float64bits(x1) != math.Float64bits(x2) || math.Float64bits(y1) != math.Float64bits(y2) ||
					ok1 != ok2 || r1 != r2 {
					t.Fatalf("%s %v at %v: compiled (%v, %v, %v), ApplyXform (%v, %v, %v)", VarNames[id], tc.terms, pt,
						x2, y2, ok2, x1, y1, ok1)
				}
			}
		}
	}
}
