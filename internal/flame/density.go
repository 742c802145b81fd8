package flame

import (
	"context"
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// deThresh is flam3's DE_THRESH: below this many hits each count gets its
// own kernel; above, kernels are shared along the estimator curve.
const deThresh = 100

// deFilters is flam3's family of density-estimation kernels: a bucket with
// few hits is spread over a wide Gaussian, a dense one over a narrow one.
// Each kernel stores one octant (dej >= dek >= 0) of its symmetric square.
type deFilters struct {
	coefs          []float64 // kernelSize values per filter
	widths         []float64
	kernelSize     int
	maxIndex       int
	maxFilteredCnt float64
	curve          float64
}

// maxDEWork bounds building the density-estimation kernels (filters ×
// their squares' area, each point a Gaussian): about a second of one core.
// flam3's own defaults need a few thousand; estimator_radius="20" at
// supersample 4, the most in real-world genomes, five million.
const maxDEWork = 1 << 28

// deSize is the shape of newDEFilters' kernels: how many, and the values
// each stores; computed before anything is allocated for them.
type deSize struct {
	num, maxInd, rowSize, kernelSize int
	compMax, compMin                 float64
}

// bytes is the memory of the kernels (coefficients and widths).
func (s deSize) bytes() float64 { return 8 * float64(s.maxInd) * float64(s.kernelSize+1) }

func deKernels(maxRad, minRad, curve float64, ss int) (deSize, error) {
	var s deSize
	if !(curve > 0) {
		return s, fmt.Errorf("estimator_curve must be > 0, not %g", curve)
	}
	if maxRad < minRad {
		return s, fmt.Errorf("estimator_radius %g must not be smaller than estimator_minimum %g", maxRad, minRad)
	}
	s.compMax = maxRad*float64(ss) + 1
	s.compMin = minRad*float64(ss) + 1
	numD := math.Pow(s.compMax/s.compMin, 1/curve)
	if !(numD <= 1e7) {
		return s, &KernelError{Hint: "lower the genome's estimator_radius or raise its estimator_curve", Msg: fmt.Sprintf(
			"estimator_curve %g with estimator_radius %g, estimator_minimum %g needs %.3g density-estimation filters, over 1e7",
			curve, maxRad, minRad, numD)}
	}
	s.num = int(math.Ceil(numD))
	s.maxInd = s.num
	if s.num > deThresh {
		s.maxInd = int(math.Ceil(deThresh+math.Pow(float64(s.num-deThresh), curve))) + 1
	}
	s.rowSize = int(2*math.Ceil(s.compMax) - 1)
	half := (s.rowSize - 1) / 2
	s.kernelSize = (half + 1) * (2 + half) / 2
	if w := float64(s.maxInd) * float64(s.rowSize) * float64(s.rowSize); w > maxDEWork {
		return s, &KernelError{Hint: "lower the genome's estimator_radius (or --supersample)", Msg: fmt.Sprintf(
			"estimator_radius %g at supersample %d makes %d density-estimation kernels %d buckets wide, %.3g points, over %d",
			maxRad, ss, s.maxInd, s.rowSize, w, maxDEWork)}
	}
	return s, nil
}

func newDEFilters(maxRad, minRad, curve float64, ss int) (*deFilters, error) {
	s, err := deKernels(maxRad, minRad, curve, ss)
	if err != nil {
		return nil, err
	}
	compMax, compMin, num, maxInd := s.compMax, s.compMin, s.num, s.maxInd
	d := &deFilters{curve: curve}
	d.maxFilteredCnt = float64(maxInd)
	if num > deThresh {
		d.maxFilteredCnt = float64(int(math.Pow(float64(maxInd-deThresh), 1/curve)) + deThresh)
	}
	half := (s.rowSize - 1) / 2
	d.kernelSize = s.kernelSize
	d.coefs = make([]float64, maxInd*d.kernelSize)
	d.widths = make([]float64, maxInd)
	gaussSupp := filterSupport[FilterGaussian]
	for f := 0; f < maxInd; f++ {
		var h float64
		if f < deThresh {
			h = compMax / math.Pow(float64(f+1), curve)
		} else {
			adj := math.Pow(float64(f-deThresh), 1/curve) + deThresh
			h = compMax / math.Pow(adj+1, curve)
		}
		if h <= compMin {
			h = compMin
			d.maxIndex = f
		}
		d.widths[f] = h
		sum := 0.0
		for j := -half; j <= half; j++ {
			for k := -half; k <= half; k++ {
				if dd := math.Sqrt(float64(j*j+k*k)) / h; dd <= 1 {
					sum += filterValue(FilterGaussian, gaussSupp*dd)
				}
			}
		}
		idx := f * d.kernelSize
		for j := 0; j <= half; j++ {
			for k := 0; k <= j; k++ {
				if dd := math.Sqrt(float64(j*j+k*k)) / h; dd <= 1 {
					d.coefs[idx] = filterValue(FilterGaussian, gaussSupp*dd) / sum
				}
				idx++
			}
		}
		if d.maxIndex > 0 {
			break
		}
	}
	if d.maxIndex == 0 {
		d.maxIndex = maxInd - 1
	}
	return d, nil
}

// index picks the kernel for a neighbourhood hit count.
func (d *deFilters) index(hits float64) int {
	var i int
	switch {
	case hits > d.maxFilteredCnt:
		i = d.maxIndex
	case hits <= deThresh:
		i = int(math.Ceil(hits)) - 1
	default:
		i = deThresh + int(math.Floor(math.Pow(hits-deThresh, d.curve)))
	}
	return min(max(i, 0), d.maxIndex)
}

// maxRadius is the largest reach in buckets of any kernel.
func (d *deFilters) maxRadius() int { return int(math.Ceil(d.widths[0])) - 1 }

// logScale is flam3's log-density mapping of a bucket's colour sum: the
// factor by which every channel of a bucket with alpha sum a is multiplied.
func logScale(k1, k2, a float64) float64 { return k1 * math.Log1p(a*k2) / a }

// densityEstimate turns the histogram h into the accumulation buffer acc
// (RGBA float64 per bucket), log-scaling each bucket and, with d non-nil,
// spreading it over the kernel its neighbourhood density selects.
func densityEstimate(ctx context.Context, h *histogram, acc []float64, d *deFilters, k1, k2 float64, ss int) {
	w, ht := h.width, h.height
	if d == nil {
		parallel.For(ht, 16, func(_, lo, hi int) {
			for j := lo; j < hi && ctx.Err() == nil; j++ {
				for i := 0; i < w; i++ {
					b := j*w + i
					c := h.color(b)
					if c[3] == 0 {
						continue
					}
					ls := logScale(k1, k2, c[3])
					for ch := 0; ch < 4; ch++ {
						acc[4*b+ch] = c[ch] * ls
					}
				}
			}
		})
		return
	}
	// Kernels scatter into neighbouring rows, so rows are processed in bands
	// taller than two kernel reaches: all even bands in parallel, then all
	// odd ones. No two concurrent bands touch the same row, and each
	// bucket receives its additions in the same order whatever the number
	// of threads, so the float result is reproducible.
	reach := d.maxRadius() + 1
	band := max(2*reach+2, 32)
	first, last := ss-1, ht-ss/2 // rows whose ss×ss neighbourhood is inside
	nb := (last - first + band - 1) / band
	if nb <= 0 {
		return
	}
	for parity := 0; parity < 2; parity++ {
		count := (nb - parity + 1) / 2
		parallel.For(count, 1, func(_, lo, hi int) {
			for k := lo; k < hi; k++ {
				b0 := first + (2*k+parity)*band
				deRows(ctx, h, acc, d, k1, k2, ss, b0, min(b0+band, last))
			}
		})
	}
}

// deRows stops early once ctx is done: Ctrl-C ends a big render within a
// row of buckets, and the caller discards the half-estimated result.
func deRows(ctx context.Context, h *histogram, acc []float64, d *deFilters, k1, k2 float64, ss, j0, j1 int) {
	w, ht := h.width, h.height
	half := ss / 2
	scale := 1.0
	if ss%2 == 0 {
		scale = math.Pow(float64(ss)/float64(ss+1), 2)
	}
	add := func(i, j int, c *[4]float64) {
		if i < 0 || j < 0 || i >= w || j >= ht {
			return
		}
		p := acc[4*(j*w+i):]
		p[0] += c[0]
		p[1] += c[1]
		p[2] += c[2]
		p[3] += c[3]
	}
	for j := j0; j < j1 && ctx.Err() == nil; j++ {
		for i := ss - 1; i < w-(ss-1); i++ {
			b := j*w + i
			if h.rgba[4*b+3] == 0 && (h.hits == nil || h.hits[b] == 0) {
				continue
			}
			c := h.color(b)
			if c[3] == 0 {
				continue
			}
			var hits float64
			for jj := -half; jj <= half; jj++ {
				for ii := -half; ii <= half; ii++ {
					hits += float64(h.count(b + ii + jj*w))
				}
			}
			f := d.index(hits * scale)
			coefs := d.coefs[f*d.kernelSize:]
			fw := int(math.Ceil(d.widths[f])) - 1
			ls := logScale(k1, k2, c[3])
			idx := 0
			for jj := 0; jj <= fw; jj++ {
				for ii := 0; ii <= jj; ii++ {
					k := coefs[idx]
					idx++
					if k == 0 {
						continue
					}
					s := k * ls
					v := [4]float64{c[0] * s, c[1] * s, c[2] * s, c[3] * s}
					switch {
					case jj == 0:
						add(i, j, &v)
					case ii == 0:
						add(i+jj, j, &v)
						add(i-jj, j, &v)
						add(i, j+jj, &v)
						add(i, j-jj, &v)
					case ii == jj:
						add(i+ii, j+jj, &v)
						add(i-ii, j+jj, &v)
						add(i+ii, j-jj, &v)
						add(i-ii, j-jj, &v)
					default:
						add(i+ii, j+jj, &v)
						add(i-ii, j+jj, &v)
						add(i+ii, j-jj, &v)
						add(i-ii, j-jj, &v)
						add(i+jj, j+ii, &v)
						add(i-jj, j+ii, &v)
						add(i+jj, j-ii, &v)
						add(i-jj, j-ii, &v)
					}
				}
			}
		}
	}
}
