package forest

import (
	"context"
	"math"
)

// The fft method.
//
// Parents are spread onto the cell-centre lattice with cubic Lagrange
// weights (4x4 nodes per parent), the lattice is convolved with the kernel
// sampled at whole-cell offsets by a real 2D FFT (zero padded by the
// kernel's support for an open plot, periodic for a torus), and each cell
// reads its density off the result. For one parent this is the cubic
// interpolation, in the parent's position, of the kernel sampled on the
// lattice around it; its error is small where the kernel is smooth at the
// scale of a cell and large in the far tail of a sharp kernel (theta = 3
// has exp(-D d^3): at 1e-6 of its peak a pine's kernel falls e-fold per
// 0.9 m, where bilinear weights put one parent's share off by up to 15 %).
//
// So the method also convolves the parents with a bound on that error (the
// interpolation error measured per lattice offset, maximised over sub-cell
// positions and neighbouring offsets, doubled) in the same FFT, and sums
// exactly the cells where the bound exceeds the tolerance relative to the
// cell's density: in a stocked plot, almost none; around the edges of a
// forest or in large gaps, a band of cells. Cells below fftFloor of the
// layer's maximum are left to the FFT (their absolute error is tiny).
const (
	defaultTolerance = 1e-4
	fftFloor         = 1e-10
	// fftNoise is the transforms' round-off relative to the maximum;
	// densities below it come out as 0.
	fftNoise = 1e-13
	// fixExponent is the kernel exponent beyond which the exact fix-up
	// ignores parents (e^-60: 1e-26 of a parent's peak, far below what a
	// cell above fftFloor can notice).
	fixExponent = 60.0
	// fftSafety multiplies the measured interpolation error.
	fftSafety = 2.0
)

// fftRunner runs the fft method for the species of one Disperse call. It
// keeps the last kernel's spectra (species with the same kernel on the same
// grid share them: sorted by kernel, a "*" entry's hundred species cost one)
// and its work arrays.
type fftRunner struct {
	g       Grid
	torus   bool
	tol     float64
	workers int
	geom    convGeom
	tr      *rfft2
	// specK, specE: the kernel's and the error bound's spectra, real (both
	// are even), scaled by 1/(px py).
	specK, specE []float64
	grid, est    []float64
	specW, tmp   []complex128
}

func newFFTRunner(g Grid, torus bool, tol float64, workers int) *fftRunner {
	if tol == 0 {
		tol = defaultTolerance
	}
	return &fftRunner{g: g, torus: torus, tol: tol, workers: workers}
}

// prepare sets up the lattice, transforms and kernel spectra for k and n
// parents.
func (r *fftRunner) prepare(k kern, n int) error {
	c, err := newConvGeom(r.g, r.torus, k, n)
	if err != nil {
		return err
	}
	if r.tr != nil && c == r.geom {
		return nil
	}
	r.geom = c
	if r.tr == nil || r.tr.px != c.px || r.tr.py != c.py {
		r.tr = newRFFT2(c.px, c.py, r.workers)
		r.grid, r.est = make([]float64, c.px*c.py), make([]float64, c.px*c.py)
		r.specW, r.tmp = make([]complex128, r.tr.specLen()), make([]complex128, r.tr.specLen())
		r.specK, r.specE = make([]float64, r.tr.specLen()), make([]float64, r.tr.specLen())
	}
	kt := c.kernelTable()
	et := c.errorTable(&kt)
	inv := 1 / float64(c.px*c.py)
	for _, job := range []struct {
		t   *kernelTable
		dst []float64
	}{{&kt, r.specK}, {&et, r.specE}} {
		c.fill(r.grid, job.t, r.workers)
		r.tr.forward(r.grid, r.tmp)
		for i, v := range r.tmp {
			job.dst[i] = real(v) * inv
		}
	}
	return nil
}

// cost estimates the fft method's time for k in units of one exact
// kernel evaluation: five transforms and their passes, about ten
// evaluations' worth per padded point.
func (r *fftRunner) cost(k kern, n int) float64 {
	c, err := newConvGeom(r.g, r.torus, k, n)
	if err != nil {
		return math.Inf(1)
	}
	return 10 * float64(c.px) * float64(c.py)
}

func (r *fftRunner) layer(ctx context.Context, ps *parentSet, prog *progress) ([]float64, Accuracy, error) {
	g := r.g
	nx, ny := g.NX, g.NY
	acc := Accuracy{Floor: fftFloor}
	if len(ps.x) == 0 {
		prog.add(int64(ny))
		return make([]float64, nx*ny), acc, nil
	}
	if err := r.prepare(ps.k, len(ps.x)); err != nil {
		return nil, acc, err
	}
	c := &r.geom
	if c.capped {
		t := newPeriodic(g).truncation(ps.k, c.reach, true)
		acc.MaxAbs, acc.TailMass, acc.ImageRadius = t.MaxAbs, t.TailMass, t.ImageRadius
	}
	clear(r.grid)
	c.bin(r.grid, g, ps)
	r.tr.forward(r.grid, r.specW)
	if err := ctx.Err(); err != nil {
		return nil, acc, err
	}
	for i, w := range r.specW {
		r.specW[i] = w * complex(r.specK[i], 0)
		r.tmp[i] = w * complex(r.specE[i], 0)
	}
	r.tr.inverse(r.specW, r.grid)
	r.tr.inverse(r.tmp, r.est)
	prog.add(int64(ny / 2))
	dens, errEst := make([]float64, nx*ny), make([]float64, nx*ny)
	rowMax := make([]float64, ny)
	r.tr.parallel(ny, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			src := r.grid[(j+c.off)*c.px+c.off:]
			esrc := r.est[(j+c.off)*c.px+c.off:]
			d, e := dens[j*nx:(j+1)*nx], errEst[j*nx:(j+1)*nx]
			m := 0.0
			for i := range d {
				f := src[i]
				d[i] = f
				m = max(m, f)
				e[i] = abs64(esrc[i])
			}
			rowMax[j] = m
		}
	})
	maxF := 0.0
	for _, m := range rowMax {
		maxF = max(maxF, m)
	}
	// Below the transforms' round-off (a few ulp of the maximum, and
	// negative values among it) a cell is 0.
	noise := fftNoise * maxF
	for i, f := range dens {
		if f < noise {
			dens[i] = 0
		}
	}
	err := fixCells(ctx, g, c, ps, dens, errEst, maxF, r.tol, r.workers, &acc)
	prog.add(int64(ny - ny/2))
	return dens, acc, err
}

func abs64(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// fixCells sums exactly the cells whose error estimate exceeds tol of
// their density (among cells that may be above fftFloor of the maximum),
// and records the estimate for the others. On a torus the exact sum takes
// the periodic images the lattice kernel sums (c.reach).
func fixCells(ctx context.Context, g Grid, c *convGeom, ps *parentSet, dens, errEst []float64, maxF, tol float64,
	workers int, acc *Accuracy) error {
	nx, ny := g.NX, g.NY
	floor := fftFloor * maxF
	spans := make([][]span, ny)
	for j := 0; j < ny; j++ {
		var row []span
		for i := 0; i < nx; i++ {
			f, e := dens[j*nx+i], errEst[j*nx+i]
			if f+e < floor {
				continue
			}
			if e <= tol*f {
				acc.MaxRel = max(acc.MaxRel, e/f)
				continue
			}
			// Join spans a few cells apart: one range costs less than two.
			if n := len(row); n > 0 && i-row[n-1].hi < 4 {
				row[n-1].hi = i + 1
			} else {
				row = append(row, span{i, i + 1})
			}
		}
		spans[j] = row
		for _, s := range row {
			acc.ExactCells += s.hi - s.lo
		}
	}
	if acc.ExactCells == 0 {
		return nil
	}
	acc.fixed = spans
	src, r := ps, ps.k.radius(fixExponent)
	if c.torus {
		src, r = torusImages(g, ps, c.reach), c.reach
	}
	e := newExactSum(g, src, r).withBuckets()
	return forRows(ctx, ny, workers, func(j int) {
		if len(spans[j]) == 0 {
			return
		}
		row := dens[j*nx : (j+1)*nx]
		for _, s := range spans[j] {
			clear(row[s.lo:s.hi])
		}
		e.addSpans(j, spans[j], row)
	})
}
