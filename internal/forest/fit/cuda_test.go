//go:build cuda

package fit

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/procgen-dev/procgen/internal/forest"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/gpu/gputest"
	"github.com/procgen-dev/procgen/internal/gpu/kerneltest"
)

func TestKernelSignatures(t *testing.T) {
	kerneltest.Check(t, "internal/forest/fit", []gpu.KernelDecl{fitSums, fitLoglik}, nil)
}

// TestCUDAMatchesCPU compares the device's log-likelihoods with the CPU's
// on random problems whose sizes are not multiples of the block or tile,
// for every kernel family the fit knows.
func TestCUDAMatchesCPU(t *testing.T) {
	dev := gputest.Device(t, nil)
	checked := map[forest.KernelKind]int{}
	for _, sz := range []struct{ parents, nt, cands int }{{1, 1, 1}, {257, 7, 300}, {1000, 13, 2049}} {
		rng := rand.New(rand.NewPCG(uint64(sz.parents), 3))
		trees, traps := layout(rng, 80, sz.parents, sz.nt)
		data := simulate(t, rng, trees, traps, forest.Species{Kernel: forest.Weibull, STR: 200, Beta: 2, D: 0.01, Theta: 2}, 0)
		data[0].Count++ // never all zero
		p, err := NewProblem("x", data, trees)
		if err != nil {
			t.Fatal(err)
		}
		g, err := NewCUDA(dev, p)
		if err != nil {
			t.Fatal(err)
		}
		cands := randomCands(rng, sz.cands)
		want, got := make([]Point, len(cands)), make([]Point, len(cands))
		if err := NewCPU(p, 0).Eval(context.Background(), cands, want); err != nil {
			t.Fatal(err)
		}
		if err := g.Eval(context.Background(), cands, got); err != nil {
			t.Fatal(err)
		}
		g.Close()
		for i := range cands {
			w, h := want[i], got[i]
			if math.IsInf(w.LL, -1) || math.IsInf(h.LL, -1) {
				if w.LL != h.LL {
					t.Errorf("%v candidate %d: cpu %g, cuda %g", sz, i, w.LL, h.LL)
				}
				continue
			}
			checked[cands[i].Species.Kernel]++
			if math.Abs(w.LL-h.LL) > 1e-8*math.Max(1, math.Abs(w.LL)) || math.Abs(w.STR-h.STR) > 1e-8*w.STR {
				t.Errorf("%v candidate %d %+v: cpu %+v, cuda %+v", sz, i, cands[i], w, h)
			}
		}
	}
	for _, f := range Families() {
		if n := checked[forest.KernelKind(f)]; n < 50 {
			t.Errorf("%s: only %d finite candidates compared", f, n)
		}
	}
}

func BenchmarkEvalCUDA(b *testing.B) {
	dev := gputest.Device(b, nil)
	p, cands := benchProblem(b)
	g, err := NewCUDA(dev, p)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	benchEval(b, g, cands)
}

// TestCUDASumsMatchCPU compares the device's expected counts per unit STR,
// which the bootstrap scores its simulated counts with, against the CPU's,
// invalid candidates (NaN rows) included.
func TestCUDASumsMatchCPU(t *testing.T) {
	dev := gputest.Device(t, nil)
	rng := rand.New(rand.NewPCG(5, 3))
	trees, traps := layout(rng, 80, 257, 7)
	data := simulate(t, rng, trees, traps, forest.Species{Kernel: forest.Weibull, STR: 200, Beta: 2, D: 0.01, Theta: 2}, 0)
	data[0].Count++
	p, err := NewProblem("x", data, trees)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewCUDA(dev, p)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	cands := randomCands(rng, 300)
	cands[0].Species.Theta = -1 // invalid
	want, got := make([]float64, len(cands)*p.Traps()), make([]float64, len(cands)*p.Traps())
	if err := NewCPU(p, 0).Sums(context.Background(), cands, want); err != nil {
		t.Fatal(err)
	}
	if err := g.Sums(context.Background(), cands, got); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(want[0]) || !math.IsNaN(got[0]) {
		t.Errorf("invalid candidate: cpu %g, cuda %g, want NaN on both", want[0], got[0])
	}
	for i := range want {
		w, h := want[i], got[i]
		if math.IsNaN(w) != math.IsNaN(h) || math.Abs(w-h) > 1e-8*math.Abs(w) {
			t.Errorf("sum %d (candidate %d): cpu %g, cuda %g", i, i/p.Traps(), w, h)
		}
	}
}
