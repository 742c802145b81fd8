package flame

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// Every plugin variation reaches its formula through apply: at one of a
// few points, with its defaults, it moves the sum away from where it
// started. A variation whose case applyJWF lacks adds nothing anywhere.
func TestPluginDispatch(t *testing.T) {
	pts := [][3]float64{{0.3, 0.2, 0.1}, {-0.7, 0.45, -0.3}, {1.3, -1.1, 0.6}, {0.05, -0.02, 2}}
	for id := GPUNumVars; id < NumVars; id++ {
		if id == VarFlatten { // zeroes z after the others, in compiledXform.apply3
			continue
		}
		moved := false
		for k, p := range pts {
			xf := newXform(0)
			Precalc(&xf)
			st := rng.NewStream(uint64(k) + 1)
			var sum [3]float64
			if id == VarFarblur { // blurs the sum: give it one
				sum = p
			}
			s := varState{tx: p[0], ty: p[1], tz: p[2], px: sum[0], py: sum[1], pz: sum[2], c: &xf.Coefs, p: &xf.Params}
			s.sumsq = p[0]*p[0] + p[1]*p[1]
			s.sqrt = math.Sqrt(s.sumsq)
			s.apply(id, 0.7, &st)
			if s.px != sum[0] || s.py != sum[1] || s.pz != sum[2] {
				moved = true
				break
			}
		}
		if !moved {
			t.Errorf("%s (id %d): apply adds nothing at any test point", VarNames[id], id)
		}
	}
}
