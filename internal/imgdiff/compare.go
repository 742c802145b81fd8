// Package imgdiff measures how far apart two images are, for comparing
// renders against golden images in CI (`procgen compare A.png B.png`).
//
// Both images are first converted to straight (non-premultiplied) RGBA at 16
// bits per channel, and every difference is expressed on a 0..1 scale per
// channel, so a PNG of any bit depth or color type compares equal to another
// encoding of the same pixels. Because alpha is straight, the color hidden
// under a fully transparent pixel counts too: a render that changes it has
// changed.
package imgdiff

import (
	"github.com/procgen-dev/procgen/internal/parallel"

	"errors"
	"fmt"
	"image"
	"math"
	"math/bits"
	"runtime"
)

// ErrSizeMismatch is wrapped by the error Compare returns for images of
// different sizes; no metric is meaningful then.
var ErrSizeMismatch = errors.New("imgdiff: size mismatch")

// Compare measures the difference between a and b, which must have the same
// size; their bounds need not start at the same point. See Metrics for what
// each number means. Rows are read by several goroutines at once, which all
// standard library image types allow. The result does not depend on
// GOMAXPROCS.
func Compare(a, b image.Image) (Metrics, error) {
	return compare(a, b, runtime.GOMAXPROCS(0))
}

func compare(a, b image.Image, workers int) (Metrics, error) {
	sa, sb := a.Bounds().Size(), b.Bounds().Size()
	if sa != sb {
		return Metrics{}, fmt.Errorf("%w: %dx%d vs %dx%d", ErrSizeMismatch, sa.X, sa.Y, sb.X, sb.Y)
	}
	w, h := sa.X, sa.Y
	m := Metrics{Width: w, Height: h}
	if w == 0 || h == 0 {
		m.PSNR, m.SSIM = math.Inf(1), 1
		return m, nil
	}

	ya := make([]float32, w*h)
	yb := make([]float32, w*h)
	st := channelStats(newRowReader(a), newRowReader(b), w, h, ya, yb, workers)

	const unit = 0xffff
	n := float64(4 * w * h) // channel values per image
	m.MAD = float64(st.sumAbs) / unit / n
	m.MaxDiff = float64(st.maxDiff) / unit
	mse := (float64(st.sqHi)*0x1p64 + float64(st.sqLo)) / (unit * unit) / n
	m.PSNR = math.Inf(1)
	if st.sqHi != 0 || st.sqLo != 0 {
		m.PSNR = -10 * math.Log10(mse) // peak 1 on the 0..1 scale
	}
	m.SSIM = ssim(ya, yb, w, h, workers)
	return m, nil
}

// stats are exact integer sums of 16-bit channel differences. Integers make
// the totals independent of how the rows were split between goroutines, and
// the sum of squares is kept in 128 bits because 4.3e9 per channel value
// overflows 64 bits at about a billion pixels.
type stats struct {
	sumAbs     uint64
	sqHi, sqLo uint64
	maxDiff    uint64
}

func (s *stats) add(o stats) {
	s.sumAbs += o.sumAbs
	var carry uint64
	s.sqLo, carry = bits.Add64(s.sqLo, o.sqLo, 0)
	s.sqHi += o.sqHi + carry
	s.maxDiff = max(s.maxDiff, o.maxDiff)
}

// channelStats sums the channel differences of all rows and fills the luma
// planes ya and yb that SSIM is computed on.
func channelStats(ra, rb rowReader, w, h int, ya, yb []float32, workers int) stats {
	parts := make([]stats, len(parallel.ChunksN(h, minRowsPerBand, workers))-1)
	parallel.ForN(h, minRowsPerBand, workers, func(i, lo, hi int) {
		pa := make([]uint16, 4*w)
		pb := make([]uint16, 4*w)
		var st stats
		for y := lo; y < hi; y++ {
			ra(y, pa)
			rb(y, pb)
			// One row's squares stay below 2^64 for rows under 2^30 pixels.
			var rowSq uint64
			for j := range pa {
				d := uint64(absDiff(pa[j], pb[j]))
				st.sumAbs += d
				rowSq += d * d
				st.maxDiff = max(st.maxDiff, d)
			}
			st.add(stats{sqLo: rowSq})
			luma(pa, ya[y*w:(y+1)*w])
			luma(pb, yb[y*w:(y+1)*w])
		}
		parts[i] = st
	})
	var total stats
	for _, p := range parts {
		total.add(p)
	}
	return total
}

func absDiff(a, b uint16) uint16 {
	if a > b {
		return a - b
	}
	return b - a
}

// luma writes Rec. 709 luma (0.2126 R + 0.7152 G + 0.0722 B, on 0..1) of
// each pixel composited over black. Compositing makes a transparent pixel
// look like the black it shows as, so SSIM judges structure a viewer can
// see; the hidden colors still count in MAD, PSNR and MaxDiff. The weights
// are applied to the stored values as they are, without linearising sRGB,
// as is usual for SSIM.
func luma(px []uint16, dst []float32) {
	const inv = 1.0 / 0xffff
	for i := range dst {
		p := px[4*i : 4*i+4]
		y := 0.2126*float64(p[0]) + 0.7152*float64(p[1]) + 0.0722*float64(p[2])
		dst[i] = float32(y * inv * (float64(p[3]) * inv))
	}
}
