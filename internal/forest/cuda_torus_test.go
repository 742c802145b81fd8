//go:build cuda

package forest

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// The issue's case on the device: one 30 cm tree in a 100 m torus with the
// gap spruce's D puts all of its 100 seeds on the plot, with the exact and
// fft methods, and the densities are the float64 periodic-image sum.
func TestCUDATorusKeepsEverySeed(t *testing.T) {
	e := cudaEngine(t)
	g := Grid{Cell: 1, NX: 100, NY: 100}
	sp := []Species{{Name: "spruce-gap", Kernel: Weibull, STR: 100, Beta: 2, D: 6.93e-6, Theta: 3}}
	trees := []Tree{{X: 37.3, Y: 81.6, DBH: 30}}
	want := periodicRef(g, trees, sp[0], 0, 0)
	for _, m := range []Method{Exact, FFT} {
		l, err := e.Disperse(context.Background(), g, trees, sp, Options{Method: m, Boundary: Torus})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(l[0].Total-100) > 1e-5*100 || l[0].Lost > 1e-5*100 {
			t.Errorf("%s: %.8g of 100 seeds land, %g lost", m, l[0].Total, l[0].Lost)
		}
		maxRel, meanRel, n := cudaRelErrors(l[0].Density, want, 1e-6)
		t.Logf("%s: %d cells, max rel %.2e, mean %.2e", m, n, maxRel, meanRel)
		if maxRel > 1e-5 {
			t.Errorf("%s: max relative error %.3g against the periodic sum", m, maxRel)
		}
	}
}

// Kernels wider than a small torus (many periodic images) on both methods:
// the device against the float64 periodic sum and the CPU.
func TestCUDATorusWideKernels(t *testing.T) {
	e := cudaEngine(t)
	rng := rand.New(rand.NewPCG(21, 22))
	g := Grid{X0: 3, Y0: -8, Cell: 1.5, NX: 37, NY: 23}
	sp := torusSpecies()
	trees := cudaRandomPlot(rng, g, 150, len(sp))
	for _, m := range []Method{Exact, FFT} {
		gpuL, err := e.Disperse(context.Background(), g, trees, sp, Options{Method: m, Boundary: Torus})
		if err != nil {
			t.Fatal(err)
		}
		cpuL, err := CPU{}.Disperse(context.Background(), g, trees, sp, Options{Method: m, Boundary: Torus})
		if err != nil {
			t.Fatal(err)
		}
		for s := range sp {
			want := periodicRef(g, trees, sp[s], s, 0)
			maxRel, meanRel, n := cudaRelErrors(gpuL[s].Density, want, 1e-6)
			vsCPU, _, _ := cudaRelErrors(gpuL[s].Density, cpuL[s].Density, 1e-6)
			t.Logf("%s %s: %d cells, max rel %.2e mean %.2e, vs CPU %.2e", m, sp[s].Name, n, maxRel, meanRel, vsCPU)
			tol := 1e-5 // float32 terms
			if m == FFT {
				tol = 1e-3
			}
			if maxRel > tol || vsCPU > 2*tol {
				t.Errorf("%s %s: max relative error %.3g (vs CPU %.3g)", m, sp[s].Name, maxRel, vsCPU)
			}
			// Landed = produced up to the cells' midpoint rule (the
			// exponential's cusp costs 1e-4 on 1.5 m cells, on the CPU too).
			if d := math.Abs(gpuL[s].Total - gpuL[s].Produced); gpuL[s].Produced > 0 && d > 1e-3*gpuL[s].Produced {
				t.Errorf("%s %s: landed %g of %g produced", m, sp[s].Name, gpuL[s].Total, gpuL[s].Produced)
			}
		}
	}
}

// Issue 31: every seed lands on the device too, for the issue's wide
// kernels and every family wider than the plot, with exact and fft, and
// the device's cells agree with the CPU's within the device's float32
// terms plus the torus bounds both state (at b471201 the device's exact
// and fft landed 453 of 982 lognormal seeds, the CPU 392, both "0 lost").
func TestCUDATorusLandsEverySeed(t *testing.T) {
	e := cudaEngine(t)
	g, trees, sp := issueTorusPlot()
	cases := []struct {
		g     Grid
		trees []Tree
		sp    []Species
	}{{g, trees, sp}}
	wg := Grid{X0: -5, Y0: 2, Cell: 1, NX: 40, NY: 30}
	wsp := wideFamilies()
	rng := rand.New(rand.NewPCG(31, 1))
	cases = append(cases, struct {
		g     Grid
		trees []Tree
		sp    []Species
	}{wg, cudaRandomPlot(rng, wg, 12*len(wsp), len(wsp)), wsp})
	for _, c := range cases {
		for _, m := range []Method{Exact, FFT} {
			o := Options{Method: m, Boundary: Torus}
			gpuL, err := e.Disperse(context.Background(), c.g, c.trees, c.sp, o)
			if err != nil {
				t.Fatal(err)
			}
			cpuL, err := CPU{}.Disperse(context.Background(), c.g, c.trees, c.sp, o)
			if err != nil {
				t.Fatal(err)
			}
			for s, l := range gpuL {
				// To 1e-9, or (a species whose images were all summed, in
				// float32 terms) to the stated relative error, with what
				// the cells miss reported lost.
				rel := math.Max(1e-9, l.Accuracy.MaxRel)
				if d := math.Abs(l.Total - l.Produced); d > rel*l.Produced || l.Lost != math.Max(0, l.Produced-l.Total) {
					t.Errorf("%s %s: device lands %.12g of %.12g, %g lost", m, c.sp[s].Name, l.Total, l.Produced, l.Lost)
				}
				mean := l.Produced / (float64(c.g.Cells()) * c.g.Cell * c.g.Cell)
				tol := l.Accuracy.MaxAbs + cpuL[s].Accuracy.MaxAbs + 1e-4*mean
				if m == FFT {
					tol += 2e-3 * mean
				}
				worst := 0.0
				for i, v := range l.Density {
					worst = math.Max(worst, math.Abs(v-cpuL[s].Density[i]))
				}
				t.Logf("%s %s: device vs CPU %.3g (tolerance %.3g, mean %.3g)", m, c.sp[s].Name, worst, tol, mean)
				if worst > tol {
					t.Errorf("%s %s: device %.3g off the CPU, tolerance %.3g", m, c.sp[s].Name, worst, tol)
				}
			}
		}
	}
}
