package forest

import (
	"runtime"
	"sync"
)

// rfft2 is a two-dimensional real-to-complex FFT of a px x py grid stored
// row-major (x fastest), with its inverse. The spectrum keeps the h = px/2+1
// non-negative x frequencies of every y frequency (the rest follow from
// Hermitian symmetry), row-major: spec[ky*h + kx].
//
// Rows are transformed two at a time as one complex FFT (a + i b), which
// works for any length; columns are gathered in blocks of colBlock into
// contiguous scratch so each column's FFT runs in cache. Both passes are
// split over the workers; the result does not depend on how many there are.
type rfft2 struct {
	px, py, h  int
	rowF, rowI *fftPlan
	colF, colI *fftPlan
	workers    int
}

const colBlock = 16

func newRFFT2(px, py, workers int) *rfft2 {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return &rfft2{
		px: px, py: py, h: px/2 + 1,
		rowF: newFFTPlan(px, false), rowI: newFFTPlan(px, true),
		colF: newFFTPlan(py, false), colI: newFFTPlan(py, true),
		workers: workers,
	}
}

// specLen is the number of complex values of a spectrum.
func (t *rfft2) specLen() int { return t.py * t.h }

// parallel runs fn over [0, n) split into contiguous ranges, one per worker.
func (t *rfft2) parallel(n int, fn func(lo, hi int)) { parallelRange(n, t.workers, fn) }

// parallelRange runs fn over [0, n) split into contiguous ranges, one per
// worker, and waits.
func parallelRange(n, workers int, fn func(lo, hi int)) {
	w := min(workers, n)
	if w <= 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for i := 0; i < w; i++ {
		lo, hi := n*i/w, n*(i+1)/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi)
		}()
	}
	wg.Wait()
}

// forward transforms in (px*py reals) into spec (specLen complex values).
func (t *rfft2) forward(in []float64, spec []complex128) {
	px, h := t.px, t.h
	pairs := (t.py + 1) / 2
	t.parallel(pairs, func(lo, hi int) {
		z := make([]complex128, px)
		work := make([]complex128, t.rowF.scratch())
		for pr := lo; pr < hi; pr++ {
			r0, r1 := 2*pr, 2*pr+1
			a := in[r0*px : (r0+1)*px]
			if r1 < t.py {
				b := in[r1*px : (r1+1)*px]
				for x := range z {
					z[x] = complex(a[x], b[x])
				}
			} else {
				for x := range z {
					z[x] = complex(a[x], 0)
				}
			}
			t.rowF.transform(z, work)
			out0 := spec[r0*h : (r0+1)*h]
			if r1 >= t.py {
				copy(out0, z[:h])
				continue
			}
			out1 := spec[r1*h : (r1+1)*h]
			for k := 0; k < h; k++ {
				zk := z[k]
				zc := z[0]
				if k > 0 {
					zc = z[px-k]
				}
				zc = complex(real(zc), -imag(zc))
				out0[k] = 0.5 * (zk + zc)
				d := zk - zc // 2i B
				out1[k] = complex(0.5*imag(d), -0.5*real(d))
			}
		}
	})
	t.columns(spec, t.colF)
}

// inverse transforms spec (overwritten) back into out (px*py reals),
// unnormalised: out is px*py times the grid whose spectrum spec is.
func (t *rfft2) inverse(spec []complex128, out []float64) {
	t.columns(spec, t.colI)
	px, h := t.px, t.h
	pairs := (t.py + 1) / 2
	t.parallel(pairs, func(lo, hi int) {
		z := make([]complex128, px)
		work := make([]complex128, t.rowI.scratch())
		for pr := lo; pr < hi; pr++ {
			r0, r1 := 2*pr, 2*pr+1
			a := spec[r0*h : (r0+1)*h]
			var b []complex128
			if r1 < t.py {
				b = spec[r1*h : (r1+1)*h]
			}
			for k := 0; k < px; k++ {
				var ak, bk complex128
				if k < h {
					ak = a[k]
					if b != nil {
						bk = b[k]
					}
				} else {
					ak = a[px-k]
					ak = complex(real(ak), -imag(ak))
					if b != nil {
						bk = b[px-k]
						bk = complex(real(bk), -imag(bk))
					}
				}
				z[k] = ak + mulI(bk)
			}
			t.rowI.transform(z, work)
			o0 := out[r0*px : (r0+1)*px]
			for x := range o0 {
				o0[x] = real(z[x])
			}
			if b != nil {
				o1 := out[r1*px : (r1+1)*px]
				for x := range o1 {
					o1[x] = imag(z[x])
				}
			}
		}
	})
}

// columns transforms every column of spec along y with plan.
func (t *rfft2) columns(spec []complex128, plan *fftPlan) {
	py, h := t.py, t.h
	blocks := (h + colBlock - 1) / colBlock
	t.parallel(blocks, func(lo, hi int) {
		buf := make([]complex128, colBlock*py)
		work := make([]complex128, plan.scratch())
		for blk := lo; blk < hi; blk++ {
			k0 := blk * colBlock
			nc := min(colBlock, h-k0)
			for y := 0; y < py; y++ {
				row := spec[y*h+k0 : y*h+k0+nc]
				for c, v := range row {
					buf[c*py+y] = v
				}
			}
			for c := 0; c < nc; c++ {
				plan.transform(buf[c*py:(c+1)*py], work)
			}
			for y := 0; y < py; y++ {
				row := spec[y*h+k0 : y*h+k0+nc]
				for c := range row {
					row[c] = buf[c*py+y]
				}
			}
		}
	})
}
