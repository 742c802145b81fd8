package forest

import (
	"bytes"
	"image/color"
	"math"
	"testing"
)

func TestWriteASC(t *testing.T) {
	var b bytes.Buffer
	g := Grid{X0: 700, Y0: -0.5, Cell: 2, NX: 3, NY: 2}
	if err := WriteASC(&b, g, []float64{1, 2, 3, 0.25, 5e-20, math.NaN()}); err != nil {
		t.Fatal(err)
	}
	want := "ncols 3\nnrows 2\nxllcorner 700\nyllcorner -0.5\ncellsize 2\nNODATA_value -9999\n" +
		"0.25 5e-20 -9999\n1 2 3\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if err := WriteASC(&b, g, []float64{1}); err == nil {
		t.Error("short grid accepted")
	}
}

// The heat map puts north up, the maximum in the top colour, zero and
// densities below the range in the background, and draws a labelled bar.
func TestHeatMap(t *testing.T) {
	g := Grid{Cell: 1, NX: 40, NY: 20}
	d := make([]float64, g.Cells())
	d[(g.NY-1)*g.NX] = 100 // north-west corner
	d[5] = 1e-9            // far below the range
	for i := 1; i < g.NX; i++ {
		d[(g.NY-1)*g.NX+i] = 100 * math.Pow(10, -float64(i)/8)
	}
	img := HeatMap(g, d, HeatMapOptions{Title: "test"})
	// 40 cells wide: 16 pixels a cell (at most 16), the map starts at (10, 42).
	const s, x0, y0 = 16, 10, 42
	at := func(i, row int) color.NRGBA { return img.NRGBAAt(x0+i*s+s/2, y0+row*s+s/2) }
	if c := at(0, 0); c != heatRamp[len(heatRamp)-1] {
		t.Errorf("maximum drawn %v", c)
	}
	if c := at(5, g.NY-1); c != heatBackground {
		t.Errorf("a density below the range drawn %v", c)
	}
	if c := at(3, 5); c != heatBackground {
		t.Errorf("zero drawn %v", c)
	}
	if b := img.Bounds(); b.Dx() < x0+g.NX*s+40 || b.Dy() < y0+g.NY*s {
		t.Errorf("image %v too small for the map and legend", b)
	}
	labels, _ := heatTicks(1e-4, 100)
	if len(labels) != 7 || labels[0] != "1e-4" || labels[6] != "100" {
		t.Errorf("ticks %q", labels)
	}
	labels, _ = heatTicks(0.6, 6)
	if len(labels) < 3 {
		t.Errorf("a short range gets 1-2-5 ticks: %q", labels)
	}
	// All zero: drawn, with a "0" label.
	empty := HeatMap(g, make([]float64, g.Cells()), HeatMapOptions{})
	if empty.Bounds().Empty() {
		t.Error("empty image")
	}
}

// Realized counts have the density x area as mean, do not depend on the
// workers, and change with the seed and the species.
func TestRealize(t *testing.T) {
	g := Grid{Cell: 2, NX: 300, NY: 200}
	d := make([]float64, g.Cells())
	for i := range d {
		d[i] = []float64{0, 0.01, 0.5, 4, 40}[i%5] // lambda 0 .. 160 per cell
	}
	a := Realize(g, d, SpeciesKey("a"), 1, 1)
	b := Realize(g, d, SpeciesKey("a"), 1, 3)
	c := Realize(g, d, SpeciesKey("a"), 2, 2)
	e := Realize(g, d, SpeciesKey("b"), 1, 2)
	var sums, sumsSq [5]float64
	same, diffSeed, diffSpecies := true, 0, 0
	for i := range a {
		if a[i] != b[i] {
			same = false
		}
		if a[i] != c[i] {
			diffSeed++
		}
		if a[i] != e[i] {
			diffSpecies++
		}
		sums[i%5] += float64(a[i])
		sumsSq[i%5] += float64(a[i]) * float64(a[i])
	}
	if !same || diffSeed == 0 || diffSpecies == 0 {
		t.Fatalf("same %v, differences by seed %d, by species %d", same, diffSeed, diffSpecies)
	}
	n := float64(len(a) / 5)
	for k, lam := range []float64{0, 0.04, 2, 16, 160} {
		mean := sums[k] / n
		variance := sumsSq[k]/n - mean*mean
		if math.Abs(mean-lam) > 5*math.Sqrt(lam/n)+1e-12 || math.Abs(variance-lam) > 0.1*lam+1e-12 {
			t.Errorf("lambda %g: mean %g, variance %g", lam, mean, variance)
		}
	}
}
