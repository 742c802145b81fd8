package forest

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// bcSpecies are the paper's four British Columbia species (README:
// SORTIE-ND's SBS parameters) with an arbitrary STR.
func bcSpecies() []Species {
	sp := func(name string, d float64) Species {
		return Species{Name: name, Kernel: Weibull, STR: 100, Beta: 2, D: d, Theta: 3, MinDBH: 15}
	}
	return []Species{
		sp("interior-spruce", 3.0e-5),
		sp("lodgepole-pine", 2.8e-4),
		sp("subalpine-fir", 1.32e-4),
		sp("trembling-aspen", 3.8e-5),
	}
}

// synthPlot is a plot of nx x ny 1 m cells with n trees placed uniformly,
// species round-robin, DBH uniform in 5..60 cm (most are parents).
func synthPlot(nx, ny, n int, seed uint64) (Grid, []Tree) {
	g := Grid{X0: 100, Y0: -50, Cell: 1, NX: nx, NY: ny}
	rng := rand.New(rand.NewPCG(seed, 7))
	trees := make([]Tree, n)
	for i := range trees {
		trees[i] = Tree{
			X:       g.X0 + rng.Float64()*float64(nx),
			Y:       g.Y0 + rng.Float64()*float64(ny),
			Species: i % 4,
			DBH:     5 + 55*rng.Float64(),
		}
	}
	return g, trees
}

// clusteredPlot puts the trees in a few patches, leaving gaps and an empty
// margin: the case where the FFT's far-tail error shows.
func clusteredPlot(nx, ny, n int, seed uint64) (Grid, []Tree) {
	g := Grid{X0: 0, Y0: 0, Cell: 1, NX: nx, NY: ny}
	rng := rand.New(rand.NewPCG(seed, 9))
	type patch struct{ x, y, r float64 }
	var patches []patch
	for i := 0; i < 5; i++ {
		patches = append(patches, patch{float64(nx) * (0.2 + 0.6*rng.Float64()), float64(ny) * (0.2 + 0.6*rng.Float64()),
			float64(min(nx, ny)) * (0.05 + 0.1*rng.Float64())})
	}
	trees := make([]Tree, n)
	for i := range trees {
		p := patches[rng.IntN(len(patches))]
		r, a := p.r*math.Sqrt(rng.Float64()), 2*math.Pi*rng.Float64()
		x := math.Min(math.Max(p.x+r*math.Cos(a), 0), float64(nx))
		y := math.Min(math.Max(p.y+r*math.Sin(a), 0), float64(ny))
		trees[i] = Tree{X: x, Y: y, Species: i % 4, DBH: 5 + 55*rng.Float64()}
	}
	return g, trees
}

// relErrors compares got with ref on the cells where ref is at least
// floor times its maximum.
func relErrors(ref, got []float64, floor float64) (mean, worst float64, cells int) {
	m := 0.0
	for _, v := range ref {
		m = math.Max(m, v)
	}
	var sum float64
	for i, v := range ref {
		if v < floor*m || v == 0 {
			continue
		}
		e := math.Abs(got[i]-v) / v
		sum += e
		worst = math.Max(worst, e)
		cells++
	}
	if cells > 0 {
		mean = sum / float64(cells)
	}
	return mean, worst, cells
}

func disperse(t testing.TB, g Grid, trees []Tree, species []Species, o Options) []Layer {
	t.Helper()
	layers, err := CPU{}.Disperse(context.Background(), g, trees, species, o)
	if err != nil {
		t.Fatal(err)
	}
	return layers
}

// total sums the layers' densities.
func total(layers []Layer) []float64 {
	out := make([]float64, len(layers[0].Density))
	for _, l := range layers {
		for i, v := range l.Density {
			out[i] += v
		}
	}
	return out
}

// naive is the textbook double loop with math.Exp, the reference the exact
// method is checked against; on a torus it sums every periodic image of
// every parent (periodicRef).
func naive(g Grid, trees []Tree, sp Species, s int, torus bool) []float64 {
	if torus {
		return periodicRef(g, trees, sp, s, 0)
	}
	k, _ := newKern(sp)
	out := make([]float64, g.Cells())
	for j := 0; j < g.NY; j++ {
		for i := 0; i < g.NX; i++ {
			x, y := g.Center(i, j)
			var sum float64
			for _, t := range trees {
				if t.Species != s || t.DBH < sp.MinDBH {
					continue
				}
				dx, dy := x-t.X, y-t.Y
				sum += Fecundity(sp, t.DBH) / k.eta * k.at(dx*dx+dy*dy)
			}
			out[j*g.NX+i] = sum
		}
	}
	return out
}

// periodicRef is the torus's density in float64, written apart from the
// backends: for every cell and parent, the kernel summed over the parent's
// periodic images (x + a Lx, y + b Ly) for every |a|, |b| up to where the
// kernel is below 1e-40 of its peak (exp(-92)), or up to maxImages periods
// each way when maxImages > 0. A kernel that reaches further (a wide
// lognormal reaches hundreds of kilometres: billions of images) is summed
// image by image out to a radius around the cell where it is down to 1e-12
// of its peak, and at least ten plot sizes, and the images beyond by their
// mean: the kernel's mass outside the radius (radialMass) spread evenly
// over the torus. What that leaves out is far below the tolerances (1e-5)
// the tests apply. The cells' rows are computed in parallel.
func periodicRef(g Grid, trees []Tree, sp Species, s int, maxImages int) []float64 {
	eta := Eta(sp)
	lx, ly := float64(g.NX)*g.Cell, float64(g.NY)*g.Cell
	var reach float64 // where -ln K reaches 92
	if sp.Kernel == Lognormal {
		reach = sp.X0 * math.Exp(sp.Xb*math.Sqrt(2*92))
	} else {
		reach = math.Pow(92/sp.D, 1/sp.Theta)
	}
	kern := func(d2 float64) float64 {
		d := math.Sqrt(d2)
		if sp.Kernel == Lognormal {
			if d == 0 {
				return 0
			}
			l := math.Log(d / sp.X0)
			return math.Exp(-l * l / (2 * sp.Xb * sp.Xb))
		}
		return math.Exp(-sp.D * math.Pow(d, sp.Theta))
	}
	// Images beyond cut are summed by their mean: at ten plot sizes, and at
	// least where the kernel is down to e^-28 (1e-12) of its peak, so the
	// images at the cut, whose lattice does not follow the circle, weigh
	// nothing even on a plot much smaller than the kernel.
	var r28 float64
	if sp.Kernel == Lognormal {
		r28 = sp.X0 * math.Exp(sp.Xb*math.Sqrt(2*28))
	} else {
		r28 = math.Pow(28/sp.D, 1/sp.Theta)
	}
	cut := max(refImageRadius*max(lx, ly), r28)
	far := 0.0
	if maxImages > 0 || reach <= cut {
		cut = math.Inf(1)
	} else {
		reach = cut + max(lx, ly) // every image within cut of any cell
		far = radialMass(func(r float64) float64 { return kern(r * r) }, cut) / (lx * ly)
	}
	na, nb := int(reach/lx)+2, int(reach/ly)+2
	if maxImages > 0 {
		na, nb = min(na, maxImages), min(nb, maxImages)
	}
	out := make([]float64, g.Cells())
	var wg sync.WaitGroup
	for j := 0; j < g.NY; j++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < g.NX; i++ {
				x, y := g.Center(i, j)
				var sum float64
				for _, t := range trees {
					if t.Species != s || t.DBH < sp.MinDBH {
						continue
					}
					ks := far
					for b := -nb; b <= nb; b++ {
						dy := y - t.Y - float64(b)*ly
						for a := -na; a <= na; a++ {
							dx := x - t.X - float64(a)*lx
							if d2 := dx*dx + dy*dy; d2 <= cut*cut {
								ks += kern(d2)
							}
						}
					}
					sum += math.Pow(t.DBH/30, sp.Beta) * ks
				}
				out[j*g.NX+i] = sp.STR / eta * sum
			}
		}()
	}
	wg.Wait()
	return out
}

// refImageRadius is periodicRef's radius, in plot sizes, beyond which
// images are summed by their mean.
const refImageRadius = 10
