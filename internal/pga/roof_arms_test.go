package pga

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Lots whose arms' sides are a hair from parallel (an L's or a U's, with
// coordinates rounded to millimetres) get hip roofs: once an arm's end has
// collapsed its two sides meet back to back, which the skeleton takes as
// a spike (these three stopped the wavefront, or looped it, before).
func TestSkeletonRoundedArms(t *testing.T) {
	roofOf := func(poly [][2]float64, holes [][][2]float64) error {
		l := Lot{Polygon: poly, Holes: holes}
		g := &Grammar{}
		p, err := g.addFootprint(l)
		if err != nil {
			return nil // not a lot at all: not this test's
		}
		r := l.Bounds()
		_, err = footprintRoof(g.footprints[p], Hip, r.Size[0], r.Size[1])
		return err
	}
	for _, poly := range [][][2]float64{
		{{2504.483, 110.934}, {2521.722, 88.969}, {2529.512, 95.083}, {2517.962, 109.799}, {2532.05, 120.856}, {2526.361, 128.105}},
		{{2055.001, 459.82}, {2059.052, 489.24}, {2031.065, 493.093}, {2029.564, 482.189}, {2047.255, 479.753}, {2046.207, 472.142}, {2028.516, 474.578}, {2027.014, 463.673}},
		{{1145.911, 2219.488}, {1163.102, 2200.05}, {1169.711, 2205.895}, {1159.046, 2217.954}, {1172.326, 2229.699}, {1165.8, 2237.079}},
	} {
		if err := roofOf(poly, nil); err != nil {
			t.Errorf("%v: %v", poly, err)
		}
	}
	// And L, U and courtyard lots as scripts/polygon-lots.sh draws them,
	// turned and rounded to millimetres.
	rng := rand.New(rand.NewPCG(1, 2))
	n := 30000
	if testing.Short() {
		n = 3000
	}
	for k := 0; k < n; k++ {
		w, d := 24+6*rng.Float64(), 24+6*rng.Float64()
		a, b := 8+4*rng.Float64(), 8+4*rng.Float64()
		outer, holes := lotShape(k%3, w, d, a, b) // an L, a courtyard, a U
		turn := 2 * math.Pi * rng.Float64()
		ox, oy := 3000*rng.Float64(), 3000*rng.Float64()
		c, s := math.Cos(turn), math.Sin(turn)
		place := func(ring [][2]float64) [][2]float64 {
			out := make([][2]float64, len(ring))
			for i, p := range ring {
				x, y := p[0]-w/2, p[1]-d/2
				out[i] = [2]float64{math.Round((ox+x*c-y*s)*1000) / 1000, math.Round((oy+x*s+y*c)*1000) / 1000}
			}
			return out
		}
		var hs [][][2]float64
		for _, h := range holes {
			hs = append(hs, place(h))
		}
		if err := roofOf(place(outer), hs); err != nil {
			t.Fatalf("lot %d: %v", k, err)
		}
	}
}
