package forest

import (
	"math"
	"strings"
	"testing"
)

// The total layer's accuracy fields against measured errors: with the fft
// method and a species few enough to be summed directly, the total is
// "mixed", carries the largest species estimate, which the measured error
// of the total (against the exact method's) stays within; its exact cells
// are those exact in every species (counted here from the species' own
// cells), never more than the grid; multires states no estimate; two
// directly summed species do not count their cells twice.
func TestTotalAccuracy(t *testing.T) {
	g, trees := clusteredPlot(150, 100, 3000, 21)
	sp := append(bcSpecies(), Species{Name: "rare", Kernel: Weibull, STR: 50, Beta: 2, D: 1e-3, Theta: 3})
	trees = append(trees, Tree{X: 20, Y: 30, Species: 4, DBH: 40}, Tree{X: 120, Y: 70, Species: 4, DBH: 25})
	for _, b := range []Boundary{Open, Torus} {
		ex := disperse(t, g, trees, sp, Options{Method: Exact, Boundary: b})
		ff := disperse(t, g, trees, sp, Options{Method: FFT, Boundary: b})
		exT, ffT := Total(g, ex, b), Total(g, ff, b)
		methods := map[Method]int{}
		for s := range sp {
			methods[ff[s].Accuracy.Method]++
			if ff[s].Accuracy.Method == FFT {
				_, worst, _ := relErrors(ex[s].Density, ff[s].Density, ff[s].Accuracy.Floor)
				if worst > ff[s].Accuracy.MaxRel {
					t.Errorf("%s %s: measured %.3g above the estimate %.3g", b, sp[s].Name, worst, ff[s].Accuracy.MaxRel)
				}
			}
		}
		if methods[FFT] == 0 || methods[Exact] == 0 {
			t.Fatalf("%s: want species summed both ways, got %v", b, methods)
		}
		a := ffT.Accuracy
		if a.Method != Mixed {
			t.Errorf("%s: total method %q, want mixed", b, a.Method)
		}
		est, ok := a.Estimate()
		if !ok || est <= 0 {
			t.Fatalf("%s: total estimate %v %v", b, est, ok)
		}
		_, worst, cells := relErrors(exT.Density, ffT.Density, a.Floor)
		t.Logf("%s: total measured %.3g on %d cells, estimate %.3g, %d exact cells", b, worst, cells, est, a.ExactCells)
		if worst > est {
			t.Errorf("%s: total measured error %.3g above its estimate %.3g", b, worst, est)
		}
		largest := 0.0
		for s := range sp {
			largest = max(largest, ff[s].Accuracy.MaxRel)
		}
		if est != largest {
			t.Errorf("%s: total estimate %g, largest species estimate %g", b, est, largest)
		}
		// Exact cells: those in every fft species' fixed spans.
		in := make([]int, g.Cells())
		nfft := 0
		for s := range sp {
			if ff[s].Accuracy.Method != FFT {
				continue
			}
			nfft++
			for j, row := range ff[s].Accuracy.fixed {
				for _, r := range row {
					for i := r.lo; i < r.hi; i++ {
						in[j*g.NX+i]++
					}
				}
			}
		}
		want := 0
		for _, c := range in {
			if c == nfft {
				want++
			}
		}
		if a.ExactCells != want || a.ExactCells > g.Cells() {
			t.Errorf("%s: total exact cells %d, want %d (grid %d)", b, a.ExactCells, want, g.Cells())
		}
		if st := a.Statement(g.Cells()); !strings.HasPrefix(st, "mixed") {
			t.Errorf("%s: statement %q", b, st)
		}
		// The torus total's lost seeds are its species' (each what its
		// cells miss), within the fft's stated error of the seeds.
		if b == Torus && (ffT.Lost > 1e-4*ffT.Produced || math.Abs(ffT.Total-ffT.Produced) > 1e-4*ffT.Produced) {
			t.Errorf("torus total: landed %g + lost %g, produced %g", ffT.Total, ffT.Lost, ffT.Produced)
		}
	}

	// Only directly summed species: every cell once.
	few := disperse(t, g, trees[len(trees)-2:], sp, Options{Method: FFT})
	ft := Total(g, few, Open)
	if ft.Accuracy.ExactCells != g.Cells() || ft.Accuracy.Method != Exact {
		t.Errorf("direct sums: total exact cells %d of %d, method %q", ft.Accuracy.ExactCells, g.Cells(), ft.Accuracy.Method)
	}
	if st := ft.Accuracy.Statement(g.Cells()); st != "exact sum in float64" {
		t.Errorf("direct sums: statement %q", st)
	}

	// Multires: no estimate, for the species and the total.
	mr := disperse(t, g, trees, sp, Options{Method: Multires})
	mt := Total(g, mr, Open)
	if _, ok := mt.Accuracy.Estimate(); ok || mt.Accuracy.Method != Multires {
		t.Errorf("multires total claims an estimate: %+v", mt.Accuracy)
	}
	if st := mt.Accuracy.Statement(g.Cells()); !strings.HasPrefix(st, "not estimated") {
		t.Errorf("multires statement %q", st)
	}

	// Crop keeps the exact cells to the inner plot.
	in, cropped, err := Crop(g, disperse(t, g, trees, sp, Options{Method: FFT}), 10)
	if err != nil {
		t.Fatal(err)
	}
	for s, l := range cropped {
		if l.Accuracy.ExactCells > in.Cells() {
			t.Errorf("%s: %d exact cells on a %d-cell inner plot", sp[s].Name, l.Accuracy.ExactCells, in.Cells())
		}
	}
	if ct := Total(in, cropped, Open); ct.Accuracy.ExactCells > in.Cells() {
		t.Errorf("cropped total: %d exact cells of %d", ct.Accuracy.ExactCells, in.Cells())
	}
}

// A capped torus says so, with its radius, in words.
func TestStatementTorusCap(t *testing.T) {
	a := Accuracy{Method: Exact, MaxAbs: 1e-3, TailMass: 2e-4, ImageRadius: 812}
	if st := a.Statement(10); !strings.Contains(st, "periodic images beyond 812 m") {
		t.Errorf("statement %q", st)
	}
	a = Accuracy{Method: Exact, MaxAbs: 1e-3, TailMass: 2e-4}
	if st := a.Statement(10); !strings.Contains(st, "cut-off") {
		t.Errorf("statement %q", st)
	}
}
