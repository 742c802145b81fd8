package fit

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/procgen-dev/procgen/internal/forest"
)

// benchProblem is the size: 100 traps among 5,000 parents, 10,000
// candidates (every family the fit knows, Poisson and NB, STR profiled).
func benchProblem(b *testing.B) (*Problem, []Cand) {
	rng := rand.New(rand.NewPCG(5, 5))
	trees, traps := layout(rng, 300, 5000, 10)
	data := simulate(b, rng, trees, traps, forest.Species{Kernel: forest.Weibull, STR: 200, Beta: 2, D: 0.01, Theta: 2}, 0)
	p, err := NewProblem("x", data, trees)
	if err != nil {
		b.Fatal(err)
	}
	cands := randomCands(rng, 10000)
	for i := range cands {
		cands[i].STR = 0
	}
	return p, cands
}

func benchEval(b *testing.B, ev Evaluator, cands []Cand) {
	out := make([]Point, len(cands))
	b.ResetTimer()
	for b.Loop() {
		if err := ev.Eval(context.Background(), cands, out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(100*5000*float64(len(cands))), "ns/pair")
}

// BenchmarkEvalCPU: 5e9 trap-parent-candidate terms per iteration.
func BenchmarkEvalCPU(b *testing.B) {
	p, cands := benchProblem(b)
	benchEval(b, NewCPU(p, 0), cands)
}

// randomCands are candidates of every family the fit knows, Poisson and NB, profiled
// and fixed STR, and a few invalid ones.
func randomCands(rng *rand.Rand, n int) []Cand {
	out := make([]Cand, n)
	for i := range out {
		var s forest.Species
		// Every family the fit knows, in turn.
		switch i % 6 {
		case 0:
			s = forest.Species{Kernel: forest.Weibull, Beta: -1 + 4*rng.Float64(), D: math.Exp(-8 + 8*rng.Float64()),
				Theta: 0.3 + 4*rng.Float64()}
		case 1:
			s = forest.Species{Kernel: forest.Lognormal, Beta: 2, X0: 0.5 + 20*rng.Float64(), Xb: 0.1 + 2*rng.Float64()}
		case 2:
			s = forest.Species{Kernel: forest.TwoDt, Beta: -1 + 4*rng.Float64(), P: 0.1 + 5*rng.Float64(),
				U: math.Exp(8 * rng.Float64())}
		case 3:
			s = forest.Species{Kernel: forest.ExpPower, Beta: 2, A: 0.5 + 30*rng.Float64(), B: 0.3 + 4*rng.Float64()}
		case 4:
			s = forest.Species{Kernel: forest.Exponential, Beta: 2, A: 0.5 + 30*rng.Float64()}
		default:
			s = forest.Species{Kernel: forest.Gaussian, Beta: 1 + rng.Float64(), A: 0.5 + 30*rng.Float64()}
		}
		c := Cand{Species: s}
		if i%7 == 0 {
			c.K = math.Exp(-3 + 8*rng.Float64())
		}
		if i%5 == 0 {
			c.STR = 50 + 500*rng.Float64()
		}
		if i%97 == 0 {
			// invalid: -Inf
			c.Species.Xb, c.Species.Theta, c.Species.P, c.Species.A = -1, -1, -1, -1
		}
		out[i] = c
	}
	return out
}
