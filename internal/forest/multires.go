package forest

import (
	"context"
	"math"
)

// The multires method: the paper's (Fan et al. 2012) multi-resolution
// clustering, kept to reproduce its speed/accuracy trade-off.
//
// The plot's cells form a quadtree: a node of layer q covers 2^q x 2^q cells
// and stands for the parents inside, with their summed weight at their
// centre (the mean position of the parents, as in the paper). For a target
// cell, a node of layer q >= 1 farther than rho_q from it counts as one
// parent at its centre; a nearer one is opened into its four children; a
// cell (layer 0) adds its parents one by one. rho_1 is the species'
// clustering distance (the paper's 40 m for subalpine fir and 60 m for
// trembling aspen, where D d^theta = 8.3), and rho_q = rho_1 2^(q-1): each
// layer clusters twice as far as the one below, as the paper's Fig. 5 draws
// it. Parents and nodes beyond the float64 underflow radius are skipped
// (they add exactly nothing): the only liberty taken. On a torus every cell
// walks the tree once for each periodic image of the plot within that
// radius (truncated as the exact method's image sum is, torus.go).
type quadLayer struct {
	nx, ny         int
	size           float64 // side of a node, m
	n              []int32 // parents under each node
	w, sx, sy      []float64
	cx, cy         []float64 // centres (sx/n, sy/n)
	rho2           float64   // squared clustering distance of this layer
	start          []int32   // layer 0: parents of cell c are start[c]..start[c+1]
	px, py, pw     []float64 // layer 0: parents grouped by cell
	x0, y0, lx, ly float64
}

type quadtree struct{ layers []quadLayer }

func buildQuadtree(g Grid, ps *parentSet, rho float64) *quadtree {
	h := g.Cell
	l0 := quadLayer{nx: g.NX, ny: g.NY, size: h, x0: g.X0, y0: g.Y0}
	cells := g.NX * g.NY
	l0.start = make([]int32, cells+1)
	cellOf := func(t int) int {
		i := min(max(int((ps.x[t]-g.X0)/h), 0), g.NX-1)
		j := min(max(int((ps.y[t]-g.Y0)/h), 0), g.NY-1)
		return j*g.NX + i
	}
	for t := range ps.x {
		l0.start[cellOf(t)+1]++
	}
	for c := 0; c < cells; c++ {
		l0.start[c+1] += l0.start[c]
	}
	n := len(ps.x)
	l0.px, l0.py, l0.pw = make([]float64, n), make([]float64, n), make([]float64, n)
	next := append([]int32(nil), l0.start[:cells]...)
	for t := range ps.x {
		c := cellOf(t)
		p := next[c]
		next[c]++
		l0.px[p], l0.py[p], l0.pw[p] = ps.x[t], ps.y[t], ps.w[t]
	}
	l0.alloc()
	for c := 0; c < cells; c++ {
		for p := l0.start[c]; p < l0.start[c+1]; p++ {
			l0.n[c]++
			l0.w[c] += l0.pw[p]
			l0.sx[c] += l0.px[p]
			l0.sy[c] += l0.py[p]
		}
	}
	l0.centres()
	qt := &quadtree{layers: []quadLayer{l0}}
	for q := 1; ; q++ {
		prev := &qt.layers[q-1]
		if prev.nx == 1 && prev.ny == 1 {
			break
		}
		l := quadLayer{nx: (prev.nx + 1) / 2, ny: (prev.ny + 1) / 2, size: prev.size * 2, x0: g.X0, y0: g.Y0}
		l.rho2 = math.Pow(rho*math.Pow(2, float64(q-1)), 2)
		l.alloc()
		for j := 0; j < prev.ny; j++ {
			for i := 0; i < prev.nx; i++ {
				c, p := j*prev.nx+i, (j/2)*l.nx+i/2
				l.n[p] += prev.n[c]
				l.w[p] += prev.w[c]
				l.sx[p] += prev.sx[c]
				l.sy[p] += prev.sy[c]
			}
		}
		l.centres()
		qt.layers = append(qt.layers, l)
	}
	for i := range qt.layers {
		qt.layers[i].lx, qt.layers[i].ly = float64(g.NX)*h, float64(g.NY)*h
	}
	return qt
}

func (l *quadLayer) alloc() {
	m := l.nx * l.ny
	l.n = make([]int32, m)
	l.w, l.sx, l.sy = make([]float64, m), make([]float64, m), make([]float64, m)
	l.cx, l.cy = make([]float64, m), make([]float64, m)
}

func (l *quadLayer) centres() {
	for c, k := range l.n {
		if k > 0 {
			l.cx[c], l.cy[c] = l.sx[c]/float64(k), l.sy[c]/float64(k)
		}
	}
}

// quadWalk evaluates cells against the tree; one per worker.
type quadWalk struct {
	qt    *quadtree
	k     kern
	ru2   float64 // squared underflow radius (the torus's image radius)
	stack []int32 // (layer, index) pairs
}

func (w *quadWalk) d2(l *quadLayer, ax, ay, bx, by float64) float64 {
	dx, dy := ax-bx, ay-by
	return dx*dx + dy*dy
}

// rectDist2 is the squared distance from (x, y) to node (i, j)'s square.
func (w *quadWalk) rectDist2(l *quadLayer, i, j int, x, y float64) float64 {
	half := l.size / 2
	mx, my := l.x0+(float64(i)+0.5)*l.size, l.y0+(float64(j)+0.5)*l.size
	dx, dy := x-mx, y-my
	dx, dy = max(0, abs64(dx)-half), max(0, abs64(dy)-half)
	return dx*dx + dy*dy
}

func (w *quadWalk) kern(d2 float64) float64 {
	if d2 > w.ru2 {
		return 0
	}
	if e := w.k.expo(d2); e <= 708 {
		return fastExp(-e)
	}
	return 0
}

// cell is the density at (x, y).
//
// The stack is a local slice while the walk runs: its header changes at
// every push and pop, and the workers' quadWalks are small heap objects
// that can share cache lines. Kept in w, those writes bounced lines between
// cores in some processes and not others: the same run took 170 or 440 ms
// depending on where the allocator had put the walkers.
func (w *quadWalk) cell(x, y float64) float64 {
	top := len(w.qt.layers) - 1
	stack := w.stack[:0]
	if w.qt.layers[top].n[0] > 0 {
		stack = append(stack, int32(top), 0)
	}
	var sum float64
	for len(stack) > 0 {
		q, idx := int(stack[len(stack)-2]), int(stack[len(stack)-1])
		stack = stack[:len(stack)-2]
		l := &w.qt.layers[q]
		if q == 0 {
			for p := l.start[idx]; p < l.start[idx+1]; p++ {
				sum += l.pw[p] * w.kern(w.d2(l, x, y, l.px[p], l.py[p]))
			}
			continue
		}
		if d2 := w.d2(l, x, y, l.cx[idx], l.cy[idx]); d2 > l.rho2 {
			sum += l.w[idx] * w.kern(d2)
			continue
		}
		i, j := idx%l.nx, idx/l.nx
		// Layers that cluster only beyond the underflow radius open nodes
		// whose parents all lie beyond it: skip those.
		if l.rho2 > w.ru2 && w.rectDist2(l, i, j, x, y) > w.ru2 {
			continue
		}
		c := &w.qt.layers[q-1]
		for dj := 1; dj >= 0; dj-- {
			for di := 1; di >= 0; di-- {
				ci, cj := 2*i+di, 2*j+dj
				if ci < c.nx && cj < c.ny && c.n[cj*c.nx+ci] > 0 {
					stack = append(stack, int32(q-1), int32(cj*c.nx+ci))
				}
			}
		}
	}
	w.stack = stack // keep what it grew to
	return sum
}

func multiresLayer(ctx context.Context, g Grid, torus bool, ps *parentSet, rho float64, workers int,
	prog *progress) ([]float64, Accuracy, error) {
	dens := make([]float64, g.Cells())
	acc := Accuracy{MaxRel: -1} // no estimate: compare with exact
	if len(ps.x) == 0 {         // no parents: exactly zero
		prog.add(int64(g.NY))
		return dens, Accuracy{Method: Exact}, nil
	}
	if rho <= 0 {
		rho = ps.k.clusterDistance()
	}
	qt := buildQuadtree(g, ps, rho)
	ru := ps.k.radius(underflowExponent)
	p := newPeriodic(g)
	var images []imageShift
	if torus {
		R, capped, err := p.imageReach(ps.k, ru, len(ps.x), walkPairs*float64(g.Cells()), 0)
		if err != nil {
			return nil, acc, err
		}
		t := p.truncation(ps.k, R, capped)
		ru, acc.MaxAbs, acc.TailMass, acc.ImageRadius = R, t.MaxAbs, t.TailMass, t.ImageRadius
		ax, ay := imageRange(ru, p.lx)+1, imageRange(ru, p.ly)+1
		for b := -ay; b <= ay; b++ {
			for a := -ax; a <= ax; a++ {
				images = append(images, imageShift{float64(a) * p.lx, float64(b) * p.ly})
			}
		}
	}
	walks := make(chan *quadWalk, workers)
	for i := 0; i < workers; i++ {
		// A stack of its own cache lines (1 KB, grown if a walk needs more).
		walks <- &quadWalk{qt: qt, k: ps.k, ru2: ru * ru, stack: make([]int32, 0, 256)}
	}
	x1, y1 := g.X0+p.lx, g.Y0+p.ly
	err := forRows(ctx, g.NY, workers, func(j int) {
		w := <-walks
		defer func() { walks <- w }()
		for i := 0; i < g.NX; i++ {
			x, y := g.Center(i, j)
			if !torus {
				dens[j*g.NX+i] = w.cell(x, y)
				continue
			}
			// The plot's image moved by s holds the parents' images moved
			// by s: walk the tree from the cell moved by -s, for the
			// images within reach.
			var sum float64
			for _, s := range images {
				xs, ys := x-s.dx, y-s.dy
				gx, gy := max(0, g.X0-xs, xs-x1), max(0, g.Y0-ys, ys-y1)
				if gx*gx+gy*gy <= w.ru2 {
					sum += w.cell(xs, ys)
				}
			}
			dens[j*g.NX+i] = sum
		}
		prog.add(1)
	})
	return dens, acc, err
}

// imageShift is a periodic image's offset, m.
type imageShift struct{ dx, dy float64 }
