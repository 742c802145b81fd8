package forest

import (
	"fmt"
	"math"
)

// Total sums the species layers into the total layer (Species -1): the
// densities, the seeds, and an Accuracy that holds for the sum. Its
// relative estimate is the largest species estimate (a sum of positive
// terms each within e of its value is within e of the sum), none if any
// species has none (multires); absolute bounds add up; its exact cells are
// those summed exactly in every species that has parents. Lost seeds add
// up on a torus too (completeTorus makes them 0 up to rounding, unless a
// cut-off or the cells' quadrature leaves some out).
func Total(g Grid, layers []Layer, _ Boundary) Layer {
	t := Layer{Species: -1, Density: make([]float64, g.Cells())}
	var methods []Method
	exact := newCellSet(g, true)
	for _, l := range layers {
		for i, v := range l.Density {
			t.Density[i] += v
		}
		t.Total += l.Total
		t.Lost += l.Lost
		t.Parents += l.Parents
		t.Produced += l.Produced
		if l.Parents == 0 {
			continue // exactly zero: no say in the accuracy
		}
		a := l.Accuracy
		methods = append(methods, a.Method)
		if a.MaxRel < 0 || t.Accuracy.MaxRel < 0 {
			t.Accuracy.MaxRel = -1
		} else {
			t.Accuracy.MaxRel = math.Max(t.Accuracy.MaxRel, a.MaxRel)
		}
		t.Accuracy.Floor = math.Max(t.Accuracy.Floor, a.Floor)
		t.Accuracy.MaxAbs += a.MaxAbs
		t.Accuracy.TailMass = math.Max(t.Accuracy.TailMass, a.TailMass)
		t.Accuracy.ImageRadius = maxPositive(t.Accuracy.ImageRadius, a.ImageRadius)
		t.Accuracy.QuadExcess = math.Max(t.Accuracy.QuadExcess, a.QuadExcess)
		exact.intersect(g, a)
	}
	t.Accuracy.Method = Exact
	for i, m := range methods {
		if i == 0 {
			t.Accuracy.Method = m
		} else if m != t.Accuracy.Method {
			t.Accuracy.Method = Mixed
		}
	}
	if t.Accuracy.Method == Multires || t.Accuracy.MaxRel < 0 {
		t.Accuracy.MaxRel = -1
	}
	t.Accuracy.ExactCells = exact.count(g)
	t.Accuracy.fixed = exact.spans
	return t
}

// maxPositive is the smaller positive radius (the one that leaves out
// most), or the other when one is 0.
func maxPositive(a, b float64) float64 {
	switch {
	case a == 0:
		return b
	case b == 0:
		return a
	}
	return math.Min(a, b)
}

// cellSet is a set of cells as spans by row; all (spans nil) or none.
type cellSet struct {
	all, none bool
	spans     [][]span
}

func newCellSet(g Grid, all bool) cellSet { return cellSet{all: all, none: !all} }

// intersect keeps the cells a says were summed exactly.
func (c *cellSet) intersect(g Grid, a Accuracy) {
	switch {
	case c.none:
		return
	case a.Method == Exact || (a.ExactCells >= g.Cells() && a.fixed == nil):
		return // every cell
	case a.ExactCells == 0 || a.fixed == nil:
		*c = cellSet{none: true}
		return
	case c.all:
		c.all, c.spans = false, a.fixed
		return
	}
	out := make([][]span, g.NY)
	for j := range out {
		x, y := c.spans[j], a.fixed[j]
		for p, q := 0, 0; p < len(x) && q < len(y); {
			if lo, hi := max(x[p].lo, y[q].lo), min(x[p].hi, y[q].hi); lo < hi {
				out[j] = append(out[j], span{lo, hi})
			}
			if x[p].hi < y[q].hi {
				p++
			} else {
				q++
			}
		}
	}
	c.spans = out
}

func (c *cellSet) count(g Grid) int {
	switch {
	case c.none:
		return 0
	case c.all:
		return g.Cells()
	}
	n := 0
	for _, row := range c.spans {
		for _, s := range row {
			n += s.hi - s.lo
		}
	}
	return n
}

// Estimate is the layer's estimated largest relative error, and whether it
// has one (multires, and totals with a multires species, have none).
func (a Accuracy) Estimate() (float64, bool) { return a.MaxRel, a.MaxRel >= 0 }

// Statement says in words how far a layer of cells cells may be from the
// exact sum, for summaries.
func (a Accuracy) Statement(cells int) string {
	var s string
	switch a.Method {
	case Multires:
		s = "not estimated: the paper's clustering has no error bound; compare with --method exact"
	case Mixed:
		if a.MaxRel < 0 {
			s = "mixed: some species by the paper's clustering, which has no error bound; compare with --method exact"
		} else {
			s = fmt.Sprintf("mixed: species summed exactly and by FFT; the largest species estimate, relative error at "+
				"most %.3g on cells above %g of the maximum (%d of %d cells summed exactly in every species)",
				a.MaxRel, a.Floor, a.ExactCells, cells)
		}
	case FFT:
		s = fmt.Sprintf("estimated relative error at most %.3g on cells above %g of the maximum "+
			"(%d of %d cells summed exactly)", a.MaxRel, a.Floor, a.ExactCells, cells)
	default:
		switch {
		case a.MaxRel > 0:
			s = fmt.Sprintf("direct sum of float32 terms: relative error at most %.3g on cells above %g of the maximum",
				a.MaxRel, a.Floor)
		default:
			s = "exact sum in float64"
		}
	}
	switch {
	case a.ImageRadius > 0:
		s += fmt.Sprintf("; periodic images beyond %.4g m (%.3g of every parent's seeds; the kernel reaches "+
			"farther than the cost cap allows summing) spread evenly over the plot, so every seed lands: "+
			"at most %.3g per m^2 per year from their true density in any cell",
			a.ImageRadius, a.TailMass, a.MaxAbs)
	case a.TailMass > 0:
		s += fmt.Sprintf("; the cut-off ignores at most %.3g per m^2 per year in any cell, "+
			"%.3g of every parent's seeds", a.MaxAbs, a.TailMass)
	}
	if a.QuadExcess > 0 {
		s += fmt.Sprintf("; the cells sum to %.3g more than the seeds produced: their midpoint quadrature of a "+
			"kernel sharp for the cell size (the densities are the kernel's at the cell centres; smaller cells "+
			"reduce it)", a.QuadExcess)
	}
	return s
}
