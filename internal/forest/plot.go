package forest

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Bounds is a plot rectangle [X0, X1] x [Y0, Y1] in metres.
type Bounds struct{ X0, Y0, X1, Y1 float64 }

func (b Bounds) String() string { return fmt.Sprintf("%g,%g,%g,%g", b.X0, b.Y0, b.X1, b.Y1) }

// ParseBounds parses "x0,y0,x1,y1".
func ParseBounds(s string) (Bounds, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return Bounds{}, fmt.Errorf("invalid bounds %q: want x0,y0,x1,y1 in metres", s)
	}
	var v [4]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return Bounds{}, fmt.Errorf("invalid bounds %q: %q is not a number", s, p)
		}
		v[i] = f
	}
	b := Bounds{v[0], v[1], v[2], v[3]}
	if !(b.X1 > b.X0 && b.Y1 > b.Y0) {
		return Bounds{}, fmt.Errorf("invalid bounds %q: want x0 < x1 and y0 < y1", s)
	}
	return b, nil
}

// BoundsOf is the stems' bounding box widened to whole multiples of cell
// (a plot surveyed from 700 to 800 m stays 700..800); ok is false without
// stems.
func BoundsOf(stems []Stem, cell float64) (b Bounds, ok bool) {
	if len(stems) == 0 {
		return Bounds{}, false
	}
	b = Bounds{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, s := range stems {
		b.X0, b.Y0 = math.Min(b.X0, s.X), math.Min(b.Y0, s.Y)
		b.X1, b.Y1 = math.Max(b.X1, s.X), math.Max(b.Y1, s.Y)
	}
	snap := func(lo, hi float64) (float64, float64) {
		lo, hi = math.Floor(lo/cell)*cell, math.Ceil(hi/cell)*cell
		if hi <= lo {
			hi = lo + cell
		}
		return lo, hi
	}
	b.X0, b.X1 = snap(b.X0, b.X1)
	b.Y0, b.Y1 = snap(b.Y0, b.Y1)
	return b, true
}

// GridFor covers b with square cells of side cell, from (X0, Y0). A side
// that is not a whole number of cells is rounded up (exact says whether it
// was whole: a torus needs it to be).
func GridFor(b Bounds, cell float64) (g Grid, err error) {
	if !(cell > 0) || math.IsInf(cell, 0) {
		return Grid{}, fmt.Errorf("invalid cell size %g: want metres above 0", cell)
	}
	count := func(w float64) int {
		n := w / cell
		if r := math.Round(n); math.Abs(n-r) <= 1e-9*math.Max(1, n) {
			return int(r)
		}
		return int(math.Ceil(n))
	}
	wx, wy := (b.X1-b.X0)/cell, (b.Y1-b.Y0)/cell
	if !(wx > 0 && wy > 0) || wx*wy > maxCells {
		return Grid{}, fmt.Errorf("plot %s with %g m cells: want 1 to %d cells", b, cell, maxCells)
	}
	g = Grid{X0: b.X0, Y0: b.Y0, Cell: cell, NX: max(1, count(b.X1-b.X0)), NY: max(1, count(b.Y1-b.Y0))}
	return g, g.check()
}

// Whole says whether the grid covers b exactly (no rounded-up side).
func (g Grid) Whole(b Bounds) bool {
	return math.Abs(g.X0+float64(g.NX)*g.Cell-b.X1) <= 1e-9*math.Max(1, math.Abs(b.X1)) &&
		math.Abs(g.Y0+float64(g.NY)*g.Cell-b.Y1) <= 1e-9*math.Max(1, math.Abs(b.Y1))
}

// Contains says whether (x, y) lies on the grid (edges included).
func (g Grid) Contains(x, y float64) bool {
	return x >= g.X0 && x <= g.X0+float64(g.NX)*g.Cell && y >= g.Y0 && y <= g.Y0+float64(g.NY)*g.Cell
}

// Trees turns stems into trees of the resolved species that lie on g;
// outside counts those that do not. Stems of skipped species are dropped.
func Trees(stems []Stem, res *Resolution, g Grid) (trees []Tree, outside int) {
	trees = make([]Tree, 0, len(stems))
	for _, s := range stems {
		idx, ok := res.Index[s.Species]
		if !ok {
			continue
		}
		if !g.Contains(s.X, s.Y) {
			outside++
			continue
		}
		trees = append(trees, Tree{X: s.X, Y: s.Y, Species: idx, DBH: s.DBH})
	}
	return trees, outside
}

// Inset is g shrunk by m cells on every side: the inner plot of a buffer
// (guard) zone of m cells.
func (g Grid) Inset(m int) (Grid, error) {
	in := Grid{X0: g.X0 + float64(m)*g.Cell, Y0: g.Y0 + float64(m)*g.Cell, Cell: g.Cell, NX: g.NX - 2*m, NY: g.NY - 2*m}
	if m < 0 || in.NX < 1 || in.NY < 1 {
		return Grid{}, fmt.Errorf("a margin of %g m leaves no inner plot in a %gx%g m plot", float64(m)*g.Cell,
			float64(g.NX)*g.Cell, float64(g.NY)*g.Cell)
	}
	return in, nil
}

// Crop cuts the layers computed on g down to its inset by m cells and
// recounts their totals: Total is what lands on the inner plot, Lost what
// the parents (inner and buffer alike) put outside it.
func Crop(g Grid, layers []Layer, m int) (Grid, []Layer, error) {
	in, err := g.Inset(m)
	if err != nil {
		return Grid{}, nil, err
	}
	out := make([]Layer, len(layers))
	for s, l := range layers {
		c := l
		c.Density = make([]float64, in.Cells())
		var sum float64
		for j := 0; j < in.NY; j++ {
			src := l.Density[(j+m)*g.NX+m : (j+m)*g.NX+m+in.NX]
			copy(c.Density[j*in.NX:], src)
			for _, v := range src {
				sum += v
			}
		}
		c.Total = sum * g.Cell * g.Cell
		c.Lost = math.Max(0, c.Produced-c.Total)
		c.Accuracy = cropAccuracy(g, in, l.Accuracy, m)
		out[s] = c
	}
	return in, out, nil
}

// cropAccuracy is a's statement for the inset in of g by m cells: the
// exactly summed cells among the inner ones.
func cropAccuracy(g, in Grid, a Accuracy, m int) Accuracy {
	switch {
	case a.fixed != nil:
		fixed := make([][]span, in.NY)
		a.ExactCells = 0
		for j := range fixed {
			for _, sp := range a.fixed[j+m] {
				if lo, hi := max(sp.lo-m, 0), min(sp.hi-m, in.NX); lo < hi {
					fixed[j] = append(fixed[j], span{lo, hi})
					a.ExactCells += hi - lo
				}
			}
		}
		a.fixed = fixed
		if a.ExactCells == 0 {
			a.fixed = nil
		}
	case a.ExactCells >= g.Cells():
		a.ExactCells = in.Cells()
	}
	return a
}
