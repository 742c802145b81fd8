//go:build cuda

package forest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu/gputest"
)

// cudaEngine opens device 0 once for all tests; without one the test skips,
// or fails when PROCGEN_REQUIRE_GPU is set.
func cudaEngine(t testing.TB) CUDA {
	t.Helper()
	return CUDA{Dev: gputest.Device(t, nil)}
}

// cudaRefDensity is the direct float64 sum, written independently of the
// backends: STR/eta sum over parents (DBH/30)^beta K(d), on a torus over
// every periodic image of every parent (periodicRef; with a cut-off, the
// images within it), parents beyond cutoff (if > 0) ignored.
func cudaRefDensity(g Grid, trees []Tree, sp Species, s int, torus bool, cutoff float64) []float64 {
	if torus && cutoff == 0 {
		return periodicRef(g, trees, sp, s, 0)
	}
	eta := Eta(sp)
	lx, ly := float64(g.NX)*g.Cell, float64(g.NY)*g.Cell
	out := make([]float64, g.Cells())
	for j := range g.NY {
		for i := range g.NX {
			cx, cy := g.Center(i, j)
			var sum float64
			for _, t := range trees {
				if t.Species != s || t.DBH < sp.MinDBH {
					continue
				}
				na, nb := 0, 0
				if torus { // every image within the cut-off
					na, nb = int(cutoff/lx)+1, int(cutoff/ly)+1
				}
				var k float64
				for b := -nb; b <= nb; b++ {
					for a := -na; a <= na; a++ {
						d := math.Hypot(cx-t.X-float64(a)*lx, cy-t.Y-float64(b)*ly)
						if cutoff > 0 && d > cutoff {
							continue
						}
						if sp.Kernel == Lognormal {
							if d > 0 {
								l := math.Log(d / sp.X0)
								k += math.Exp(-l * l / (2 * sp.Xb * sp.Xb))
							}
						} else {
							k += math.Exp(-sp.D * math.Pow(d, sp.Theta))
						}
					}
				}
				sum += math.Pow(t.DBH/30, sp.Beta) * k
			}
			out[j*g.NX+i] = sp.STR / eta * sum
		}
	}
	return out
}

// cudaOverBound is how far the worst cell of got lies beyond rel times
// want plus abs from want (0 when every cell is within).
func cudaOverBound(got, want []float64, rel, abs float64) float64 {
	worst := 0.0
	for i, w := range want {
		worst = math.Max(worst, math.Abs(got[i]-w)-rel*w-abs)
	}
	return worst
}

// cudaRelErrors compares got with want on cells above floor times want's maximum:
// the largest and the mean relative error, and how many cells counted.
func cudaRelErrors(got, want []float64, floor float64) (maxRel, meanRel float64, n int) {
	var mx float64
	for _, v := range want {
		mx = math.Max(mx, v)
	}
	var sum float64
	for i, v := range want {
		if v <= floor*mx {
			continue
		}
		e := math.Abs(got[i]-v) / v
		maxRel = math.Max(maxRel, e)
		sum += e
		n++
	}
	if n > 0 {
		meanRel = sum / float64(n)
	}
	return maxRel, meanRel, n
}

// cudaRandomPlot scatters n trees of the given species over g, a few of them
// on the grid's edges and corners, DBH 5..80 cm.
func cudaRandomPlot(rng *rand.Rand, g Grid, n, nspecies int) []Tree {
	x1, y1 := g.X0+float64(g.NX)*g.Cell, g.Y0+float64(g.NY)*g.Cell
	trees := make([]Tree, n)
	for i := range trees {
		t := Tree{X: g.X0 + rng.Float64()*(x1-g.X0), Y: g.Y0 + rng.Float64()*(y1-g.Y0),
			Species: rng.IntN(nspecies), DBH: 5 + 75*rng.Float64()}
		switch i % 23 {
		case 0:
			t.X = g.X0
		case 1:
			t.X = x1
		case 2:
			t.Y = y1
		case 3:
			t.X, t.Y = x1, g.Y0
		case 4:
			t.X, t.Y = g.Center(rng.IntN(g.NX), rng.IntN(g.NY)) // on a cell centre: d = 0
		}
		trees[i] = t
	}
	return trees
}

// cudaTestSpecies: the fast path (theta = 3) with two spreads, a generic
// Weibull and a lognormal, sized to span several 2 m cells.
var cudaTestSpecies = []Species{
	{Name: "w3", Kernel: Weibull, STR: 100, Beta: 2, D: 2e-4, Theta: 3, MinDBH: 15},
	{Name: "w3-wide", Kernel: Weibull, STR: 50, Beta: 2, D: 3e-5, Theta: 3, MinDBH: 10},
	{Name: "w2.2", Kernel: Weibull, STR: 80, Beta: 1.5, D: 2e-3, Theta: 2.2, MinDBH: 15},
	{Name: "logn", Kernel: Lognormal, STR: 60, Beta: 2, X0: 8, Xb: 0.8, MinDBH: 15},
}

func TestCUDAExactMatchesReference(t *testing.T) {
	e := cudaEngine(t)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		nx, ny, trees int
		cell          float64
		boundary      Boundary
		cutoff        float64
	}{
		{77, 45, 300, 2, Open, 0}, {77, 45, 300, 2, Torus, 0}, {33, 70, 200, 2.5, Open, 0},
		{5, 3, 40, 2, Torus, 0}, {130, 96, 600, 1, Open, 0}, {64, 64, 400, 2, Torus, 0},
		{77, 45, 300, 2, Open, 30}, {77, 45, 300, 2, Torus, 25},
	} {
		name := fmt.Sprintf("%dx%d-%s-cut%g", tc.nx, tc.ny, tc.boundary, tc.cutoff)
		t.Run(name, func(t *testing.T) {
			g := Grid{X0: 1000.25, Y0: -37, Cell: tc.cell, NX: tc.nx, NY: tc.ny}
			trees := cudaRandomPlot(rng, g, tc.trees, len(cudaTestSpecies))
			o := Options{Method: Exact, Boundary: tc.boundary, Cutoff: tc.cutoff}
			for _, brute := range []bool{false, true} {
				e.Brute = brute
				layers, err := e.Disperse(context.Background(), g, trees, cudaTestSpecies, o)
				if err != nil {
					t.Fatal(err)
				}
				for s, sp := range cudaTestSpecies {
					want := cudaRefDensity(g, trees, sp, s, tc.boundary == Torus, tc.cutoff)
					got := layers[s].Density
					ambiguous := 0
					if tc.cutoff > 0 {
						// A parent within float rounding of the cut-off
						// radius may count on one side and not the other:
						// leave out the cells where that matters.
						lo := cudaRefDensity(g, trees, sp, s, tc.boundary == Torus, tc.cutoff*(1-1e-5))
						hi := cudaRefDensity(g, trees, sp, s, tc.boundary == Torus, tc.cutoff*(1+1e-5))
						got = append([]float64(nil), got...)
						for i := range got {
							if hi[i]-lo[i] > 1e-9*hi[i] {
								got[i] = want[i]
								ambiguous++
							}
						}
					}
					maxRel, meanRel, n := cudaRelErrors(got, want, 1e-6)
					t.Logf("%s brute=%v: %d cells (%d left out at the cut-off), max rel %.2e, mean %.2e",
						sp.Name, brute, n, ambiguous, maxRel, meanRel)
					if acc := layers[s].Accuracy; acc.ImageRadius > 0 {
						// A torus kernel reaching past the image cap (the
						// wide lognormal): within the bound it states.
						if worst := cudaOverBound(got, want, 1e-5, acc.MaxAbs); worst > 0 {
							t.Errorf("%s brute=%v: %.3g over the stated bound %.3g + 1e-5 relative", sp.Name, brute, worst, acc.MaxAbs)
						}
					} else if maxRel > 1e-5 {
						t.Errorf("%s brute=%v: max relative error %.3g > 1e-5", sp.Name, brute, maxRel)
					}
				}
			}
		})
	}
}

func TestCUDAFFTMatchesCPUAndReference(t *testing.T) {
	e := cudaEngine(t)
	rng := rand.New(rand.NewPCG(9, 10))
	for _, tc := range []struct {
		nx, ny, trees int
		boundary      Boundary
	}{
		{120, 80, 3000, Open}, {120, 80, 3000, Torus}, {77, 45, 1500, Open}, {77, 45, 1500, Torus},
		{91, 26, 900, Torus}, {34, 17, 300, Torus}, {210, 53, 4000, Open},
	} {
		t.Run(fmt.Sprintf("%dx%d-%s", tc.nx, tc.ny, tc.boundary), func(t *testing.T) {
			g := Grid{X0: -500, Y0: 20, Cell: 2, NX: tc.nx, NY: tc.ny}
			trees := cudaRandomPlot(rng, g, tc.trees, len(cudaTestSpecies))
			o := Options{Method: FFT, Boundary: tc.boundary}
			gpuL, err := e.Disperse(context.Background(), g, trees, cudaTestSpecies, o)
			if err != nil {
				t.Fatal(err)
			}
			cpuL, err := CPU{}.Disperse(context.Background(), g, trees, cudaTestSpecies, o)
			if err != nil {
				t.Fatal(err)
			}
			ffts := 0
			for s, sp := range cudaTestSpecies {
				if gpuL[s].Accuracy.ExactCells < g.Cells() {
					ffts++
				}
				want := cudaRefDensity(g, trees, sp, s, tc.boundary == Torus, 0)
				maxRel, meanRel, n := cudaRelErrors(gpuL[s].Density, want, 1e-6)
				cMax, cMean, _ := cudaRelErrors(cpuL[s].Density, want, 1e-6)
				vsCPU, _, _ := cudaRelErrors(gpuL[s].Density, cpuL[s].Density, 1e-6)
				t.Logf("%s: %d cells: GPU max %.2e mean %.2e (CPU %.2e %.2e), GPU vs CPU max %.2e; exact cells %d / %d",
					sp.Name, n, maxRel, meanRel, cMax, cMean, vsCPU, gpuL[s].Accuracy.ExactCells, cpuL[s].Accuracy.ExactCells)
				if acc := gpuL[s].Accuracy; acc.ImageRadius > 0 {
					// Far images spread evenly (a kernel past the image
					// cap): within the bound the layer states.
					if worst := cudaOverBound(gpuL[s].Density, want, 1e-3, acc.MaxAbs); worst > 0 {
						t.Errorf("%s: %.3g over the stated bound %.3g + 1e-3 relative", sp.Name, worst, acc.MaxAbs)
					}
				} else if maxRel > 1e-3 || meanRel > 1e-4 {
					t.Errorf("%s: relative error max %.3g (want <= 1e-3), mean %.3g (want <= 1e-4)", sp.Name, maxRel, meanRel)
				}
				// The same lattice on both backends: they differ by FFT
				// round-off, and by up to the tolerance on cells that one
				// side's error estimate puts just above it and the other's
				// just below.
				if vsCPU > 2e-4 {
					t.Errorf("%s: GPU and CPU fft differ by %.3g relative", sp.Name, vsCPU)
				}
				if d := math.Abs(gpuL[s].Total-cpuL[s].Total) / math.Max(cpuL[s].Total, 1e-300); d > 1e-6 {
					t.Errorf("%s: total %g on the GPU, %g on the CPU", sp.Name, gpuL[s].Total, cpuL[s].Total)
				}
			}
			// (Sharp kernels on 2 m cells may have every cell fixed up:
			// TestCUDAFFTConvolutionMatchesCPU checks the transforms.)
			t.Logf("%d of %d species kept fft cells", ffts, len(cudaTestSpecies))
		})
	}
}

// The GPU's FFT alone: with the tolerance at its largest no cell is fixed
// up, so the densities are the two backends' convolutions of the same
// lattice, equal up to round-off relative to the maximum.
func TestCUDAFFTConvolutionMatchesCPU(t *testing.T) {
	e := cudaEngine(t)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, tc := range []struct {
		nx, ny   int
		boundary Boundary
	}{{100, 60, Open}, {97, 61, Torus}, {143, 22, Torus}, {1, 1, Torus}, {3, 2, Open}, {256, 100, Open},
		{1031, 3, Torus}} { // 1031: a prime the device leaves to the CPU
		g := Grid{Cell: 2, NX: tc.nx, NY: tc.ny}
		trees := cudaRandomPlot(rng, g, 5*(tc.nx+tc.ny), len(cudaTestSpecies))
		o := Options{Method: FFT, Boundary: tc.boundary, Tolerance: 0.999}
		gpuL, err := e.Disperse(context.Background(), g, trees, cudaTestSpecies, o)
		if err != nil {
			t.Fatal(err)
		}
		cpuL, err := CPU{}.Disperse(context.Background(), g, trees, cudaTestSpecies, o)
		if err != nil {
			t.Fatal(err)
		}
		for s := range cudaTestSpecies {
			var mx, diff float64
			for i, v := range cpuL[s].Density {
				mx = math.Max(mx, v)
				diff = math.Max(diff, math.Abs(gpuL[s].Density[i]-v))
			}
			// Both backends choose the exact sum for few parents (float on
			// the device, float64 on the CPU), else the same convolution.
			tol, method := 1e-11, "fft"
			if cpuL[s].Accuracy.ExactCells == g.Cells() {
				tol, method = 1e-5, "exact"
			}
			if gpuL[s].Accuracy.ExactCells != cpuL[s].Accuracy.ExactCells {
				t.Errorf("%dx%d %s species %d: %d exact cells on the GPU, %d on the CPU", tc.nx, tc.ny, tc.boundary, s,
					gpuL[s].Accuracy.ExactCells, cpuL[s].Accuracy.ExactCells)
			}
			t.Logf("%dx%d %s species %d (%s): max difference %.3g of the maximum", tc.nx, tc.ny, tc.boundary, s, method, diff/mx)
			if diff > tol*mx {
				t.Errorf("%dx%d %s species %d (%s): max difference %.3g of the maximum", tc.nx, tc.ny, tc.boundary, s,
					method, diff/mx)
			}
		}
	}
}

// The device's kernel and error tables are those of convGeom.kernelTable
// and errorTable, up to exp and pow round-off.
func TestCUDAFFTTablesMatchCPU(t *testing.T) {
	e := cudaEngine(t)
	for _, torus := range []bool{false, true} {
		for _, sp := range cudaTestSpecies {
			g := Grid{Cell: 2, NX: 90, NY: 51}
			k, err := newKern(sp)
			if err != nil {
				t.Fatal(err)
			}
			r := newCUDARun(e.Dev, nil)
			f := newCUDAFFTRunner(r, g, torus, 0, 1)
			if ok, err := f.prepare(k, 100); !ok || err != nil {
				t.Fatalf("prepare: %v %v", ok, err)
			}
			c, err := newConvGeom(g, torus, k, 100)
			if err != nil {
				t.Fatal(err)
			}
			kt := c.kernelTable()
			et := c.errorTable(&kt)
			for _, tab := range []struct {
				name string
				want []float64
			}{{"fft.kt", kt.v}, {"fft.et", et.v}} {
				got, err := r.f64[tab.name].Download()
				if err != nil {
					t.Fatal(err)
				}
				for i, w := range tab.want {
					if math.Abs(got[i]-w) > 1e-13 {
						t.Fatalf("torus=%v %s %s[%d]: %g on the device, %g on the host", torus, sp.Name, tab.name, i, got[i], w)
					}
				}
			}
			r.free()
		}
	}
}

func TestCUDAMultiresRunsOnCPU(t *testing.T) {
	e := cudaEngine(t)
	g := Grid{Cell: 2, NX: 40, NY: 30}
	trees := cudaRandomPlot(rand.New(rand.NewPCG(1, 1)), g, 200, 1)
	o := Options{Method: Multires}
	a, err := e.Disperse(context.Background(), g, trees, cudaTestSpecies[:1], o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := CPU{}.Disperse(context.Background(), g, trees, cudaTestSpecies[:1], o)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a[0].Density {
		if a[0].Density[i] != b[0].Density[i] {
			t.Fatalf("cell %d: %g vs the CPU's %g", i, a[0].Density[i], b[0].Density[i])
		}
	}
}

// The exact plan's work lists (no device needed): every parent within reach
// of a tile is in the tile's runs, and the items cover each run exactly once.
func TestCUDAExactPlanCoversReach(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, torus := range []bool{false, true} {
		for _, tc := range []struct {
			nx, ny int
			cutoff float64
		}{{200, 150, 0}, {200, 150, 40}, {33, 300, 25}, {5, 7, 0}} {
			g := Grid{X0: 10, Y0: 5, Cell: 1, NX: tc.nx, NY: tc.ny}
			trees := cudaRandomPlot(rng, g, 3000, 1)
			sets, err := parentSets(g, trees, cudaTestSpecies[:1])
			if err != nil {
				t.Fatal(err)
			}
			ps := sets[0]
			if torus {
				R, _, _, err := exactReach(g, true, ps, tc.cutoff, ps.k.radius(underflowExponent))
				if err != nil {
					t.Fatal(err)
				}
				ps = torusImages(g, ps, R)
			}
			p := newCUDAExactPlan(g, ps, tc.cutoff, false, 132)
			tx, ty := (g.NX+cudaExTile-1)/cudaExTile, (g.NY+cudaExTile-1)/cudaExTile
			covered := make([]int, tx*ty)
			for i := 0; i < len(p.items); i += 4 {
				tile, lo, hi := int(p.items[i]), int(p.items[i+1]), int(p.items[i+2])
				covered[tile] += hi - lo
			}
			for tile := range tx * ty {
				in := map[[2]float64]bool{}
				count := 0
				for r := p.roff[tile]; r < p.roff[tile+1]; r++ {
					first, n := p.ranges[2*r], p.ranges[2*r+1]
					for k := first; k < first+n; k++ {
						in[[2]float64{p.xy[2*k], p.xy[2*k+1]}] = true
					}
					count += int(n)
				}
				if covered[tile] != count {
					t.Fatalf("torus=%v %v tile %d: items cover %d of %d parents", torus, tc, tile, covered[tile], count)
				}
				ti, tj := tile%tx, tile/tx
				_, s, _, _ := cudaExactScale(ps.k)
				for k := range ps.x {
					// distance from the parent to the nearest cell centre of the tile
					best := math.Inf(1)
					for j := tj * cudaExTile; j < min((tj+1)*cudaExTile, g.NY); j++ {
						for i := ti * cudaExTile; i < min((ti+1)*cudaExTile, g.NX); i++ {
							cx, cy := g.Center(i, j)
							dx, dy := math.Abs(cx-ps.x[k]), math.Abs(cy-ps.y[k])
							best = math.Min(best, math.Hypot(dx, dy))
						}
					}
					key := [2]float64{(ps.x[k] - g.X0) * s, (ps.y[k] - g.Y0) * s}
					if best <= p.reach && !in[key] {
						t.Fatalf("torus=%v %v tile %d: parent %d at %.2f m (reach %.2f m) not listed", torus, tc, tile, k, best, p.reach)
					}
				}
			}
		}
	}
}

// The device path's parent sets, sorted, are the CPU's (no device needed).
func TestCUDAParentSetsMatchCPU(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	g := Grid{X0: -3, Y0: 7, Cell: 1.5, NX: 300, NY: 211}
	trees := cudaRandomPlot(rng, g, 20000, len(cudaTestSpecies))
	trees = append(trees, trees[:500]...) // duplicates: ties keep their order
	want, err := parentSets(g, trees, cudaTestSpecies)
	if err != nil {
		t.Fatal(err)
	}
	got, err := cudaParentSets(trees, cudaTestSpecies)
	if err != nil {
		t.Fatal(err)
	}
	for s := range want {
		cudaSortParents(g, got[s])
		w, h := want[s], got[s]
		if !slices.Equal(w.x, h.x) || !slices.Equal(w.y, h.y) || !slices.Equal(w.w, h.w) {
			t.Fatalf("species %d: parents differ from parentSets'", s)
		}
		if math.Abs(w.fecundity-h.fecundity) > 1e-12*w.fecundity || math.Abs(w.sumW-h.sumW) > 1e-12*w.sumW ||
			w.maxW != h.maxW {
			t.Errorf("species %d: sums %g %g %g, want %g %g %g", s, h.fecundity, h.sumW, h.maxW, w.fecundity, w.sumW, w.maxW)
		}
	}
}

// The FFT plans (no device needed): radices multiply to n, and the
// permutation is one.
func TestCUDAFFTPlan(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 6, 8, 12, 30, 49, 97, 210, 1000, 1024, 1125, 2 * 1009} {
		p := newCUDAFFTPlan(n)
		prod := 1
		for s := range int(p.plan.NStages) {
			prod *= int(p.plan.Radix[s])
		}
		if prod != n {
			t.Errorf("n=%d: radices %v multiply to %d", n, p.plan.Radix[:p.plan.NStages], prod)
		}
		perm := append([]int32(nil), p.perm...)
		sort.Slice(perm, func(i, j int) bool { return perm[i] < perm[j] })
		for i, v := range perm {
			if int(v) != i {
				t.Fatalf("n=%d: perm is not a permutation", n)
			}
		}
	}
}

// cudaBenchPlot is the paper's benchmark shape: cells of 1 m over a plot of
// the given cells (2:1), trees parents of interior spruce (D = 3e-5,
// theta = 3), DBH 15..60 cm.
func cudaBenchPlot(cells, trees int) (Grid, []Tree, []Species) {
	ny := int(math.Round(math.Sqrt(float64(cells) / 2)))
	g := Grid{Cell: 1, NX: cells / ny, NY: ny}
	rng := rand.New(rand.NewPCG(5, 6))
	ts := make([]Tree, trees)
	for i := range ts {
		ts[i] = Tree{X: rng.Float64() * float64(g.NX), Y: rng.Float64() * float64(g.NY), DBH: 15 + 45*rng.Float64()}
	}
	return g, ts, []Species{{Name: "interior spruce", Kernel: Weibull, STR: 100, Beta: 2, D: 3e-5, Theta: 3, MinDBH: 15}}
}

// cudaBenchDisperse reports the wall time of a whole Disperse call (parents,
// upload, kernels, download, and for fft the host's tables and fix-up) and
// the device time of the kernels alone, after a warm-up call that loads the
// modules.
func cudaBenchDisperse(b *testing.B, e CUDA, cells, trees int, o Options) {
	g, ts, sp := cudaBenchPlot(cells, trees)
	if _, err := e.Disperse(context.Background(), g, ts, sp, o); err != nil {
		b.Fatal(err)
	}
	e.Stages = map[string]time.Duration{}
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		if _, err := e.Disperse(context.Background(), g, ts, sp, o); err != nil {
			b.Fatal(err)
		}
	}
	wall := time.Since(start)
	b.StopTimer()
	var dev time.Duration
	for name, d := range e.Stages {
		if !strings.HasPrefix(name, "host.") {
			dev += d
		}
	}
	b.ReportMetric(float64(wall.Microseconds())/1e3/float64(b.N), "ms/op")
	b.ReportMetric(float64(dev.Microseconds())/1e3/float64(b.N), "device-ms/op")
	for name, d := range e.Stages {
		b.ReportMetric(float64(d.Microseconds())/1e3/float64(b.N), name+"-ms/op")
	}
	if o.Method == Exact {
		// Cells x parents over the kernel time: the pairs evaluated when
		// Brute, the pairs accounted for otherwise.
		b.ReportMetric(float64(g.Cells())*float64(trees)/e.Stages["exact"].Seconds()*float64(b.N)/1e12, "Tpairs/s")
	}
}

func BenchmarkCUDAExact50k(b *testing.B) {
	cudaBenchDisperse(b, cudaEngine(b), 5e4, 1e4, Options{Method: Exact})
}
func BenchmarkCUDAExact500k(b *testing.B) {
	cudaBenchDisperse(b, cudaEngine(b), 5e5, 1e5, Options{Method: Exact})
}
func BenchmarkCUDAExactBrute50k(b *testing.B) {
	e := cudaEngine(b)
	e.Brute = true
	cudaBenchDisperse(b, e, 5e4, 1e4, Options{Method: Exact})
}
func BenchmarkCUDAExactBrute500k(b *testing.B) {
	e := cudaEngine(b)
	e.Brute = true
	cudaBenchDisperse(b, e, 5e5, 1e5, Options{Method: Exact})
}
func BenchmarkCUDAExactBruteTorus500k(b *testing.B) {
	e := cudaEngine(b)
	e.Brute = true
	cudaBenchDisperse(b, e, 5e5, 1e5, Options{Method: Exact, Boundary: Torus})
}

// BenchmarkCUDAExactPoly: the brute-force fast path with 0, 4, 5 or 6 of
// each thread's 8 cells taking 2^x from the polynomial (the default is 4).
func BenchmarkCUDAExactPoly(b *testing.B) {
	for _, np := range []string{"np0", "", "np5", "np6"} {
		b.Run("poly="+np, func(b *testing.B) {
			e := cudaEngine(b)
			e.Brute = true
			if np != "" {
				e.exactKernel = "pg_forest_exact_w3_" + np
			}
			cudaBenchDisperse(b, e, 5e5, 1e5, Options{Method: Exact})
		})
	}
}

func BenchmarkCUDAFFT50k(b *testing.B) {
	cudaBenchDisperse(b, cudaEngine(b), 5e4, 1e4, Options{Method: FFT})
}
func BenchmarkCUDAFFT500k(b *testing.B) {
	cudaBenchDisperse(b, cudaEngine(b), 5e5, 1e5, Options{Method: FFT})
}
func BenchmarkCUDAFFTTorus500k(b *testing.B) {
	cudaBenchDisperse(b, cudaEngine(b), 5e5, 1e5, Options{Method: FFT, Boundary: Torus})
}

// BenchmarkCUDAExactPlanHost is the host's share of an exact call on the
// 5e5 x 1e5 plot (no device needed): parent sets and the work lists.
func BenchmarkCUDAExactPlanHost(b *testing.B) {
	g, ts, sp := cudaBenchPlot(5e5, 1e5)
	for range b.N {
		sets, err := cudaParentSets(ts, sp)
		if err != nil {
			b.Fatal(err)
		}
		newCUDAExactPlan(g, sets[0], 0, false, 132)
	}
}
