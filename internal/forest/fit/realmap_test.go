package fit

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/procgen-dev/procgen/internal/forest"
)

// TestRealStemMapRecovery fits counts simulated at 100 traps (1 m², a 10 m
// grid) among the real parents of one species of the Barro Colorado Island
// hectare (../shared's bci_hec37, census 7: the 22 Alseis blackiana stems of
// 10 cm or more), from a lognormal kernel with NB counts, and checks that the
// lognormal wins by AIC against the Weibull and the 2Dt and that its 95%
// intervals hold every true value. One simulation with a fixed seed: it
// pins the whole path on a real, clumped stem map (the coverage study uses
// uniform random parents); coverage itself is TestRecoveryCoverage's.
func TestRealStemMapRecovery(t *testing.T) {
	file := filepath.Join("..", "..", "..", "..", "shared", "corpus", "forest", "bci_hec37_ViewFullTable.tsv")
	f, err := os.Open(file)
	if err != nil {
		t.Skipf("no BCI stem map: %v", err)
	}
	defer f.Close()
	o := forest.StemOptions{DBHUnit: "mm"}
	for _, w := range []string{"Status=alive", "PlotCensusNumber=7", "Mnemonic=alsebl", "DBH>=100"} {
		c, err := forest.ParseCondition(w)
		if err != nil {
			t.Fatal(err)
		}
		o.Where = append(o.Where, c)
	}
	m, err := forest.ReadStems(f, file, o)
	if err != nil {
		t.Fatal(err)
	}
	var parents []forest.Tree
	for _, s := range m.Stems {
		parents = append(parents, forest.Tree{X: s.X, Y: s.Y, DBH: s.DBH})
	}
	if len(parents) != 22 {
		t.Fatalf("%d alsebl parents of 10 cm or more in census 7, want 22", len(parents))
	}
	var traps []Trap
	for i := range 10 {
		for j := range 10 {
			traps = append(traps, Trap{X: 704.5 + 10*float64(i), Y: 104.5 + 10*float64(j), Area: 1})
		}
	}
	truth := forest.Species{Kernel: forest.Lognormal, STR: 2000, Beta: 2, X0: 8, Xb: 0.9}
	const k = 2
	data := simulate(t, rand.New(rand.NewPCG(7, 7)), parents, traps, truth, k)
	p, err := NewProblem("alsebl", data, parents)
	if err != nil {
		t.Fatal(err)
	}
	best := map[forest.KernelKind]*Estimate{}
	for _, kind := range []forest.KernelKind{forest.Lognormal, forest.Weibull, forest.TwoDt} {
		e, err := Fit(context.Background(), NewCPU(p, 0), Options{Kernel: kind, Counts: NegBinom,
			Base: forest.Species{Beta: 2}, Candidates: 4096, Seed: 1})
		if err != nil {
			t.Logf("%s: %v", kind, err)
			continue
		}
		best[kind] = e
	}
	e := best[forest.Lognormal]
	if e == nil {
		t.Fatal("the lognormal fit gave no estimate")
	}
	for kind, o := range best {
		if o.AIC < e.AIC {
			t.Errorf("%s has AIC %.3f, below the lognormal's %.3f", kind, o.AIC, e.AIC)
		}
	}
	want := map[string]float64{"x0": truth.X0, "xb": truth.Xb, "k": k, "str": truth.STR}
	for _, pr := range e.Params {
		v := want[pr.Name]
		t.Logf("%s = %.4g, 95%% %s (truth %g)", pr.Name, pr.Value, pr.Interval(), v)
		if v < pr.Lo || v > pr.Hi {
			t.Errorf("%s: truth %g outside %s", pr.Name, v, pr.Interval())
		}
	}
}
