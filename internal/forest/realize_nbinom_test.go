package forest

import (
	"math"
	"testing"
)

// The draws' mean, variance and share of zeros match the negative
// binomial's (mu, mu + mu^2/k, (k/(k+mu))^k) within five standard errors
// over many cells; k = 0 gives Realize's Poisson draws; the draws depend on
// the seed and species, not on the workers.
func TestRealizeClumped(t *testing.T) {
	const n = 200000
	g := Grid{Cell: 2, NX: 500, NY: n / 500}
	for _, c := range []struct{ mu, k float64 }{{0.3, 0.5}, {3, 0.2}, {3, 2}, {40, 1.5}, {40, 30}, {2000, 0.8}} {
		d := make([]float64, n)
		for i := range d {
			d[i] = c.mu / (g.Cell * g.Cell)
		}
		a := RealizeClumped(g, d, c.k, SpeciesKey("a"), 9, 3)
		var sum, zeros float64
		for _, v := range a {
			sum += float64(v)
			if v == 0 {
				zeros++
			}
		}
		mean := sum / n
		var m2, m4 float64
		for _, v := range a {
			e := float64(v) - mean
			m2 += e * e
			m4 += e * e * e * e
		}
		m2 /= n - 1
		m4 /= n
		wantVar := c.mu + c.mu*c.mu/c.k
		wantZero := math.Pow(c.k/(c.k+c.mu), c.k)
		seMean, seVar := math.Sqrt(wantVar/n), math.Sqrt((m4-m2*m2)/n)
		seZero := math.Sqrt(wantZero * (1 - wantZero) / n)
		t.Logf("mu %g k %g: mean %.5g (want %.5g), variance %.5g (want %.5g), zeros %.4f (want %.4f)",
			c.mu, c.k, mean, c.mu, m2, wantVar, zeros/n, wantZero)
		if math.Abs(mean-c.mu) > 5*seMean || math.Abs(m2-wantVar) > 5*seVar || math.Abs(zeros/n-wantZero) > 5*seZero+1e-12 {
			t.Errorf("mu %g k %g: mean %g, variance %g, zeros %g; want %g, %g, %g", c.mu, c.k, mean, m2, zeros/n,
				c.mu, wantVar, wantZero)
		}
		b := RealizeClumped(g, d, c.k, SpeciesKey("a"), 9, 1)
		e := RealizeClumped(g, d, c.k, SpeciesKey("a"), 10, 2)
		var same, differ int
		for i := range a {
			if a[i] == b[i] {
				same++
			}
			if a[i] != e[i] {
				differ++
			}
		}
		if same != n || differ == 0 {
			t.Errorf("mu %g k %g: %d of %d cells equal across workers, %d differ across seeds", c.mu, c.k, same, n, differ)
		}
	}
	d := []float64{0, 0.5, 3, 40}
	g1 := Grid{Cell: 1, NX: 4, NY: 1}
	p, q := RealizeClumped(g1, d, 0, SpeciesKey("x"), 1, 1), Realize(g1, d, SpeciesKey("x"), 1, 1)
	for i := range p {
		if p[i] != q[i] {
			t.Errorf("k = 0: cell %d %d, Poisson %d", i, p[i], q[i])
		}
	}
}
