package fit

import (
	"context"
	"math"
	"sort"
)

// nmResult is where a Nelder-Mead search ended.
type nmResult struct {
	x         []float64
	f         float64
	evals     int
	converged bool
}

// nelderMead minimises f from x0 with initial steps step, with the
// dimension-adapted coefficients of Gao and Han (2012), which keep the
// simplex from collapsing in more than a few dimensions. It converges when
// the simplex's values are within ftol and its vertices within xtol of the
// best in every coordinate; otherwise it stops after maxEval evaluations,
// not converged. f evaluates a batch of points (the initial simplex and a
// shrink are one batch each).
func nelderMead(ctx context.Context, f func([][]float64) ([]float64, error), x0, step []float64,
	ftol, xtol float64, maxEval int) (nmResult, error) {
	n := len(x0)
	nf := float64(n)
	// At n = 1 the adapted coefficients would shrink the simplex onto its
	// best point (sigma 0); n = 2 gives the standard ones.
	na := max(nf, 2)
	alpha, gamma := 1.0, 1+2/na
	rho, sigma := 0.75-1/(2*na), 1-1/na
	pts := make([][]float64, n+1)
	for i := range pts {
		pts[i] = append([]float64(nil), x0...)
		if i > 0 {
			pts[i][i-1] += step[i-1]
		}
	}
	vals, err := f(pts)
	if err != nil {
		return nmResult{}, err
	}
	evals := n + 1
	one := func(x []float64) (float64, error) {
		evals++
		v, err := f([][]float64{x})
		if err != nil {
			return 0, err
		}
		return v[0], nil
	}
	idx := make([]int, n+1)
	for {
		if err := ctx.Err(); err != nil {
			return nmResult{}, err
		}
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return less(vals[idx[a]], vals[idx[b]]) })
		best, worst, second := idx[0], idx[n], idx[n-1]
		if done(pts, vals, best, ftol, xtol) {
			return nmResult{x: pts[best], f: vals[best], evals: evals, converged: true}, nil
		}
		if evals >= maxEval {
			return nmResult{x: pts[best], f: vals[best], evals: evals}, nil
		}
		c := make([]float64, n)
		for _, i := range idx[:n] {
			for d := range c {
				c[d] += pts[i][d] / nf
			}
		}
		along := func(t float64) []float64 {
			x := make([]float64, n)
			for d := range x {
				x[d] = c[d] + t*(pts[worst][d]-c[d])
			}
			return x
		}
		xr := along(-alpha)
		fr, err := one(xr)
		if err != nil {
			return nmResult{}, err
		}
		switch {
		case less(fr, vals[best]):
			xe := along(-alpha * gamma)
			fe, err := one(xe)
			if err != nil {
				return nmResult{}, err
			}
			if less(fe, fr) {
				pts[worst], vals[worst] = xe, fe
			} else {
				pts[worst], vals[worst] = xr, fr
			}
			continue
		case less(fr, vals[second]):
			pts[worst], vals[worst] = xr, fr
			continue
		}
		t := rho // inside contraction
		if less(fr, vals[worst]) {
			t = -alpha * rho // outside
		}
		xc := along(t)
		fc, err := one(xc)
		if err != nil {
			return nmResult{}, err
		}
		if less(fc, math.Min(fr, vals[worst])) || (math.IsInf(fr, 1) && !math.IsInf(fc, 1)) {
			pts[worst], vals[worst] = xc, fc
			continue
		}
		var shrunk [][]float64
		for _, i := range idx[1:] {
			for d := range pts[i] {
				pts[i][d] = pts[best][d] + sigma*(pts[i][d]-pts[best][d])
			}
			shrunk = append(shrunk, pts[i])
		}
		v, err := f(shrunk)
		if err != nil {
			return nmResult{}, err
		}
		evals += len(shrunk)
		for k, i := range idx[1:] {
			vals[i] = v[k]
		}
	}
}

// less orders values with NaN as the worst.
func less(a, b float64) bool { return a < b || (!math.IsNaN(a) && math.IsNaN(b)) }

func done(pts [][]float64, vals []float64, best int, ftol, xtol float64) bool {
	if math.IsInf(vals[best], 1) {
		// Nowhere near the simplex is the objective finite (a profile far
		// outside its interval): there is nothing to find.
		return true
	}
	for i := range pts {
		if !(math.Abs(vals[i]-vals[best]) <= ftol) {
			return false
		}
		for d := range pts[i] {
			if math.Abs(pts[i][d]-pts[best][d]) > xtol {
				return false
			}
		}
	}
	return true
}
