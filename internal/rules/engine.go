package rules

import (
	"context"
	"errors"
	"fmt"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// States holds N states of a program, each Words 32-bit words long, state s
// at Data[s*Words:(s+1)*Words] (int32 or float32 bits, by field).
type States struct {
	N, Words int
	Data     []uint32
}

// State returns state s's words.
func (st *States) State(s int) []uint32 { return st.Data[s*st.Words : (s+1)*st.Words] }

// The GPU's schedules and layouts are declared by rules/ptx, whose
// generated kernels and the interpreter kernels share them; these aliases
// keep the names callers of rules use.
type (
	// Schedule is how the GPU maps (state, index) pairs to threads
	// (ptx.Schedule).
	Schedule = ptx.Schedule
	// Layout is how the GPU lays states out in memory (ptx.Layout).
	Layout = ptx.Layout
)

// The schedules and layouts (ptx.Simple ...).
const (
	Simple  = ptx.Simple  // a thread block per state
	Compact = ptx.Compact // a warp per state, pairs compacted
	LayoutA = ptx.LayoutA // each state contiguous
	LayoutB = ptx.LayoutB // transposed
	LayoutC = ptx.LayoutC // interleaved 32-word blocks
)

// Options control a run.
type Options struct {
	// Steps is the number of steps, or the cap with UntilFixpoint. A step
	// applies every rule once, in order.
	Steps         int
	UntilFixpoint bool
	// Trace lists states whose values are recorded after every step.
	Trace []int
	// Progress, if set, is called with (done, total) as work completes.
	Progress func(done, total int64)
	// Workers bounds the CPU backend's goroutines (0: GOMAXPROCS).
	Workers int
	// Schedule and Layout choose the GPU's kernel (defaults: compact, C).
	Schedule Schedule
	Layout   Layout
	// Interpreter makes the GPU run the bytecode interpreter kernels of
	// cuda/rules.cu instead of kernels generated for the rule set (the
	// default where they compile; rules/ptx).
	Interpreter bool
	// RequireGenerated makes a generated kernel that does not compile
	// (or --jit never) an error instead of a quiet fall back to the
	// interpreter.
	RequireGenerated bool
	// NoFiredPerStep leaves Result.Fired nil (FiredTotal is still
	// counted): the CPU's memory then does not grow with Steps.
	NoFiredPerStep bool
	// Seed keys the rules' draws (rand.go); FirstState is the number of
	// the first state in the whole run (a shard's or a device's states
	// are a range of it), so every backend and split draws alike.
	Seed       uint64
	FirstState int
	// FirstStep is the number of steps run before this run (RunEvery's
	// parts): step t of this run draws as step FirstStep+t.
	FirstStep int
	// Groups, when set, keys each state's draws as those of a run of its
	// own (a sweep's combination and replicate, sweep.go).
	Groups *DrawGroups
	// Record lists observables reduced over every state after each step
	// (record.go): Result.Records.
	Record []Observable
}

// Result is what a run reports besides the final states.
type Result struct {
	// Steps is the number of steps run: Options.Steps, or with
	// UntilFixpoint the step at which the last state became stable.
	Steps int
	// Fired[t][r] counts the (state, index) pairs whose precondition held
	// for rule r in step t+1, over all states.
	Fired [][]int64
	// FiredTotal[r] sums Fired over the steps run.
	FiredTotal []int64
	// StableAt[s] is the first step in which no rule fired for state s
	// (its fixed point), or 0.
	StableAt []int32
	// FixpointReached: every state is stable (UntilFixpoint only).
	FixpointReached bool
	Trace           []TraceRecord
	// Kernel is what ran on the GPU: "generated" or "interpreter" ("" on
	// the CPU); KernelNote says why not generated, when it was not.
	Kernel, KernelNote string
	// Tiled: the GPU cut each state into tiles over every SM (a state
	// larger than a block's share; cuda_tile.go) instead of a block or a
	// warp a state.
	Tiled bool
	// Records[t][k] accumulates observable k of Options.Record over every
	// state after step t (0: the initial states), t = 0..Steps.
	Records [][]Acc
}

// TraceRecord is a traced state after a step (step 0: the initial state).
type TraceRecord struct {
	Step, State int
	Fired       int64 // rule applications on this state in this step
	Words       []uint32
}

// Engine runs a program over states in place.
type Engine interface {
	Run(ctx context.Context, p *Program, st *States, o Options) (*Result, error)
}

// RuntimeError is a fault while a rule ran: an index out of range, a
// division by zero, too many scattered writes. Both backends report the
// same one: the earliest step, then the lowest state, then the lowest index.
type RuntimeError struct {
	File      string
	Pos       Pos
	Rule      string
	State     int
	Index     int
	Step      int
	What      string // "index 70 out of range for cell[64]" ...
	RuleIndex int
}

func (e *RuntimeError) Error() string {
	return fmt.Sprintf("%s:%d:%d: rule %s, state %d, index %d, step %d: %s",
		e.File, e.Pos.Line, e.Pos.Col, e.Rule, e.State, e.Index, e.Step, e.What)
}

// ErrDrawsNoFixpoint refuses --until-fixpoint for rules whose
// preconditions draw random numbers: a step in which no rule fired says
// nothing of the next.
var ErrDrawsNoFixpoint = errors.New("rules: a precondition draws random numbers (rand, uniform): a step in which no rule fires is no fixed point; run a number of --steps")

// runtimeError describes a fault of rule r on state s at index i in step t.
func runtimeError(p *Program, r, s, i, t int, f bytecode.Fault) *RuntimeError {
	e := &RuntimeError{File: p.File, Rule: p.Rules[r].Name, RuleIndex: r, State: s, Index: i, Step: t}
	if f.PC < 0 || f.PC >= len(p.Code) {
		e.Pos, e.What = p.Rules[r].Pos, fmt.Sprintf("fault at pc %d", f.PC)
		return e
	}
	e.Pos = p.Debug[f.PC].Pos
	op, _, _, fi := bytecode.Decode(p.Code[f.PC])
	switch op {
	case bytecode.OpLD, bytecode.OpLDS, bytecode.OpST, bytecode.OpSTP, bytecode.OpADDI, bytecode.OpADDF:
		fd := p.Fields[fi]
		e.What = fmt.Sprintf("index %d out of range for %s[%d]", f.Value, fd.Name, fd.Size)
	case bytecode.OpIDIV, bytecode.OpIMOD:
		e.What = "integer division by zero"
		if p.Debug[f.PC].What == "uniform" {
			e.What = "uniform(LO, HI) with HI below LO"
		}
	default:
		e.What = fmt.Sprintf("fault (value %d)", f.Value)
	}
	if op == bytecode.OpSTP && f.Value > bytecode.MaxPendings {
		e.What = fmt.Sprintf("more than %d scattered writes in one evaluation", bytecode.MaxPendings)
	}
	return e
}

// stateError is one state's first fault.
type stateError struct {
	ok         bool
	step, rule int
	index      int
	f          bytecode.Fault
}

// firstError picks the error both backends report: earliest step, then
// lowest state.
func firstError(p *Program, errs []stateError) error {
	best := -1
	for s, e := range errs {
		if e.ok && (best < 0 || e.step < errs[best].step) {
			best = s
		}
	}
	if best < 0 {
		return nil
	}
	e := errs[best]
	return runtimeError(p, e.rule, best, e.index, e.step, e.f)
}

func (o *Options) check(p *Program, st *States) error {
	if o.Steps < 0 {
		return fmt.Errorf("rules: %d steps", o.Steps)
	}
	if st.Words != p.Words || len(st.Data) != st.N*st.Words {
		return fmt.Errorf("rules: states of %d words for a layout of %d", st.Words, p.Words)
	}
	for _, s := range o.Trace {
		if s < 0 || s >= st.N {
			return fmt.Errorf("rules: traced state %d: there are %d states (0..%d)", s, st.N, st.N-1)
		}
	}
	if o.FirstStep < 0 || int64(o.FirstStep)+int64(o.Steps) > 1<<31 {
		return fmt.Errorf("rules: first step %d of %d: the run numbers steps with 31 bits", o.FirstStep, o.Steps)
	}
	if o.FirstState < 0 || int64(o.FirstState)+int64(st.N) > 1<<31 {
		return fmt.Errorf("rules: first state %d of %d: the run numbers states with 31 bits", o.FirstState, st.N)
	}
	if o.UntilFixpoint && p.DrawsInCond {
		return ErrDrawsNoFixpoint
	}
	return nil
}

// finish fills the fields of res that follow from StableAt.
// Finish sets res.Steps and res.FixpointReached from res.StableAt as every
// engine does at the end of a run (engines outside this package too).
func Finish(res *Result, o Options) { finish(res, o) }

func finish(res *Result, o Options) {
	if !o.UntilFixpoint {
		res.Steps = o.Steps
		return
	}
	res.FixpointReached = true
	last := 0
	for _, t := range res.StableAt {
		if t == 0 {
			res.FixpointReached = false
		}
		last = max(last, int(t))
	}
	if res.FixpointReached {
		res.Steps = last
	} else {
		res.Steps = o.Steps
	}
	if len(res.Fired) > res.Steps {
		res.Fired = res.Fired[:res.Steps]
	}
	if len(res.Records) > res.Steps+1 {
		res.Records = res.Records[:res.Steps+1]
	}
}
