package skeleton

import (
	"math/rand/v2"
	"testing"
)

// A lot of the most vertices a lot may have (pga's maxLotVertices, 1024),
// half of them reflex.
func BenchmarkStar1024(b *testing.B) {
	p := star(rand.New(rand.NewPCG(1, 2)), 1024, [2]float64{}, 4, 10)
	for b.Loop() {
		if _, err := Compute(p, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStar64(b *testing.B) {
	p := star(rand.New(rand.NewPCG(1, 2)), 64, [2]float64{}, 4, 10)
	for b.Loop() {
		if _, err := Compute(p, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}
