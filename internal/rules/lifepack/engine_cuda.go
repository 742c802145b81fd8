//go:build cuda

package lifepack

import (
	"context"
	"fmt"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/rules"
)

// stepArgs are pg_life_step's parameters (cuda/rules_packed.cu).
type stepArgs struct {
	cur, next, fired    gpu.Ptr
	nstates, h, wpr, ws int32
	tail, tor           int32
	birth, survive      uint32
	step, steps         int32
}

// The step kernels: any B/S rule, Conway's Life with its rule folded into
// the code, and both by 9-cell totals on boards whose width is a multiple
// of 128 cells (on a torus or a plane).
var (
	stepKernel   = gpu.Kernel[stepArgs]{Family: "rules_packed", Name: "pg_life_step"}
	lifeKernel   = gpu.Kernel[stepArgs]{Family: "rules_packed", Name: "pg_life_step_b3s23"}
	lifeTorus128 = gpu.Kernel[stepArgs]{Family: "rules_packed", Name: "pg_life_b3s23_w128_torus"}
	lifePlane128 = gpu.Kernel[stepArgs]{Family: "rules_packed", Name: "pg_life_b3s23_w128_plane"}
	ruleTorus128 = gpu.Kernel[stepArgs]{Family: "rules_packed", Name: "pg_life_w128_torus"}
	rulePlane128 = gpu.Kernel[stepArgs]{Family: "rules_packed", Name: "pg_life_w128_plane"}
)

// Life is Conway's rule, B3/S23.
var Life = Rule{Birth: 1 << 3, Survive: 1<<2 | 1<<3}

// maxFiredWords bounds the per-step firing counts kept on the device at
// once (states x steps of a chunk).
const maxFiredWords = 1 << 22

// Engine runs Rule on Board bit-packed on Dev; runs it cannot take go to
// Fallback (see the package comment).
type Engine struct {
	Dev      *gpu.Device
	Rule     Rule
	Board    Board
	Fallback rules.Engine
}

var _ rules.Engine = Engine{}

// NewEngine returns the packed engine for r on b on dev, falling back to
// fallback; with no device, fallback itself.
func NewEngine(dev *gpu.Device, r Rule, b Board, fallback rules.Engine) rules.Engine {
	if dev == nil {
		return fallback
	}
	return Engine{Dev: dev, Rule: r, Board: b, Fallback: fallback}
}

// Run runs the rule over st in place.
func (e Engine) Run(ctx context.Context, p *rules.Program, st *rules.States, o rules.Options) (*rules.Result, error) {
	if why := e.unsupported(p, o); why != "" {
		return e.fallback(ctx, p, st, o, why)
	}
	if int64(st.N)*int64(e.Board.H) >= 1<<31 {
		return e.fallback(ctx, p, st, o, "more than 2^31 rows of states")
	}
	packed := make([]uint32, e.Board.PackedLen(st.N))
	if !Pack(st, e.Board, packed) {
		return e.fallback(ctx, p, st, o, "a cell holds a value other than 0 or 1")
	}
	res, err := e.run(ctx, p, packed, st.N, o)
	if err != nil {
		return nil, fmt.Errorf("rules: packed kernel: %w", err)
	}
	Unpack(packed, st, e.Board)
	return res, nil
}

// unsupported says why options need the rules engine itself, or "".
func (e Engine) unsupported(p *rules.Program, o rules.Options) string {
	switch {
	case o.Interpreter || o.RequireGenerated:
		return "--kernel asks for the rules engine's own kernels"
	case len(o.Trace) > 0:
		return "--trace records states the packed kernel does not keep"
	case !e.recordable(p, o.Record):
		return "--record reduces a field other than the board"
	case o.Groups != nil:
		return "a sweep's states"
	}
	return ""
}

func (e Engine) fallback(ctx context.Context, p *rules.Program, st *rules.States, o rules.Options, why string) (*rules.Result, error) {
	res, err := e.Fallback.Run(ctx, p, st, o)
	if err == nil && res.KernelNote == "" {
		res.KernelNote = "not bit-packed: " + why
	}
	return res, err
}

// stepper holds a run's device buffers: the packed states (cur, the
// latest), the next step's, a chunk's firing counts, and with --record its
// live-cell counts.
type stepper struct {
	f         gpu.Func[stepArgs]
	cur, next *gpu.Buffer[uint32]
	fired     *gpu.Buffer[uint64]
	pop       *population
	a         stepArgs
	grid      gpu.Dim3
}

func (e Engine) newStepper(packed []uint32, n, chunk int) (s *stepper, err error) {
	s = &stepper{}
	defer func() {
		if err != nil {
			s.free()
		}
	}()
	if s.f, err = e.kernel().Load(e.Dev); err != nil {
		return nil, err
	}
	if s.cur, err = gpu.Upload(e.Dev, packed); err != nil {
		return nil, err
	}
	if s.next, err = gpu.Alloc[uint32](e.Dev, len(packed)); err != nil {
		return nil, err
	}
	if s.fired, err = gpu.Alloc[uint64](e.Dev, n*chunk); err != nil {
		return nil, err
	}
	s.a = stepArgs{nstates: int32(n), h: int32(e.Board.H), wpr: int32(e.Board.Words()), ws: int32(e.Board.Stride()), tail: int32(e.Board.tail()),
		birth: uint32(e.Rule.Birth), survive: uint32(e.Rule.Survive)}
	if e.Rule.Torus {
		s.a.tor = 1
	}
	x, y := e.Board.grid(n)
	s.grid = gpu.Dim3{X: uint32(x), Y: uint32(y), Z: 1}
	return s, nil
}

// kernel is the step kernel for e's rule and board.
func (e Engine) kernel() gpu.Kernel[stepArgs] {
	life := e.Rule.Birth == Life.Birth && e.Rule.Survive == Life.Survive
	switch {
	case !e.Board.Whole128() && life:
		return lifeKernel
	case !e.Board.Whole128():
		return stepKernel
	case life && e.Rule.Torus:
		return lifeTorus128
	case life:
		return lifePlane128
	case e.Rule.Torus:
		return ruleTorus128
	}
	return rulePlane128
}

func (s *stepper) free() {
	if s.cur != nil {
		_ = s.cur.Free()
	}
	if s.next != nil {
		_ = s.next.Free()
	}
	if s.fired != nil {
		_ = s.fired.Free()
	}
	if s.pop != nil {
		_ = s.pop.counts.Free()
	}
}

// advance zeroes the firing counts and launches k steps (k at most the
// chunk the counts were sized for).
func (s *stepper) advance(k int) error {
	if err := s.fired.Zero(); err != nil {
		return err
	}
	if s.pop != nil {
		if err := s.pop.counts.Zero(); err != nil {
			return err
		}
	}
	s.a.steps = int32(k)
	for t := range k {
		s.a.cur, s.a.next, s.a.fired, s.a.step = s.cur.Ptr(), s.next.Ptr(), s.fired.Ptr(), int32(t)
		if err := s.f.Launch(s.grid, gpu.Dim3{X: 32, Y: 8, Z: 1}, 0, s.a); err != nil {
			return err
		}
		s.cur, s.next = s.next, s.cur
		if s.pop != nil {
			if err := s.pop.count(s.cur, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// run steps n packed states on the device, a chunk of steps at a time: the
// chunk's firing counts come back after it, which is where a cancelled ctx
// stops the run, progress is reported and fixed points are found.
//
// With --record the live cells are counted on the device after every step
// (pg_life_population) and the observables made from the counts.
func (e Engine) run(ctx context.Context, p *rules.Program, packed []uint32, n int, o rules.Options) (*rules.Result, error) {
	nrules := len(p.Rules)
	chunk := max(1, min(o.Steps, 256, maxFiredWords/max(n, 1)))
	s, err := e.newStepper(packed, n, chunk)
	if err != nil {
		return nil, err
	}
	defer s.free()
	counts := make([]uint64, n*chunk)
	res := &rules.Result{StableAt: make([]int32, n), FiredTotal: make([]int64, nrules), Kernel: "packed"}
	if !o.NoFiredPerStep {
		res.Fired = make([][]int64, o.Steps)
	}
	var rec *recording
	if len(o.Record) > 0 {
		if err := s.countPopulation(e, n, chunk); err != nil {
			return nil, err
		}
		rec = newRecording(p, o.Record, int64(n)*int64(e.Board.W)*int64(e.Board.H), o.Steps, onesOf(packed))
	}
	stable, done := 0, 0
	for ; done < o.Steps && stable < n; done += chunk {
		k := min(chunk, o.Steps-done)
		if err := s.advance(k); err != nil {
			return nil, err
		}
		if err := s.fired.ReadAt(counts[:n*k], 0); err != nil {
			return nil, err
		}
		if rec != nil {
			if err := rec.add(s.pop, done, k); err != nil {
				return nil, err
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		stable = tally(res, counts, n, k, done, nrules)
		if o.Progress != nil {
			o.Progress(int64(done+k), int64(o.Steps))
		}
	}
	if rec != nil {
		rec.hold(min(done, o.Steps))
		res.Records = rec.rows
	}
	if err := s.cur.Read(packed); err != nil {
		return nil, err
	}
	for t := range res.Fired { // steps after every state's fixed point fire nothing
		if res.Fired[t] == nil {
			res.Fired[t] = make([]int64, nrules)
		}
	}
	rules.Finish(res, o)
	return res, nil
}

// tally adds a chunk's counts (state s, step t at s*k + t) to res: the
// firings of the notation's one rule, and each state's first step without
// one (its fixed point: later steps change nothing). It returns the number
// of states at their fixed point.
func tally(res *rules.Result, counts []uint64, n, k, t0, nrules int) int {
	stable := 0
	for s := range n {
		for t := range k {
			c := int64(counts[s*k+t])
			if nrules > 0 {
				res.FiredTotal[0] += c
				if res.Fired != nil {
					if res.Fired[t0+t] == nil {
						res.Fired[t0+t] = make([]int64, nrules)
					}
					res.Fired[t0+t][0] += c
				}
			}
			if c == 0 && res.StableAt[s] == 0 {
				res.StableAt[s] = int32(t0 + t + 1)
			}
		}
		if res.StableAt[s] != 0 {
			stable++
		}
	}
	return stable
}
