package forest

import (
	"context"
	"math"
	"testing"
)

// extraSpecies cover the kernel paths besides theta = 3.
func extraSpecies() []Species {
	return []Species{
		{Name: "gauss", Kernel: Weibull, STR: 10, Beta: 2, D: 0.01, Theta: 2, MinDBH: 0},
		{Name: "exp", Kernel: Weibull, STR: 10, Beta: 1.5, D: 0.2, Theta: 1, MinDBH: 5},
		{Name: "weibull2.5", Kernel: Weibull, STR: 10, Beta: 2, D: 1e-3, Theta: 2.5, MinDBH: 0},
		{Name: "lognormal", Kernel: Lognormal, STR: 10, Beta: 2, X0: 6, Xb: 0.7, MinDBH: 0},
	}
}

// The exact method is the textbook double loop, to float64 rounding, on
// open plots, for every kernel path (the torus: TestTorusExactMatchesPeriodicRef).
func TestExactMatchesNaive(t *testing.T) {
	g, trees := synthPlot(47, 31, 240, 3)
	for _, sp := range [][]Species{bcSpecies(), extraSpecies()} {
		for _, b := range []Boundary{Open} {
			for _, workers := range []int{1, 3} {
				layers := disperse(t, g, trees, sp, Options{Method: Exact, Boundary: b, Workers: workers})
				for s := range sp {
					want := naive(g, trees, sp[s], s, b == Torus)
					_, worst, cells := relErrors(want, layers[s].Density, 1e-280)
					if cells == 0 || worst > 1e-12 {
						t.Errorf("%s %s workers=%d: max relative error %g on %d cells", sp[s].Name, b, workers, worst, cells)
					}
				}
			}
		}
	}
}

// The bounds for the fft method: mean relative error <= 1e-4 and
// max <= 1e-3 on the cells above 1e-6 of the maximum, against the exact sum,
// for every species and the total; on a uniform plot, on a clustered one
// (gaps and empty margins: the far tails), on a torus, and for the other
// kernels.
func TestFFTAccuracy(t *testing.T) {
	type plot struct {
		name   string
		g      Grid
		trees  []Tree
		sp     []Species
		bounds Boundary
	}
	gu, tu := synthPlot(300, 200, 6000, 1)
	gc, tc := clusteredPlot(300, 200, 6000, 2)
	gt, tt := clusteredPlot(120, 80, 1200, 3)
	ge, te := clusteredPlot(120, 100, 1500, 4)
	for _, p := range []plot{
		{"uniform", gu, tu, bcSpecies(), Open},
		{"clustered", gc, tc, bcSpecies(), Open},
		{"torus", gt, tt, bcSpecies(), Torus},
		{"kernels", ge, te, extraSpecies(), Open},
		// (torusSpecies: extraSpecies' lognormal is too wide for a small
		// torus's exact sum to be a quick reference)
		{"kernels-torus", ge, te, torusSpecies()[4:], Torus},
	} {
		ex := disperse(t, p.g, p.trees, p.sp, Options{Method: Exact, Boundary: p.bounds})
		ff := disperse(t, p.g, p.trees, p.sp, Options{Method: FFT, Boundary: p.bounds})
		check := func(name string, ref, got []float64, acc Accuracy) {
			mean, worst, cells := relErrors(ref, got, 1e-6)
			t.Logf("%s %s: %d cells, mean %.2e max %.2e (estimate %.2e, %d exact cells)", p.name, name, cells, mean,
				worst, acc.MaxRel, acc.ExactCells)
			if mean > 1e-4 || worst > 1e-3 {
				t.Errorf("%s %s: fft mean relative error %.3g (want <= 1e-4), max %.3g (want <= 1e-3)", p.name, name, mean, worst)
			}
		}
		for s := range p.sp {
			check(p.sp[s].Name, ex[s].Density, ff[s].Density, ff[s].Accuracy)
			if rel := math.Abs(ff[s].Total-ex[s].Total) / ex[s].Total; rel > 1e-5 {
				t.Errorf("%s %s: total %g, exact %g", p.name, p.sp[s].Name, ff[s].Total, ex[s].Total)
			}
		}
		check("total", total(ex), total(ff), Accuracy{})
	}
}

// Results do not depend on the number of workers: every method sums each
// cell in one order whatever the split.
func TestWorkersDoNotChangeResults(t *testing.T) {
	g, trees := clusteredPlot(90, 70, 900, 5)
	for _, m := range []Method{Exact, FFT, Multires} {
		a := disperse(t, g, trees, bcSpecies(), Options{Method: m, Workers: 1})
		b := disperse(t, g, trees, bcSpecies(), Options{Method: m, Workers: 3})
		for s := range a {
			for i := range a[s].Density {
				if a[s].Density[i] != b[s].Density[i] {
					t.Fatalf("%s species %d cell %d: %v with 1 worker, %v with 3", m, s, i, a[s].Density[i], b[s].Density[i])
				}
			}
		}
	}
}

// Multires with clustering pushed beyond the plot is the exact sum; with
// the paper's distances its error against exact is what it is (logged) but
// bounded.
func TestMultires(t *testing.T) {
	g, trees := clusteredPlot(120, 80, 1500, 6)
	sp := bcSpecies()
	ex := disperse(t, g, trees, sp, Options{Method: Exact})
	far := disperse(t, g, trees, sp, Options{Method: Multires, ClusterDistance: 1e6})
	paper := disperse(t, g, trees, sp, Options{Method: Multires})
	for s := range sp {
		if _, worst, _ := relErrors(ex[s].Density, far[s].Density, 1e-280); worst > 1e-12 {
			t.Errorf("%s: multires without clustering differs from exact by %g", sp[s].Name, worst)
		}
		mean, worst, cells := relErrors(ex[s].Density, paper[s].Density, 1e-6)
		t.Logf("%s: multires vs exact on %d cells: mean %.3g max %.3g", sp[s].Name, cells, mean, worst)
		if mean > 0.05 || worst > 0.5 {
			t.Errorf("%s: multires error mean %g max %g", sp[s].Name, mean, worst)
		}
		if paper[s].Accuracy.MaxRel != -1 {
			t.Errorf("multires claims an error estimate %g", paper[s].Accuracy.MaxRel)
		}
	}
}

// The cut-off's error stays within the bound it reports, and its tail mass
// matches the seeds that land beyond the radius.
func TestExactCutoffBound(t *testing.T) {
	g, trees := synthPlot(120, 90, 800, 7)
	sp := bcSpecies()
	ex := disperse(t, g, trees, sp, Options{Method: Exact})
	const cutoff = 25.0
	cut := disperse(t, g, trees, sp, Options{Method: Exact, Cutoff: cutoff})
	for s := range sp {
		acc := cut[s].Accuracy
		if acc.MaxAbs <= 0 || acc.TailMass <= 0 || acc.TailMass >= 1 {
			t.Fatalf("%s: no bound reported: %+v", sp[s].Name, acc)
		}
		worst := 0.0
		for i := range ex[s].Density {
			if d := ex[s].Density[i] - cut[s].Density[i]; d < -1e-12*ex[s].Density[i] {
				t.Fatalf("%s: the cut-off added seeds at cell %d", sp[s].Name, i)
			} else {
				worst = math.Max(worst, d)
			}
		}
		if worst > acc.MaxAbs {
			t.Errorf("%s: error %g above the reported bound %g", sp[s].Name, worst, acc.MaxAbs)
		}
		k, _ := newKern(sp[s])
		// The tail mass, by quadrature of 2 pi r K(r) / eta.
		var mass float64
		const dr = 0.001
		for r := cutoff + dr/2; r < k.radius(60); r += dr {
			mass += 2 * math.Pi * r * k.at(r*r) * dr
		}
		if got, want := acc.TailMass, mass/k.eta; math.Abs(got-want) > 1e-6*math.Max(want, 1e-12)+1e-15 {
			t.Errorf("%s: tail mass %g, quadrature %g", sp[s].Name, got, want)
		}
	}
}

// eta is the kernel's integral over the plane.
func TestEta(t *testing.T) {
	for _, sp := range append(bcSpecies(), extraSpecies()...) {
		k, err := newKern(sp)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		const dr = 1e-3
		for r := dr / 2; r < k.radius(60); r += dr {
			sum += 2 * math.Pi * r * k.at(r*r) * dr
		}
		if math.Abs(sum-k.eta) > 1e-6*k.eta {
			t.Errorf("%s: eta %g, quadrature %g", sp.Name, k.eta, sum)
		}
	}
	if got, want := Eta(Species{D: 0.01, Theta: 2}), math.Pi/0.01; math.Abs(got-want) > 1e-9*want {
		t.Errorf("Gaussian eta %g, want pi/D = %g", got, want)
	}
}

// Seeds produced = landed + lost on an open plot; on a torus nothing is lost
// and the landed seeds are the produced ones (up to the grid's quadrature).
func TestTotals(t *testing.T) {
	g, trees := synthPlot(200, 150, 1500, 8)
	sp := bcSpecies()
	for _, m := range []Method{Exact, FFT} {
		open := disperse(t, g, trees, sp, Options{Method: m})
		torus := disperse(t, g, trees, sp, Options{Method: m, Boundary: Torus})
		for s := range sp {
			o, tr := open[s], torus[s]
			if o.Parents == 0 || o.Produced <= 0 {
				t.Fatalf("%s: no parents", sp[s].Name)
			}
			if o.Lost <= 0 || math.Abs(o.Total+o.Lost-o.Produced) > 1e-9*o.Produced {
				t.Errorf("%s %s: open total %g + lost %g != produced %g", m, sp[s].Name, o.Total, o.Lost, o.Produced)
			}
			// A torus reports what its cells miss (quadrature, the fft's
			// error) as lost, never a silent 0.
			if tr.Lost != math.Max(0, tr.Produced-tr.Total) || math.Abs(tr.Total-tr.Produced) > 1e-3*tr.Produced {
				t.Errorf("%s %s: torus total %g lost %g, produced %g", m, sp[s].Name, tr.Total, tr.Lost, tr.Produced)
			}
		}
	}
}

// No parents, no trees, or a one-cell grid give zero grids, not errors.
func TestEmptyAndTiny(t *testing.T) {
	sp := bcSpecies()
	for _, m := range []Method{Exact, FFT, Multires} {
		for _, b := range []Boundary{Open, Torus} {
			g := Grid{Cell: 1, NX: 7, NY: 5}
			layers := disperse(t, g, nil, sp, Options{Method: m, Boundary: b})
			for _, l := range layers {
				for _, v := range l.Density {
					if v != 0 {
						t.Fatalf("%s: nonzero density without trees", m)
					}
				}
			}
			one := Grid{Cell: 2, NX: 1, NY: 1}
			layers = disperse(t, one, []Tree{{X: 1, Y: 1, Species: 1, DBH: 40}}, sp, Options{Method: m, Boundary: b})
			if layers[1].Density[0] <= 0 {
				t.Errorf("%s %s: one-cell grid density %g", m, b, layers[1].Density[0])
			}
		}
	}
}

// Invalid runs are refused before any work.
func TestDisperseRejects(t *testing.T) {
	g := Grid{Cell: 1, NX: 10, NY: 10}
	sp := bcSpecies()
	for name, c := range map[string]struct {
		g     Grid
		trees []Tree
		o     Options
	}{
		"outside":       {g, []Tree{{X: 11, Y: 5, DBH: 20}}, Options{}},
		"species index": {g, []Tree{{X: 1, Y: 5, DBH: 20, Species: 9}}, Options{}},
		"zero dbh":      {g, []Tree{{X: 1, Y: 5}}, Options{}},
		"method":        {g, nil, Options{Method: "magic"}},
		"boundary":      {g, nil, Options{Boundary: "moebius"}},
		"cutoff fft":    {g, nil, Options{Method: FFT, Cutoff: 10}},
		"empty grid":    {Grid{Cell: 1}, nil, Options{}},
		"cell":          {Grid{NX: 1, NY: 1}, nil, Options{}},
	} {
		if _, err := (CPU{}).Disperse(context.Background(), c.g, c.trees, sp, c.o); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	gg, trees := synthPlot(50, 50, 100, 1)
	if _, err := (CPU{}).Disperse(ctx, gg, trees, sp, Options{Method: Exact}); err == nil {
		t.Error("cancelled run succeeded")
	}
}

// Kernels flatter than any plot (tiny D, small theta, wide lognormal) run
// without overflowing the radii the methods turn into cell counts.
func TestFlatKernels(t *testing.T) {
	g, trees := synthPlot(30, 20, 60, 9)
	sp := []Species{
		{Name: "flat", Kernel: Weibull, STR: 1, Beta: 2, D: 1e-30, Theta: 0.5},
		{Name: "slow", Kernel: Weibull, STR: 1, Beta: 2, D: 1e-3, Theta: 0.1},
		{Name: "wide", Kernel: Lognormal, STR: 1, Beta: 2, X0: 1e3, Xb: 10},
		{Name: "sharp", Kernel: Weibull, STR: 1, Beta: 2, D: 50, Theta: 2},
	}
	for _, s := range sp {
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range []Boundary{Open, Torus} {
		ex := disperse(t, g, trees, sp, Options{Method: Exact, Boundary: b})
		for _, m := range []Method{FFT, Multires} {
			got := disperse(t, g, trees, sp, Options{Method: m, Boundary: b})
			for s := range sp {
				if _, worst, _ := relErrors(ex[s].Density, got[s].Density, 1e-6); m == FFT && worst > 1e-3 {
					t.Errorf("%s %s %s: max relative error %g", m, b, sp[s].Name, worst)
				}
			}
		}
	}
}
