package rules

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Multi runs a program over several engines at once (one per GPU of a host):
// the states are cut into contiguous ranges, one per engine, run
// concurrently in place, and the results joined as one engine's run would
// report them. States never read each other, so this changes no state:
// firing counts add up, fixed points and traces keep their states (renumbered
// to the whole run), and a fault is the one a single run reports (earliest
// step, then lowest state).
type Multi struct {
	Engines []Engine
}

var _ Engine = Multi{}

func (m Multi) Run(ctx context.Context, p *Program, st *States, o Options) (*Result, error) {
	n := min(len(m.Engines), st.N)
	if n <= 1 {
		if len(m.Engines) == 0 {
			return nil, errors.New("rules: no engines")
		}
		return m.Engines[0].Run(ctx, p, st, o)
	}
	if err := o.check(p, st); err != nil {
		return nil, err
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type part struct {
		lo  int
		res *Result
		err error
	}
	parts := make([]part, n)
	var mu sync.Mutex
	done, total := make([]int64, n), make([]int64, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		lo, hi := st.N*i/n, st.N*(i+1)/n
		po := o
		po.FirstState = o.FirstState + lo // draws are keyed by the state's number in the run
		po.Trace = nil
		for _, s := range o.Trace {
			if s >= lo && s < hi {
				po.Trace = append(po.Trace, s-lo)
			}
		}
		if o.Progress != nil {
			po.Progress = func(d, t int64) {
				mu.Lock()
				defer mu.Unlock()
				done[i], total[i] = d, t
				var sd, st int64
				for k := range done {
					sd, st = sd+done[k], st+total[k]
				}
				o.Progress(sd, st)
			}
		}
		sub := &States{N: hi - lo, Words: st.Words, Data: st.Data[lo*st.Words : hi*st.Words : hi*st.Words]}
		parts[i].lo = lo
		wg.Add(1)
		go func(i int, e Engine) {
			defer wg.Done()
			parts[i].res, parts[i].err = e.Run(ctx, p, sub, po)
			var re *RuntimeError
			if parts[i].err != nil && !errors.As(parts[i].err, &re) {
				cancel() // a broken engine stops the others; a fault lets them finish, to find the earliest
			}
		}(i, m.Engines[i])
	}
	wg.Wait()
	if err := parent.Err(); err != nil {
		return nil, err
	}
	var first *RuntimeError
	var other error
	for i, pt := range parts {
		var re *RuntimeError
		switch {
		case pt.err == nil:
		case errors.As(pt.err, &re):
			e := *re
			e.State += pt.lo
			if first == nil || e.Step < first.Step || (e.Step == first.Step && e.State < first.State) {
				first = &e
			}
		case errors.Is(pt.err, context.Canceled):
			// cancelled because another part failed
		case other == nil:
			other = fmt.Errorf("rules: engine %d: %w", i, pt.err)
		}
	}
	if first != nil {
		return nil, first
	}
	if other != nil {
		return nil, other
	}
	for i, pt := range parts {
		if pt.res == nil {
			return nil, fmt.Errorf("rules: engine %d returned no result", i)
		}
	}
	return joinResults(p, func(yield func(lo int, r *Result)) {
		for _, pt := range parts {
			yield(pt.lo, pt.res)
		}
	}, st.N, o), nil
}

// joinResults sums the parts' firing counts (rows padded where a part ran
// fewer), concatenates their fixed points and traces (states renumbered),
// and settles Steps and FixpointReached as finish does for one run.
func joinResults(p *Program, each func(func(lo int, r *Result)), n int, o Options) *Result {
	res := &Result{FiredTotal: make([]int64, len(p.Rules)), StableAt: make([]int32, 0, n)}
	perStep := false
	var records [][][]Acc
	each(func(lo int, r *Result) {
		if r.Records != nil {
			records = append(records, r.Records)
		}
		if res.Kernel == "" || r.Kernel == "interpreter" { // any part interpreted: say so
			res.Kernel, res.KernelNote = r.Kernel, r.KernelNote
		}
		if r.Fired != nil {
			perStep = true
		}
		for len(res.Fired) < len(r.Fired) {
			res.Fired = append(res.Fired, make([]int64, len(p.Rules)))
		}
		for t, row := range r.Fired {
			for k, v := range row {
				res.Fired[t][k] += v
			}
		}
		for k, v := range r.FiredTotal {
			res.FiredTotal[k] += v
		}
		res.StableAt = append(res.StableAt, r.StableAt...)
		for _, tr := range r.Trace {
			tr.State += lo
			res.Trace = append(res.Trace, tr)
		}
	})
	if !perStep {
		res.Fired = nil
	}
	res.Records = joinRecords(records)
	sortTrace(res.Trace)
	finish(res, o)
	return res
}
