package forest

import (
	"math"
	"runtime"
)

// lagrange4 are the cubic Lagrange weights of nodes -1, 0, 1, 2 at f in [0,1).
func lagrange4(f float64) [4]float64 {
	return [4]float64{
		-f * (f - 1) * (f - 2) / 6,
		(f + 1) * (f - 1) * (f - 2) / 2,
		-(f + 1) * f * (f - 2) / 2,
		(f + 1) * f * (f - 1) / 6,
	}
}

// convGeom is the lattice of one species' convolution.
type convGeom struct {
	torus  bool
	nx, ny int
	px, py int // FFT sizes
	off    int // array index of cell 0
	rx, ry int // kernel support in cells (open); half-periods (torus)
	h      float64
	k      kern
	// Torus: the kernel is summed over the periodic images within reach
	// (imageReach for n parents), ax x ay periods each way; capped says
	// the cost cap cut reach short (the layer reports the bound).
	reach  float64
	ax, ay int
	capped bool
}

// newConvGeom is the lattice of a species of n parents with kernel k.
func newConvGeom(g Grid, torus bool, k kern, n int) (convGeom, error) {
	c := convGeom{torus: torus, nx: g.NX, ny: g.NY, h: g.Cell, k: k}
	if torus {
		c.px, c.py = g.NX, g.NY
		c.rx, c.ry = g.NX/2, g.NY/2
		p := newPeriodic(g)
		var err error
		c.reach, c.capped, err = p.imageReach(k, k.radius(fixExponent), n, float64(n)*float64(g.Cells()), (c.rx+1)*(c.ry+1))
		c.ax, c.ay = imageRange(c.reach, p.lx), imageRange(c.reach, p.ly)
		return c, err
	}
	// Nodes run from -2 to n+1 (the stencils of parents on the plot's
	// edges), cells from 0 to n-1: offsets up to n+1 matter, and the padded
	// length must exceed n+1 plus the support so no offset aliases.
	sup := int(math.Ceil(k.radius(supportExponent)/g.Cell)) + 1
	c.rx, c.ry = min(sup, g.NX+1), min(sup, g.NY+1)
	c.px, c.py = fastFFTPair(g.NX+c.rx+4, g.NY+c.ry+4)
	c.off = 2
	return c, nil
}

// wrapIndex maps an offset to its array index (torus: modulo the period).
func wrapIndex(m, p int) int {
	m %= p
	if m < 0 {
		m += p
	}
	return m
}

// signedOffset is the offset an array index stands for: in (-p/2, p/2].
func signedOffset(i, p int) int {
	if i > p/2 {
		return i - p
	}
	return i
}

// trueK is the kernel at an offset of (fx, fy) cells (on a torus, summed
// over the periodic images within reach).
func (c *convGeom) trueK(fx, fy float64) float64 {
	if c.torus {
		return periodicK(c.k, fx, fy, c.px, c.py, c.ax, c.ay, c.h, c.reach*c.reach)
	}
	dx, dy := fx*c.h, fy*c.h
	return c.k.at(dx*dx + dy*dy)
}

// kernelTable is the kernel at whole-cell offsets 0..qx x 0..qy.
type kernelTable struct {
	qx, qy int
	v      []float64
}

func (c *convGeom) kernelTable() kernelTable {
	t := kernelTable{qx: c.rx, qy: c.ry}
	t.v = make([]float64, (t.qx+1)*(t.qy+1))
	for my := 0; my <= t.qy; my++ {
		for mx := 0; mx <= t.qx; mx++ {
			t.v[my*(t.qx+1)+mx] = c.trueK(float64(mx), float64(my))
		}
	}
	return t
}

// at is the lattice kernel at offset (mx, my): symmetric, periodic on a
// torus, 0 beyond the support on an open plot.
func (c *convGeom) at(t *kernelTable, mx, my int) float64 {
	if c.torus {
		mx, my = signedOffset(wrapIndex(mx, c.px), c.px), signedOffset(wrapIndex(my, c.py), c.py)
	}
	if mx < 0 {
		mx = -mx
	}
	if my < 0 {
		my = -my
	}
	if mx > t.qx || my > t.qy {
		return 0
	}
	return t.v[my*(t.qx+1)+mx]
}

// errorTable is fftSafety times the interpolation error of a parent at
// lattice offset (mx, my) (the cell minus the parent's base node), the
// largest over sub-cell positions and over the neighbouring offsets, so it
// bounds the error whichever node of the stencil the convolution reads it
// at. Offsets 0..ex x 0..ey; symmetric.
func (c *convGeom) errorTable(kt *kernelTable) kernelTable {
	sup := int(math.Ceil(c.k.radius(supportExponent)/c.h)) + 3
	ex, ey := min(kt.qx, sup), min(kt.qy, sup)
	raw := make([]float64, (ex+2)*(ey+2))
	parallelRange(ey+2, runtime.GOMAXPROCS(0), func(lo, hi int) { c.rawErrors(kt, raw, ex, lo, hi) })
	t := kernelTable{qx: ex, qy: ey, v: make([]float64, (ex+1)*(ey+1))}
	for my := 0; my <= ey; my++ {
		for mx := 0; mx <= ex; mx++ {
			m := 0.0
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					x, y := abs(mx+dx), abs(my+dy)
					m = math.Max(m, raw[y*(ex+2)+x])
				}
			}
			t.v[my*(ex+1)+mx] = fftSafety * m
		}
	}
	return t
}

// rawErrors fills rows lo..hi-1 of the undilated error table.
func (c *convGeom) rawErrors(kt *kernelTable, raw []float64, ex, lo, hi int) {
	subs := [3]float64{0.25, 0.5, 0.75}
	var lw [3][4]float64
	for i, f := range subs {
		lw[i] = lagrange4(f)
	}
	for my := lo; my < hi; my++ {
		for mx := 0; mx <= ex+1; mx++ {
			var nb [4][4]float64
			for b := 0; b < 4; b++ {
				for a := 0; a < 4; a++ {
					nb[b][a] = c.at(kt, mx+1-a, my+1-b)
				}
			}
			worst := 0.0
			for iy, fy := range subs {
				for ix, fx := range subs {
					var s float64
					for b := 0; b < 4; b++ {
						var r float64
						for a := 0; a < 4; a++ {
							r += lw[ix][a] * nb[b][a]
						}
						s += lw[iy][b] * r
					}
					worst = math.Max(worst, math.Abs(s-c.trueK(float64(mx)-fx, float64(my)-fy)))
				}
			}
			raw[my*(ex+2)+mx] = worst
		}
	}
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// fill writes a symmetric table into a px x py array in FFT order.
func (c *convGeom) fill(dst []float64, t *kernelTable, workers int) {
	parallelRange(c.py, workers, func(lo, hi int) { c.fillRows(dst, t, lo, hi) })
}

func (c *convGeom) fillRows(dst []float64, t *kernelTable, lo, hi int) {
	for y := lo; y < hi; y++ {
		my := abs(signedOffset(y, c.py))
		row := dst[y*c.px : (y+1)*c.px]
		for x := range row {
			mx := abs(signedOffset(x, c.px))
			if mx > t.qx || my > t.qy {
				row[x] = 0
				continue
			}
			row[x] = t.v[my*(t.qx+1)+mx]
		}
	}
}

// bin spreads the parents' weights onto the lattice.
func (c *convGeom) bin(dst []float64, g Grid, ps *parentSet) {
	for t := range ps.x {
		u := (ps.x[t]-g.X0)/c.h - 0.5
		v := (ps.y[t]-g.Y0)/c.h - 0.5
		iu, iv := math.Floor(u), math.Floor(v)
		lx, ly := lagrange4(u-iu), lagrange4(v-iv)
		i0, j0 := int(iu)-1+c.off, int(iv)-1+c.off
		for b := 0; b < 4; b++ {
			j := j0 + b
			if c.torus {
				j = wrapIndex(j, c.py)
			}
			wb := ps.w[t] * ly[b]
			row := dst[j*c.px : (j+1)*c.px]
			for a := 0; a < 4; a++ {
				i := i0 + a
				if c.torus {
					i = wrapIndex(i, c.px)
				}
				row[i] += wb * lx[a]
			}
		}
	}
}
