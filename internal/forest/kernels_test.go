package forest

import (
	"context"
	"math"
	"testing"
)

// familySpecies are the new kernel families, with a mixture of a local
// exponential power kernel and a long-distance 2Dt tail.
func familySpecies() []Species {
	return []Species{
		{Name: "2dt", Kernel: TwoDt, STR: 10, Beta: 2, P: 1.5, U: 30},
		{Name: "2dt-fat", Kernel: TwoDt, STR: 10, Beta: 2, P: 0.6, U: 8},
		{Name: "exppow", Kernel: ExpPower, STR: 10, Beta: 2, A: 4, B: 0.7},
		{Name: "exponential", Kernel: Exponential, STR: 10, Beta: 1.5, A: 5, MinDBH: 5},
		{Name: "gaussian", Kernel: Gaussian, STR: 10, Beta: 2, A: 9},
		{Name: "mixture", Kernel: Mixture, STR: 10, Beta: 2, Mix: &MixtureParams{W: 0.8,
			First:  Species{Kernel: ExpPower, A: 3, B: 1.3},
			Second: Species{Kernel: TwoDt, P: 1, U: 200}}},
		{Name: "mixture-logn", Kernel: Mixture, STR: 10, Beta: 2, Mix: &MixtureParams{W: 0.3,
			First:  Species{Kernel: Lognormal, X0: 5, Xb: 0.5},
			Second: Species{Kernel: Gaussian, A: 3}}},
	}
}

// litDensity is each family's normalised density as the literature writes
// it, apart from kern: the reference the kernels are checked against.
func litDensity(s Species, r float64) float64 {
	switch s.Kernel {
	case TwoDt:
		return s.P / (math.Pi * s.U * math.Pow(1+r*r/s.U, s.P+1))
	case ExpPower, Exponential, Gaussian:
		b := map[KernelKind]float64{ExpPower: s.B, Exponential: 1, Gaussian: 2}[s.Kernel]
		return b / (2 * math.Pi * s.A * s.A * math.Gamma(2/b)) * math.Exp(-math.Pow(r/s.A, b))
	case Lognormal:
		if r == 0 {
			return 0
		}
		l := math.Log(r / s.X0)
		return math.Exp(-l*l/(2*s.Xb*s.Xb)) / Eta(s)
	case Mixture:
		return s.Mix.W*litDensity(s.Mix.First, r) + (1-s.Mix.W)*litDensity(s.Mix.Second, r)
	}
	panic("no density for " + s.Kernel)
}

// radialMass integrates 2 pi r f(r) over [r0, inf) by Simpson's rule in
// ln r (the fat 2Dt tails need the decades out to 1e18 m).
func radialMass(f func(r float64) float64, r0 float64) float64 {
	lo, hi := math.Log(math.Max(r0, 1e-9)), math.Log(1e18)
	n := 200000
	h := (hi - lo) / float64(n)
	var s float64
	for i := 0; i <= n; i++ {
		r := math.Exp(lo + float64(i)*h)
		w := 2.0
		if i == 0 || i == n {
			w = 1
		} else if i%2 == 1 {
			w = 4
		}
		s += w * 2 * math.Pi * r * r * f(r)
	}
	return s * h / 3
}

// Every family integrates to 1 over the plane, its kern is the literature's
// density times eta, tailMass is the mass beyond r, and radius is where the
// exponent reaches e.
func TestKernelFamiliesNormalised(t *testing.T) {
	for _, s := range familySpecies() {
		k, err := newKern(s)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if m := radialMass(func(r float64) float64 { return litDensity(s, r) }, 0); math.Abs(m-1) > 1e-9 {
			t.Errorf("%s: the literature density integrates to %.12g", s.Name, m)
		}
		if m := radialMass(func(r float64) float64 { return k.at(r*r) / k.eta }, 0); math.Abs(m-1) > 1e-9 {
			t.Errorf("%s: K/eta integrates to %.12g over the plane, want 1", s.Name, m)
		}
		for _, r := range []float64{0.5, 3, 10, 40, 300} {
			if got, want := k.at(r*r)/k.eta, litDensity(s, r); math.Abs(got-want) > 1e-12*want {
				t.Errorf("%s: density at %g m %g, literature %g", s.Name, r, got, want)
			}
			want := radialMass(func(r float64) float64 { return litDensity(s, r) }, r)
			if got := k.tailMass(r); math.Abs(got-want) > 1e-9*math.Max(want, 1e-3) {
				t.Errorf("%s: tailMass(%g) = %.10g, numerically %.10g", s.Name, r, got, want)
			}
		}
		for _, e := range []float64{1, 8.3, supportExponent, underflowExponent} {
			r := k.radius(e)
			if r >= maxRadius {
				continue
			}
			if x := k.expo(r * r); math.Abs(x-e) > 1e-9*e && !(s.Kernel == Mixture && x >= e) {
				t.Errorf("%s: expo(radius(%g)) = %g", s.Name, e, x)
			}
			// Beyond the radius the exponent stays above e.
			for _, f := range []float64{1.01, 1.5, 3} {
				if x := k.expo(r * r * f * f); x < e*(1-1e-12) {
					t.Errorf("%s: expo at %g radius(%g) is %g", s.Name, f, e, x)
				}
			}
		}
	}
}

// Exponential power is the Weibull under another name: the same densities.
func TestExpPowerIsWeibull(t *testing.T) {
	a, b := 6.0, 1.7
	ep, _ := newKern(Species{Kernel: ExpPower, A: a, B: b})
	wb, _ := newKern(Species{Kernel: Weibull, D: math.Pow(a, -b), Theta: b})
	for _, r := range []float64{0, 1, 5, 20} {
		if x, y := ep.at(r*r)/ep.eta, wb.at(r*r)/wb.eta; math.Abs(x-y) > 1e-14*y {
			t.Errorf("r %g: exppow %g, weibull %g", r, x, y)
		}
	}
}

// Every method sums the new families as the textbook double loop over the
// literature's densities does: exact to float64 rounding, fft within the
// issue's bounds, multires without clustering exactly and with the paper's
// clustering within a loose bound; totals agree.
func TestKernelFamiliesMethods(t *testing.T) {
	g, trees := clusteredPlot(70, 55, 400, 11)
	sp := familySpecies()
	for i := range trees {
		trees[i].Species = i % len(sp)
	}
	ref := make([][]float64, len(sp))
	for s := range sp {
		ref[s] = litSum(g, trees, sp[s], s)
	}
	ex := disperse(t, g, trees, sp, Options{Method: Exact})
	ff := disperse(t, g, trees, sp, Options{Method: FFT})
	mrFar := disperse(t, g, trees, sp, Options{Method: Multires, ClusterDistance: 1e6})
	mr := disperse(t, g, trees, sp, Options{Method: Multires})
	checked := 0
	for s := range sp {
		if _, worst, cells := relErrors(ref[s], ex[s].Density, 1e-280); cells == 0 || worst > 1e-12 {
			t.Errorf("%s: exact vs the literature's densities: %g on %d cells", sp[s].Name, worst, cells)
		}
		mean, worst, _ := relErrors(ref[s], ff[s].Density, 1e-6)
		if mean > 1e-4 || worst > 1e-3 || (ff[s].Accuracy.MaxRel > 0 && worst > 10*ff[s].Accuracy.MaxRel) {
			t.Errorf("%s: fft mean %g max %g (estimate %g)", sp[s].Name, mean, worst, ff[s].Accuracy.MaxRel)
		}
		if _, worst, _ := relErrors(ref[s], mrFar[s].Density, 1e-280); worst > 1e-12 {
			t.Errorf("%s: multires without clustering differs by %g", sp[s].Name, worst)
		}
		mean, worst, _ = relErrors(ref[s], mr[s].Density, 1e-6)
		t.Logf("%s: fft max %.2e; multires (paper) mean %.2e max %.2e", sp[s].Name,
			func() float64 { _, w, _ := relErrors(ref[s], ff[s].Density, 1e-6); return w }(), mean, worst)
		if mean > 0.05 || worst > 0.5 {
			t.Errorf("%s: multires error mean %g max %g", sp[s].Name, mean, worst)
		}
		for _, l := range [][]Layer{ff, mr, mrFar} {
			if rel := math.Abs(l[s].Total-ex[s].Total) / ex[s].Total; rel > 1e-3 {
				t.Errorf("%s %s: total %g, exact %g", sp[s].Name, l[s].Accuracy.Method, l[s].Total, ex[s].Total)
			}
			if l[s].Parents != ex[s].Parents || l[s].Produced != ex[s].Produced {
				t.Errorf("%s: parents/produced %d/%g, exact %d/%g", sp[s].Name, l[s].Parents, l[s].Produced,
					ex[s].Parents, ex[s].Produced)
			}
		}
		checked++
	}
	if checked != len(sp) {
		t.Fatalf("checked %d of %d species", checked, len(sp))
	}
}

// litSum is the open plot's density from the literature's densities.
func litSum(g Grid, trees []Tree, sp Species, s int) []float64 {
	out := make([]float64, g.Cells())
	for j := 0; j < g.NY; j++ {
		for i := 0; i < g.NX; i++ {
			x, y := g.Center(i, j)
			for _, t := range trees {
				if t.Species == s && t.DBH >= sp.MinDBH {
					out[j*g.NX+i] += Fecundity(sp, t.DBH) * litDensity(sp, math.Hypot(x-t.X, y-t.Y))
				}
			}
		}
	}
	return out
}

// On an open plot what one parent's seeds lose off the plot is its
// kernel's mass beyond the plot's edges: at least the mass beyond the
// farthest corner, at most that beyond the nearest edge, for every family
// and method; landed + lost = produced.
func TestKernelFamiliesOpenMassBalance(t *testing.T) {
	g := Grid{Cell: 1, NX: 81, NY: 81}
	trees := []Tree{{X: 40.5, Y: 40.5, DBH: 30}}
	for _, s := range familySpecies() {
		k, _ := newKern(s)
		near, far := k.tailMass(40.5), k.tailMass(40.5*math.Sqrt2)
		for _, m := range []Method{Exact, FFT, Multires} {
			l := disperse(t, g, trees, []Species{s}, Options{Method: m})[0]
			lost := l.Lost / l.Produced
			if lost < far*(1-1e-3)-1e-4 || lost > near*(1+1e-3)+1e-4 || math.Abs(l.Total+l.Lost-l.Produced) > 1e-9*l.Produced {
				t.Errorf("%s %s: lost %.6g of the seeds, want between %.6g and %.6g (landed %g + lost %g, produced %g)",
					s.Name, m, lost, far, near, l.Total, l.Lost, l.Produced)
			}
		}
	}
}

// Mixtures are validated as a whole, and the split keeps the layers in
// the caller's order.
func TestMixtureValidation(t *testing.T) {
	for _, s := range []Species{
		{Name: "m", Kernel: Mixture, STR: 1, Beta: 2},
		{Name: "m", Kernel: Mixture, STR: 1, Beta: 2, Mix: &MixtureParams{W: 1, First: Species{Kernel: Gaussian, A: 1},
			Second: Species{Kernel: Gaussian, A: 2}}},
		{Name: "m", Kernel: Mixture, STR: 1, Beta: 2, Mix: &MixtureParams{W: 0.5, First: Species{Kernel: Gaussian, A: -1},
			Second: Species{Kernel: Gaussian, A: 2}}},
		{Name: "t", Kernel: TwoDt, STR: 1, Beta: 2, P: 0, U: 1},
		{Name: "t", Kernel: TwoDt, STR: 1, Beta: 2, P: 1, U: math.Inf(1)},
		{Name: "e", Kernel: ExpPower, STR: 1, Beta: 2, A: 1, B: 0.01},
	} {
		if err := s.Validate(); err == nil {
			t.Errorf("%+v: no error", s)
		}
		g := Grid{Cell: 1, NX: 4, NY: 4}
		if _, err := (CPU{}).Disperse(context.Background(), g, []Tree{{X: 1, Y: 1, DBH: 20}}, []Species{s}, Options{}); err == nil {
			t.Errorf("%+v: Disperse ran", s)
		}
	}
	g, trees := synthPlot(30, 20, 90, 2)
	sp := []Species{bcSpecies()[0], familySpecies()[5], bcSpecies()[1], familySpecies()[6]}
	all := disperse(t, g, trees, sp, Options{Method: Exact})
	for s := range sp {
		var own []Tree
		for _, tr := range trees {
			if tr.Species == s {
				tr.Species = 0
				own = append(own, tr)
			}
		}
		one := disperse(t, g, own, sp[s:s+1], Options{Method: Exact})[0]
		if all[s].Species != s || math.Abs(one.Total-all[s].Total) > 1e-12*one.Total || one.Total == 0 {
			t.Errorf("layer %d: species %d total %g, alone %g", s, all[s].Species, all[s].Total, one.Total)
		}
	}
}
