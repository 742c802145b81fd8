package fit

import (
	"context"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/procgen-dev/procgen/internal/forest"
)

// Evaluator evaluates the log-likelihood of many candidates at once: the
// traps x parents x candidates sum is the fit's whole cost.
type Evaluator interface {
	// Eval sets out[c] to cands[c]'s log-likelihood (-Inf where the
	// parameters are invalid or predict no seeds where some were counted).
	Eval(ctx context.Context, cands []Cand, out []Point) error
	// Name says where it runs ("cpu", "cuda").
	Name() string
}

// CPU evaluates on all cores in pure Go.
type CPU struct {
	p       *Problem
	d2      []float64 // trap-major: d2[j*P+i]
	lnd2    []float64 // ln d2, for forest.Kernel.AtLog
	workers int
}

// NewCPU prepares p's squared distances and their logarithms; workers 0
// means GOMAXPROCS.
func NewCPU(p *Problem, workers int) *CPU {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	np := p.Parents()
	d2 := make([]float64, p.Traps()*np)
	lnd2 := make([]float64, len(d2))
	for j := range p.TX {
		row := d2[j*np : (j+1)*np]
		for i := range row {
			dx, dy := p.TX[j]-p.PX[i], p.TY[j]-p.PY[i]
			row[i] = dx*dx + dy*dy
			lnd2[j*np+i] = math.Log(row[i])
		}
	}
	return &CPU{p: p, d2: d2, lnd2: lnd2, workers: workers}
}

func (c *CPU) Name() string { return "cpu" }

// Traps is the problem's trap count.
func (c *CPU) Traps() int { return c.p.Traps() }

// Sums sets s[c*traps+j] to candidate c's expected count at trap j per
// unit STR (NaN for every trap of an invalid candidate): the part of the
// likelihood that does not depend on the counts, so that the bootstrap can
// score simulated counts with the same sums as the data.
func (c *CPU) Sums(ctx context.Context, cands []Cand, s []float64) error {
	_, err := c.sums(ctx, cands, s)
	return err
}

// sums is Sums, also returning which candidates are valid.
func (c *CPU) sums(ctx context.Context, cands []Cand, s []float64) ([]bool, error) {
	p := c.p
	nt, np := p.Traps(), p.Parents()
	kerns := make([]forest.Kernel, len(cands))
	ok := make([]bool, len(cands))
	for i, cd := range cands {
		k, err := forest.NewKernel(cd.Species)
		ok[i] = err == nil && cd.K >= 0 && cd.STR >= 0
		kerns[i] = k
		if !ok[i] {
			for j := range nt {
				s[i*nt+j] = math.NaN()
			}
		}
	}
	units := int64(len(cands) * nt)
	chunk := int64(max(1, 32768/max(np, 1)))
	workers := min(c.workers, int(units))
	if units*int64(np) < 1<<16 {
		workers = 1 // a goroutine's start costs more than the work
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			w := make([]float64, np)
			last := -1
			for ctx.Err() == nil {
				u0 := next.Add(chunk) - chunk
				if u0 >= units {
					return
				}
				for u := u0; u < min(u0+chunk, units); u++ {
					ci, j := int(u)/nt, int(u)%nt
					if !ok[ci] {
						continue
					}
					if ci != last {
						beta := cands[ci].Species.Beta
						for i, lq := range p.LogQ {
							w[i] = math.Exp(beta * lq)
						}
						last = ci
					}
					k, row, lrow, sum := kerns[ci], c.d2[j*np:(j+1)*np], c.lnd2[j*np:(j+1)*np], 0.0
					for i, d2 := range row {
						sum += w[i] * k.AtLog(d2, lrow[i])
					}
					s[u] = p.Area[j] * sum / k.Eta()
				}
			}
		})
	}
	wg.Wait()
	return ok, ctx.Err()
}

// Eval computes every candidate's expected counts per unit STR, trap by
// trap in chunks shared among the workers, then each candidate's
// likelihood.
func (c *CPU) Eval(ctx context.Context, cands []Cand, out []Point) error {
	p := c.p
	nt := p.Traps()
	s := make([]float64, len(cands)*nt)
	ok, err := c.sums(ctx, cands, s)
	if err != nil {
		return err
	}
	for ci, cd := range cands {
		if !ok[ci] {
			out[ci] = Point{LL: math.Inf(-1)}
			continue
		}
		out[ci] = logLik(p.Count, p.lgy1, s[ci*nt:(ci+1)*nt], p.total, cd.STR, cd.K)
	}
	return nil
}
