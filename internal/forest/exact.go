package forest

import (
	"context"
	"math"
	"sort"
)

// exactSum evaluates the direct sum over parents for cells of a row.
//
// Parents are sorted by y, so a row's candidates (|dy| <= r) are one or two
// contiguous runs. For each candidate the cells it reaches (|dx| <= sqrt(r^2
// - dy^2)) are a contiguous range of the row, and the kernel loop runs over
// that range with the parent's dy^2, weight and the species' D held in
// registers: a scatter form whose inner loop is branch-free straight-line
// arithmetic (one sqrt and one table-driven exp for theta = 3) over
// consecutive memory. Every cell sums its parents in y order, whatever the
// rows' split among workers.
type exactSum struct {
	g      Grid
	k      kern
	r, r2  float64
	x, y   []float64
	w      []float64
	lx, ly float64
	bk     *buckets // nil: candidates from the y-sorted strip
}

// span is a range [lo, hi) of cells in a row.
type span struct{ lo, hi int }

// newExactSum sums ps's parents within r of each cell. Parents may lie
// outside the grid (a torus's periodic images, torusImages).
func newExactSum(g Grid, ps *parentSet, r float64) *exactSum {
	return &exactSum{g: g, k: ps.k, r: r, r2: r * r, x: ps.x, y: ps.y, w: ps.w,
		lx: float64(g.NX) * g.Cell, ly: float64(g.NY) * g.Cell}
}

// wrap maps d into [-l/2, l/2) (the nearest image on a torus).
func wrap(d, l float64) float64 { return d - l*math.Floor(d/l+0.5) }

// candidates calls fn for every parent within r of row centre yc in y, with
// its dy.
func (e *exactSum) candidates(yc float64, fn func(t int, dy float64)) {
	lo := sort.SearchFloat64s(e.y, yc-e.r)
	hi := sort.Search(len(e.y), func(i int) bool { return e.y[i] > yc+e.r })
	for t := lo; t < hi; t++ {
		fn(t, yc-e.y[t])
	}
}

// addSpans adds the density of every cell of row j inside spans (sorted,
// disjoint) to row[i]. Whole rows take their candidates from the y-sorted
// strip; scattered spans (the fft method's fix-ups) from the buckets around
// each span, so an isolated cell costs the parents near it, not the strip.
func (e *exactSum) addSpans(j int, spans []span, row []float64) {
	yc := e.g.Y0 + (float64(j)+0.5)*e.g.Cell
	if e.bk == nil {
		e.candidates(yc, func(t int, dy float64) { e.tree(t, dy, spans, row) })
		return
	}
	for k := range spans {
		one := spans[k : k+1]
		e.bk.around(e, yc, one[0], func(t int, dy float64) { e.tree(t, dy, one, row) })
	}
}

// tree adds parent t, dy from the row's centre, to the row's spans.
func (e *exactSum) tree(t int, dy float64, spans []span, row []float64) {
	g, h := e.g, e.g.Cell
	dy2 := dy * dy
	if dy2 > e.r2 {
		return
	}
	rx := math.Sqrt(e.r2 - dy2)
	xk := e.x[t]
	u := (xk-g.X0)/h - 0.5
	a, b := int(math.Max(math.Ceil(u-rx/h), -1)), int(math.Min(math.Floor(u+rx/h), float64(g.NX)))
	if b < 0 || a >= g.NX {
		return
	}
	for _, sp := range overlapping(spans, a, b) {
		lo, hi := max(a, sp.lo), min(b+1, sp.hi)
		if lo >= hi {
			continue
		}
		dx0 := g.X0 + (float64(lo)+0.5)*h - xk
		e.kernelRun(row[lo:hi], dx0, dy2, e.w[t])
	}
}

// buckets group parents by square buckets of side b over the parents'
// bounding box and the grid, for the candidates around a few cells.
type buckets struct {
	b          float64
	x0, y0     float64
	nbx, nby   int
	start, idx []int32
}

// withBuckets makes addSpans find candidates by bucket.
func (e *exactSum) withBuckets() *exactSum {
	g := e.g
	b := math.Max(e.r/4, g.Cell)
	x0, y0, x1, y1 := g.X0, g.Y0, g.X0+e.lx, g.Y0+e.ly
	for t := range e.x {
		x0, x1 = math.Min(x0, e.x[t]), math.Max(x1, e.x[t])
		y0, y1 = math.Min(y0, e.y[t]), math.Max(y1, e.y[t])
	}
	bk := &buckets{b: b, x0: x0, y0: y0, nbx: max(1, int(math.Ceil((x1-x0)/b))), nby: max(1, int(math.Ceil((y1-y0)/b)))}
	of := func(t int) int {
		i := min(max(int((e.x[t]-x0)/b), 0), bk.nbx-1)
		j := min(max(int((e.y[t]-y0)/b), 0), bk.nby-1)
		return j*bk.nbx + i
	}
	bk.start = make([]int32, bk.nbx*bk.nby+1)
	for t := range e.x {
		bk.start[of(t)+1]++
	}
	for i := 1; i < len(bk.start); i++ {
		bk.start[i] += bk.start[i-1]
	}
	next := append([]int32(nil), bk.start[:len(bk.start)-1]...)
	bk.idx = make([]int32, len(e.x))
	for t := range e.x {
		c := of(t)
		bk.idx[next[c]] = int32(t)
		next[c]++
	}
	e.bk = bk
	return e
}

// around calls fn for the parents in the buckets within r of span sp of
// the row at yc, with their dy.
func (bk *buckets) around(e *exactSum, yc float64, sp span, fn func(t int, dy float64)) {
	g := e.g
	xlo, xhi := g.X0+(float64(sp.lo)+0.5)*g.Cell, g.X0+(float64(sp.hi)-0.5)*g.Cell
	ja, jb := int(math.Floor((yc-e.r-bk.y0)/bk.b)), int(math.Floor((yc+e.r-bk.y0)/bk.b))
	ia, ib := int(math.Floor((xlo-e.r-bk.x0)/bk.b)), int(math.Floor((xhi+e.r-bk.x0)/bk.b))
	ja, jb, ia, ib = max(ja, 0), min(jb, bk.nby-1), max(ia, 0), min(ib, bk.nbx-1)
	for j := ja; j <= jb; j++ {
		for i := ia; i <= ib; i++ {
			c := j*bk.nbx + i
			for _, t := range bk.idx[bk.start[c]:bk.start[c+1]] {
				fn(int(t), yc-e.y[t])
			}
		}
	}
}

// overlapping returns the spans that may intersect [a, b].
func overlapping(spans []span, a, b int) []span {
	if len(spans) == 1 {
		return spans
	}
	i := sort.Search(len(spans), func(i int) bool { return spans[i].hi > a })
	k := i
	for k < len(spans) && spans[k].lo <= b {
		k++
	}
	return spans[i:k]
}

// kernelRun adds w K(d) to dst[i] for the cells at dx = dx0 + i h, dy^2.
func (e *exactSum) kernelRun(dst []float64, dx0, dy2, w float64) {
	h := e.g.Cell
	k := &e.k
	if k.kind == kWeibull {
		negD := -k.d
		switch k.theta {
		case 3:
			for i := range dst {
				dx := dx0 + float64(i)*h
				d2 := dx*dx + dy2
				dst[i] += w * fastExp(negD*d2*math.Sqrt(d2))
			}
			return
		case 2:
			for i := range dst {
				dx := dx0 + float64(i)*h
				dst[i] += w * fastExp(negD*(dx*dx+dy2))
			}
			return
		case 1:
			for i := range dst {
				dx := dx0 + float64(i)*h
				dst[i] += w * fastExp(negD*math.Sqrt(dx*dx+dy2))
			}
			return
		}
	}
	for i := range dst {
		dx := dx0 + float64(i)*h
		if x := k.expo(dx*dx + dy2); x <= 708 {
			dst[i] += w * fastExp(-x)
		}
	}
}

// exactLayer sums every parent for every cell; with cutoff > 0 only those
// within cutoff metres, and it reports the error that implies. On a torus
// it sums the parents' periodic images (torus.go).
func exactLayer(ctx context.Context, g Grid, torus bool, ps *parentSet, cutoff float64, workers int,
	prog *progress) ([]float64, Accuracy, error) {
	r, src, acc, err := exactReach(g, torus, ps, cutoff, ps.k.radius(underflowExponent))
	if err != nil {
		return nil, acc, err
	}
	dens := make([]float64, g.Cells())
	e := newExactSum(g, src, r)
	all := []span{{0, g.NX}}
	err = forRows(ctx, g.NY, workers, func(j int) {
		if len(src.x) > 0 {
			e.addSpans(j, all, dens[j*g.NX:(j+1)*g.NX])
		}
		prog.add(1)
	})
	return dens, acc, err
}

// exactReach is the exact method's radius and parents (on a torus, the
// periodic images within it) for a method radius r0 and an optional
// cut-off, with the error they imply (both backends report it).
func exactReach(g Grid, torus bool, ps *parentSet, cutoff, r0 float64) (float64, *parentSet, Accuracy, error) {
	var acc Accuracy
	r := r0
	if torus {
		p := newPeriodic(g)
		R, capped, err := p.imageReach(ps.k, r0, len(ps.x), exactPairs(g, ps), 0)
		if err != nil {
			return 0, nil, acc, err
		}
		r, acc = R, p.truncation(ps.k, R, capped)
		if cutoff > 0 && cutoff < R {
			r, acc = cutoff, p.cutoffBound(ps.k, ps.sumW, cutoff)
		}
		if len(ps.x) == 0 {
			return r, ps, acc, nil
		}
		return r, torusImages(g, ps, r), acc, nil
	}
	if cutoff > 0 && cutoff < r {
		r = cutoff
		// Every ignored term is at most w K(cutoff): the Weibull decreases
		// with distance, the lognormal beyond its peak at X0.
		kc := ps.k.at(cutoff * cutoff)
		if ps.k.kind == kLognormal && cutoff < ps.k.x0 {
			kc = 1
		}
		acc.MaxAbs = ps.sumW * kc
		acc.TailMass = ps.k.tailMass(cutoff)
	}
	return r, ps, acc, nil
}
