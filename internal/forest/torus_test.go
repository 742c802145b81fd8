package forest

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// torusSpecies are kernels whose periodic sums the float64 reference can
// finish (every image down to 1e-40 of the peak) on a small plot: the BC
// species, a Gaussian, an exponential (theta 1), a generic Weibull and a
// narrow lognormal.
func torusSpecies() []Species {
	return append(bcSpecies(),
		Species{Name: "gauss", Kernel: Weibull, STR: 10, Beta: 2, D: 0.01, Theta: 2},
		Species{Name: "exp", Kernel: Weibull, STR: 10, Beta: 1.5, D: 0.2, Theta: 1, MinDBH: 5},
		Species{Name: "weibull2.5", Kernel: Weibull, STR: 10, Beta: 2, D: 1e-3, Theta: 2.5},
		Species{Name: "lognormal", Kernel: Lognormal, STR: 10, Beta: 2, X0: 6, Xb: 0.35},
	)
}

// The exact method on a torus is the float64 sum over every periodic image
// of every parent (periodicRef), whatever the workers.
func TestTorusExactMatchesPeriodicRef(t *testing.T) {
	g, trees := synthPlot(29, 23, 80, 11)
	g.Cell = 1.5
	for i := range trees { // synthPlot places trees on 1 m cells
		trees[i].X = g.X0 + (trees[i].X-g.X0)*1.5
		trees[i].Y = g.Y0 + (trees[i].Y-g.Y0)*1.5
		trees[i].Species = i % len(torusSpecies())
	}
	sp := torusSpecies()
	for _, workers := range []int{1, 3} {
		layers := disperse(t, g, trees, sp, Options{Method: Exact, Boundary: Torus, Workers: workers})
		for s := range sp {
			if workers == 3 && s > 0 {
				break // the split is checked on one species; the sums are the same code
			}
			want := periodicRef(g, trees, sp[s], s, 0)
			_, worst, cells := relErrors(want, layers[s].Density, 1e-30)
			if cells == 0 || worst > 1e-12 {
				t.Errorf("%s workers=%d: max relative error %g on %d cells", sp[s].Name, workers, worst, cells)
			}
			if a := layers[s].Accuracy; a.MaxAbs != 0 || a.TailMass != 0 {
				t.Errorf("%s: images truncated (%+v) though the kernel is short", sp[s].Name, a)
			}
		}
	}
}

// The case: one 30 cm tree in a 100 m torus with the gap spruce's
// D puts all of its 100 seeds on the plot (the nearest-image sum put 81.7),
// with every method, on both axes' periodic images.
func TestTorusKeepsEverySeed(t *testing.T) {
	g := Grid{Cell: 1, NX: 100, NY: 100}
	sp := []Species{{Name: "spruce-gap", Kernel: Weibull, STR: 100, Beta: 2, D: 6.93e-6, Theta: 3}}
	trees := []Tree{{X: 37.3, Y: 81.6, DBH: 30}}
	for _, m := range []Method{Exact, FFT, Multires} {
		l := disperse(t, g, trees, sp, Options{Method: m, Boundary: Torus})[0]
		if l.Produced != 100 || l.Lost > 1e-8 {
			t.Fatalf("%s: produced %g, lost %g", m, l.Produced, l.Lost)
		}
		tol := 1e-9 // the midpoint rule on a smooth periodic function
		if m == Multires {
			tol = 1e-6 // one parent: nothing to cluster
		}
		if math.Abs(l.Total-100) > tol*100 {
			t.Errorf("%s: %.10g of 100 seeds land on the torus", m, l.Total)
		}
	}
}

// fractionInside is the share of a parent's seeds that land in g, by polar
// quadrature around the parent (independent of the grid's cells).
func fractionInside(k kern, g Grid, x, y float64) float64 {
	x0, y0, x1, y1 := g.X0, g.Y0, g.X0+float64(g.NX)*g.Cell, g.Y0+float64(g.NY)*g.Cell
	const nphi = 2048
	var sum float64
	for i := 0; i < nphi; i++ {
		phi := (float64(i) + 0.5) * 2 * math.Pi / nphi
		c, s := math.Cos(phi), math.Sin(phi)
		// distance to the rectangle's edge along (c, s)
		edge := math.Inf(1)
		if c > 0 {
			edge = math.Min(edge, (x1-x)/c)
		} else if c < 0 {
			edge = math.Min(edge, (x0-x)/c)
		}
		if s > 0 {
			edge = math.Min(edge, (y1-y)/s)
		} else if s < 0 {
			edge = math.Min(edge, (y0-y)/s)
		}
		// The radial integral of r K(r) over [0, edge]: 1 - the tail.
		sum += (1 - k.tailMass(edge)) / nphi
	}
	return sum
}

// Mass balance on every method and boundary: the seeds that land on the
// grid plus those lost off it are the seeds produced, with "lost" computed
// apart from the backends (the kernel's mass outside the plot around each
// parent, by quadrature) and 0 on a torus.
func TestMassBalance(t *testing.T) {
	// Kernels of 10-30 m on 0.5 m cells: the cells' midpoint rule is
	// good to ~1e-5 of a parent's seeds.
	g, trees := synthPlot(120, 100, 200, 12)
	g.Cell = 0.5
	for i := range trees {
		trees[i].X = g.X0 + (trees[i].X-g.X0)*0.5
		trees[i].Y = g.Y0 + (trees[i].Y-g.Y0)*0.5
	}
	sp := []Species{
		{Name: "pine", Kernel: Weibull, STR: 100, Beta: 2, D: 2.8e-4, Theta: 3, MinDBH: 15},
		{Name: "gauss", Kernel: Weibull, STR: 10, Beta: 2, D: 0.01, Theta: 2},
		{Name: "w2.5", Kernel: Weibull, STR: 10, Beta: 2, D: 1e-3, Theta: 2.5},
		{Name: "lognormal", Kernel: Lognormal, STR: 10, Beta: 2, X0: 6, Xb: 0.35},
	}
	for _, m := range []Method{Exact, FFT, Multires} {
		for _, b := range []Boundary{Open, Torus} {
			t.Run(fmt.Sprintf("%s-%s", m, b), func(t *testing.T) {
				layers := disperse(t, g, trees, sp, Options{Method: m, Boundary: b})
				for s, l := range layers {
					k, _ := newKern(sp[s])
					var produced, lost float64
					for _, tr := range trees {
						if tr.Species != s || tr.DBH < sp[s].MinDBH {
							continue
						}
						f := Fecundity(sp[s], tr.DBH)
						produced += f
						if b == Open {
							lost += f * (1 - fractionInside(k, g, tr.X, tr.Y))
						}
					}
					// The stated error: exact and fft to 1e-4 of the
					// produced seeds (quadrature on the cells); multires
					// states none, and its clusters move seeds by up to a
					// node's width: 1 %.
					tol := 1e-4
					if m == Multires {
						tol = 1e-2
					}
					if math.Abs(l.Produced-produced) > 1e-12*produced {
						t.Errorf("%s: produced %g, want %g", sp[s].Name, l.Produced, produced)
					}
					if d := math.Abs(l.Total + lost - produced); d > tol*produced {
						t.Errorf("%s: landed %g + lost %g = %g, produced %g (off by %.2g of it)", sp[s].Name, l.Total,
							lost, l.Total+lost, produced, d/produced)
					}
					if d := math.Abs(l.Lost - lost); d > tol*produced {
						t.Errorf("%s: reports %g lost, quadrature %g", sp[s].Name, l.Lost, lost)
					}
				}
			})
		}
	}
}

// A kernel far wider than the plot hits the image cap: the far images'
// seeds are spread over the plot, so every seed lands, and every cell is
// within the stated bound of a reference summing the images to 3 km (whose
// own bound is added).
func TestTorusCappedReportsBound(t *testing.T) {
	g := Grid{Cell: 2, NX: 6, NY: 5}
	sp := []Species{{Name: "flat", Kernel: Weibull, STR: 10, Beta: 2, D: 0.3, Theta: 0.5}}
	trees := []Tree{{X: 3, Y: 4, DBH: 40}, {X: 10, Y: 7.5, DBH: 25}}
	for _, m := range []Method{Exact, FFT, Multires} {
		l := disperse(t, g, trees, sp, Options{Method: m, Boundary: Torus})[0]
		a := l.Accuracy
		if !(a.MaxAbs > 0) || !(a.TailMass > 0) || !(a.ImageRadius > 0) || math.IsInf(a.MaxAbs, 0) {
			t.Fatalf("%s: no truncation bound reported: %+v", m, a)
		}
		if d := math.Abs(l.Total - l.Produced); d > 1e-12*l.Produced || l.Lost > 1e-12*l.Produced {
			t.Errorf("%s: landed %.15g, lost %g, produced %.15g", m, l.Total, l.Lost, l.Produced)
		}
		for _, i := range []int{0, 7, 29} {
			x, y := g.Center(i%g.NX, i/g.NX)
			want, b := farRef(g, trees, sp[0], 0, x, y, 3000)
			if d := math.Abs(want - l.Density[i]); d > a.MaxAbs+b {
				t.Errorf("%s cell %d: %g, reference %g: off by %g, bound %g + %g", m, i, l.Density[i], want, d, a.MaxAbs, b)
			}
		}
	}
}

// The truncation bound holds: on a 2x2 grid the images beyond R add no more
// than tailBound says, checked by summing them.
func TestTailBound(t *testing.T) {
	g := Grid{Cell: 3, NX: 2, NY: 3}
	p := newPeriodic(g)
	for _, sp := range []Species{
		{Kernel: Weibull, D: 0.05, Theta: 1.2, STR: 1, Beta: 2},
		{Kernel: Lognormal, X0: 2, Xb: 0.6, STR: 1, Beta: 2},
	} {
		k, _ := newKern(sp)
		for _, R := range []float64{20, 40, 80} {
			bound := p.tailBound(k, R)
			// worst over a few cell-parent offsets
			worst := 0.0
			for _, off := range [][2]float64{{0, 0}, {1.3, 0.2}, {2.9, 4.4}} {
				var s float64
				for b := -200; b <= 200; b++ {
					for a := -200; a <= 200; a++ {
						dx, dy := off[0]+float64(a)*p.lx, off[1]+float64(b)*p.ly
						if d2 := dx*dx + dy*dy; d2 > R*R {
							s += k.at(d2)
						}
					}
				}
				worst = math.Max(worst, s)
			}
			if worst > bound {
				t.Errorf("%v R=%g: images beyond add %g, bound %g", sp.Kernel, R, worst, bound)
			}
			t.Logf("%v R=%g: beyond %.3g, bound %.3g", sp.Kernel, R, worst, bound)
		}
	}
}

// Cancelling stops a torus run too.
func TestTorusCancel(t *testing.T) {
	g, trees := synthPlot(60, 60, 300, 13)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, m := range []Method{Exact, FFT, Multires} {
		if _, err := (CPU{}).Disperse(ctx, g, trees, bcSpecies(), Options{Method: m, Boundary: Torus}); err == nil {
			t.Errorf("%s: cancelled torus run succeeded", m)
		}
	}
}
