// Package fit estimates a species' fecundity and dispersal kernel from a
// stem map and seed counts at traps or quadrats by maximum likelihood
// (Ribbens et al. 1994; Clark et al. 1999), under the model forest
// disperse computes: the expected count at trap j is
//
//	mu_j = area_j * STR/eta * sum over parents i of (DBH_i/30)^beta * K(|x_j - x_i|)
//
// with K and eta from forest.NewKernel, so a fitted species file means to
// forest disperse exactly what it meant to the fit. Counts are Poisson or
// negative binomial (mean mu, clumping k: variance mu + mu^2/k).
package fit

import (
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/forest"
)

// Counts is the count distribution.
type Counts string

const (
	Poisson  Counts = "poisson"
	NegBinom Counts = "nb"
)

// Problem is one species' data: squared trap-parent distances, parent
// sizes, trap areas and counts.
type Problem struct {
	Species string
	// X, Y are the traps' centres and Area their areas; Y the counts.
	TX, TY, Area []float64
	Count        []float64
	// PX, PY, LogQ: the parents' positions and ln(DBH/30).
	PX, PY, LogQ []float64
	// lgy1 is lgamma(count+1) per trap; total the sum of the counts.
	lgy1  []float64
	total float64
}

// NewProblem prepares a species' traps and parents (trees at or above its
// minimum reproductive DBH).
func NewProblem(species string, traps []Trap, parents []forest.Tree) (*Problem, error) {
	p := &Problem{Species: species}
	for _, t := range traps {
		p.TX = append(p.TX, t.X)
		p.TY = append(p.TY, t.Y)
		p.Area = append(p.Area, t.Area)
		p.Count = append(p.Count, float64(t.Count))
		lg, _ := math.Lgamma(float64(t.Count) + 1)
		p.lgy1 = append(p.lgy1, lg)
		p.total += float64(t.Count)
	}
	for _, tr := range parents {
		if !(tr.DBH > 0) {
			return nil, fmt.Errorf("species %q: a parent with DBH %g cm: want DBH above 0", species, tr.DBH)
		}
		p.PX = append(p.PX, tr.X)
		p.PY = append(p.PY, tr.Y)
		p.LogQ = append(p.LogQ, math.Log(tr.DBH/30))
	}
	switch {
	case len(p.TX) == 0:
		return nil, fmt.Errorf("species %q: no traps", species)
	case len(p.PX) == 0:
		return nil, fmt.Errorf("species %q: no parents in the stem map (at or above min_dbh)", species)
	case p.total == 0:
		return nil, fmt.Errorf("species %q: every trap counts 0 seeds: nothing to fit", species)
	}
	return p, nil
}

// Traps and Parents are the problem's sizes.
func (p *Problem) Traps() int   { return len(p.TX) }
func (p *Problem) Parents() int { return len(p.PX) }

// Cand is one candidate parameter set: the kernel and beta in Species
// (STR unused), STR (0: the likelihood's maximum over STR for the rest,
// which Point reports) and the clumping K (0: Poisson counts).
type Cand struct {
	Species forest.Species
	STR     float64
	K       float64
}

// Point is a candidate's log-likelihood and the STR it was evaluated at.
type Point struct{ LL, STR float64 }

// logLik is the log-likelihood of counts y with expected counts str*s (s:
// the expected counts per unit STR), maximised over str when str is 0. k is
// NB's clumping, 0 for Poisson. The CUDA twin is pg_forest_fit_loglik.
func logLik(y, lgy1, s []float64, total, str, k float64) Point {
	if str == 0 {
		str = profileSTR(y, s, total, k)
	}
	if !(str > 0) || math.IsInf(str, 0) {
		return Point{LL: math.Inf(-1), STR: str}
	}
	ll := 0.0
	lgk, _ := math.Lgamma(k)
	for j := range y {
		m := str * s[j]
		if k == 0 {
			if m <= 0 {
				if y[j] > 0 {
					return Point{LL: math.Inf(-1), STR: str}
				}
				continue
			}
			ll += y[j]*math.Log(m) - m - lgy1[j]
			continue
		}
		lg, _ := math.Lgamma(y[j] + k)
		ll += lg - lgk - lgy1[j] + k*math.Log(k/(k+m))
		if y[j] > 0 {
			if m <= 0 {
				return Point{LL: math.Inf(-1), STR: str}
			}
			ll += y[j] * math.Log(m/(k+m))
		}
	}
	return Point{LL: ll, STR: str}
}

// profileSTR is the STR maximising the likelihood: total/sum(s) for
// Poisson; for NB the root of the score in t = ln STR, by Newton steps
// (the score falls monotonically in t), from the Poisson value.
func profileSTR(y, s []float64, total, k float64) float64 {
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	if !(sum > 0) {
		return 0
	}
	t := math.Log(total / sum)
	if k == 0 {
		return math.Exp(t)
	}
	for it := 0; it < 60; it++ {
		str := math.Exp(t)
		g, h := total, 0.0
		for j := range y {
			m := str * s[j]
			g -= (y[j] + k) * m / (k + m)
			h += (y[j] + k) * k * m / ((k + m) * (k + m))
		}
		if !(h > 0) {
			break
		}
		step := math.Max(-2, math.Min(2, g/h))
		t += step
		if math.Abs(step) < 1e-12 {
			break
		}
	}
	return math.Exp(t)
}
