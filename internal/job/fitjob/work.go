package fitjob

import (
	"github.com/procgen-dev/procgen/internal/forest"
	"github.com/procgen-dev/procgen/internal/forest/fit"
)

// fitWork is what --device auto weighs the run by: its trap-parent terms
// (each likelihood evaluation sums every parent at every trap) over the
// evaluations every fit plans, and the terms of one evaluation, averaged
// over the evaluations: the device runs Nelder-Mead and the profiles one
// evaluation at a time, so below a few million terms an evaluation costs
// it a launch's latency whatever its size (the cost model's gpuFill).
func fitWork(r Request, problems []*fit.Problem) (work, items float64) {
	evals := 0.0
	for _, p := range problems {
		terms := float64(p.Traps()) * float64(p.Parents())
		for _, k := range r.Kernels {
			for _, c := range r.Counts {
				n, err := fit.PlannedEvals(fit.Options{Kernel: forest.KernelKind(k), Counts: fit.Counts(c),
					FitBeta: r.FitBeta, Candidates: r.Candidates, Bootstrap: r.Bootstrap})
				if err != nil {
					continue // the fit itself reports it
				}
				work += terms * float64(n)
				evals += float64(n)
			}
		}
	}
	if evals == 0 {
		return 0, 1
	}
	return work, work / evals
}
