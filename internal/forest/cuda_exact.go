//go:build cuda

package forest

// The exact method on the device: planning which parent bins each tile
// visits, and running the tiled sum.

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// cudaExactPlan is one species' exact work: parents sorted by bin, the runs of
// parents each tile visits, and the work items that cut those lists.
type cudaExactPlan struct {
	params gpuExactParams
	kernel string
	xy     []float64 // scaled (x, y) relative to the grid origin, by bin
	w      []float32 // weights relative to the largest
	ranges []int32   // (first, count) pairs
	roff   []int32   // tile t's ranges: [roff[t], roff[t+1])
	items  []int32   // (tile, begin, end, 0): a block each
	pairs  []float64 // cell-parent pairs of each item (tile area x count)
	reach  float64   // metres: parents farther from a tile are skipped (+Inf: none)
}

// cudaExactScale returns the kernel kind and the scale s (per metre) that make
// the species' kernel 2^-(s d)^theta (Weibull) or 2^-(c log2 (s d)^2)^2
// (lognormal, s = 1/X0), with theta/2 and c.
func cudaExactScale(k kern) (kind int, s, thetaHalf, lognC float64) {
	if k.kind == kTwoDt {
		// (1 + r^2/u)^-(p+1) = 2^-((p+1) log2(1 + (r/sqrt u)^2)): s = 1/sqrt(u).
		return gpuTwoDt, 1 / math.Sqrt(k.u), k.pp1, 0
	}
	if k.kind == kLognormal {
		return gpuLognormal, 1 / k.x0, 0, math.Sqrt(math.Ln2) / (2 * math.Sqrt2 * k.xb)
	}
	s = math.Pow(k.d*math.Log2E, 1/k.theta)
	if k.theta == 3 {
		return gpuWeibull3, s, 1.5, 0
	}
	return gpuWeibull, s, k.theta / 2, 0
}

// cudaExactReach is the distance (m) beyond which every term, and every bin of
// terms, is below float resolution: K(R) sumRel < 2^-127 with sumRel the
// parents' weights relative to the largest, so all the skipped terms of a
// cell together stay below 2^-127 of the largest parent's weight (and each
// of them would be flushed to zero in the kernel's float arithmetic).
func cudaExactReach(k kern, sumRel float64) float64 {
	u := 127 + math.Log2(math.Max(sumRel, 1)) // base-2 exponent the kernel must exceed
	kind, s, _, c := cudaExactScale(k)
	if kind == gpuTwoDt {
		// (p+1) log2(1 + d'^2) >= u beyond d' = sqrt(2^(u/(p+1)) - 1)
		return math.Sqrt(math.Expm1(u/k.pp1*math.Ln2)) / s
	}
	if kind == gpuLognormal {
		// (c log2 d'^2)^2 >= u beyond d' = 2^(sqrt(u) / 2c)
		e := math.Sqrt(u) / (2 * c)
		if e > 1000 {
			return math.Inf(1)
		}
		return math.Exp2(e) / s
	}
	return math.Pow(u, 1/k.theta) / s
}

// newCUDAExactPlan prepares the exact sum of ps over g on a device with sms
// multiprocessors. With cutoff > 0 parents farther than cutoff are ignored.
// Parents may lie outside the grid (a torus's periodic images,
// torusImages): the bins extend over them.
func newCUDAExactPlan(g Grid, ps *parentSet, cutoff float64, brute bool, sms int) *cudaExactPlan {
	return newCUDAExactPlanFor(g, ps, cutoff, brute, sms, nil)
}

// newCUDAExactPlanFor is newCUDAExactPlan for the tiles only accepts (all
// when only is nil): the others get no parents and no work items (the fft
// method's fix-up sums the tiles that hold flagged cells).
func newCUDAExactPlanFor(g Grid, ps *parentSet, cutoff float64, brute bool, sms int, only func(tile int) bool) *cudaExactPlan {
	n := len(ps.x)
	kind, s, thetaHalf, lognC := cudaExactScale(ps.k)
	tx, ty := (g.NX+cudaExTile-1)/cudaExTile, (g.NY+cudaExTile-1)/cudaExTile
	p := &cudaExactPlan{reach: math.Inf(1)}
	var sumRel float64
	for _, w := range ps.w {
		sumRel += w / ps.maxW
	}
	if !brute {
		p.reach = cudaExactReach(ps.k, sumRel)
	}
	cut := cutoff > 0 && cutoff < p.reach
	if cutoff > 0 {
		p.reach = math.Min(p.reach, cutoff)
	}
	p.params = gpuExactParams{NX: int32(g.NX), NY: int32(g.NY), TilesX: int32(tx),
		H: float32(g.Cell * s), ThetaHalf: float32(thetaHalf), LognC: float32(lognC), HD: g.Cell * s}
	if cut {
		p.params.Cut2 = float32(cutoff * s * cutoff * s)
	}
	p.kernel = "pg_forest_exact_" + [...]string{"w3", "w", "ln", "t"}[kind]
	if cut {
		p.kernel += "_cut"
	}

	// Parents sorted by bin, row-major, with each bin's bounding box. Bins
	// are tiles, extended beyond the grid to cover every parent: bin (bi,
	// bj) for tile-sized squares bi in [bx0, bx0+nbx), bj in [by0, by0+nby).
	tw := cudaExTile * g.Cell
	bx0, by0, bx1, by1 := 0, 0, tx-1, ty-1
	tileOf := func(v, o float64) int { return int(math.Max(-1e9, math.Min(1e9, math.Floor((v-o)/tw)))) }
	for t := range n {
		bx0, bx1 = min(bx0, tileOf(ps.x[t], g.X0)), max(bx1, tileOf(ps.x[t], g.X0))
		by0, by1 = min(by0, tileOf(ps.y[t], g.Y0)), max(by1, tileOf(ps.y[t], g.Y0))
	}
	nbx, nby := bx1-bx0+1, by1-by0+1
	bin := make([]int32, n)
	start := make([]int32, nbx*nby+1)
	for t := range n {
		b := (min(tileOf(ps.y[t], g.Y0), by1)-by0)*nbx + min(tileOf(ps.x[t], g.X0), bx1) - bx0
		bin[t] = int32(b)
		start[b+1]++
	}
	for b := range nbx * nby {
		start[b+1] += start[b]
	}
	type box struct{ x0, x1, y0, y1 float64 }
	boxes := make([]box, nbx*nby)
	for b := range boxes {
		boxes[b] = box{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
	}
	p.xy, p.w = make([]float64, 2*n), make([]float32, n)
	next := append([]int32(nil), start[:nbx*nby]...)
	for t := range n {
		b := bin[t]
		i := next[b]
		next[b]++
		x, y := ps.x[t]-g.X0, ps.y[t]-g.Y0
		p.xy[2*i], p.xy[2*i+1] = x*s, y*s
		p.w[i] = float32(ps.w[t] / ps.maxW)
		bb := &boxes[b]
		bb.x0, bb.x1, bb.y0, bb.y1 = min(bb.x0, x), max(bb.x1, x), min(bb.y0, y), max(bb.y1, y)
	}

	// Each tile's runs of parents: the bins whose box comes within reach of
	// the tile's cell centres, merged where consecutive.
	counts := make([]int, tx*ty)
	p.roff = make([]int32, 0, tx*ty+1)
	var bins []int
	span := math.Hypot(float64(nbx), float64(nby)) * tw
	for tj := range ty {
		for ti := range tx {
			tile := tj*tx + ti
			p.roff = append(p.roff, int32(len(p.ranges)/2))
			if only != nil && !only(tile) {
				continue
			}
			if p.reach >= span || n == 0 {
				if n > 0 {
					p.ranges = append(p.ranges, 0, int32(n))
					counts[tile] = n
				}
				continue
			}
			cx0, cx1 := (float64(ti*cudaExTile)+0.5)*g.Cell, (float64(min((ti+1)*cudaExTile, g.NX))-0.5)*g.Cell
			cy0, cy1 := (float64(tj*cudaExTile)+0.5)*g.Cell, (float64(min((tj+1)*cudaExTile, g.NY))-0.5)*g.Cell
			wb := int(math.Min(math.Ceil(p.reach/tw)+1, float64(nbx+nby)))
			bins = bins[:0]
			for bj := max(tj-wb, by0); bj <= min(tj+wb, by1); bj++ {
				for bi := max(ti-wb, bx0); bi <= min(ti+wb, bx1); bi++ {
					b := (bj-by0)*nbx + bi - bx0
					bb := boxes[b]
					if start[b] == start[b+1] {
						continue
					}
					gx, gy := max(0, bb.x0-cx1, cx0-bb.x1), max(0, bb.y0-cy1, cy0-bb.y1)
					if gx*gx+gy*gy <= p.reach*p.reach {
						bins = append(bins, b)
					}
				}
			}
			slices.Sort(bins)
			for _, b := range bins {
				lo, hi := start[b], start[b+1]
				if k := len(p.ranges); k > 0 && int(p.roff[tile]) < k/2 && p.ranges[k-2]+p.ranges[k-1] == lo {
					p.ranges[k-1] += hi - lo
				} else {
					p.ranges = append(p.ranges, lo, hi-lo)
				}
				counts[tile] += int(hi - lo)
			}
		}
	}
	p.roff = append(p.roff, int32(len(p.ranges)/2))
	p.cutItems(g, counts, sms)
	return p
}

// cutItems splits each tile's parent list into work items of about equal
// cost, as many as fill the device's block slots a whole number of times
// (or nearly), largest first.
func (p *cudaExactPlan) cutItems(g Grid, counts []int, sms int) {
	var total float64
	for _, c := range counts {
		total += float64(c)
	}
	if total == 0 {
		return
	}
	slots := float64(max(sms, 1) * cudaExBlocksPerSM)
	split := func(m float64) ([]int, int) {
		parts := make([]int, len(counts))
		items := 0
		for t, c := range counts {
			if c > 0 {
				parts[t] = max(1, min(c/64+1, int(math.Round(float64(c)*m*slots/total))))
				items += parts[t]
			}
		}
		return parts, items
	}
	// The number of waves m of items; pick the one whose last wave is fullest.
	best, bestEff := 4.0, -1.0
	for m := 3.0; m <= 8; m++ {
		_, items := split(m)
		waves := math.Ceil(float64(items) / slots)
		if eff := float64(items) / (waves * slots); eff > bestEff+1e-3 {
			best, bestEff = m, eff
		}
	}
	parts, _ := split(best)
	tx := int(p.params.TilesX)
	type item struct{ tile, lo, hi int }
	var items []item
	for t, c := range counts {
		for k := range parts[t] {
			lo, hi := c*k/parts[t], c*(k+1)/parts[t]
			if hi > lo {
				items = append(items, item{t, lo, hi})
			}
		}
	}
	slices.SortStableFunc(items, func(a, b item) int { return cmp.Compare(b.hi-b.lo, a.hi-a.lo) })
	p.items = make([]int32, 0, 4*len(items))
	p.pairs = make([]float64, 0, len(items))
	for _, it := range items {
		p.items = append(p.items, int32(it.tile), int32(it.lo), int32(it.hi), 0)
		ti, tj := it.tile%tx, it.tile/tx
		cells := min(cudaExTile, g.NX-ti*cudaExTile) * min(cudaExTile, g.NY-tj*cudaExTile)
		p.pairs = append(p.pairs, float64(cells)*float64(it.hi-it.lo))
	}
}

// exactLayer sums ps over every cell of g on the device.
func (r *cudaRun) exactLayer(ctx context.Context, g Grid, torus bool, ps *parentSet, cutoff float64, brute bool,
	kernel string, prog *progress) ([]float64, Accuracy, error) {
	// The cut-off's and the torus's truncation bounds, as the CPU reports
	// them; on a torus the parents are their periodic images (torus.go).
	reach, src, acc, err := exactReach(g, torus, ps, cutoff, ps.k.radius(underflowExponent))
	if err != nil {
		return nil, acc, err
	}
	if torus {
		// Every cell sums the images within reach of it, as on the CPU:
		// completeTorus spreads exactly the seeds of those beyond.
		cutoff = reach
	}
	acc.MaxRel, acc.Floor = cudaExactMaxRel, cudaExactFloor
	dens := make([]float64, g.Cells())
	if len(ps.x) == 0 {
		prog.add(int64(g.NY))
		return dens, acc, nil
	}
	// The terms skipped beyond the reach add at most maxW 2^-127 to a cell,
	// and the polynomial's floor (about 2^-126 a term) at most that much a
	// parent.
	var sumW float64 // the terms' weights: every image's on a torus
	for _, w := range src.w {
		sumW += w
	}
	acc.MaxAbs += (ps.maxW + 2*sumW) * math.Exp2(-127)
	start := time.Now()
	p := newCUDAExactPlan(g, src, cutoff, brute, r.dev.Info().SMs)
	r.hostStage("host.plan", start)
	if kernel == "" {
		kernel = p.kernel
	}
	out, err := cudaBuf(r, r.f64, "exact.out", g.Cells())
	if err != nil {
		return nil, acc, err
	}
	reported := int64(0)
	err = r.runExact(ctx, p, kernel, out, g.Cells(), func(done, total float64) {
		if n := int64(float64(g.NY) * done / total); n > reported {
			prog.add(n - reported)
			reported = n
		}
	})
	if err != nil {
		return nil, acc, err
	}
	start = time.Now()
	if err := out.ReadAt(dens, 0); err != nil {
		return nil, acc, fmt.Errorf("forest: exact: %w", err)
	}
	r.hostStage("host.download", start)
	if rest := int64(g.NY) - reported; rest > 0 {
		prog.add(rest)
	}
	for i := range dens {
		dens[i] *= ps.maxW
	}
	return dens, acc, nil
}

// runExact uploads plan p, clears the first cells values of out and adds
// the sums of p's work items into them with kernel, in launches of at most
// cudaExPairsPerLaunch cell-parent pairs; done (when set) hears the pairs
// summed so far after each launch.
func (r *cudaRun) runExact(ctx context.Context, p *cudaExactPlan, kernel string, out *gpu.Buffer[float64], cells int,
	done func(pairs, total float64)) error {
	start := time.Now()
	f, err := exactKernel(kernel).Load(r.dev)
	if err != nil {
		return err
	}
	params, err := cudaUpload(r, r.u32, "exact.params", gpu.Words(p.params))
	if err != nil {
		return err
	}
	xy, err := cudaUpload(r, r.f64, "exact.xy", p.xy)
	if err != nil {
		return err
	}
	w, err := cudaUpload(r, r.f32, "exact.w", p.w)
	if err != nil {
		return err
	}
	ranges, err := cudaUpload(r, r.i32, "exact.ranges", p.ranges)
	if err != nil {
		return err
	}
	roff, err := cudaUpload(r, r.i32, "exact.roff", p.roff)
	if err != nil {
		return err
	}
	items, err := cudaUpload(r, r.i32, "exact.items", p.items)
	if err != nil {
		return err
	}
	if err := out.ZeroPrefix(cells); err != nil {
		return err
	}
	r.hostStage("host.upload", start)
	var total float64
	for _, q := range p.pairs {
		total += q
	}
	summed := 0.0
	for i0 := 0; i0 < len(p.pairs); {
		if err := ctx.Err(); err != nil {
			return err
		}
		i1, batch := i0, 0.0
		for i1 < len(p.pairs) && (i1 == i0 || batch+p.pairs[i1] <= cudaExPairsPerLaunch) {
			batch += p.pairs[i1]
			i1++
		}
		err := r.stage("exact", func() error {
			return f.Launch(gpu.Dim(i1-i0), gpu.Dim(cudaExThreads), 0, exactArgs{params.Ptr(), xy.Ptr(), w.Ptr(), ranges.Ptr(),
				roff.Ptr(), items.Ptr(), int32(i0), out.Ptr()})
		})
		if err != nil {
			return fmt.Errorf("forest: exact: %w", err)
		}
		if i1 < len(p.pairs) {
			if err := r.dev.Synchronize(); err != nil {
				return fmt.Errorf("forest: exact: %w", err)
			}
		}
		summed += batch
		if done != nil {
			done(summed, total)
		}
		i0 = i1
	}
	return nil
}
