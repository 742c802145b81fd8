package forest

import (
	"math"
	"strings"
	"testing"
)

// issueTorusPlot is the issue's synthetic case: a 100 x 85 m plot of 1 m
// cells with 60 trees, half an exponential Weibull (theta 1, D 0.02: a
// mean distance of 100 m) and half a wide lognormal (X0 20 m, Xb 1.2),
// placed by a fixed linear congruential sequence so every run and every
// machine sees the same stem map.
func issueTorusPlot() (Grid, []Tree, []Species) {
	g := Grid{Cell: 1, NX: 100, NY: 85}
	sp := []Species{
		{Name: "exp-wide", Kernel: Weibull, STR: 40, Beta: 2, D: 0.02, Theta: 1},
		{Name: "lognormal-wide", Kernel: Lognormal, STR: 30, Beta: 2, X0: 20, Xb: 1.2},
	}
	state := uint64(31)
	next := func() float64 { // Knuth's MMIX LCG, top 53 bits
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11) / (1 << 53)
	}
	trees := make([]Tree, 60)
	for i := range trees {
		trees[i] = Tree{X: 100 * next(), Y: 85 * next(), Species: i % 2, DBH: 10 + 50*next()}
	}
	return g, trees, sp
}

// The issue's 77.6 % case: on a torus every seed the wide kernels produce
// lands, with every method (at b471201 the lognormal landed 392 of 982 and
// the summary said 0 lost), and nothing is reported lost.
func TestTorusIssueCaseLandsEverySeed(t *testing.T) {
	g, trees, sp := issueTorusPlot()
	landed := map[Method][]float64{}
	for _, m := range []Method{Exact, FFT, Multires} {
		layers := disperse(t, g, trees, sp, Options{Method: m, Boundary: Torus})
		for s, l := range layers {
			if !(l.Produced > 0) {
				t.Fatalf("%s %s: no seeds produced", m, sp[s].Name)
			}
			if d := math.Abs(l.Total - l.Produced); d > 1e-9*l.Produced {
				t.Errorf("%s %s: landed %.10g of %.10g produced (off by %.2g of it)", m, sp[s].Name, l.Total,
					l.Produced, d/l.Produced)
			}
			if l.Lost > 1e-9*l.Produced {
				t.Errorf("%s %s: reports %g lost", m, sp[s].Name, l.Lost)
			}
			landed[m] = append(landed[m], l.Total)
		}
		tot := Total(g, layers, Torus)
		if d := math.Abs(tot.Total + tot.Lost - tot.Produced); d > 1e-9*tot.Produced {
			t.Errorf("%s total: landed %g + lost %g, produced %g", m, tot.Total, tot.Lost, tot.Produced)
		}
	}
}

// farRef is the torus density of species s at (x, y), written apart from
// the backends: the float64 sum over every periodic image within R of the
// point, plus the far images' mean eta Q(R) / area, with the bound on how
// far they may be from that mean (the images within R - diag and R + diag
// of a point hold all the difference; see tailBound).
func farRef(g Grid, trees []Tree, sp Species, s int, x, y, R float64) (dens, bound float64) {
	k, _ := newKern(sp)
	p := newPeriodic(g)
	n := int(R/math.Min(p.lx, p.ly)) + 2
	var sumW float64
	for _, t := range trees {
		if t.Species != s || t.DBH < sp.MinDBH {
			continue
		}
		w := Fecundity(sp, t.DBH) / k.eta
		sumW += w
		for b := -n; b <= n; b++ {
			dy := y - t.Y - float64(b)*p.ly
			for a := -n; a <= n; a++ {
				dx := x - t.X - float64(a)*p.lx
				if d2 := dx*dx + dy*dy; d2 <= R*R {
					dens += w * k.at(d2)
				}
			}
		}
	}
	mean := sumW * k.eta * k.tailMass(R) / p.area
	return dens + mean, math.Max(sumW*p.tailBound(k, R)-mean, mean-sumW*p.farLower(k, R))
}

// The methods agree within the errors they state: every layer is within
// its stated bound of a reference summing images to 6 km (for these
// kernels the reference's own bound is far smaller), at a sample of cells.
func TestTorusIssueCaseMethodsAgree(t *testing.T) {
	g, trees, sp := issueTorusPlot()
	const R = 6000
	type cell struct{ i, j int }
	cells := []cell{{0, 0}, {99, 84}, {50, 42}, {13, 70}, {77, 5}, {31, 29}}
	for _, m := range []Method{Exact, FFT, Multires} {
		layers := disperse(t, g, trees, sp, Options{Method: m, Boundary: Torus})
		for s, l := range layers {
			a := l.Accuracy
			mean := l.Produced / (float64(g.Cells()) * g.Cell * g.Cell)
			worst, refBound := 0.0, 0.0
			for _, c := range cells {
				x, y := g.Center(c.i, c.j)
				want, b := farRef(g, trees, sp[s], s, x, y, R)
				worst, refBound = math.Max(worst, math.Abs(l.Density[c.j*g.NX+c.i]-want)), math.Max(refBound, b)
			}
			t.Logf("%s %s: R %.4g, stated bound %.3g, off the reference by %.3g (its bound %.2g; mean density %.3g)",
				m, sp[s].Name, a.ImageRadius, a.MaxAbs, worst, refBound, mean)
			tol := a.MaxAbs + refBound
			switch m {
			case FFT:
				tol += 2 * a.MaxRel * mean
			case Multires:
				tol += 0.01 * mean // no bound of its own: its clusters move seeds by up to a node's width
			}
			if worst > tol {
				t.Errorf("%s %s: %.3g off the reference, stated bound %.3g", m, sp[s].Name, worst, a.MaxAbs)
			}
		}
	}
}

// wideFamilies are kernels of every family wider than a 40 x 30 m plot:
// Weibull theta 1 and 3, a lognormal, a flat Weibull (theta 0.5) and a
// lognormal whose peak is beyond the plot.
func wideFamilies() []Species {
	return []Species{
		{Name: "weibull-theta1", Kernel: Weibull, STR: 20, Beta: 2, D: 0.03, Theta: 1},
		{Name: "weibull-theta3", Kernel: Weibull, STR: 20, Beta: 2, D: 2e-6, Theta: 3},
		{Name: "lognormal", Kernel: Lognormal, STR: 20, Beta: 2, X0: 8, Xb: 0.9},
		{Name: "weibull-flat", Kernel: Weibull, STR: 20, Beta: 2, D: 0.5, Theta: 0.5},
		{Name: "lognormal-far", Kernel: Lognormal, STR: 20, Beta: 2, X0: 45, Xb: 1.1},
	}
}

// Every kernel family wider than the plot lands every seed it produces on
// a torus, with every method, and reports nothing lost.
func TestTorusEveryFamilyLandsEverySeed(t *testing.T) {
	g := Grid{X0: -5, Y0: 2, Cell: 1, NX: 40, NY: 30}
	sp := wideFamilies()
	state := uint64(7)
	next := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11) / (1 << 53)
	}
	var trees []Tree
	for i := 0; i < 12*len(sp); i++ {
		trees = append(trees, Tree{X: g.X0 + 40*next(), Y: g.Y0 + 30*next(), Species: i % len(sp), DBH: 10 + 40*next()})
	}
	for _, m := range []Method{Exact, FFT, Multires} {
		for s, l := range disperse(t, g, trees, sp, Options{Method: m, Boundary: Torus}) {
			t.Logf("%s %s: landed %.12g of %.12g, lost %.3g, image radius %.4g", m, sp[s].Name, l.Total, l.Produced,
				l.Lost, l.Accuracy.ImageRadius)
			if d := math.Abs(l.Total - l.Produced); d > 1e-9*l.Produced || l.Lost > 1e-9*l.Produced {
				t.Errorf("%s %s: landed %.12g of %.12g produced, %g reported lost", m, sp[s].Name, l.Total,
					l.Produced, l.Lost)
			}
		}
	}
}

// A kernel sharp for the cells (a 5 m exponential on 1 m cells) makes the
// cells' midpoint sum exceed what was produced by a few parts in a
// million on a torus: the run says so, in the accuracy and its statement,
// rather than hiding it as "nothing lost".
func TestTorusQuadratureExcessReported(t *testing.T) {
	g := Grid{Cell: 1, NX: 60, NY: 50}
	sp := []Species{{Name: "exp5", Kernel: ExpPower, STR: 100, Beta: 2, A: 5, B: 1}}
	// Parents at cell centres: the kernel's cusp falls on a sample point.
	trees := []Tree{{X: 17.5, Y: 21.5, DBH: 30}, {X: 44.5, Y: 8.5, DBH: 45}}
	for _, m := range []Method{Exact, FFT} {
		l := disperse(t, g, trees, sp, Options{Method: m, Boundary: Torus})[0]
		excess := l.Total/l.Produced - 1
		if excess < 1e-7 {
			t.Fatalf("%s: the cells sum to %.12g of %.12g produced: no excess to report (the test's premise)", m, l.Total, l.Produced)
		}
		if a := l.Accuracy; math.Abs(a.QuadExcess-excess) > 1e-9 {
			t.Errorf("%s: QuadExcess %g, the cells' sum exceeds what was produced by %g", m, a.QuadExcess, excess)
		}
		if st := l.Accuracy.Statement(g.Cells()); !strings.Contains(st, "midpoint quadrature") {
			t.Errorf("%s: the statement does not say the cells over-count: %s", m, st)
		}
	}
}
