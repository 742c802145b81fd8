package imgdiff

import (
	"math"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// SSIM constants from Wang, Bovik, Sheikh and Simoncelli, "Image quality
// assessment: from error visibility to structural similarity", IEEE TIP
// 2004: an 11x11 Gaussian window with sigma 1.5, K1 = 0.01, K2 = 0.03, and
// dynamic range L = 1 because luma is on 0..1.
const (
	window = 11
	radius = window / 2
	sigma  = 1.5
	c1     = (0.01 * 1) * (0.01 * 1)
	c2     = (0.03 * 1) * (0.03 * 1)
)

// gaussian returns the normalized 1-D window; the 2-D window is its outer
// product, which is what makes the filtering separable.
func gaussian() [window]float64 {
	var k [window]float64
	sum := 0.0
	for i := range k {
		d := float64(i - radius)
		k[i] = math.Exp(-d * d / (2 * sigma * sigma))
		sum += k[i]
	}
	for i := range k {
		k[i] /= sum
	}
	return k
}

// ssim returns the mean SSIM of luma planes x and y (w*h, row-major) over
// every window position that lies wholly inside the image, as in the
// reference implementation, so no edge padding biases the score. Unlike the
// reference MATLAB script, it does not downsample large images first.
//
// The sums are computed so that swapping x and y gives bit-identical results
// and identical planes give exactly 1: products are formed symmetrically and
// explicit float64 conversions stop the compiler from fusing multiply-adds,
// which would round the two operands of a sum differently.
func ssim(x, y []float32, w, h, workers int) float64 {
	if w < window || h < window {
		return globalSSIM(x, y)
	}
	ow, oh := w-window+1, h-window+1
	k := gaussian()
	rowSums := make([]float64, oh)
	parallel.ForN(oh, minRowsPerBand, workers, func(_, lo, hi int) {
		f := newFilter(w, ow)
		for oy := lo; oy < hi; oy++ {
			// The ring holds the horizontally filtered input rows
			// oy..oy+window-1; each step adds the one new row it needs.
			first := oy + window - 1
			if oy == lo {
				first = oy
			}
			for r := first; r < oy+window; r++ {
				f.horizontal(&k, x[r*w:(r+1)*w], y[r*w:(r+1)*w], &f.ring[r%window])
			}
			rowSums[oy] = f.vertical(&k, oy)
		}
	})
	total := 0.0
	for _, s := range rowSums {
		total += s
	}
	return total / float64(ow*oh)
}

// moments are, per column, the five window sums SSIM needs: E[x], E[y],
// E[x²], E[y²] and E[xy].
type moments [5][]float64

func newMoments(n int) moments {
	var m moments
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}

// filter holds one goroutine's scratch space: the input row's moments, a
// ring of horizontally filtered rows and the vertical accumulator.
type filter struct {
	in   moments
	ring [window]moments
	acc  moments
}

func newFilter(w, ow int) *filter {
	f := &filter{in: newMoments(w), acc: newMoments(ow)}
	for i := range f.ring {
		f.ring[i] = newMoments(ow)
	}
	return f
}

func (f *filter) horizontal(k *[window]float64, xr, yr []float32, dst *moments) {
	for i := range xr {
		a, b := float64(xr[i]), float64(yr[i])
		f.in[0][i] = a
		f.in[1][i] = b
		f.in[2][i] = a * a
		f.in[3][i] = b * b
		f.in[4][i] = a * b
	}
	for p := range dst {
		out, in := dst[p], f.in[p]
		clear(out)
		for t, kt := range k {
			src := in[t : t+len(out)]
			for i := range out {
				out[i] += float64(kt * src[i])
			}
		}
	}
}

// vertical filters ring rows oy..oy+window-1 and returns the sum of the
// SSIM values of output row oy.
func (f *filter) vertical(k *[window]float64, oy int) float64 {
	for p := range f.acc {
		out := f.acc[p]
		clear(out)
		for t, kt := range k {
			src := f.ring[(oy+t)%window][p]
			for i := range out {
				out[i] += float64(kt * src[i])
			}
		}
	}
	sum := 0.0
	for i := range f.acc[0] {
		mx, my := f.acc[0][i], f.acc[1][i]
		vx := f.acc[2][i] - float64(mx*mx)
		vy := f.acc[3][i] - float64(my*my)
		cov := f.acc[4][i] - float64(mx*my)
		sum += ssimIndex(mx, my, vx, vy, cov)
	}
	return sum
}

// ssimIndex is Wang et al.'s equation 13 from a window's means, variances
// and covariance.
func ssimIndex(mx, my, vx, vy, cov float64) float64 {
	mxy := float64(mx * my)
	mxx := float64(mx * mx)
	myy := float64(my * my)
	num := float64((2*mxy + c1) * (2*cov + c2))
	den := float64((mxx + myy + c1) * (vx + vy + c2))
	return num / den
}

// globalSSIM is SSIM with one window covering the whole image, uniformly
// weighted, for images too small for the Gaussian window. Deviations are
// taken from the means first, which loses less precision than E[x²]-E[x]².
func globalSSIM(x, y []float32) float64 {
	n := float64(len(x))
	var sx, sy float64
	for i := range x {
		sx += float64(x[i])
		sy += float64(y[i])
	}
	mx, my := sx/n, sy/n
	var vx, vy, cov float64
	for i := range x {
		dx, dy := float64(x[i])-mx, float64(y[i])-my
		vx += float64(dx * dx)
		vy += float64(dy * dy)
		cov += float64(dx * dy)
	}
	return ssimIndex(mx, my, vx/n, vy/n, cov/n)
}
