package forest

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// A torus keeps every seed: the density at a cell is the sum over every
// periodic image of every parent (the parent moved by whole periods in x and
// y), not only the nearest one, so a kernel that reaches farther than half
// the plot puts its far seeds back on the plot instead of losing them.
//
// Every method sums the images within a radius R of each cell. Those beyond
// add an almost uniform density: per unit of parent weight (w = fecundity /
// eta) its mean over the plot is exactly eta Q(R) / area (Q the kernel's
// mass beyond R: the far images of one parent tile the plane beyond R), and
// at any cell it lies between
//
//	lower = eta Q(R + diag) (1 - diag/(2(R + diag))) / area  and
//	upper = eta Q(R - diag) (1 + diag/(2(R - diag))) / area
//
// (diag the plot's diagonal; tailBound and farLower say why). R is the
// method's own radius (where its terms vanish), or the smallest radius at
// which upper falls below imageEps (1e-12) of the plot's mean density,
// whichever is smaller. Kernels wider than the cost caps allow stop short
// of that: then completeTorus spreads the seeds the near images did not put
// on the cells uniformly over the plot, so every seed lands, and the
// layer's Accuracy bounds how far that uniform share is from the far
// images' true density at any cell (the farther R, the tighter).
const (
	// imageEps: images are summed until what the rest could add is below
	// this fraction of the plot's mean density (the float64 rounding of a
	// sum of many terms).
	imageEps = 1e-12
	// The caps on the images of one parent (periods in x times periods in
	// y, shifts): maxImageParents bounds the images of a species' parents
	// together (memory), maxImagePairs the image-cell pairs of the exact
	// sum and the tree walks of multires (time: about a second of the
	// CPU), maxImageTable the kernel evaluations of the fft method's
	// periodic kernel table.
	maxImageParents = 1 << 21
	maxImagePairs   = 1 << 23
	// walkPairs is what one multires tree walk costs, in exact pairs.
	walkPairs     = 64
	maxImageTable = 1 << 28
	// minImageShifts is what the cap always allows: R of twice the plot's
	// diagonal, so the tail bound applies (7 x 7 periods on a square plot).
	minImageShifts = 49
)

// periodic is the torus of a grid: periods, area, diagonal.
type periodic struct {
	lx, ly, area, diag float64
}

func newPeriodic(g Grid) periodic {
	lx, ly := float64(g.NX)*g.Cell, float64(g.NY)*g.Cell
	return periodic{lx: lx, ly: ly, area: lx * ly, diag: math.Hypot(lx, ly)}
}

// peak is where the kernel is largest: the distance where its exponent is
// 0 (0 for kernels that decrease from the parent, X0 for the lognormal).
// Every kernel family decreases beyond it, which is all the bounds below
// need to know of its shape.
func (k kern) peak() float64 { return k.radius(0) }

// tailBound bounds, per unit of parent weight, the density that the images
// farther than R from a cell add to it (+Inf where the bound does not apply:
// R within a diagonal of the kernel's peak). Each image beyond R owns the
// period rectangle centred on it, whose points all lie within diag/2 of it,
// so K(d) <= the mean of K(|x| - diag/2) over that rectangle, and the
// rectangles lie beyond R - diag/2.
func (p periodic) tailBound(k kern, R float64) float64 {
	a := R - p.diag
	if !(a > 0) || a < k.peak() {
		return math.Inf(1)
	}
	return k.eta * k.tailMass(a) * (1 + p.diag/(2*a)) / p.area
}

// farLower is the matching lower bound (0 where it does not apply): K(d) >=
// the mean of K(|x| + diag/2) over an image's rectangle, and the rectangles
// of the images beyond R cover every point beyond R + diag/2, so the far
// images add at least the integral of K(s + diag/2) beyond R + diag/2, at
// least eta Q(R + diag) (1 - diag/(2(R + diag))) / area.
func (p periodic) farLower(k kern, R float64) float64 {
	b := R + p.diag
	if R-p.diag/2 < k.peak() {
		return 0
	}
	return k.eta * k.tailMass(b) * (1 - p.diag/(2*b)) / p.area
}

// shifts bounds the number of images of one parent within R of the plot.
func (p periodic) shifts(R float64) float64 {
	return (2*math.Floor(R/p.lx) + 3) * (2*math.Floor(R/p.ly) + 3)
}

// imageReach is a torus's truncation radius for kernel k: at most r0 (the
// method's radius), at most where the tail bound falls below imageEps of
// the mean density, and within the cost caps for n parents on cells cells
// (and, when tableCells > 0, a kernel table of that many entries); an
// image of the plot costs pairs exact pairs (n x cells for the exact sum,
// walkPairs x cells for multires). exact and fft use the same caps, so
// they sum the same images. capped says the cap cut R short of the error
// target; then tailBound(k, R) is the error.
func (p periodic) imageReach(k kern, r0 float64, n int, pairs float64, tableCells int) (R float64, capped bool, err error) {
	target := func(R float64) bool { return p.tailBound(k, R) <= imageEps*k.eta/p.area }
	R = math.Min(r0, maxRadius)
	if target(R) {
		// The smallest radius meeting the target, by bisection on [lo, R].
		lo := p.diag
		for i := 0; i < 80 && R-lo > 1e-9*R; i++ {
			if mid := 0.5 * (lo + R); target(mid) {
				R = mid
			} else {
				lo = mid
			}
		}
	}
	nf := float64(max(n, 1))
	budget := math.Min(maxImageParents/nf, maxImagePairs/math.Max(pairs, 1))
	if tableCells > 0 {
		budget = math.Min(budget, float64(maxImageTable)/float64(tableCells))
	}
	budget = math.Max(budget, minImageShifts)
	if p.shifts(R) <= budget {
		return R, false, nil
	}
	// The largest radius within the budget (shifts is a step function of R).
	lo, hi := 0.0, R
	for i := 0; i < 80 && hi-lo > 1e-9*hi; i++ {
		if mid := 0.5 * (lo + hi); p.shifts(mid) <= budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	R = math.Max(lo, 2*p.diag)
	if pk := k.peak(); R < pk+p.diag {
		// The bounds need R a diagonal beyond the kernel's peak.
		R = pk + p.diag
		if p.shifts(R)*float64(max(n, 1)) > 4*maxImageParents {
			return 0, false, fmt.Errorf("forest: a torus of %gx%g m cannot hold a kernel peaking at "+
				"%g m (it would need %.3g periodic images a parent): use --boundary open", p.lx, p.ly, pk, p.shifts(R))
		}
	}
	return R, true, nil
}

// truncation is the Accuracy of a torus whose images were summed within R:
// nothing when R meets the error target, else R and the fraction of every
// parent's seeds beyond it, which completeTorus spreads over the plot (and
// adds its error bound then).
func (p periodic) truncation(k kern, R float64, capped bool) Accuracy {
	if !capped {
		return Accuracy{}
	}
	return Accuracy{TailMass: k.tailMass(R), ImageRadius: R}
}

// completeTorus finishes a torus layer so that it lands every seed its
// parents produced. Where the images were cut at acc.ImageRadius, the seeds
// the near images did not put on the cells, which are the far images' seeds
// up to the cells' quadrature, are spread uniformly over the plot; the far
// images' density differs from that uniform share at any cell by at most
// the larger of upper - share and share - lower, which is added to
// acc.MaxAbs. Where the cells hold more than was produced (their midpoint
// quadrature of a kernel sharp for the cell size over-counts: a few parts
// in a million for a 5 m exponential on 1 m cells), acc.QuadExcess says by
// how much; the densities stay the kernel's at the cell centres (scaling
// them would make the exact method inexact everywhere by that share).
func completeTorus(g Grid, ps *parentSet, dens []float64, acc Accuracy) Accuracy {
	if len(ps.x) == 0 {
		return acc
	}
	var near float64
	for _, v := range dens {
		near += v
	}
	near *= g.Cell * g.Cell
	if R := acc.ImageRadius; R > 0 {
		p := newPeriodic(g)
		share := math.Max(0, ps.fecundity-near) / p.area
		if share > 0 {
			for i := range dens {
				dens[i] += share
			}
		}
		upper := ps.sumW * p.tailBound(ps.k, R)
		lower := ps.sumW * p.farLower(ps.k, R)
		acc.MaxAbs += math.Max(upper-share, share-lower)
	}
	if near > ps.fecundity {
		acc.QuadExcess = near/ps.fecundity - 1
	}
	return acc
}

// cutoffBound is the Accuracy of the exact method's cut-off on a torus:
// every image beyond cutoff is ignored. Those within a + diag of a cell (a
// the cut-off, or the lognormal's peak when beyond it) are at most
// shifts(a + diag) a parent, each at most K(cutoff) (1 before the peak);
// those beyond, tailBound(a + diag).
func (p periodic) cutoffBound(k kern, sumW, cutoff float64) Accuracy {
	a, kc := cutoff, k.at(cutoff*cutoff)
	if pk := k.peak(); cutoff < pk {
		a, kc = pk, k.at(pk*pk)
	}
	return Accuracy{MaxAbs: sumW * (p.shifts(a+p.diag)*kc + p.tailBound(k, a+p.diag)), TailMass: k.tailMass(cutoff)}
}

// torusImages is ps with every parent replaced by its periodic images within
// R of the plot, sorted by y then x (the exact sum's order): an open plot
// whose sum over these parents, each cell taking those within R, is the
// torus's sum truncated at R. Fecundity, sumW and maxW stay the real
// parents'.
func torusImages(g Grid, ps *parentSet, R float64) *parentSet {
	p := newPeriodic(g)
	x1, y1 := g.X0+p.lx, g.Y0+p.ly
	gap := func(v, lo, hi float64) float64 { return max(0, lo-v, v-hi) }
	var pts []pt
	for t := range ps.x {
		x, y := ps.x[t], ps.y[t]
		a0, a1 := int(math.Ceil((g.X0-R-x)/p.lx)), int(math.Floor((x1+R-x)/p.lx))
		b0, b1 := int(math.Ceil((g.Y0-R-y)/p.ly)), int(math.Floor((y1+R-y)/p.ly))
		for b := b0; b <= b1; b++ {
			yi := y + float64(b)*p.ly
			gy := gap(yi, g.Y0, y1)
			for a := a0; a <= a1; a++ {
				xi := x + float64(a)*p.lx
				if gx := gap(xi, g.X0, x1); gx*gx+gy*gy <= R*R {
					pts = append(pts, pt{xi, yi, ps.w[t], 0})
				}
			}
		}
	}
	slices.SortStableFunc(pts, func(a, b pt) int { return cmp.Or(cmp.Compare(a.y, b.y), cmp.Compare(a.x, b.x)) })
	out := &parentSet{sp: ps.sp, k: ps.k, fecundity: ps.fecundity, sumW: ps.sumW, maxW: ps.maxW,
		x: make([]float64, len(pts)), y: make([]float64, len(pts)), w: make([]float64, len(pts))}
	for i, q := range pts {
		out.x[i], out.y[i], out.w[i] = q.x, q.y, q.f
	}
	return out
}

// periodicK is the kernel summed over the periodic images of an offset
// (fx, fy) in cells, on a torus of px x py cells of side h, images within
// reach: the twin of true_k in cuda/forest_fft.cu (same order of terms).
func periodicK(k kern, fx, fy float64, px, py, ax, ay int, h, reach2 float64) float64 {
	fx, fy = wrap(fx, float64(px)), wrap(fy, float64(py))
	var s float64
	for b := -ay; b <= ay; b++ {
		dy := (fy + float64(b*py)) * h
		if dy*dy > reach2 {
			continue
		}
		for a := -ax; a <= ax; a++ {
			dx := (fx + float64(a*px)) * h
			if d2 := dx*dx + dy*dy; d2 <= reach2 {
				s += k.at(d2)
			}
		}
	}
	return s
}

// imageRange is how many periods of l an offset within half a period needs
// to reach R: |a| <= R/l + 1/2.
func imageRange(R, l float64) int { return int(math.Floor(R/l+0.5)) + 1 }

// exactPairs is what one image of the plot costs the exact sum: every
// parent's image against every cell.
func exactPairs(g Grid, ps *parentSet) float64 { return float64(len(ps.x)) * float64(g.Cells()) }
