package rules

import (
	"context"
	"errors"
)

// RunEvery runs o.Steps steps of e in parts of every steps and calls after
// with the number of steps done and the states (in place) before the first
// part and after each: frames of a run (rules run --frames). The parts draw
// as one run does (Options.FirstStep), and the result is the one run's:
// firings, fixed points (the earliest step each state became stable),
// traces and records joined, a fault's step counted from the start.
func RunEvery(ctx context.Context, e Engine, p *Program, st *States, o Options, every int,
	after func(step int) error) (*Result, error) {
	if err := o.check(p, st); err != nil {
		return nil, err
	}
	if err := after(0); err != nil {
		return nil, err
	}
	every = max(every, 1)
	res := &Result{FiredTotal: make([]int64, len(p.Rules)), StableAt: make([]int32, st.N)}
	if !o.NoFiredPerStep {
		res.Fired = [][]int64{}
	}
	progress := o.Progress
	for done := 0; done < o.Steps; {
		n := min(every, o.Steps-done)
		po := o
		po.Steps, po.FirstStep = n, o.FirstStep+done
		if progress != nil {
			base := done
			po.Progress = func(d, total int64) {
				frac := float64(d) / float64(max(total, 1))
				progress(int64((float64(base)+frac*float64(n))*1000), int64(o.Steps)*1000)
			}
		}
		part, err := e.Run(ctx, p, st, po)
		if err != nil {
			var re *RuntimeError
			if errors.As(err, &re) {
				re.Step += done
			}
			return nil, err
		}
		joinPart(res, part, done, st.N)
		done += n
		if err := after(done); err != nil {
			return nil, err
		}
		if o.UntilFixpoint && part.FixpointReached {
			break
		}
	}
	finish(res, o)
	return res, nil
}

// joinPart appends a part run after done steps to res.
func joinPart(res, part *Result, done, states int) {
	res.Kernel, res.KernelNote = part.Kernel, part.KernelNote
	if res.Fired != nil {
		res.Fired = append(res.Fired, part.Fired...)
	}
	for r, n := range part.FiredTotal {
		res.FiredTotal[r] += n
	}
	stableBefore := make([]bool, states)
	for s, t := range part.StableAt {
		stableBefore[s] = res.StableAt[s] != 0
		if t != 0 && res.StableAt[s] == 0 {
			res.StableAt[s] = int32(done) + t
		}
	}
	for _, tr := range part.Trace {
		// A part's step 0 is the last part's end; a state stable before
		// the part had stopped there (one run records it no further).
		if (tr.Step == 0 && done > 0) || stableBefore[tr.State] {
			continue
		}
		tr.Step += done
		res.Trace = append(res.Trace, tr)
	}
	rows := part.Records
	if done > 0 && len(rows) > 0 {
		rows = rows[1:]
	}
	res.Records = append(res.Records, rows...)
}
