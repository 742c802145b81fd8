package fit

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/forest"
)

// TestFamilyCoordinates checks that each family's search coordinates
// convert to its natural parameters and back, and that set and get agree.
func TestFamilyCoordinates(t *testing.T) {
	for _, f := range families() {
		n := f.n()
		if len(f.znames) != n || len(f.zlo) != n || len(f.zhi) != n || len(f.ulo) != n || len(f.uhi) != n {
			t.Errorf("%s: boxes and names of different lengths", f.kind)
			continue
		}
		u := make([]float64, n)
		for d := range u {
			u[d] = 0.3*f.ulo[d] + 0.7*f.uhi[d]
		}
		back := f.uOf(f.zOf(u))
		for d := range u {
			if math.Abs(back[d]-u[d]) > 1e-12*math.Max(1, math.Abs(u[d])) {
				t.Errorf("%s: u %v -> z -> u %v", f.kind, u, back)
			}
		}
		nat := []float64{1.25, 3.5}[:n]
		var s forest.Species
		f.set(&s, nat)
		if got := f.get(s); len(got) != n || got[0] != nat[0] || got[n-1] != nat[n-1] {
			t.Errorf("%s: set %v, get %v", f.kind, nat, got)
		}
	}
}

// TestWriteSpeciesFamilies writes an estimate of every family and reads it
// back with forest disperse's parser: the file must hold the family's own
// keys with every digit (exppow as a and b, not the Weibull's d and theta
// it is computed as).
func TestWriteSpeciesFamilies(t *testing.T) {
	cases := []struct {
		s    forest.Species
		keys []string
	}{
		{forest.Species{Kernel: forest.Weibull, D: 0.0123456789012, Theta: 1.7}, []string{"d:", "theta:"}},
		{forest.Species{Kernel: forest.Lognormal, X0: 4.1, Xb: 0.83}, []string{"x0:", "xb:"}},
		{forest.Species{Kernel: forest.TwoDt, P: 1.37, U: 41.2}, []string{"p:", "u:"}},
		{forest.Species{Kernel: forest.ExpPower, A: 6.3, B: 1.41}, []string{"a:", "b:"}},
		{forest.Species{Kernel: forest.Exponential, A: 3.3}, []string{"a:"}},
		{forest.Species{Kernel: forest.Gaussian, A: 7.7}, []string{"a:"}},
	}
	for _, c := range cases {
		t.Run(string(c.s.Kernel), func(t *testing.T) {
			s := c.s
			s.Name, s.STR, s.Beta, s.MinDBH = "ABLA", 312.5, 2, 10
			e := &Estimate{Kernel: s.Kernel, Counts: Poisson, Species: s, Params: []Param{{Name: "str", Value: s.STR, Lo: 300, Hi: 330}}}
			var b bytes.Buffer
			if err := WriteSpecies(&b, []string{"test"}, []*Estimate{e}); err != nil {
				t.Fatal(err)
			}
			for _, k := range c.keys {
				if !strings.Contains(b.String(), "    "+k) {
					t.Errorf("no %s key in\n%s", k, b.String())
				}
			}
			if s.Kernel == forest.ExpPower && strings.Contains(b.String(), "theta:") {
				t.Errorf("exppow written with Weibull keys:\n%s", b.String())
			}
			tab, err := forest.ParseSpecies(&b, "fitted.yaml")
			if err != nil {
				t.Fatalf("%v\n%s", err, b.String())
			}
			if len(tab.Entries) != 1 {
				t.Fatalf("%d entries", len(tab.Entries))
			}
			got := tab.Entries[0].Species
			got.Name = s.Name
			if got.Kernel != s.Kernel || got.STR != s.STR || got.D != s.D || got.Theta != s.Theta || got.X0 != s.X0 ||
				got.Xb != s.Xb || got.P != s.P || got.U != s.U || got.A != s.A || got.B != s.B || got.MinDBH != s.MinDBH {
				t.Errorf("read back %+v, want %+v", got, s)
			}
		})
	}
}

// An NB fit's k is written as the clumping forest disperse --realize
// draws with, its interval beside it; a Poisson fit writes none.
func TestWriteSpeciesClumping(t *testing.T) {
	s := forest.Species{Name: "liriTuli", Kernel: forest.Lognormal, STR: 2.06e5, Beta: 2, X0: 0.29, Xb: 1.78, MinDBH: 10}
	for _, counts := range []Counts{NegBinom, Poisson} {
		e := &Estimate{Kernel: s.Kernel, Counts: counts, Species: s, K: 2.380409735804453,
			Params: []Param{{Name: "k", Value: 2.38, Lo: 1.892, Hi: 2.96}}}
		var b bytes.Buffer
		if err := WriteSpecies(&b, nil, []*Estimate{e}); err != nil {
			t.Fatal(err)
		}
		tab, err := forest.ParseSpecies(bytes.NewReader(b.Bytes()), "fitted.yaml")
		if err != nil {
			t.Fatalf("%v\n%s", err, b.String())
		}
		got := tab.Entries[0].Species.Clumping
		want := 0.0
		if counts == NegBinom {
			want = e.K
			if !strings.Contains(b.String(), "clumping: 2.380409735804453  # 95% profile interval [1.892, 2.96]") {
				t.Errorf("no clumping with its interval in\n%s", b.String())
			}
		}
		if got != want {
			t.Errorf("%s: clumping read back %g, want %g\n%s", counts, got, want, b.String())
		}
	}
}

// TestShapeBoxIsTheModels checks that the Weibull's theta and the
// exponential power's b are searched over the range forest disperse accepts
// (0.1..20), and that counts drawn from a near-flat disc (b = 12, a legal
// species file) are fitted back with b's interval holding 12 rather than
// refused on a bound at 8 that the likelihood still rises past.
func TestShapeBoxIsTheModels(t *testing.T) {
	for _, kind := range []forest.KernelKind{forest.Weibull, forest.ExpPower} {
		f, err := familyOf(kind)
		if err != nil {
			t.Fatal(err)
		}
		for _, lim := range []struct {
			name string
			v    float64
			want float64
		}{{"zlo", f.zlo[1], 0.1}, {"zhi", f.zhi[1], 20}, {"ulo", f.ulo[1], 0.1}, {"uhi", f.uhi[1], 20}} {
			if math.Abs(lim.v-math.Log(lim.want)) > 1e-12 {
				t.Errorf("%s shape %s = %g, want ln %g", kind, lim.name, math.Exp(lim.v), lim.want)
			}
		}
		for _, v := range []float64{shapeLo, shapeHi} {
			s := forest.Species{Kernel: kind, Beta: 2, STR: 1, D: 0.01, Theta: v, A: 5, B: v}
			if err := s.Validate(); err != nil {
				t.Errorf("%s shape %g at the box's edge is not a valid species: %v", kind, v, err)
			}
		}
	}
	truth := forest.Species{Kernel: forest.ExpPower, STR: 2000, Beta: 2, A: 6, B: 12}
	rng := rand.New(rand.NewPCG(3, 4))
	trees, traps := layout(rng, 60, 40, 20)
	p, err := NewProblem("x", simulate(t, rng, trees, traps, truth, 0), trees)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Fit(context.Background(), NewCPU(p, 0), Options{Kernel: forest.ExpPower, Counts: Poisson,
		Base: forest.Species{Beta: 2}, Candidates: 512, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b := e.Params[1]
	if b.Name != "b" || !(b.Lo <= 12 && 12 <= b.Hi) || !(b.Value > 8) {
		t.Errorf("%s = %g in %s, want an estimate above 8 whose interval holds 12", b.Name, b.Value, b.Interval())
	}
}

// TestLognormalWideKernel fits counts drawn from a lognormal whose x0 is
// below 0.05 m (x0 = 0.01, xb = 1.8: a median seed distance of 6.5 m, a
// legal species file): searched by its median distance the fit finds it,
// with x0's interval holding 0.01, where a box on x0 itself refused the
// fit with x0 on its bound.
func TestLognormalWideKernel(t *testing.T) {
	truth := forest.Species{Kernel: forest.Lognormal, STR: 2000, Beta: 2, X0: 0.01, Xb: 1.8}
	rng := rand.New(rand.NewPCG(5, 6))
	trees, traps := layout(rng, 60, 40, 20)
	p, err := NewProblem("x", simulate(t, rng, trees, traps, truth, 0), trees)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Fit(context.Background(), NewCPU(p, 0), Options{Kernel: forest.Lognormal, Counts: Poisson,
		Base: forest.Species{Beta: 2}, Candidates: 1024, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{truth.X0, truth.Xb} {
		pr := e.Params[i]
		if !(pr.Lo <= want && want <= pr.Hi) {
			t.Errorf("%s = %g in %s, want an interval holding %g", pr.Name, pr.Value, pr.Interval(), want)
		}
	}
}
