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

// The heat map puts north up, the maximum in the top colour, zero in the
// background, densities below the range in their own colour, and draws a
// labelled bar and axes.
func TestHeatMap(t *testing.T) {
	g := Grid{X0: 700, Y0: 100, Cell: 1, NX: 40, NY: 20}
	d := make([]float64, g.Cells())
	d[(g.NY-1)*g.NX] = 100 // north-west corner
	d[5] = 1e-9            // far below the range
	for i := 1; i < g.NX; i++ {
		d[(g.NY-1)*g.NX+i] = 100 * math.Pow(10, -float64(i)/8)
	}
	img, r := heatMap(g, d, HeatMapOptions{Title: "test"})
	// 40 cells wide: 16 pixels a cell (at most 16).
	const s = 16
	if r.Dx() != g.NX*s || r.Dy() != g.NY*s {
		t.Fatalf("map %v, want %dx%d pixels", r, g.NX*s, g.NY*s)
	}
	at := func(i, row int) color.NRGBA { return img.NRGBAAt(r.Min.X+i*s+s/2, r.Min.Y+row*s+s/2) }
	if c := at(0, 0); c != heatRamp[len(heatRamp)-1] {
		t.Errorf("maximum drawn %v", c)
	}
	if c := at(5, g.NY-1); c != heatBelow {
		t.Errorf("a density below the range drawn %v, want the below-the-scale colour", c)
	}
	if c := at(3, 5); c != heatBackground {
		t.Errorf("zero drawn %v", c)
	}
	if b := img.Bounds(); b.Dx() < r.Max.X+40 || b.Dy() < r.Max.Y+20 {
		t.Errorf("image %v too small for the map %v, axes and legend", b, r)
	}
	// Axis ticks: marks below the map's bottom edge at round metres.
	if xt := axisTicks(700, 740, r.Dx()); len(xt) < 3 || xt[0] != 700 || xt[len(xt)-1] != 740 {
		t.Errorf("x ticks %v", xt)
	}
	if c := img.NRGBAAt(r.Min.X, r.Max.Y+1); c != heatInk {
		t.Errorf("no tick mark at x = 700 m: %v", c)
	}
	labels, _ := heatTicks(1e-4, 100)
	if len(labels) != 7 || labels[0] != "1e-4" || labels[6] != "100" {
		t.Errorf("ticks %q", labels)
	}
	labels, _ = heatTicks(0.6, 6)
	if len(labels) < 3 {
		t.Errorf("a short range gets 1-2-5 ticks: %q", labels)
	}
	// All zero: drawn, with the reason across the map.
	blank, _ := heatMap(g, make([]float64, g.Cells()), HeatMapOptions{})
	why, _ := heatMap(g, make([]float64, g.Cells()), HeatMapOptions{Empty: "no parent at or above min_dbh 15 cm"})
	if c := why.NRGBAAt(r.Min.X+r.Dx()/2, r.Min.Y+r.Dy()/2-6); c == blank.NRGBAAt(r.Min.X+r.Dx()/2, r.Min.Y+r.Dy()/2-6) {
		t.Error("the reason for an empty layer is not drawn")
	}
	// Stems: a dot at each stem, larger for a larger DBH.
	stems := []Tree{{X: 710.5, Y: 105.5, DBH: 60}, {X: 730.5, Y: 115.5, DBH: 15}}
	dots, _ := heatMap(g, d, HeatMapOptions{Stems: stems})
	for _, st := range stems {
		x, y := r.Min.X+int((st.X-g.X0)*s), r.Max.Y-int((st.Y-g.Y0)*s)
		if c := dots.NRGBAAt(x, y); c != heatStem {
			t.Errorf("no dot at stem (%g, %g): %v", st.X, st.Y, c)
		}
	}
	count := func(x, y int) (n int) {
		for dy := -8; dy <= 8; dy++ {
			for dx := -8; dx <= 8; dx++ {
				if dots.NRGBAAt(x+dx, y+dy) == heatStem {
					n++
				}
			}
		}
		return n
	}
	big := count(r.Min.X+10*s+s/2, r.Max.Y-5*s-s/2)
	small := count(r.Min.X+30*s+s/2, r.Max.Y-15*s-s/2)
	if big <= small {
		t.Errorf("dots of %d and %d pixels: the 60 cm stem's should be larger", big, small)
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
