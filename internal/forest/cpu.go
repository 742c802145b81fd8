package forest

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// CPU is the CPU backend: every method on all cores, in float64. Results do
// not depend on the number of workers: every cell's sum runs in one fixed
// order whatever the split.
type CPU struct{}

// maxCells bounds a grid (memory: 8 bytes a cell and layer, plus the FFT's
// padded work arrays).
const maxCells = 1 << 28

// Disperse computes one layer per species.
func (CPU) Disperse(ctx context.Context, g Grid, trees []Tree, species []Species, o Options) ([]Layer, error) {
	if sp, ok, err := splitMixtures(trees, species); err != nil || ok {
		if err != nil {
			return nil, err
		}
		return sp.run(ctx, g, o, CPU{}.Disperse)
	}
	if err := checkRun(g, trees, species, o); err != nil {
		return nil, err
	}
	sets, err := parentSets(g, trees, species)
	if err != nil {
		return nil, err
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	prog := &progress{fn: o.Progress, total: int64(len(species)) * int64(g.NY)}
	torus := o.Boundary == Torus
	layers := make([]Layer, len(species))
	var fft *fftRunner
	order := make([]int, len(species))
	for s := range order {
		order[s] = s
	}
	if o.Method == FFT || o.Method == "" {
		fft = newFFTRunner(g, torus, o.Tolerance, workers)
		// Species with the same kernel in a row share its spectra.
		slices.SortStableFunc(order, func(a, b int) int { return compareKern(sets[a].k, sets[b].k) })
	}
	for _, s := range order {
		ps := sets[s]
		var dens []float64
		var acc Accuracy
		var err error
		switch o.Method {
		case Exact:
			dens, acc, err = exactLayer(ctx, g, torus, ps, o.Cutoff, workers, prog)
			acc.ExactCells, acc.Method = g.Cells(), Exact
		case FFT, "":
			if exactCost(g, torus, ps) < fft.cost(ps.k, len(ps.x)) {
				// Few parents: summing them is quicker than the transforms.
				dens, acc, err = exactLayer(ctx, g, torus, ps, 0, workers, prog)
				acc.ExactCells, acc.Method = g.Cells(), Exact
			} else {
				dens, acc, err = fft.layer(ctx, ps, prog)
				acc.Method = FFT
			}
		case Multires:
			dens, acc, err = multiresLayer(ctx, g, torus, ps, o.ClusterDistance, workers, prog)
			if acc.Method == "" {
				acc.Method = Multires
			}
		}
		if err != nil {
			return nil, err
		}
		if torus {
			acc = completeTorus(g, ps, dens, acc)
		}
		layers[s] = finishLayer(g, s, dens, ps)
		layers[s].Accuracy = acc
	}
	return layers, nil
}

// checkRun validates a run's inputs against the Engine contract.
func checkRun(g Grid, trees []Tree, species []Species, o Options) error {
	if err := g.check(); err != nil {
		return err
	}
	switch o.Method {
	case Exact, FFT, Multires, "":
	default:
		return fmt.Errorf("forest: unknown method %q: want exact, fft or multires", o.Method)
	}
	switch o.Boundary {
	case Open, Torus, "":
	default:
		return fmt.Errorf("forest: unknown boundary %q: want open or torus", o.Boundary)
	}
	if !(o.Cutoff >= 0) || (o.Cutoff > 0 && o.Method != Exact) {
		return fmt.Errorf("forest: invalid cutoff %g: want 0 or a radius in m for the exact method", o.Cutoff)
	}
	if !(o.Tolerance >= 0 && o.Tolerance < 1) || !(o.ClusterDistance >= 0) || math.IsInf(o.ClusterDistance, 0) {
		return fmt.Errorf("forest: invalid tolerance %g or cluster distance %g", o.Tolerance, o.ClusterDistance)
	}
	for _, s := range species {
		if err := s.Validate(); err != nil {
			return fmt.Errorf("forest: %w", err)
		}
	}
	x1, y1 := g.X0+float64(g.NX)*g.Cell, g.Y0+float64(g.NY)*g.Cell
	for i, t := range trees {
		switch {
		case t.Species < 0 || t.Species >= len(species):
			return fmt.Errorf("forest: tree %d: species index %d out of range [0,%d)", i, t.Species, len(species))
		case !(t.X >= g.X0 && t.X <= x1 && t.Y >= g.Y0 && t.Y <= y1):
			return fmt.Errorf("forest: tree %d at (%g, %g) is outside the grid [%g,%g]x[%g,%g]", i, t.X, t.Y, g.X0, x1, g.Y0, y1)
		case !(t.DBH > 0) || math.IsInf(t.DBH, 0):
			return fmt.Errorf("forest: tree %d: DBH %g is not positive", i, t.DBH)
		}
	}
	return nil
}

func (g Grid) check() error {
	switch {
	case !(g.Cell > 0) || math.IsInf(g.Cell, 0):
		return fmt.Errorf("forest: invalid cell size %g", g.Cell)
	case g.NX < 1 || g.NY < 1 || int64(g.NX)*int64(g.NY) > maxCells:
		return fmt.Errorf("forest: invalid grid %dx%d: want 1 to %d cells", g.NX, g.NY, maxCells)
	case math.IsNaN(g.X0) || math.IsInf(g.X0, 0) || math.IsNaN(g.Y0) || math.IsInf(g.Y0, 0):
		return fmt.Errorf("forest: invalid grid origin (%g, %g)", g.X0, g.Y0)
	}
	return nil
}

// parentSet is one species' parents, sorted by y then x, with their
// density weights: Fecundity/eta, so a parent adds w K(d) per m^2.
type parentSet struct {
	sp         Species
	k          kern
	x, y, w    []float64
	fecundity  float64 // sum of Fecundity: seeds produced per year
	sumW, maxW float64
}

func parentSets(g Grid, trees []Tree, species []Species) ([]*parentSet, error) {
	return gatherParents(trees, species, true)
}

// gatherParents is parentSets, the parents sorted or (sorted false) in
// the order of trees: what needs only their count, weights and kernel
// (MemoryEstimate) skips the sort, the slow part on large stem maps.
func gatherParents(trees []Tree, species []Species, sorted bool) ([]*parentSet, error) {
	sets := make([]*parentSet, len(species))
	for s, sp := range species {
		k, err := newKern(sp)
		if err != nil {
			return nil, fmt.Errorf("forest: %w", err)
		}
		sets[s] = &parentSet{sp: sp, k: k}
	}
	// Each species' parents in one allocation of the right size: growing
	// the slices tree by tree copied a large map's parents many times.
	n := make([]int, len(species))
	for _, t := range trees {
		if t.DBH >= species[t.Species].MinDBH {
			n[t.Species]++
		}
	}
	pts := make([][]pt, len(species))
	for s := range pts {
		pts[s] = make([]pt, 0, n[s])
	}
	for _, t := range trees {
		if sp := species[t.Species]; t.DBH >= sp.MinDBH {
			p := &pts[t.Species]
			*p = append(*p, pt{t.X, t.Y, Fecundity(sp, t.DBH), int32(len(*p))})
		}
	}
	for s, ps := range sets {
		p := pts[s]
		if sorted {
			// By row, then column, then input order: the order a stable
			// sort by (y, x) gives, from the faster unstable sort.
			slices.SortFunc(p, func(a, b pt) int {
				if c := cmp.Compare(a.y, b.y); c != 0 {
					return c
				}
				if c := cmp.Compare(a.x, b.x); c != 0 {
					return c
				}
				return cmp.Compare(a.i, b.i)
			})
		}
		ps.x, ps.y, ps.w = make([]float64, len(p)), make([]float64, len(p)), make([]float64, len(p))
		for i, q := range p {
			ps.x[i], ps.y[i], ps.w[i] = q.x, q.y, q.f/ps.k.eta
			ps.fecundity += q.f
			ps.sumW += ps.w[i]
			ps.maxW = math.Max(ps.maxW, ps.w[i])
		}
	}
	return sets, nil
}

// pt is a parent: position, fecundity and its place among its species'
// parents in the input (i, which keeps sorting deterministic).
type pt struct {
	x, y, f float64
	i       int32
}

// exactCost is the number of kernel evaluations of the exact method: every
// parent reaches the cells within its underflow radius (on a torus, with
// its periodic images: all of them).
func exactCost(g Grid, torus bool, ps *parentSet) float64 {
	R := ps.k.radius(underflowExponent)
	if !torus {
		r := R / g.Cell
		return float64(len(ps.x)) * math.Min(math.Pi*r*r, float64(g.Cells()))
	}
	R, _, err := newPeriodic(g).imageReach(ps.k, R, len(ps.x), exactPairs(g, ps), 0)
	if err != nil {
		return math.Inf(1)
	}
	r := R / g.Cell
	return float64(len(ps.x)) * math.Pi * r * r
}

// compareKern orders kernels so that equal ones are adjacent.
func compareKern(a, b kern) int {
	return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.d, b.d), cmp.Compare(a.theta, b.theta),
		cmp.Compare(a.x0, b.x0), cmp.Compare(a.xb, b.xb), cmp.Compare(a.p, b.p), cmp.Compare(a.u, b.u))
}

// finishLayer wraps a density grid with its totals.
func finishLayer(g Grid, s int, dens []float64, ps *parentSet) Layer {
	l := Layer{Species: s, Density: dens, Parents: len(ps.x), Produced: ps.fecundity}
	var sum float64
	for _, v := range dens {
		sum += v
	}
	l.Total = sum * g.Cell * g.Cell
	// On a torus too: whatever the cells do not hold (a user's cut-off,
	// the cells' quadrature of a kernel sharp for them) is reported, never
	// a silent 0.
	l.Lost = math.Max(0, l.Produced-l.Total)
	return l
}

// progress serialises progress reports from several workers.
type progress struct {
	mu          sync.Mutex
	fn          func(done, total int64)
	done, total int64
}

func (p *progress) add(n int64) {
	if p == nil || p.fn == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	p.fn(min(p.done, p.total), p.total)
}

// forRows calls fn(j) for every j in [0, n) on workers goroutines, handing
// out rows one at a time (rows cost different amounts), and stops early
// when ctx is cancelled.
func forRows(ctx context.Context, n, workers int, fn func(j int)) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				j := int(next.Add(1) - 1)
				if j >= n {
					return
				}
				fn(j)
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}
