package rules

import (
	"cmp"
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/procgen-dev/procgen/internal/rules/batch"
	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// CPU is the reference backend: every state runs through all its steps on
// one goroutine, states spread over all cores. Path picks how the program
// runs: batches of indices through the bytecode (batch.go, the default) or
// the bytecode interpreter (interp.go), the reference the batch evaluator
// is tested against.
type CPU struct {
	Path CPUPath
	// Tests force splitting: parts per state and the smallest range split.
	parts, minSplit int
}

// CPUPath is how the CPU backend executes a program.
type CPUPath int

const (
	PathBatch     CPUPath = iota // 256 indices at a time through the bytecode
	PathInterpret                // the bytecode interpreter, one index at a time
)

var _ Engine = CPU{}

// Run applies the program's rules to every state in place.
func (c CPU) Run(ctx context.Context, p *Program, st *States, o Options) (*Result, error) {
	if err := o.check(p, st); err != nil {
		return nil, err
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, workers)
	// Fewer states than cores: each state's rules are split over parts
	// goroutines (cpu_split.go).
	parts := 1
	if st.N < workers {
		parts = workers / max(st.N, 1)
	}
	if c.parts > 0 {
		parts = c.parts
	}
	workers = max(1, min(workers, st.N))
	var stop atomic.Bool
	unregister := context.AfterFunc(ctx, func() { stop.Store(true) })
	defer unregister()
	res := &Result{StableAt: make([]int32, st.N)}
	errs := make([]stateError, st.N)
	traced := map[int]bool{}
	for _, s := range o.Trace {
		traced[s] = true
	}
	fired := make([][][]int64, workers) // per worker [step][rule]
	var traces [][]TraceRecord = make([][]TraceRecord, workers)
	var next atomic.Int64
	prog := newStepProgress(o.Progress, int64(st.N)*int64(max(1, o.Steps)))
	rec := newRecorder(p, o.Record, o.Steps)
	var wg sync.WaitGroup
	// States are handed out a few at a time, at most 16, so that every
	// worker gets some.
	batch := max(1, min(16, st.N/(4*workers)))
	for w := range workers {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			// One row per step, or one row for them all.
			rows := max(1, o.Steps)
			if o.NoFiredPerStep {
				rows = 1
			}
			f := make([][]int64, rows)
			for t := range f {
				f[t] = make([]int64, len(p.Rules))
			}
			fired[w] = f
			e := c.newEval(p, &stop, parts)
			for ctx.Err() == nil {
				lo := int(next.Add(int64(batch))) - batch
				if lo >= st.N {
					return
				}
				for s := lo; s < min(lo+batch, st.N); s++ {
					cur := st.State(s)
					e.SetState(cur)
					if traced[s] {
						traces[w] = append(traces[w], TraceRecord{0, s, 0, append([]uint32(nil), cur...)})
					}
					rec.observe(0, cur)
					ran := 0
					res.StableAt[s], errs[s] = runState(e, p, f, o, s, func(t int, n int64) {
						if traced[s] {
							traces[w] = append(traces[w], TraceRecord{t, s, n, append([]uint32(nil), cur...)})
						}
						ran = t
						rec.observe(t, cur)
						prog.add(1)
					})
					if ran < o.Steps && errs[s] == (stateError{}) {
						rec.hold(ran+1, cur) // a fixed point: the state's values from here on
					}
					// A state at its fixed point (or fault) skips its
					// remaining steps.
					prog.add(int64(max(1, o.Steps) - ran))
				}
			}
		}(w)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := firstError(p, errs); err != nil {
		return nil, err
	}
	rows := o.Steps
	if o.NoFiredPerStep {
		rows = min(rows, 1)
	}
	sum := make([][]int64, rows)
	for t := range sum {
		sum[t] = make([]int64, len(p.Rules))
		for _, f := range fired {
			for r := range f[t] {
				sum[t][r] += f[t][r]
			}
		}
	}
	res.FiredTotal = make([]int64, len(p.Rules))
	for _, row := range sum {
		for r, n := range row {
			res.FiredTotal[r] += n
		}
	}
	if !o.NoFiredPerStep {
		res.Fired = sum
	}
	for _, tr := range traces {
		res.Trace = append(res.Trace, tr...)
	}
	sortTrace(res.Trace)
	res.Records = rec.result()
	finish(res, o)
	return res, nil
}

// runState runs state s through up to o.Steps steps, stopping at its fixed
// point (a step in which no rule fired: the next would change nothing,
// unless a precondition draws) or its first fault.
func runState(e stateEval, p *Program, fired [][]int64, o Options, s int, after func(t int, n int64)) (int32, stateError) {
	for t := 1; t <= o.Steps; t++ {
		if e.Stopped() {
			return 0, stateError{}
		}
		if p.Draws {
			seed, num := o.drawKey(s)
			e.DrawAt(seed, num, o.FirstStep+t)
		}
		var n int64
		for r := range p.Rules {
			k, i, f := e.ApplyRule(r)
			fired[(t-1)%len(fired)][r] += k
			n += k
			if f != nil {
				return 0, stateError{ok: true, step: t, rule: r, index: i, f: *f}
			}
		}
		after(t, n)
		if n == 0 && !p.DrawsInCond {
			return int32(t), stateError{}
		}
	}
	return 0, stateError{}
}

// newEval returns an evaluator for one goroutine: the batch evaluator when
// the program fits it, else the interpreter.
func (c CPU) newEval(p *Program, stop *atomic.Bool, parts int) stateEval {
	switch {
	case c.Path == PathBatch && batch.Fits(p) && parts > 1:
		return batch.NewSplit(p, stop, parts, cmp.Or(c.minSplit, batch.MinSplit))
	case c.Path == PathBatch && batch.Fits(p):
		return batch.NewEval(p, stop)
	}
	return bytecode.NewVM(p, stop)
}

// stepProgress reports progress in steps of states (N x steps in all), so
// that one board's long run moves the bar too: from every worker, at most
// about 1,000 calls a run, one at a time.
type stepProgress struct {
	f           func(done, total int64)
	total       int64
	done, shown atomic.Int64
	mu          sync.Mutex
}

func newStepProgress(f func(done, total int64), total int64) *stepProgress {
	return &stepProgress{f: f, total: max(1, total)}
}

func (sp *stepProgress) add(k int64) {
	if sp.f == nil || k <= 0 {
		return
	}
	d := sp.done.Add(k)
	if d < sp.total && (d-sp.shown.Load())*1000 < sp.total {
		return
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	// Check again under the lock: goroutines that passed the test above
	// together would otherwise each report, a few counts apart (1,159
	// calls for a 300-state run on 16 cores).
	if s := sp.shown.Load(); d > s && (d >= sp.total || (d-s)*1000 >= sp.total) {
		sp.shown.Store(d)
		sp.f(d, sp.total)
	}
}

// stateEval applies rules to one state at a time: the batch evaluator
// (batch.go), its split over several goroutines (cpu_split.go) or the
// interpreter (interp.go), the reference.
type stateEval interface {
	ApplyRule(ri int) (fired int64, index int, f *bytecode.Fault)
	SetState(w []uint32)
	// drawAt keys the draws (rand.go) of the steps to come: the state's
	// number in the whole run and the step.
	DrawAt(seed uint64, state, step int)
	Stopped() bool
}
